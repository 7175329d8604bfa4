"""What discovery finds: sessions, the files that belong to each, and what could not be read.

Every agent's reader fills these (:mod:`cclens.readers.agents` joins them): a
:class:`SessionFile` is a session's main transcript with the other files of the session (a
Claude Code session's subagent transcripts and workflow journals, a Codex thread's subagent
threads) and the agent it belongs to.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import msgspec

from ..files import regular_stat

#: How a subagent's file sits beside its session's: Claude Code's layouts (``sibling``,
#: ``nested``, ``workflow``), or a thread of its own (``thread``, Codex).
SubagentLayout = Literal["sibling", "nested", "workflow", "thread"]

#: A file found under a root: its path, the folder it was found under (a root, or the root's
#: transcript folder) and its path's parts below that folder.
FoundFile = tuple[Path, Path, tuple[str, ...]]


class SubagentFile(msgspec.Struct):
    """A subagent transcript and what is known about it before reading it."""

    path: Path
    agent_id: str
    layout: SubagentLayout
    meta: dict[str, Any] | None = None
    workflow_run: str | None = None
    #: The session the file belongs to, when its location or first record says so.
    parent_session_id: str | None = None

    @property
    def tool_use_id(self) -> str | None:
        """The spawning tool call's id, when the ``.meta.json`` sidecar records it."""
        if self.meta:
            for key in ("toolUseId", "toolUseID", "parentToolUseId", "parent_tool_use_id"):
                found = self.meta.get(key)
                if isinstance(found, str):
                    return found
        return None


class SessionFile(msgspec.Struct):
    """A session transcript with the subagent files found for it."""

    path: Path
    session_id: str
    project: str
    size: int
    mtime: float
    subagents: list[SubagentFile] = msgspec.field(default_factory=list)
    journals: list[Path] = msgspec.field(default_factory=list)
    #: Set for an orphan subagent transcript shown as a session of its own.
    orphan: SubagentFile | None = None
    #: The agent that wrote it (a name of :data:`cclens.readers.agents.READERS`).
    agent: str = "claude"


class Discovery(msgspec.Struct):
    """Everything found under some roots."""

    roots: list[Path]
    #: Every session: session files, and orphan subagent files as sessions of their own.
    sessions: list[SessionFile] = msgspec.field(default_factory=list)
    #: Subagent files whose session was not found (also in ``sessions``).
    orphans: list[SubagentFile] = msgspec.field(default_factory=list)
    #: Workflow journals whose session was not found.
    orphan_journals: list[Path] = msgspec.field(default_factory=list)
    #: Paths that could not be read (with the reason).
    errors: list[tuple[Path, str]] = msgspec.field(default_factory=list)

    def stat(self, path: Path) -> os.stat_result | None:
        """``path``'s status, or ``None`` with the reason added to :attr:`errors`."""
        try:
            return path.stat()
        except OSError as error:
            self.errors.append((path, error.strerror or str(error)))
            return None

    @property
    def projects(self) -> dict[str, list[SessionFile]]:
        """Sessions grouped by project (the folder Claude Code gave the project, or the one an
        agent's working directory would have: see :func:`cclens.readers.agents.project_of`)."""
        grouped: dict[str, list[SessionFile]] = {}
        for session in self.sessions:
            grouped.setdefault(session.project, []).append(session)
        return grouped

    @property
    def subagent_files(self) -> list[SubagentFile]:
        """Every subagent file, attached to a session or not."""
        return [agent for session in self.sessions for agent in session.subagents] + self.orphans

    def find(self, key: str) -> list[SessionFile]:
        """Sessions whose id equals or starts with ``key``, or whose path is ``key``."""
        exact = [s for s in self.sessions if s.session_id == key or str(s.path) == key]
        if exact:
            return exact
        return [s for s in self.sessions if s.session_id.startswith(key)]


class SourceFile(msgspec.Struct):
    """One file of a session with its bytes, as the index keeps it (or as read from disk):
    what a reader assembles a session from without looking at the disk again.

    ``role`` is ``session`` (the session's transcript), ``subagent`` or ``journal``; ``data``
    holds the file's bytes from its first byte up to where it was read. ``read`` is what the
    agent's own ``read`` made of exactly those bytes, when the caller already has it (the
    index's scan of a file read whole): a reader may use it rather than read them again.
    """

    path: Path
    role: str
    data: bytes
    agent_id: str | None = None
    layout: str | None = None
    workflow_run: str | None = None
    parent_session_id: str | None = None
    meta: bytes | None = None
    mtime: float = 0.0
    read: Any = None


def walk(
    root: Path, errors: list[tuple[Path, str]], suffixes: tuple[str, ...] = (".jsonl",)
) -> Iterable[tuple[Path, tuple[str, ...]]]:
    """Every regular file under ``root`` whose name ends with one of ``suffixes``, with its
    path's parts relative to ``root``, folders and names in sorted order (unreadable folders,
    and files that are not regular files, are added to ``errors``; links to folders are not
    followed)."""

    def on_error(error: OSError) -> None:
        errors.append((Path(error.filename or root), error.strerror or str(error)))

    prefix = len(os.fspath(root))
    for directory, dirnames, filenames in os.walk(root, onerror=on_error, followlinks=False):
        dirnames.sort()
        names = sorted(name for name in filenames if name.endswith(suffixes))
        if not names:
            continue
        # Parts computed from the strings os.walk joined: pathlib would parse each path twice.
        inner = directory[prefix:].strip(os.sep)
        parts = tuple(inner.split(os.sep)) if inner else ()
        folder = Path(directory)
        for name in names:
            if regular(folder / name, errors):
                yield folder / name, (*parts, name)


def regular(path: Path, errors: list[tuple[Path, str]]) -> bool:
    """Whether ``path`` is a regular file (links followed); a FIFO, a device, a socket or a
    dangling link is added to ``errors`` (:func:`cclens.files.regular_stat`): named, never
    opened."""
    try:
        regular_stat(path)
    except OSError as error:
        errors.append((path, error.strerror or str(error)))
        return False
    return True


def session_order(session: SessionFile) -> tuple[str, float, str]:
    """How discovery lists sessions: by project, then least recently written first."""
    return (session.project, session.mtime, session.session_id)


_NOT_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]")


def slug(path: str) -> str:
    """The folder name Claude Code gives a project: its path with every character that is not
    a letter or digit replaced by ``-``. Other agents' sessions are grouped by the same name
    of their working directory, so one project holds every agent's sessions."""
    return _NOT_ALPHANUMERIC.sub("-", path)


__all__ = [
    "Discovery",
    "FoundFile",
    "SessionFile",
    "SourceFile",
    "SubagentFile",
    "SubagentLayout",
    "session_order",
    "slug",
    "walk",
]
