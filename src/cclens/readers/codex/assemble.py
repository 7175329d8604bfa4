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

from ...model.codex import line_kind
from ...model.entries import Entry
from ...model.session import Session, ToolCall
from ..claude.assemble import assemble_entries
from ..claude.isolate import each_isolated
from ..discovery import SessionFile, SourceFile
from ..lines import LinesRead
from ..records import FileRecords
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


def _translated(path: Path, read: CodexRead) -> tuple[list[Entry], Thread]:
    entries, thread = translate(
        path, ((e.line, e.offset, e.length, e.record, e.notes) for e in read.entries)
    )
    for entry in read.entries:
        if entry.quiet is not None:  # lines of the entry's unknown kind, kept as written
            kind = line_kind(entry.record)
            thread.kinds[kind] += entry.quiet.count
            thread.unknown[kind] += entry.quiet.count
    return entries, thread


def assemble_read(
    path: Path, read: CodexRead, *, session_id: str, project: str, mtime: float = 0.0
) -> Loaded:
    """The session of one rollout file, from what was read of it."""
    entries, thread = _translated(path, read)
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


def thread_parents(threads: Sequence[str], parents: Sequence[str | None]) -> list[int]:
    """Where each child thread hangs: ``threads`` are the ids of the root thread and of its
    children, ``parents`` each child's parent thread id; for each child, the position in
    ``threads`` of its parent thread (the first with that id), or 0 (the root) when its parent
    is not among them or is itself."""
    by_id: dict[str, int] = {}
    for position, thread in enumerate(threads):
        by_id.setdefault(thread, position)
    found = []
    for position, parent_id in enumerate(parents, start=1):
        parent = by_id.get(parent_id or "", 0)
        found.append(0 if parent == position else parent)
    return found


def attach_threads(root: Loaded, children: Sequence[tuple[Loaded, str | None]]) -> None:
    """Hang each child thread (with its parent thread's id) under the call that spawned it, or
    under its parent thread's session; a child whose parent is not among them goes under
    ``root``."""
    loaded = [root, *(child for child, _ in children)]
    parents = thread_parents(
        [each.thread.thread_id or each.session.session_id for each in loaded],
        [parent_id for _, parent_id in children],
    )
    for (child, _), position in zip(children, parents, strict=True):
        parent = loaded[position]
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


def whole_read(source: SourceFile) -> CodexRead | None:
    """``source``'s own ``read`` when it is a read of all its bytes: from the first, up to the
    end or to a last line without a newline (a half-written line, which a read of the same
    bytes again would stop before too)."""
    found = source.read
    if (
        isinstance(found, LinesRead)
        and found.end_offset == found.bytes
        and found.end_offset <= len(source.data)
        and source.data.find(b"\n", found.end_offset) == -1
    ):
        return cast(CodexRead, found)
    return None


def _read(source: SourceFile) -> CodexRead:
    """What was read of ``source``'s bytes: its own ``read`` when it covers them all."""
    found = whole_read(source)
    return read_data(source.path, source.data) if found is None else found


def records(session_id: str, project: str, files: Iterable[SourceFile]) -> list[FileRecords]:
    """The records of ``files`` (a thread's file, then its subagent threads'), each file's in
    the order :func:`assemble` would list their sessions (the thread, then each subagent
    thread followed by those under it: :meth:`~cclens.model.session.Session.all_sessions`).
    A subagent thread whose parent chain never reaches the session is left out, as
    :func:`assemble` leaves it out of the session."""
    sources = list(files)
    main = next(source for source in sources if source.role == "session")
    read = _read(main)
    entries, thread = _translated(main.path, read)
    found = [FileRecords.of(main.path, "session", main.agent_id, entries, read)]
    threads = [thread.thread_id or session_id]
    parents: list[str | None] = []
    for source in sources:
        if source.role != "subagent":
            continue
        agent_id = source.agent_id or source.path.stem
        read = _read(source)
        entries, thread = _translated(source.path, read)
        found.append(FileRecords.of(source.path, "subagent", agent_id, entries, read))
        threads.append(thread.thread_id or agent_id)
        parents.append(source.parent_session_id)
    under: list[list[int]] = [[] for _ in found]
    for child, parent in enumerate(thread_parents(threads, parents), start=1):
        under[parent].append(child)
        found[child].direct = parent == 0
    ordered: list[FileRecords] = []
    stack = [0]
    while stack:
        position = stack.pop()
        ordered.append(found[position])
        stack.extend(reversed(under[position]))
    return ordered


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
