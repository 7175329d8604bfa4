"""Find Claude Code's transcripts: projects, sessions and the subagent files that belong to them.

Layouts handled (under ``<claude dir>/projects/<project-slug>/``, or any directory given):

* ``<session-id>.jsonl``: a session;
* ``agent-<id>.jsonl`` beside the sessions (Claude Code 1.x and early 2.x): a subagent whose
  records name their parent in ``sessionId``;
* ``<session-id>/subagents/agent-<id>.jsonl`` with an optional ``agent-<id>.meta.json`` sidecar
  (``agentId``, ``toolUseId``, ``agentType``);
* ``<session-id>/subagents/workflows/<run-id>/agent-<id>.jsonl``: the agents of a Workflow run,
  with the run's ``journal.jsonl`` beside them.

A subagent file is part of its session. One whose session file is gone (Claude Code cleaned
it, or it was never copied) is an *orphan*: it is listed in ``Discovery.orphans`` and, as a
session of its own marked as a subagent without its parent, in ``Discovery.sessions``, so
every command and page counts the same sessions.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from ...files import read_regular
from ..discovery import (
    Discovery,
    FoundFile,
    SessionFile,
    SubagentFile,
    SubagentLayout,
    regular,
    session_order,
    walk,
)

_AGENT_PREFIX = "agent-"
_JOURNAL = "journal.jsonl"
_HEAD_BYTES = 64 * 1024


def claude_dirs(environ: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Claude Code's configuration directories that exist, most specific first.

    ``$CLAUDE_CONFIG_DIR`` (may hold several paths separated by commas), ``~/.claude`` and
    ``~/.config/claude``.
    """
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    candidates: list[Path] = []
    configured = environ.get("CLAUDE_CONFIG_DIR", "")
    candidates.extend(Path(part).expanduser() for part in configured.split(",") if part.strip())
    candidates += [home / ".claude", home / ".config" / "claude"]
    found: list[Path] = []
    for candidate in candidates:
        if candidate.is_dir() and candidate.resolve() not in {f.resolve() for f in found}:
            found.append(candidate)
    return found


def transcript_root(root: Path) -> Path:
    """Where a root's transcripts are: its ``projects/`` folder when it has one (a Claude
    config folder), else the root itself."""
    projects = root / "projects"
    return projects if projects.is_dir() else root


def _read_meta(path: Path) -> dict[str, Any] | None:
    meta_path = path.with_name(path.name[: -len(".jsonl")] + ".meta.json")
    try:
        meta = msgspec.json.decode(read_regular(meta_path))
    except (OSError, msgspec.DecodeError, UnicodeDecodeError):
        return None
    return meta if isinstance(meta, dict) else None


def _first_session_id(path: Path) -> str | None:
    """The ``sessionId`` of the first record that has one (read from the head of the file)."""
    try:
        head = read_regular(path, _HEAD_BYTES)
    except OSError:
        return None
    for line in head.splitlines():
        try:
            record = msgspec.json.decode(line)
        except (msgspec.DecodeError, UnicodeDecodeError):
            continue
        if isinstance(record, dict) and isinstance(record.get("sessionId"), str):
            return str(record["sessionId"])
    return None


def _classify(
    path: Path, base: Path, relative: tuple[str, ...] | None = None
) -> tuple[str, SubagentFile | None]:
    """``("session"|"subagent"|"journal", subagent info)`` for a ``.jsonl`` file under ``base``.

    ``relative``: the parts of ``path`` relative to ``base``, when the caller knows them.
    """
    if path.name == _JOURNAL and "workflows" in path.parts:
        return "journal", None
    if relative is None:
        relative = path.relative_to(base).parts if path.is_relative_to(base) else path.parts
    parts = relative
    if "subagents" in parts[:-1]:
        index = len(parts) - 1 - parts[::-1].index("subagents")
        parent_session = parts[index - 1] if index >= 1 else None
        rest = parts[index + 1 : -1]
        workflow_run = rest[1] if len(rest) >= 2 and rest[0] == "workflows" else None
        agent_id = path.stem.removeprefix(_AGENT_PREFIX)
        layout: SubagentLayout = "workflow" if workflow_run else "nested"
        return "subagent", SubagentFile(
            path, agent_id, layout, _read_meta(path), workflow_run, parent_session
        )
    if path.name.startswith(_AGENT_PREFIX):
        agent_id = path.stem.removeprefix(_AGENT_PREFIX)
        info = SubagentFile(path, agent_id, "sibling", _read_meta(path))
        info.parent_session_id = _first_session_id(path)
        return "subagent", info
    return "session", None


def discover(*roots: Path | str) -> Discovery:
    """Find every session and subagent file under ``roots``.

    A root may be a Claude config directory (its ``projects/`` folder is walked), any folder, or
    a single ``.jsonl`` file. With no roots, :func:`claude_dirs` are used. Missing roots are
    reported in ``errors``.
    """
    paths = [Path(root).expanduser() for root in roots] if roots else claude_dirs()
    found = Discovery(roots=paths)
    files: list[FoundFile] = []
    for root in paths:
        if root.is_dir():
            base = transcript_root(root)
            files.extend((path, base, relative) for path, relative in walk(base, found.errors))
        elif root.exists() or root.is_symlink():  # a file, or what only poses as one
            if regular(root, found.errors):
                files.append((root, root.parent, (root.name,)))
        else:
            found.errors.append((root, "no such file or directory"))
    group(files, found)
    found.sessions.sort(key=session_order)
    return found


def group(files: Iterable[FoundFile], found: Discovery) -> None:
    """Claude Code's sessions among ``files`` (each with the folder it was found under and its
    path's parts below it), with their subagent files and journals, added to ``found``."""
    sessions: dict[Path, SessionFile] = {}
    subagents: list[SubagentFile] = []
    journals: list[Path] = []
    for path, base, relative in files:
        kind, info = _classify(path, base, relative)
        if kind == "journal":
            journals.append(path)
        elif info is not None:
            subagents.append(info)
        elif path not in sessions:
            stat = found.stat(path)
            if stat is None:
                continue
            sessions[path] = SessionFile(
                path, path.stem, path.parent.name, stat.st_size, stat.st_mtime_ns / 1e9
            )
    by_folder: dict[tuple[Path, str], SessionFile] = {
        (s.path.parent, s.session_id): s for s in sessions.values()
    }
    for agent in subagents:
        owner = _owner(agent, by_folder)
        if owner is not None:
            owner.subagents.append(agent)
            continue
        found.orphans.append(agent)
        try:
            stat = agent.path.stat()
        except OSError as error:
            found.errors.append((agent.path, error.strerror or str(error)))
            continue
        session_id, project = orphan_identity(agent)
        orphan = SessionFile(agent.path, session_id, project, stat.st_size, stat.st_mtime_ns / 1e9)
        orphan.orphan = agent
        sessions[agent.path] = orphan
    for journal in journals:
        owner = _journal_owner(journal, by_folder)
        if owner is None:
            found.orphan_journals.append(journal)
        else:
            owner.journals.append(journal)
    found.sessions.extend(sessions.values())


def orphan_identity(agent: SubagentFile) -> tuple[str, str]:
    """The session id and project folder of an orphan subagent file shown as a session.

    The id is the file's name without ``.jsonl`` (``agent-<id>``: it cannot clash with a
    session's uuid); the project is the folder of sessions it sits in (for the nested layout,
    the folder holding ``<session-id>/subagents/``).
    """
    for ancestor in agent.path.parents:
        if ancestor.name == "subagents":
            return agent.path.stem, ancestor.parent.parent.name
    return agent.path.stem, agent.path.parent.name


def _owner(
    agent: SubagentFile, by_folder: Mapping[tuple[Path, str], SessionFile]
) -> SessionFile | None:
    if agent.layout == "sibling":
        if agent.parent_session_id is None:
            return None
        return by_folder.get((agent.path.parent, agent.parent_session_id))
    # <folder>/<session-id>/subagents/...: the session file is <folder>/<session-id>.jsonl
    for ancestor in agent.path.parents:
        if ancestor.name == "subagents":
            session_dir = ancestor.parent
            return by_folder.get((session_dir.parent, session_dir.name))
    return None


def _journal_owner(
    journal: Path, by_folder: Mapping[tuple[Path, str], SessionFile]
) -> SessionFile | None:
    for ancestor in journal.parents:
        if ancestor.name == "subagents":
            session_dir = ancestor.parent
            return by_folder.get((session_dir.parent, session_dir.name))
    return None


def subagents_for(path: Path, session_id: str | None = None) -> list[SubagentFile]:
    """The subagent files that belong to the session file ``path``, in both layouts."""
    session_id = session_id or path.stem
    found: list[SubagentFile] = []
    nested = path.parent / path.stem / "subagents"
    if nested.is_dir():
        for candidate in sorted(nested.rglob("*.jsonl")):
            kind, info = _classify(candidate, path.parent)
            if kind == "subagent" and info is not None:
                found.append(info)
    for candidate in sorted(path.parent.glob(_AGENT_PREFIX + "*.jsonl")):
        if candidate == path:
            continue
        kind, info = _classify(candidate, path.parent)
        if info is not None and info.parent_session_id in (session_id, path.stem):
            found.append(info)
    return found


__all__ = [
    "Discovery",
    "SessionFile",
    "SubagentFile",
    "SubagentLayout",
    "claude_dirs",
    "discover",
    "group",
    "orphan_identity",
    "subagents_for",
    "transcript_root",
]
