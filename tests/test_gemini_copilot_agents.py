"""Gemini CLI and Copilot CLI through the agent registry: their homes, their files told apart
from other agents' in a mixed folder, indexed into a real SQLite file with figures equal to a
count made with the json module alone, a rewritten recording kept as versions, resumed with
their own commands, and an export's redaction keeping their tools."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cclens.export.transform import transform_session
from cclens.index import Index
from cclens.readers import agents
from cclens.readers.resume import resume_command
from cclens.render import view_for

DATA = Path(__file__).parent / "data" / "agents"
GEMINI_HOME = DATA / "gemini" / "synthetic" / "gemini-home"
COPILOT_HOME = DATA / "copilot" / "synthetic" / "copilot-home"
REAL = DATA / "gemini" / "real"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def test_homes_from_the_environment(tmp_path: Path) -> None:
    (tmp_path / "g" / ".gemini").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    (tmp_path / "home" / ".gemini").mkdir(parents=True)
    environ = {"GEMINI_CLI_HOME": str(tmp_path / "g"), "COPILOT_HOME": str(tmp_path / "c")}
    found = agents.homes(environ, tmp_path / "home")
    assert tmp_path / "g" / ".gemini" in found and tmp_path / "c" in found
    assert tmp_path / "home" / ".gemini" not in found  # $GEMINI_CLI_HOME replaces ~/.gemini
    default = agents.homes({}, tmp_path / "home")
    assert default == [tmp_path / "home" / ".gemini"]


def test_a_mixed_folder_is_told_apart_by_names_and_first_bytes(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    gemini = next(REAL.glob("*.json"))
    shutil.copyfile(gemini, mixed / "saved-chat.json")
    jsonl = next(GEMINI_HOME.rglob("session-*.jsonl"))
    shutil.copyfile(jsonl, mixed / "another.jsonl")
    log = next(COPILOT_HOME.rglob("events.jsonl"))
    (mixed / "copilot").mkdir()
    shutil.copyfile(log, mixed / "copilot" / "events.jsonl")
    claude = next(p for p in sorted(CORPUS.rglob("*.jsonl")) if "subagents" not in p.parts)
    shutil.copyfile(claude, mixed / claude.name)
    (mixed / "logs.json").write_text('[{"sessionId": "x", "type": "user", "message": "hi"}]')
    (mixed / "events.jsonl").write_text('{"type": "user", "message": {"content": "x"}}\n')
    found = agents.discover(mixed)
    by_file = {session.path.name: session.agent for session in found.sessions}
    assert by_file["saved-chat.json"] == "gemini"
    assert by_file["another.jsonl"] == "gemini"
    assert found.sessions and by_file.get("logs.json") is None
    assert [s.agent for s in found.sessions if s.path.parent.name == "copilot"] == ["copilot"]
    assert by_file[claude.name] == "claude"
    assert by_file["events.jsonl"] == "claude"  # named like Copilot's, but a Claude record


def test_a_home_lists_recordings_only(tmp_path: Path) -> None:
    found = agents.discover(GEMINI_HOME, COPILOT_HOME)
    names = sorted(session.path.name for session in found.sessions)
    assert "checkpoint-before-fix.json" not in names and "logs.json" not in names
    assert "session-2026-03-01T09-00-dddd4444.json" not in names  # resumed into the .jsonl
    assert names.count("events.jsonl") == 2
    (main,) = [s for s in found.sessions if s.session_id.startswith("aaaa1111")]
    assert [sub.path.parent.name for sub in main.subagents] == [main.session_id]
    assert {s.project for s in found.sessions} == {
        "-home-dev-demo-app",
        "-home-dev-legacy-app",
        "-home-dev-shop",
    }


def _gemini_json_count(path: Path) -> tuple[int, int]:
    """Tool calls and total tokens of a recording, with json alone: the last version of each
    message by id (a .jsonl writes a message again as it grows)."""
    messages: dict[str, dict[str, Any]] = {}
    if path.suffix == ".json":
        for message in json.loads(path.read_bytes())["messages"]:
            messages[message["id"]] = message
    else:
        for line in path.read_bytes().splitlines():
            value = json.loads(line)
            if isinstance(value.get("id"), str):
                messages[value["id"]] = value
            elif isinstance(value.get("$set"), dict):
                for message in value["$set"].get("messages", []):
                    messages.setdefault(message["id"], message)
    calls = sum(len(m.get("toolCalls") or []) for m in messages.values())
    tokens = 0
    for message in messages.values():
        used = message.get("tokens") or {}
        tokens += used.get("input", 0) + used.get("output", 0) + used.get("thoughts", 0)
        tokens += used.get("tool", 0)
    return calls, tokens


def _copilot_json_count(path: Path) -> tuple[int, int]:
    calls = tokens = 0
    for line in path.read_bytes().splitlines():
        event = json.loads(line)
        data = event["data"]
        if event["type"] == "assistant.message":  # a subagent's calls are the session's too
            calls += len(data.get("toolRequests", []))
        if event["type"] == "session.shutdown":
            for metric in data.get("modelMetrics", {}).values():
                usage = metric.get("usage", {})
                tokens += usage.get("inputTokens", 0) + usage.get("outputTokens", 0)
    return calls, tokens


def _total(summary: Any) -> int:
    return int(
        summary.input_tokens
        + summary.output_tokens
        + summary.cache_read_tokens
        + summary.cache_write_tokens
    )


def test_indexed_figures_equal_a_json_count(tmp_path: Path) -> None:
    with Index(tmp_path / "index.db") as index:
        index.update([REAL, COPILOT_HOME], workers=1)
        page = index.sessions()
        summaries = {s.session_id: s for s in page}
        assert {s.agent for s in page} == {"gemini", "copilot"}
    for path in sorted(REAL.glob("*.json")):
        session_id = json.loads(path.read_bytes())["sessionId"]
        calls, tokens = _gemini_json_count(path)
        summary = summaries[session_id]
        assert (summary.tool_calls, _total(summary)) == (calls, tokens), path.name
        assert summary.cost is not None  # every model of the real files is priced
    for log in sorted(COPILOT_HOME.rglob("events.jsonl")):
        calls, tokens = _copilot_json_count(log)
        session_id = json.loads(log.read_bytes().splitlines()[0])["data"]["sessionId"]
        summary = summaries[session_id]
        assert summary.tool_calls == calls
        # Copilot's prompt tokens include the cached ones: input + cache reads + writes.
        assert _total(summary) == tokens


def test_a_rewritten_recording_keeps_its_versions(tmp_path: Path) -> None:
    chats = tmp_path / ".gemini" / "tmp" / "demo" / "chats"
    chats.mkdir(parents=True)
    path = chats / "session-2026-01-01T00-00-feedbeef.json"
    recording = json.loads(next(REAL.glob("*pomodoro*.json")).read_bytes())
    whole = recording["messages"]
    recording["messages"] = whole[:4]
    path.write_text(json.dumps(recording, indent=2))
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / ".gemini"], workers=1)
        (first,) = list(index.sessions())
        recording["messages"] = whole
        path.write_text(json.dumps(recording, indent=2))
        index.update([tmp_path / ".gemini"], workers=1)
        (second,) = list(index.sessions())
        assert second.key == first.key and second.messages > first.messages
        assert len(index.versions(second.key)) == 2
        loaded = index.load(second.key)
        assert loaded is not None and loaded.agent == "gemini"


def test_resume_commands() -> None:
    gemini = resume_command("abc", "/work", agent="gemini")
    assert gemini.shell == "cd '/work' && gemini --resume abc"
    assert resume_command("abc", None, agent="copilot").argv == ["copilot", "--resume", "abc"]
    with pytest.raises(ValueError, match="cannot fork"):
        _ = resume_command("abc", None, fork=True, agent="gemini").argv


def test_redaction_keeps_the_agent_its_tools_and_statuses() -> None:
    found = agents.discover(GEMINI_HOME, COPILOT_HOME)
    for file in found.sessions:
        session = agents.load(file)
        redacted = transform_session(session, lambda text: text.replace("demo", "[REDACTED]"))
        assert redacted.agent == session.agent
        before = [(c.name, c.status, view_for(c).name) for c in session.tool_calls.values()]
        after = [(c.name, c.status, view_for(c).name) for c in redacted.tool_calls.values()]
        assert after == before
        assert len(redacted.branches) == len(session.branches)
        assert len(redacted.subagents) == len(session.subagents)
