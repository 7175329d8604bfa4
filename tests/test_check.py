"""``cclens check`` and ``cclens tools`` on the whole shared corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.readers.claude import discover, load
from cclens.reports.check import check

from .conftest import corpus_files

# Fixtures that invent record types, blocks or tools Claude Code never wrote.
INVENTED_RECORD_TYPES = {
    "(none)": "ccusage usage-only fixtures and edge-case fixtures without a type",
    "tool_use": "jazzyalex schema_drift.jsonl invents top-level tool_use records",
    "tool_result": "jazzyalex schema_drift.jsonl invents top-level tool_result records",
}
INVENTED_TOOLS = {
    "FailingTool": "claude-code-log edge-case fixture",
    "bash": "jazzyalex schema_drift.jsonl lower-case fixture tool",
    "[trimmed for fixture]": "a fixture whose tool name was trimmed",
}


def test_corpus_report(corpus: Path) -> None:
    report = check([corpus])
    non_empty = sum(
        1 for path in corpus_files() for line in path.read_bytes().splitlines() if line.strip()
    )
    assert report.files == len(corpus_files())
    assert report.lines == non_empty
    assert report.records + len(report.malformed) == non_empty
    assert report.bytes == sum(p.stat().st_size for p in corpus_files())
    assert len(report.malformed) == 6
    assert set(report.unknown.record_types) <= set(INVENTED_RECORD_TYPES)
    # claude-code-log's edge-case fixtures (two copies) hold a message that is a string and a
    # content list whose first item is a string: the line is read, that part kept as it is.
    assert report.unknown.content_blocks == {"(not an object)": 2}
    assert sorted((Path(p.file).parent.parent.parent.name, p.line) for p in report.partial) == [
        ("daaain__claude-code-log", 11),
        ("daaain__claude-code-log", 18),
        ("iansherr__claude-code-log", 11),
        ("iansherr__claude-code-log", 18),
    ]
    assert set(report.unknown.tools) <= set(INVENTED_TOOLS)
    assert report.unreadable == []
    # 18 agent-*.jsonl files; 5 have no session file in the corpus (Claude Code 2.0 "Warmup"
    # agents of sessions that were not copied), and 3 belong to sessions that hold no call that
    # could have spawned them (the claude-code-viewer fixtures and a warmup agent).
    assert report.subagents.files == 18
    assert report.subagents.attached == 10


def test_every_call_with_a_result_in_its_file_is_paired(corpus: Path) -> None:
    for file in discover(corpus).sessions:
        session = load(file)
        for each in session.all_sessions():
            result_ids = {
                block.get("tool_use_id")
                for entry in each.entries
                for block in _content(entry.record)
                if isinstance(block, dict) and block.get("type") == "tool_result"
            }
            for call in each.tool_calls.values():
                if call.block.id in result_ids:
                    assert call.result_block is not None, f"{each.path}: {call.id} unpaired"


def _content(record: object) -> list[object]:
    from cclens.model import to_builtins
    from cclens.model.records import UserRecord

    if isinstance(record, UserRecord) and record.message:
        content = to_builtins(record.message).get("content")
        return content if isinstance(content, list) else []
    return []


def test_check_json_keys(corpus: Path) -> None:
    result = CliRunner().invoke(
        main, ["check", "--json", str(corpus / "simonw__claude-code-transcripts")]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {
        "files",
        "bytes",
        "lines",
        "records",
        "record_types",
        "malformed",
        "partial",
        "unknown",
        "tools",
        "sessions",
        "subagents",
        "unreadable",
    }
    assert set(report["unknown"]) == {"record_types", "content_blocks", "tools"}
    assert set(report["subagents"]) == {"files", "attached", "orphans"}
    for counts in report["tools"].values():
        assert set(counts) == {
            "calls",
            "results",
            "errors",
            "unpaired",
            "rejected",
            "interrupted",
        }


def test_check_text_output_and_malformed_lines_do_not_fail(corpus: Path) -> None:
    path = corpus / "daaain__claude-code-log/test/test_data/edge_cases.jsonl"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "Malformed lines" in result.output
    assert "edge_cases.jsonl" in result.output


def test_unreadable_path_fails(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(tmp_path / "missing")])
    assert result.exit_code == 2
    assert result.output == (
        f"cclens: {tmp_path / 'missing'}: no such file or folder; give an agent's folder "
        "(~/.claude, ~/.codex) or a folder holding transcripts\n"
    )


@pytest.mark.slow
def test_tools_inventory(corpus: Path) -> None:
    result = CliRunner().invoke(main, ["tools", "--json", str(corpus)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    calls = [row["calls"] for row in rows]
    assert calls == sorted(calls, reverse=True)
    by_name = {row["name"]: row for row in rows}
    assert by_name["Bash"]["calls"] > 100 and by_name["Bash"]["description"]
    assert all(row["description"] for row in rows)
    text = CliRunner().invoke(main, ["tools", str(corpus / "chiphuyen__sniffly")])
    assert text.exit_code == 0 and "Bash" in text.output
