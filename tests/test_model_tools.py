"""Typed tool inputs and results: lossless on the whole corpus, right where it matters."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import cclens.model.tools as tools_package
from cclens.model import UNSET, to_builtins
from cclens.model.tools import (
    BUILTIN_TOOLS,
    McpToolSpec,
    TextResult,
    ToolErrorText,
    UnknownToolInput,
    UnknownToolResult,
    is_known_tool,
    mcp_parts,
    parse_tool_input,
    parse_tool_result,
    tool_spec,
)
from cclens.model.tools.agents import (
    AgentAsyncLaunchedResult,
    AgentCompletedResult,
    LegacyAgentResult,
)
from cclens.model.tools.files import (
    EditResult,
    ReadImageResult,
    ReadInput,
    ReadPartsResult,
    ReadTextResult,
    ReadUnchangedResult,
)
from cclens.model.tools.generic import FreeformInput
from cclens.model.tools.mcp import McpContent, McpInput, McpObjectResult, McpResourceList
from cclens.model.tools.search import GrepInput
from cclens.model.tools.shell import BashResult, TaskStopResult
from cclens.model.tools.tasks import TodoWriteInput, TodoWriteResult

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
SCHEMAS = SHARED / "reference" / "SCHEMAS.md"

#: Tool calls whose input is broken on purpose in a fixture: (file name, tool) -> why.
#: They still decode to the tool's type; the broken part is kept aside in ``extra``.
REPAIRED_INPUTS = {
    ("edge_cases.jsonl", "TodoWrite"): "the fixture's todo list starts with a bare string",
}


@dataclass(frozen=True, slots=True)
class Call:
    """A ``tool_use`` block of the corpus."""

    where: str
    id: Any
    name: str
    input: Any


@dataclass(frozen=True, slots=True)
class Result:
    """A ``toolUseResult`` of the corpus, named by the call it answers in the same file."""

    where: str
    name: str
    raw: Any


def _records(path: Path) -> list[dict[str, Any]]:
    records = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def _blocks(record: dict[str, Any]) -> list[dict[str, Any]]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


@functools.cache
def corpus_tools() -> tuple[tuple[Call, ...], tuple[Result, ...]]:
    """Every tool call and every paired ``toolUseResult`` of the shared corpus."""
    calls: list[Call] = []
    results: list[Result] = []
    for path in sorted(CORPUS.rglob("*.jsonl")):
        where = str(path.relative_to(CORPUS))
        records = _records(path)
        names: dict[str, str] = {}
        for record in records:
            for block in _blocks(record):
                if block.get("type") == "tool_use" and isinstance(block.get("name"), str):
                    calls.append(Call(where, block.get("id"), block["name"], block.get("input")))
                    if isinstance(block.get("id"), str):
                        names[block["id"]] = block["name"]
        for record in records:
            if "toolUseResult" not in record:
                continue
            for block in _blocks(record):
                if block.get("type") == "tool_result" and block.get("tool_use_id") in names:
                    name = names[block["tool_use_id"]]
                    results.append(Result(where, name, record["toolUseResult"]))
                    break
    return tuple(calls), tuple(results)


def same_json(left: Any, right: Any) -> bool:
    """Equal as JSON, telling ``1`` from ``1.0`` and ``true`` (which ``==`` does not)."""
    return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


def find_call(where: str, call_id: str) -> Call:
    calls, _ = corpus_tools()
    return next(c for c in calls if c.where.endswith(where) and c.id == call_id)


def find_result(where: str, call_id: str) -> Any:
    path = next(CORPUS.rglob(where))
    for record in _records(path):
        if any(b.get("tool_use_id") == call_id for b in _blocks(record)):
            return record["toolUseResult"]
    raise LookupError(call_id)


# Lossless on the corpus -----------------------------------------------------------------------


def test_corpus_has_tool_calls_and_results() -> None:
    calls, results = corpus_tools()
    assert len(calls) > 1000
    assert len(results) > 900


def test_every_corpus_input_reencodes_to_the_same_json() -> None:
    calls, _ = corpus_tools()
    changed = [
        f"{c.where} {c.name} {c.id}"
        for c in calls
        if not same_json(to_builtins(parse_tool_input(c.name, c.input).value), c.input)
    ]
    assert changed == []


def test_every_corpus_result_reencodes_to_the_same_json() -> None:
    _, results = corpus_tools()
    changed = []
    for r in results:
        decoded = parse_tool_result(r.name, r.raw)
        assert decoded is not None
        if not same_json(to_builtins(decoded.value), r.raw):
            changed.append(f"{r.where} {r.name}")
    assert changed == []


def test_known_tools_in_the_corpus_decode_to_their_own_types() -> None:
    calls, results = corpus_tools()
    problems = []
    repaired = set()
    for c in calls:
        if not is_known_tool(c.name):
            continue
        decoded = parse_tool_input(c.name, c.input)
        key = (Path(c.where).name, c.name)
        if isinstance(decoded.value, UnknownToolInput):
            problems.append(f"unknown input: {c.where} {c.name}")
        elif decoded.notes and key in REPAIRED_INPUTS:
            repaired.add(key)
        elif decoded.notes:
            problems.append(f"repaired input: {c.where} {c.name}: {decoded.notes}")
    for r in results:
        if not is_known_tool(r.name):
            continue
        decoded_result = parse_tool_result(r.name, r.raw)
        assert decoded_result is not None
        if isinstance(decoded_result.value, UnknownToolResult) or decoded_result.notes:
            problems.append(f"result: {r.where} {r.name}: {decoded_result.notes}")
    assert problems == []
    assert repaired == set(REPAIRED_INPUTS)


def test_the_broken_todo_fixture_keeps_its_list_aside() -> None:
    calls, _ = corpus_tools()
    call = next(c for c in calls if c.where.endswith("edge_cases.jsonl") and c.name == "TodoWrite")
    decoded = parse_tool_input(call.name, call.input)
    assert isinstance(decoded.value, TodoWriteInput)
    assert decoded.value.todos is UNSET
    assert decoded.value.extra == {"todos": call.input["todos"]}


def test_tools_cclens_does_not_know_keep_their_raw_json() -> None:
    calls, results = corpus_tools()
    unknown = {c.name for c in calls if not is_known_tool(c.name)}
    assert unknown == {"bash", "FailingTool", "[trimmed for fixture]"}
    for c in calls:
        if c.name in unknown:
            value = parse_tool_input(c.name, c.input).value
            assert isinstance(value, UnknownToolInput)
            assert value.raw == c.input
    for r in results:
        if r.name in unknown and isinstance(r.raw, dict):
            decoded = parse_tool_result(r.name, r.raw)
            assert decoded is not None and isinstance(decoded.value, UnknownToolResult)


# The right data in the right place ------------------------------------------------------------

SNIFFLY = "-Users-chip-dev-ai-music/d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl"


def test_read_text_result() -> None:
    call = find_call(SNIFFLY, "toolu_01PPi8P36KtodznSYQTPgEAR")
    typed_input = parse_tool_input(call.name, call.input).value
    assert isinstance(typed_input, ReadInput)
    assert (typed_input.file_path, typed_input.offset, typed_input.limit) == (
        "/Users/chip/dev/ai-music/ai_music.py",
        55,
        50,
    )
    decoded = parse_tool_result("Read", find_result(SNIFFLY, call.id))
    assert decoded is not None
    result = decoded.value
    assert isinstance(result, ReadTextResult)
    assert result.file_path == "/Users/chip/dev/ai-music/ai_music.py"
    assert result.start_line == 55
    assert result.content.startswith("    def embedding_to_waveform(self, embe")
    assert result.file is not UNSET and result.file is not None
    assert (result.file.num_lines, result.file.total_lines) == (50, 180)


def test_edit_result_hunks() -> None:
    decoded = parse_tool_result("Edit", find_result(SNIFFLY, "toolu_01Mf9ZsGbHEKH4Gbf2tTBz8Y"))
    assert decoded is not None
    result = decoded.value
    assert isinstance(result, EditResult)
    assert result.file_path == "/Users/chip/dev/ai-music/requirements.txt"
    assert result.user_modified is False and result.replace_all is False
    assert isinstance(result.structured_patch, list) and len(result.structured_patch) == 1
    hunk = result.structured_patch[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (4, 4, 4, 6)
    assert (hunk.added, hunk.removed) == (3, 1)
    assert isinstance(hunk.lines, list) and hunk.lines[3] == "-tokenizers>=0.13.0"


def test_todowrite_result_new_todos() -> None:
    decoded = parse_tool_result("TodoWrite", find_result(SNIFFLY, "toolu_015g9kmU1Veju7SYZ2RVs4wT"))
    assert decoded is not None
    result = decoded.value
    assert isinstance(result, TodoWriteResult)
    assert result.old_todos == []
    assert isinstance(result.new_todos, list)
    assert [(t.id, t.status, t.priority) for t in result.new_todos] == [
        ("1", "pending", "high"),
        ("2", "pending", "high"),
        ("3", "pending", "medium"),
    ]
    assert result.new_todos[0].content == "Examine existing ai_music.py to understand the workflow"


def test_grep_flags_and_legacy_include() -> None:
    typed = parse_tool_input("Grep", {"pattern": "x", "-A": 2, "-i": True, "include": "*.py"})
    assert typed.notes == []
    assert isinstance(typed.value, GrepInput)
    assert (typed.value.after, typed.value.case_insensitive, typed.value.include) == (
        2,
        True,
        "*.py",
    )


def test_agent_results_by_status_and_the_old_shape_without_one() -> None:
    completed = {
        "status": "completed",
        "agentId": "a1",
        "prompt": "p",
        "content": [{"type": "text", "text": "done"}],
        "totalDurationMs": 5,
        "totalTokens": 9,
        "totalToolUseCount": 1,
        "usage": {"input_tokens": 1, "output_tokens": 2},
    }
    launched = {
        "status": "async_launched",
        "agentId": "a2",
        "outputFile": "/tmp/o",
        "isAsync": True,
    }
    legacy = {"content": [{"type": "text", "text": "old"}], "totalTokens": 3}
    for raw, kind in (
        (completed, AgentCompletedResult),
        (launched, AgentAsyncLaunchedResult),
        (legacy, LegacyAgentResult),
    ):
        for name in ("Agent", "Task"):
            decoded = parse_tool_result(name, raw)
            assert decoded is not None and decoded.notes == []
            assert isinstance(decoded.value, kind)
            assert same_json(to_builtins(decoded.value), raw)
    value = parse_tool_result("Task", completed)
    assert value is not None and isinstance(value.value, AgentCompletedResult)
    assert value.value.text == "done"
    strange = {"status": "evaporated", "agentId": "a3"}
    odd = parse_tool_result("Agent", strange)
    assert odd is not None and isinstance(odd.value, UnknownToolResult)
    assert to_builtins(odd.value) == strange


@pytest.mark.parametrize(
    ("name", "raw", "kind"),
    [
        (
            "Read",
            {"type": "image", "file": {"base64": "AA==", "type": "image/png"}},
            ReadImageResult,
        ),
        ("Read", {"type": "parts", "file": {"filePath": "/d.pdf", "count": 2}}, ReadPartsResult),
        ("Read", {"type": "file_unchanged", "file": {"filePath": "/a"}}, ReadUnchangedResult),
        (
            "TaskStop",
            {"message": "stopped", "task_id": "b1", "task_type": "local_bash"},
            TaskStopResult,
        ),
        ("PowerShell", {"stdout": "ok", "stderr": "", "interrupted": False}, BashResult),
        ("ListMcpResources", [{"uri": "r://1", "name": "one", "server": "s"}], McpResourceList),
        ("mcp__s__t", [{"type": "text", "text": "hi"}, {"type": "image"}], McpContent),
        ("mcp__s__t", {"structured": {"a": 1}}, McpObjectResult),
    ],
)
def test_result_shapes_not_in_the_corpus(name: str, raw: Any, kind: type) -> None:
    decoded = parse_tool_result(name, raw)
    assert decoded is not None and decoded.notes == []
    assert isinstance(decoded.value, kind)
    assert same_json(to_builtins(decoded.value), raw)


def test_string_results_are_text_or_errors() -> None:
    refused = "Error: The user doesn't want to proceed with this tool use."
    for text, kind in (
        (refused, ToolErrorText),
        ("InputValidationError: [] is too short", ToolErrorText),
        ("- /repo/\n  - a.py\n", TextResult),
    ):
        decoded = parse_tool_result("LS", text)
        assert decoded is not None
        assert type(decoded.value) is kind
        assert to_builtins(decoded.value) == text
    error = parse_tool_result("Bash", refused)
    assert error is not None and isinstance(error.value, ToolErrorText)
    assert error.value.is_error and error.value.is_rejection
    assert error.value.message.startswith("The user doesn't want")


def test_absent_and_odd_results() -> None:
    assert parse_tool_result("Bash", UNSET) is None
    for raw in (None, 3, True, [1, 2]):
        decoded = parse_tool_result("Bash", raw)
        assert decoded is not None and isinstance(decoded.value, UnknownToolResult)
        assert same_json(to_builtins(decoded.value), raw)


def test_inputs_that_fit_no_type_never_raise() -> None:
    for name, raw in (("Read", {}), ("Bash", "ls"), ("mcp__s__t", [1]), ("Nope", None)):
        decoded = parse_tool_input(name, raw)
        assert isinstance(decoded.value, UnknownToolInput)
        assert decoded.value.raw == raw


# MCP -------------------------------------------------------------------------------------------


def test_mcp_names_split_at_the_first_double_underscore() -> None:
    assert mcp_parts("mcp__plugin_serena_serena__find_symbol") == (
        "plugin_serena_serena",
        "find_symbol",
    )
    assert mcp_parts("mcp__chrome-devtools__take_screenshot") == (
        "chrome-devtools",
        "take_screenshot",
    )
    assert mcp_parts("mcp__srv__tool__with__parts") == ("srv", "tool__with__parts")
    for name in ("Bash", "mcp__", "mcp__server", "mcp__server__", "mcp____tool"):
        assert mcp_parts(name) is None


def test_mcp_spec_and_input() -> None:
    name = "mcp__plugin_serena_serena__find_symbol"
    spec = tool_spec(name)
    assert isinstance(spec, McpToolSpec)
    assert (spec.server, spec.tool, spec.family) == ("plugin_serena_serena", "find_symbol", "mcp")
    assert is_known_tool(name)
    raw = {"name_path": "Session", "depth": 1, "include_body": False}
    decoded = parse_tool_input(name, raw)
    assert isinstance(decoded.value, McpInput) and isinstance(decoded.value, FreeformInput)
    assert decoded.value.arguments == raw
    assert same_json(to_builtins(decoded.value), raw)
    content = parse_tool_result(
        name, [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    )
    assert content is not None and isinstance(content.value, McpContent)
    assert content.value.text == "a\nb"


# The catalogue ---------------------------------------------------------------------------------


def builtin_tool_names() -> list[str]:
    text = SCHEMAS.read_text()
    line = next(line for line in text.splitlines() if line.startswith("`BUILTIN_TOOL_NAMES`"))
    names = re.findall(r"`([^`]+)`", line.split("names:", 1)[1])
    assert len(names) == 54
    return names


@pytest.mark.parametrize("name", builtin_tool_names())
def test_every_builtin_tool_has_a_spec(name: str) -> None:
    spec = tool_spec(name)
    assert is_known_tool(name)
    assert spec.name == name
    assert spec.family != "unknown"
    assert spec.description.strip()
    assert not spec.removed


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("Task", "Agent"),
        ("KillBash", "KillShell"),
        ("exit_plan_mode", "ExitPlanMode"),
        ("ListMcpResources", "ListMcpResourcesTool"),
        ("ReadMcpResource", "ReadMcpResourceTool"),
    ],
)
def test_aliases_give_the_canonical_spec(alias: str, canonical: str) -> None:
    assert tool_spec(alias) is tool_spec(canonical)


def test_removed_and_internal_tools_are_catalogued() -> None:
    removed = {spec.name for spec in BUILTIN_TOOLS if spec.removed}
    assert removed >= {
        "BashOutput",
        "KillShell",
        "MultiEdit",
        "TaskOutput",
        "Config",
        "REPL",
        "LS",
        "AgentOutputTool",
    }
    for name in ("TeamCreate", "TeamDelete", "StructuredOutput", "RefreshMcpTools", "SetGoal"):
        assert is_known_tool(name)
    assert {spec.name for spec in BUILTIN_TOOLS if spec.spawns_subagent} == {"Agent", "Workflow"}


def test_every_spec_decodes_an_empty_object_without_raising() -> None:
    for spec in BUILTIN_TOOLS:
        assert spec.description and spec.family
        for name in spec.names:
            parse_tool_input(name, {})
            decoded = parse_tool_result(name, {})
            assert decoded is not None
            assert to_builtins(decoded.value) == {}


def test_unknown_names() -> None:
    spec = tool_spec("Teleport")
    assert spec.family == "unknown"
    assert "not a built-in" in spec.description.lower()
    assert not is_known_tool("Teleport")
    assert not is_known_tool("bash")


def test_public_names_are_exported_and_sorted() -> None:
    exported = tools_package.__all__
    assert exported == sorted(exported)
    for name in exported:
        assert hasattr(tools_package, name), name
