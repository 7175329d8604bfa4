"""Codex threads as sessions: read, written as the session model's records, assembled, and the
subagent threads attached under the calls that spawned them.

A thread's file is read (:mod:`.read`), its lines written as records (:mod:`.translate`) and
assembled as any session (:func:`cclens.readers.claude.assemble_entries`: responses, calls
paired with their results, compactions, the title). A subagent thread is attached to the call
that spawned it: the ``collab_agent_spawn_end`` event (or the ``spawn_agent`` call's output)
names the thread it started; a thread whose spawning call is not found hangs under its parent
thread's session.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ...model.session import Session, ToolCall
from ..claude.assemble import assemble_entries
from ..claude.isolate import each_isolated
from ..discovery import SessionFile, SourceFile
from ..lines import LinesRead
from .read import CodexRead, read_data, read_file
from .translate import Thread, translate

#: The name Codex's readers, tools and sessions go by.
AGENT = "codex"
_THREAD_ID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


@dataclass(slots=True)
class Loaded:
    """A thread assembled, with what its file says about it."""

    session: Session
    thread: Thread


def assemble_read(
    path: Path, read: CodexRead, *, session_id: str, project: str, mtime: float = 0.0
) -> Loaded:
    """The session of one rollout file, from what was read of it."""
    entries, thread = translate(
        path, ((e.line, e.offset, e.length, e.record, e.notes) for e in read.entries)
    )
    session = assemble_entries(
        path,
        entries,
        list(read.diagnostics),
        session_id=session_id,
        project=project,
        file_size=read.end_offset,
        lines=read.lines,
        agent=AGENT,
    )
    session.mtime = mtime
    session.line_kinds = dict(thread.kinds)
    session.unknown_kinds = dict(thread.unknown)
    return Loaded(session, thread)


def _spawned_by(loaded: Loaded, thread_id: str) -> ToolCall | None:
    """The call of ``loaded`` that started thread ``thread_id``."""
    calls = loaded.session.tool_calls
    call_id = loaded.thread.spawned.get(thread_id)
    if call_id is not None and call_id in calls:
        return calls[call_id]
    for call in calls.values():
        if call.spec.spawns_subagent and thread_id in call.result_text:
            return call
    return None


def _unmatched_spawner(loaded: Loaded) -> ToolCall | None:
    """The first ``spawn_agent`` call of ``loaded`` whose thread is not known yet."""
    for call in loaded.session.tool_calls.values():
        if (
            call.spec.spawns_subagent
            and not call.subagents
            and not _THREAD_ID.search(call.result_text)
        ):
            return call
    return None


def attach_threads(root: Loaded, children: Sequence[tuple[Loaded, str | None]]) -> None:
    """Hang each child thread (with its parent thread's id) under the call that spawned it, or
    under its parent thread's session; a child whose parent is not among them goes under
    ``root``."""
    by_id: dict[str, Loaded] = {}
    for loaded in (root, *(child for child, _ in children)):
        thread = loaded.thread.thread_id or loaded.session.session_id
        by_id.setdefault(thread, loaded)
    for child, parent_id in children:
        parent = by_id.get(parent_id or "", root)
        if parent is child:
            parent = root
        thread_id = child.thread.thread_id or child.session.session_id
        call = _spawned_by(parent, thread_id) or _unmatched_spawner(parent)
        if call is not None:
            child.session.parent_tool_use_id = call.id
            call.subagents.append(child.session)
        parent.session.subagents.append(child.session)


def _child(loaded: Loaded, agent_id: str) -> Loaded:
    loaded.session.agent_id = agent_id
    return loaded


def load(file: SessionFile) -> Session:
    """Read and assemble a discovered Codex session, its subagent threads attached. A file that
    cannot be read raises ``OSError``; a subagent thread's file that cannot be read is left out
    with a diagnostic on the session."""
    root = assemble_read(
        file.path,
        read_file(file.path),
        session_id=file.session_id,
        project=file.project,
        mtime=file.mtime,
    )
    if file.orphan is not None:
        root.session.agent_id = file.orphan.agent_id
        root.session.orphan = True
        root.session.parent_session_id = file.orphan.parent_session_id
        return root.session
    children = list(
        each_isolated(
            file.subagents,
            lambda info: (
                _child(
                    assemble_read(
                        info.path,
                        read_file(info.path),
                        session_id=info.agent_id,
                        project=file.project,
                    ),
                    info.agent_id,
                ),
                info.parent_session_id,
            ),
            lambda info: info.path,
            root.session.diagnostics,
        )
    )
    attach_threads(root, children)
    return root.session


def _read(source: SourceFile) -> CodexRead:
    """What was read of ``source``'s bytes: its own ``read`` when it covers them all."""
    found = source.read
    if isinstance(found, LinesRead) and found.end_offset == len(source.data):
        return cast(CodexRead, found)
    return read_data(source.path, source.data)


def assemble(session_id: str, project: str, files: Iterable[SourceFile]) -> Session:
    """The session of ``files`` (its transcript, then its subagent threads) from their bytes."""
    sources = list(files)
    main = next(source for source in sources if source.role == "session")
    root = assemble_read(
        main.path,
        _read(main),
        session_id=session_id,
        project=project,
        mtime=main.mtime,
    )
    if main.agent_id is not None:  # an orphan subagent thread kept as a session of its own
        root.session.agent_id = main.agent_id
        root.session.orphan = True
        root.session.parent_session_id = main.parent_session_id
    children: list[tuple[Loaded, str | None]] = []
    for source in sources:
        if source.role != "subagent":
            continue
        agent_id = source.agent_id or source.path.stem
        loaded = assemble_read(
            source.path,
            _read(source),
            session_id=agent_id,
            project=project,
            mtime=source.mtime,
        )
        children.append((_child(loaded, agent_id), source.parent_session_id))
    attach_threads(root, children)
    return root.session
