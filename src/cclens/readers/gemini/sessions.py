"""Gemini CLI as the agent registry (:mod:`cclens.readers.agents`) sees it: its homes, which
files are its recordings, its sessions among found files, a session loaded from disk or
assembled from the bytes the index keeps, and the command that resumes one.

A session is a main recording (``tmp/<project>/chats/session-<time>-<id>.json`` or ``.jsonl``)
with its subagents' recordings (``chats/<session id>/<agent id>.json[l]``); its project is the
folder name Claude Code would give its directory (:func:`cclens.readers.discovery.slug`), so a
project holds every agent's sessions of that directory, else the folder gemini-cli named it by.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ...files import open_regular
from ...model.entries import Diagnostic
from ...model.records import ChainRecord
from ...model.session import Session
from ..discovery import Discovery, FoundFile, SessionFile, SourceFile, SubagentFile, slug
from ..records import FileRecords
from .assemble import assemble_chat, chat_records
from .chat import ChatFile, read_chat_data
from .discover import ChatFileInfo as _Info
from .discover import (
    Located,
    Projects,
    claims,
    gemini_homes,
    locate,
    read_projects,
    recorded_hash,
    starts_object,
    transcript_roots,
)
from .load import attach, load_file

#: The program that runs Gemini CLI.
GEMINI = "gemini"
_SESSION = re.compile(r"^session-.+\.jsonl?$")
_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"([^"]+)"')


def _is_recording(path: Path) -> bool:
    start = _head(path)
    return b'"sessionId"' in start and b'"projectHash"' in start and starts_object(start)


def _home_of(path: Path) -> Path | None:
    """The Gemini CLI home a recording lies in (``<home>/tmp/<project>/chats/...``)."""
    for parent in path.parents:
        if parent.name == "tmp" and parent.parent.name:
            return parent.parent
    return None


def _head(path: Path) -> bytes:
    try:
        with open_regular(path) as handle:
            return handle.read(4096)
    except OSError:
        return b""


def _session_id(path: Path) -> str:
    """A recording's ``sessionId`` (what ``gemini --resume`` takes), else the id its name
    holds."""
    match = _SESSION_ID.search(_head(path))
    if match is not None:
        return match.group(1).decode("utf-8", "replace")
    stem = path.name.split(".", 1)[0]
    return stem.rsplit("-", 1)[-1] if stem.startswith("session-") else stem


class _Places:
    """Project paths of the homes met, read once each."""

    def __init__(self) -> None:
        self._by_home: dict[Path, Projects] = {}

    def locate(self, path: Path, folder: str) -> Located:
        home = _home_of(path)
        if home is None:
            return Located(folder)
        projects = self._by_home.get(home)
        if projects is None:
            projects = self._by_home[home] = read_projects(home)
        return locate(_Info(path, folder, 0, 0.0), projects)


def project_of(where: Located) -> str:
    """The project a session belongs to: its directory's slug, else gemini-cli's folder."""
    return slug(where.cwd) if where.cwd else where.project


def _folder(path: Path) -> str:
    """The project folder gemini-cli named (``tmp/<folder>/chats``), else the folder found."""
    chats = path.parent if path.parent.name == "chats" else path.parent.parent
    return chats.parent.name if chats.name == "chats" else path.parent.name


def group(files: Iterable[FoundFile], found: Discovery) -> None:
    """Gemini CLI's sessions among ``files`` (recordings), each with its subagents'
    recordings, added to ``found``; a ``.json`` with a ``.jsonl`` of the same name (the
    ``.jsonl`` gemini-cli resumed it into) is left out, and a subagent whose session's
    recording is gone is a session of its own (an orphan)."""
    places = _Places()
    paths = sorted(path for path, _, _ in files)
    present = {str(path) for path in paths}
    sessions: dict[str, SessionFile] = {}
    by_id: dict[tuple[Path, str], SessionFile] = {}
    agents: list[Path] = []
    for path in paths:
        if path.name.endswith(".json") and f"{path}l" in present:
            continue
        if path.parent.name == "chats":
            if not _SESSION.match(path.name):
                continue  # checkpoint-<tag>.json: a /chat save restore point, not a session
        elif path.parent.parent.name == "chats":
            agents.append(path)
            continue
        elif not _is_recording(path):
            continue  # logs.json, tool outputs: not recordings
        stat = _stat(path, found)
        if stat is None:
            continue
        where = places.locate(path, _folder(path))
        session_id = _session_id(path)
        file = SessionFile(path, session_id, project_of(where), stat[0], stat[1], agent="gemini")
        sessions[str(path)] = file
        by_id[(path.parent, session_id)] = file
    for path in agents:
        stat = _stat(path, found)
        if stat is None:
            continue
        parent_id = path.parent.name
        chats = path.parent.parent
        owner = by_id.get((chats, parent_id)) or next(
            (
                s
                for (folder, key), s in by_id.items()
                if folder == chats and key[:8] == parent_id[:8]
            ),
            None,
        )
        info = SubagentFile(path, path.name.split(".", 1)[0], "nested", None, None, parent_id)
        if owner is not None:
            owner.subagents.append(info)
            continue
        found.orphans.append(info)
        where = places.locate(path, _folder(path))
        sessions[str(path)] = SessionFile(
            path, info.agent_id, project_of(where), stat[0], stat[1], orphan=info, agent="gemini"
        )
    found.sessions.extend(sessions.values())


def _stat(path: Path, found: Discovery) -> tuple[int, float] | None:
    stat = found.stat(path)
    return None if stat is None else (stat.st_size, stat.st_mtime_ns / 1e9)


def load(file: SessionFile) -> Session:
    """The session of a discovered recording, its subagents attached (a subagent's recording
    that cannot be read is left out with a diagnostic). Raises ``OSError`` when the
    recording cannot be read."""
    where = _Places().locate(file.path, _folder(file.path))
    where.project = file.project
    session = load_file(file.path, where, file.mtime)
    if file.orphan is not None:
        _as_orphan(session, file.orphan.parent_session_id)
    for sub in file.subagents:
        try:
            agent = load_file(sub.path, Located(file.project, where.cwd), _mtime(sub.path))
        except OSError as error:
            session.diagnostics.append(Diagnostic(sub.path, 0, f"cannot read: {error}"))
            continue
        _add(session, agent)
    return session


def assemble(session_id: str, project: str, files: Sequence[SourceFile]) -> Session:
    """The session of ``files`` (a recording and its subagents' recordings) from their bytes,
    as the index keeps them."""
    main = next(source for source in files if source.role == "session")
    session = assemble_chat(_read(main), Located(project), main.mtime)
    if main.parent_session_id is not None and main.agent_id is not None:
        _as_orphan(session, main.parent_session_id)
    cwd = session.cwd
    for source in files:
        if source.role != "subagent":
            continue
        agent = assemble_chat(_read(source), Located(project, cwd), source.mtime)
        _add(session, agent)
    return session


def records(session_id: str, project: str, files: Sequence[SourceFile]) -> list[FileRecords]:
    """The records of ``files`` (a recording, then its subagents' recordings), as
    :func:`assemble` would assemble them (each subagent under the session, named by its
    recording's session id), for the index: a tool result's structured result says only
    whether the call was interrupted (see :func:`.assemble.chat_records`)."""
    main = next(source for source in files if source.role == "session")
    chat = _read(main)
    entries, own_id = chat_records(chat, Located(project), raw_results=False)
    orphan = main.parent_session_id is not None and main.agent_id is not None
    found = [FileRecords.of(main.path, "session", own_id if orphan else None, entries, chat)]
    # The session's directory, as its assembled session gives it to its subagents.
    cwd = next(
        (e.record.cwd for e in entries if isinstance(e.record, ChainRecord) and e.record.cwd),
        None,
    )
    for source in files:
        if source.role != "subagent":
            continue
        chat = _read(source)
        entries, agent_id = chat_records(chat, Located(project, cwd), raw_results=False)
        found.append(FileRecords.of(source.path, "subagent", agent_id, entries, chat))
    return found


def _read(source: SourceFile) -> ChatFile:
    """What was read of ``source``'s bytes: the index's own read when it covers them all."""
    found = source.read
    if isinstance(found, ChatFile) and found.end_offset == len(source.data):
        return found
    return read_chat_data(source.path, source.data)


def _add(session: Session, agent: Session) -> None:
    agent.agent_id = agent.session_id
    attach(session, agent)
    session.subagents.append(agent)


def _as_orphan(session: Session, parent: str | None) -> None:
    session.agent_id = session.session_id
    session.orphan = True
    session.parent_session_id = parent


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> ChatFile:
    """A recording's bytes read (a ``.jsonl`` from ``start_offset``, after ``start_line``
    lines; a ``.json`` whole): its problems and where what was read ends."""
    return read_chat_data(path, data, start_offset, start_line)


def resume_argv(session_id: str, fork: bool = False, at: str | None = None) -> list[str]:
    """``gemini --resume <session id>``, run in the session's directory (gemini-cli looks a
    session up among the recordings of the project it is started in). Gemini CLI cannot fork
    a session."""
    if fork or at is not None:
        raise ValueError("Gemini CLI cannot fork a session; resume it instead")
    return [GEMINI, "--resume", session_id]


__all__ = [
    "GEMINI",
    "assemble",
    "claims",
    "gemini_homes",
    "group",
    "load",
    "project_of",
    "read_data",
    "recorded_hash",
    "resume_argv",
    "transcript_roots",
]
