"""Codex CLI's and Gemini CLI's sessions summarised straight from their readers' records
(:mod:`cclens.index.write.translated`) give exactly what their assembled sessions give to
:func:`cclens.index.extract.digest` and :func:`~cclens.index.extract.documents`, on every real
and synthetic file of both agents, whole and derived again after a line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cclens.index.extract import DocumentUpdate, SessionDigest, digest, documents
from cclens.index.write.translated import derive_records
from cclens.readers import agents
from cclens.readers.discovery import SessionFile, SourceFile

from .test_codex import make_codex_home

DATA = Path(__file__).parent / "data" / "agents"
Derived = tuple[SessionDigest, dict[str, tuple[set[str] | None, list[Any]]]]


def _plain(found: tuple[SessionDigest, dict[str, DocumentUpdate]]) -> Derived:
    summary, updates = found
    return summary, {path: (u.replaced, u.rows) for path, u in updates.items()}


def _sources(file: SessionFile) -> list[SourceFile]:
    """The session's files as the index keeps them (an orphan's with its parent's id)."""
    main = SourceFile(file.path, "session", file.path.read_bytes())
    if file.orphan is not None:
        main.agent_id = file.orphan.agent_id
        main.parent_session_id = file.orphan.parent_session_id
    found = [main]
    for sub in file.subagents:
        found.append(
            SourceFile(
                sub.path,
                "subagent",
                sub.path.read_bytes(),
                sub.agent_id,
                parent_session_id=sub.parent_session_id,
            )
        )
    return found


def _sessions(*roots: Path) -> list[SessionFile]:
    found = agents.discover(*roots)
    assert not found.errors
    return found.sessions


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> list[SessionFile]:
    codex = make_codex_home(tmp_path_factory.mktemp("codex"))
    gemini = DATA / "gemini"
    found = _sessions(codex, gemini / "synthetic" / "gemini-home", gemini / "real")
    found += _sessions(gemini / "synthetic" / "unknown-kinds.jsonl")
    return found


def _both(file: SessionFile, since: dict[str, int] | None = None) -> tuple[Derived, Derived]:
    reader = agents.reader(file.agent)
    assert reader.records is not None
    sources = _sources(file)
    session = reader.assemble(file.session_id, file.project, sources)
    assembled = _plain((digest(session), documents(session, since)))
    fast = _plain(
        derive_records(
            file.agent, reader.records(file.session_id, file.project, _sources(file)), since
        )
    )
    return fast, assembled


def test_every_file_of_both_agents_is_here(sessions: list[SessionFile]) -> None:
    by_agent = {agent: [s for s in sessions if s.agent == agent] for agent in ("codex", "gemini")}
    assert len(by_agent["codex"]) >= 12 and len(by_agent["gemini"]) >= 6
    assert any(s.subagents for s in by_agent["codex"])
    assert any(s.subagents for s in by_agent["gemini"])
    assert any(s.orphan for s in by_agent["codex"])


def test_the_records_derive_what_the_assembled_session_gives(
    sessions: list[SessionFile],
) -> None:
    for file in sessions:
        fast, assembled = _both(file)
        assert fast == assembled, file.path
        assert fast[0].claims, file.path


def test_only_messages_after_a_line_are_derived_again(sessions: list[SessionFile]) -> None:
    for file in sessions:
        since = {
            str(source.path): source.data[: len(source.data) // 2].count(b"\n")
            for source in _sources(file)
        }
        fast, assembled = _both(file, since)
        assert fast == assembled, file.path


def _rollout(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_response_saying_the_same_twice_is_derived_as_assembled(tmp_path: Path) -> None:
    """Two reasoning summaries and two messages of the same text in one response: the blocks
    are compared as the full model holds them (the records'), as the assembler does."""
    thread = "019a9776-0000-7000-8000-0000000000aa"
    at = "2025-11-18T14:00:00.000Z"

    def item(payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": at, "type": "response_item", "payload": payload}

    reasoning = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Think"}]}
    message = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Same words"}],
    }
    meta = {"id": thread, "timestamp": at, "cwd": "/w", "cli_version": "0.58.0"}
    lines = [
        {"timestamp": at, "type": "session_meta", "payload": meta},
        {"timestamp": at, "type": "event_msg", "payload": {"type": "user_message", "message": "x"}},
        item(reasoning),
        item(message),
        item(reasoning),
        item(message),
        item({**message, "content": [{"type": "output_text", "text": "Other words"}]}),
    ]
    home = tmp_path / "codex"
    _rollout(home / "sessions/2025/11/18" / f"rollout-2025-11-18T14-00-00-{thread}.jsonl", lines)
    (file,) = _sessions(home)
    fast, assembled = _both(file)
    assert fast == assembled
    texts = [row[-1] for row in fast[1][str(file.path)][1]]
    assert texts.count("Same words") == 1 and texts.count("Think") == 1
