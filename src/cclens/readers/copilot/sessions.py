"""GitHub Copilot CLI as the agent registry (:mod:`cclens.readers.agents`) sees it: its home,
which files are its session logs, its sessions among found files, a session loaded from disk
or assembled from the bytes the index keeps, and the command that resumes one.

A session is one log: ``session-state/<session id>/events.jsonl`` (before 0.0.34x, the flat
``session-state/<session id>.jsonl``). Its project is the folder name Claude Code would give
its directory (:func:`cclens.readers.discovery.slug` of the ``session.start`` context's
``cwd``), so a project holds every agent's sessions of that directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import msgspec

from ...files import open_regular
from ..discovery import Discovery, FoundFile, SessionFile, SourceFile, slug

if TYPE_CHECKING:
    from ...model.session import Session
    from .assemble import EventFile

#: The program that runs Copilot CLI.
COPILOT = "copilot"
#: The project of a session whose log names no directory.
NO_DIRECTORY = "copilot"
_TYPE = re.compile(rb'"type"\s*:\s*"([a-z_]+\.[a-z_.]+)"')
_HEAD_LINE = 64 * 1024


def copilot_homes(environ: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Where Copilot CLI keeps its files: ``$COPILOT_HOME``, else ``~/.copilot`` (whether or
    not it exists)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    configured = environ.get("COPILOT_HOME", "").strip()
    return [Path(configured).expanduser() if configured else home / ".copilot"]


def transcript_roots(folder: Path) -> list[Path]:
    """``session-state/`` of a Copilot CLI home; empty for any other folder."""
    state = folder / "session-state"
    return [state] if state.is_dir() else []


def looks_like_events(head: bytes) -> bool:
    """Whether a file's first bytes are a Copilot CLI event: an object whose ``type`` is a
    dotted kind (``session.start``, ``user.message``) with its ``data`` (Claude Code's record
    types have no dot)."""
    start = head.lstrip()[:2048]
    if not start.startswith(b"{") or b'"data"' not in start:
        return False
    return _TYPE.search(start) is not None


def claims(path: Path, head: Callable[[], bytes]) -> bool:
    """Whether ``path`` is a Copilot CLI session log: ``events.jsonl`` or a ``.jsonl`` in a
    ``session-state`` folder whose first line is a Copilot event."""
    name = path.name
    if not name.endswith(".jsonl"):
        return False
    if name != "events.jsonl" and path.parent.name != "session-state":
        return False
    return looks_like_events(head())


def _session_of(path: Path) -> str:
    return path.parent.name if path.name == "events.jsonl" else path.name.removesuffix(".jsonl")


def _start(path: Path) -> tuple[str | None, str | None]:
    """The session id and working directory the log's ``session.start`` says."""
    try:
        with open_regular(path) as handle:
            line = handle.readline(_HEAD_LINE)
    except OSError:
        return None, None
    try:
        event = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None, None
    data = event.get("data") if isinstance(event, dict) else None
    if not isinstance(data, dict):
        return None, None
    context = data.get("context")
    cwd = context.get("cwd") if isinstance(context, dict) else None
    session_id = data.get("sessionId")
    return (
        session_id if isinstance(session_id, str) and session_id else None,
        cwd if isinstance(cwd, str) and cwd else None,
    )


def group(files: Iterable[FoundFile], found: Discovery) -> None:
    """Copilot CLI's sessions among ``files`` (session logs), added to ``found``."""
    for path, _, _ in files:
        stat = found.stat(path)
        if stat is None:
            continue
        session_id, cwd = _start(path)
        found.sessions.append(
            SessionFile(
                path,
                session_id or _session_of(path),
                slug(cwd) if cwd else NO_DIRECTORY,
                stat.st_size,
                stat.st_mtime_ns / 1e9,
                agent="copilot",
            )
        )


def load(file: SessionFile) -> Session:
    """The session of a discovered log. Raises ``OSError`` when it cannot be read."""
    from .assemble import assemble_events, read_events

    return assemble_events(read_events(file.path), file.project, file.mtime)


def assemble(session_id: str, project: str, files: Sequence[SourceFile]) -> Session:
    """The session of a log from its bytes, as the index keeps them."""
    from ..lines import LinesRead
    from .assemble import EventFile, assemble_events, read_events

    main = next(source for source in files if source.role == "session")
    found = main.read
    if isinstance(found, LinesRead) and found.end_offset == len(main.data):
        # The index's own read of every byte: not read again.
        return assemble_events(cast(EventFile, found), project, main.mtime)
    return assemble_events(read_events(main.path, main.data), project, main.mtime)


def read_data(path: Path, data: bytes, start_offset: int = 0, start_line: int = 0) -> EventFile:
    """A log's bytes from ``start_offset`` (after ``start_line`` lines) read: its events, its
    problems and where its complete lines end."""
    from .assemble import read_events

    return read_events(path, data, start_offset, start_line)


def resume_argv(session_id: str, fork: bool = False, at: str | None = None) -> list[str]:
    """``copilot --resume <session id>``. Copilot CLI cannot fork a session."""
    if fork or at is not None:
        raise ValueError("Copilot CLI cannot fork a session; resume it instead")
    return [COPILOT, "--resume", session_id]


__all__ = [
    "COPILOT",
    "assemble",
    "claims",
    "copilot_homes",
    "group",
    "load",
    "looks_like_events",
    "read_data",
    "resume_argv",
    "transcript_roots",
]
