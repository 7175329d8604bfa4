"""Gemini CLI's tools drawn by their own views: every call of the real and synthetic recordings,
the texts each tool gave the model read back, hostile strings kept inert, and views chosen by
agent (Gemini's ``glob`` is not Claude Code's ``Glob``, nor another agent's ``glob``)."""

from __future__ import annotations

import html as html_module
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cclens.model.gemini import outputs
from cclens.model.session import Session, ToolCall
from cclens.readers.gemini import Located, assemble_chat, discover, read_chat
from cclens.readers.gemini.load import load
from cclens.render import RenderOptions, SessionRenderer, view_for
from cclens.render.tool_views import AGENT_VIEWS, TOOL_VIEWS

DATA = Path(__file__).parent / "data" / "agents" / "gemini"
HOME = DATA / "synthetic" / "gemini-home"
EAGER = RenderOptions(lazy=False)


def _sessions() -> list[Session]:
    found = [assemble_chat(read_chat(p), Located("real")) for p in sorted(DATA.glob("real/*.json"))]
    found += [load(info) for info in discover(HOME)]
    return [each for session in found for each in session.all_sessions()]


def _calls() -> list[ToolCall]:
    return [call for session in _sessions() for call in session.tool_calls.values()]


def _draw(call: ToolCall) -> tuple[str, list[str]]:
    renderer = SessionRenderer(EAGER)
    return str(renderer.tool(call)), renderer.view_failures


def _view_name(html: str) -> str:
    match = re.search(r'data-view="([^"]*)"', html)
    assert match is not None
    return match.group(1)


def test_every_call_is_drawn_by_a_gemini_view_without_failures() -> None:
    calls = _calls()
    assert len(calls) >= 60
    names = set()
    for call in calls:
        html, failures = _draw(call)
        assert failures == [], (call.name, failures)
        assert _view_name(html).startswith("gemini-"), call.name
        names.add(call.name)
    # Every tool the issue names appears in the test files, each with its own view.
    assert {
        "run_shell_command",
        "read_file",
        "read_many_files",
        "write_file",
        "replace",
        "glob",
        "grep_search",
        "search_file_content",
        "list_directory",
        "web_fetch",
        "google_web_search",
        "save_memory",
        "ask_user",
        "write_todos",
        "codebase_investigator",
    } <= names


def test_folded_headers_name_the_argument_that_matters() -> None:
    renderer = SessionRenderer(RenderOptions())
    summaries: dict[str, str] = {}
    for call in _calls():
        html = str(renderer.tool(call))
        match = re.search(r'<span class="tool-summary[^"]*"[^>]*>(.*?)</span>', html, re.S)
        said = html_module.unescape(re.sub(r"<[^>]+>", " ", match.group(1))) if match else ""
        summaries.setdefault(call.name, " ".join(said.split()))
    assert summaries["run_shell_command"]
    assert summaries["search_file_content"] == "rose"  # the pattern, not the folder
    assert summaries["list_directory"] == "/home/dev/demo-app"
    assert summaries["save_memory"] == "The demo app uses pytest."
    assert summaries["write_todos"].startswith("1/3 done")
    assert summaries["ask_user"] == "Also update the docs?"
    assert summaries["codebase_investigator"].startswith("codebase_investigator: ")
    assert summaries["read_many_files"] == "*.md"


def _call(name: str, session_name: str = "session-2026-05-01T10-00-aaaa1111.jsonl") -> ToolCall:
    for session in _sessions():
        if session.path.name == session_name:
            return next(c for c in session.tool_calls.values() if c.name == name)
    raise AssertionError(session_name)


def test_shell_shows_output_and_exit_code() -> None:
    html, _ = _draw(_call("run_shell_command"))
    assert "exit code 1" in html
    assert "1 failed, 1 passed" in html
    assert "pytest -q" in html


def test_replace_is_a_diff_in_the_whole_file_and_names_the_instruction() -> None:
    html, _ = _draw(_call("replace"))
    assert 'class="diff' in html
    assert "Fix add" in html  # the instruction
    assert "dl dl-del" in html and "dl dl-add" in html


def test_grep_marks_matches_and_subagent_nests_its_conversation() -> None:
    grep, _ = _draw(_call("grep_search"))
    assert "<mark>def add</mark>" in grep
    agent = _call("codebase_investigator")
    assert agent.subagents and agent.spec.spawns_subagent
    html, _ = _draw(agent)
    assert "Find every caller of add" in html
    assert "test_calc.py" in html


def test_todos_questions_and_search_sources() -> None:
    todos, _ = _draw(_call("write_todos"))
    assert "1 of 3 done" in todos and "Run tests" in todos
    question, _ = _draw(_call("ask_user"))
    assert "Update README" in question and "dismissed" in question
    search, _ = _draw(_call("google_web_search"))
    assert 'href="https://docs.python.org"' in search


# The texts tools gave the model ---------------------------------------------------------------


def test_shell_output_every_wording() -> None:
    old = outputs.shell_output(
        "Command: ls\nDirectory: (root)\nStdout: a\nb\nStderr: oops\nError: (none)\n"
        "Exit Code: 2\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 5"
    )
    assert old is not None
    assert (old.command, old.output, old.stderr, old.exit_code) == ("ls", "a\nb", "oops", 2)
    middle = outputs.shell_output(
        "Command: x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0\n"
        "Signal: (none)\nBackground PIDs: (none)\nProcess Group PGID: (none)"
    )
    assert middle is not None and middle.output == "" and middle.exit_code == 0
    new = outputs.shell_output(
        "Output: Error: in the output\nlast\nExit Code: 1\nProcess Group PGID: 9"
    )
    assert new is not None
    assert new.output == "Error: in the output\nlast" and new.exit_code == 1 and new.error is None
    assert outputs.shell_output("Command was cancelled by user before it could start.") is None


def test_other_texts_read_back() -> None:
    cut = outputs.file_text(
        "\nIMPORTANT: The file content has been truncated.\n"
        "Status: Showing lines 11-20 of 90 total lines.\n"
        "Action: To read more of the file, use start_line: 21.\n\n"
        "--- FILE CONTENT (truncated) ---\nline 11\nline 12"
    )
    assert (cut.start, cut.end, cut.total, cut.content) == (11, 20, 90, "line 11\nline 12")
    assert outputs.file_text("plain").content == "plain"
    assert outputs.found_files('Found 2 file(s) matching "*.py" within /a:\n/a/x.py\n/a/y.py') == [
        "/a/x.py",
        "/a/y.py",
    ]
    listing = outputs.directory_listing("Directory listing for /a:\n[DIR] src\nREADME.md")
    assert listing == ("/a", ["[DIR] src", "README.md"])
    grep = outputs.grep_text(
        'Found 2 matches for pattern "x" in path ".":\n---\nFile: a.py\nL3: x = 1\nL4- y\n---'
    )
    assert grep is not None and grep.lines == [("a.py", 3, "x = 1", False), ("a.py", 4, "y", True)]
    answer = outputs.search_answer(
        'Web search results for "q":\n\nIt is so [1].\n\nSources:\n[1] Docs (https://d.example/x)'
    )
    assert answer.answer == "It is so [1]." and answer.sources == [
        (1, "Docs", "https://d.example/x")
    ]
    assert outputs.answers('{"answers": {"0": "Yes"}}') == {"0": "Yes"}
    assert outputs.memory_saved('{"success": false, "error": "no"}') == (False, "no")


# Hostile strings and views chosen by agent ----------------------------------------------------

HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


def _recording(tmp_path: Path, calls: list[dict[str, Any]]) -> Session:
    lines = [
        {"sessionId": "h", "projectHash": "0" * 64, "startTime": "2026-05-01T10:00:00Z"},
        {"id": "u1", "type": "user", "timestamp": "2026-05-01T10:00:01Z", "content": "go"},
        {
            "id": "g1",
            "type": "gemini",
            "timestamp": "2026-05-01T10:00:02Z",
            "content": "",
            "toolCalls": calls,
            "model": "gemini-2.5-pro",
        },
    ]
    path = tmp_path / "session-2026-05-01T10-00-hhhh.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return assemble_chat(read_chat(path), Located("x"))


def _tool(name: str, args: dict[str, Any], output: str, display: Any = None) -> dict[str, Any]:
    return {
        "id": f"{name}-1",
        "name": name,
        "args": args,
        "result": [
            {"functionResponse": {"id": f"{name}-1", "name": name, "response": {"output": output}}}
        ],
        "status": "success",
        "timestamp": "2026-05-01T10:00:03Z",
        "resultDisplay": display,
    }


@pytest.mark.parametrize(
    ("name", "args", "display"),
    [
        ("run_shell_command", {"command": HOSTILE, "description": HOSTILE}, HOSTILE),
        ("read_file", {"file_path": HOSTILE}, None),
        ("write_file", {"file_path": HOSTILE, "content": HOSTILE}, None),
        (
            "replace",
            {
                "file_path": "a",
                "old_string": HOSTILE,
                "new_string": HOSTILE,
                "instruction": HOSTILE,
            },
            None,
        ),
        ("glob", {"pattern": HOSTILE}, None),
        (
            "grep_search",
            {"pattern": HOSTILE},
            {
                "summary": HOSTILE,
                "matches": [{"filePath": HOSTILE, "lineNumber": 1, "line": HOSTILE}],
            },
        ),
        ("list_directory", {"dir_path": HOSTILE}, None),
        (
            "read_many_files",
            {"include": [HOSTILE]},
            {
                "summary": HOSTILE,
                "files": [HOSTILE],
                "include": [HOSTILE],
                "skipped": [{"path": HOSTILE, "reason": HOSTILE}],
            },
        ),
        ("web_fetch", {"prompt": HOSTILE + " javascript:alert(3)"}, None),
        ("google_web_search", {"query": HOSTILE}, None),
        ("save_memory", {"fact": HOSTILE}, None),
        (
            "ask_user",
            {
                "questions": [
                    {
                        "question": HOSTILE,
                        "header": HOSTILE,
                        "options": [{"label": HOSTILE, "description": HOSTILE}],
                    }
                ]
            },
            None,
        ),
        (
            "write_todos",
            {"todos": [{"description": HOSTILE, "status": "in_progress"}]},
            {"todos": [{"description": HOSTILE, "status": HOSTILE}]},
        ),
        ("invoke_agent", {"agent_name": HOSTILE, "prompt": HOSTILE}, None),
        ("activate_skill", {"name": HOSTILE}, None),
    ],
)
def test_hostile_strings_stay_text(
    tmp_path: Path, name: str, args: dict[str, Any], display: Any
) -> None:
    output = f'Found 1 file(s) matching "x":\n{HOSTILE}' if name == "glob" else HOSTILE
    session = _recording(tmp_path, [_tool(name, args, output, display)])
    call = next(iter(session.tool_calls.values()))
    html, failures = _draw(call)
    assert failures == []
    assert _view_name(html).startswith("gemini-")
    assert "<script>" not in html and "<img src=x" not in html
    assert 'href="javascript' not in html


def test_views_are_chosen_by_agent(tmp_path: Path) -> None:
    session = _recording(
        tmp_path,
        [
            _tool("glob", {"pattern": "*.py"}, "No files found"),
            _tool("web_fetch", {"prompt": "https://a.example"}, "ok"),
            _tool("mcp_github_get_issue", {"number": 1}, "an issue"),
            _tool("some_future_tool", {"x": 1}, "?"),
        ],
    )
    views = {call.name: view_for(call).name for call in session.tool_calls.values()}
    assert views == {
        "glob": "gemini-glob",
        "web_fetch": "gemini-web-fetch",
        "mcp_github_get_issue": "mcp",
        "some_future_tool": "generic",
    }
    # Claude Code has no tool of these names: its table never draws a Gemini call.
    assert "glob" not in TOOL_VIEWS and "web_fetch" not in TOOL_VIEWS
    assert set(AGENT_VIEWS["gemini"]) >= {"glob", "web_fetch", "run_shell_command"}
