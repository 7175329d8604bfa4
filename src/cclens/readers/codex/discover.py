"""Find Codex CLI's threads: ``$CODEX_HOME`` (else ``~/.codex``), its ``sessions/YYYY/MM/DD/``
and ``archived_sessions/`` folders, or any folder holding rollout files.

A rollout file (``rollout-<time>-<thread id>.jsonl``) is one thread. A thread another one
spawned (its ``session_meta`` ``source`` is ``{"subagent": {"thread_spawn": {"parent_thread_id":
...}}}``, or ``{"subagent": "review"}`` with a ``parent_thread_id``) belongs to the session of
the thread that spawned it, as a subagent; when that thread's file is not found, it is a session
of its own, marked as a subagent without its parent (an *orphan*). Every other thread is a
session, grouped with the other agents' sessions of the same working directory (its project is
:func:`cclens.readers.discovery.slug` of the directory).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import msgspec

from ...files import open_regular
from ..discovery import Discovery, FoundFile, SessionFile, SubagentFile, slug

#: The folders of a Codex home that hold rollout files.
SESSIONS = "sessions"
ARCHIVED = "archived_sessions"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_ROLLOUT = re.compile(rf"rollout-.*?({_UUID})\.jsonl$")
_HEAD_LINES = 24
_HEAD_BYTES = 256 * 1024
_LINE_LIMIT = 8 << 20
_CWD = re.compile(r"<cwd>([^<\n]+)</cwd>")
#: The project of a thread whose directory no line says.
NO_DIRECTORY = "codex"


def codex_homes(environ: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Where Codex CLI keeps its files: ``$CODEX_HOME``, else ``~/.codex`` (whether or not it
    exists)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    configured = environ.get("CODEX_HOME", "").strip()
    return [Path(configured).expanduser()] if configured else [home / ".codex"]


def transcript_roots(root: Path) -> list[Path]:
    """The folders of ``root`` that hold rollout files when it is a Codex home
    (``sessions/``, ``archived_sessions/``); empty when it is not one."""
    return [root / name for name in (SESSIONS, ARCHIVED) if (root / name).is_dir()]


def is_rollout_name(name: str) -> bool:
    """Whether a file name is a rollout file's."""
    return name.startswith("rollout-") and name.endswith(".jsonl")


def looks_like_rollout(head: bytes) -> bool:
    """Whether a file's first bytes are a rollout file's first line: a ``session_meta`` line,
    or the bare header of mid-2025 files (``{"id": ..., "timestamp": ..., "instructions"``)."""
    start = head.lstrip()[:600]
    if not start.startswith(b"{"):
        return False
    if b'"type":"session_meta"' in start or b'"type": "session_meta"' in start:
        return True
    return start.startswith(b'{"id":') and b'"instructions"' in start and b'"type"' not in start


class ThreadHead(msgspec.Struct):
    """What a rollout file's first lines say about its thread."""

    thread_id: str | None = None
    cwd: str | None = None
    source: str | None = None
    parent_thread_id: str | None = None
    started: str | None = None


def _source(value: object, meta: Mapping[str, object]) -> tuple[str | None, str | None]:
    parent = meta.get("parent_thread_id")
    parent_id = parent if isinstance(parent, str) and parent else None
    if isinstance(value, str):
        return value, parent_id
    if isinstance(value, dict):
        subagent = value.get("subagent")
        if subagent == "review" or (isinstance(subagent, dict) and "review" in subagent):
            return "review", parent_id
        if isinstance(subagent, dict):
            spawn = subagent.get("thread_spawn")
            if isinstance(spawn, dict):
                found = spawn.get("parent_thread_id")
                if isinstance(found, str) and found:
                    parent_id = found
            return "subagent", parent_id
        if subagent is not None:
            return "subagent", parent_id
    return None, parent_id


def read_head(path: Path) -> ThreadHead:
    """The thread's id, directory, source and parent, from the first lines of ``path`` (empty
    when they cannot be read)."""
    head = ThreadHead()
    try:
        with open_regular(path) as handle:
            read = 0
            for _ in range(_HEAD_LINES):
                line = handle.readline(_LINE_LIMIT)
                if not line:
                    break
                read += len(line)
                _read_head_line(line, head)
                if head.thread_id and head.cwd:
                    break
                if read > _HEAD_BYTES:
                    break
    except OSError:
        return head
    return head


def _read_head_line(line: bytes, head: ThreadHead) -> None:
    try:
        value = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return
    if not isinstance(value, dict):
        return
    if value.get("type") == "session_meta" and isinstance(value.get("payload"), dict):
        meta = value["payload"]
        if head.thread_id is None:
            for key in ("session_id", "id"):
                found = meta.get(key)
                if isinstance(found, str) and found:
                    head.thread_id = found
                    break
            cwd = meta.get("cwd")
            head.cwd = cwd if isinstance(cwd, str) and cwd else head.cwd
            head.source, head.parent_thread_id = _source(meta.get("source"), meta)
            started = meta.get("timestamp")
            head.started = started if isinstance(started, str) else None
        return
    if head.thread_id is None and "type" not in value and isinstance(value.get("id"), str):
        head.thread_id = value["id"]
        started = value.get("timestamp")
        head.started = started if isinstance(started, str) else None
        return
    if head.cwd is None:
        # Mid-2025 files say the directory only in the context Codex gives the model.
        text = value.get("payload", value)
        if isinstance(text, dict) and text.get("type") == "message":
            match = _CWD.search(msgspec.json.encode(text.get("content")).decode())
            if match:
                head.cwd = match.group(1).strip()
        elif isinstance(text, dict) and text.get("type") == "turn_context":
            cwd = text.get("cwd")
            head.cwd = cwd if isinstance(cwd, str) and cwd else None


def thread_id_of(path: Path, head: ThreadHead) -> str:
    """A thread's id: its ``session_meta``'s, else the one in the file's name."""
    if head.thread_id:
        return head.thread_id
    match = _ROLLOUT.search(path.name)
    return match.group(1) if match else path.stem


def project_of(cwd: str | None) -> str:
    """The project of a thread run in ``cwd``: the folder name Claude Code would give it."""
    return slug(cwd) if cwd else NO_DIRECTORY


def group(files: Iterable[FoundFile], found: Discovery) -> None:
    """Codex's sessions among ``files`` (rollout files), each with the subagent threads it
    spawned, added to ``found``."""
    threads: dict[str, tuple[Path, ThreadHead, os.stat_result]] = {}
    for path, _, _ in files:
        stat = found.stat(path)
        if stat is None:
            continue
        head = read_head(path)
        thread = thread_id_of(path, head)
        known = threads.get(thread)
        # The same thread in two places (sessions/ and archived_sessions/): the larger file.
        if known is None or stat.st_size > known[2].st_size:
            threads[thread] = (path, head, stat)
    sessions: dict[str, SessionFile] = {}
    children: list[tuple[str, Path, ThreadHead]] = []
    for thread, (path, head, stat) in threads.items():
        if head.source in ("subagent", "review") and head.parent_thread_id:
            children.append((thread, path, head))
            continue
        sessions[thread] = SessionFile(
            path,
            thread,
            project_of(head.cwd),
            stat.st_size,
            stat.st_mtime_ns / 1e9,
            agent="codex",
        )
    parents = {thread: head.parent_thread_id for thread, _, head in children}
    for thread, path, head in children:
        info = SubagentFile(path, thread, "thread", None, None, head.parent_thread_id)
        root = _root(thread, parents)
        owner = sessions.get(root) if root is not None else None
        if owner is not None:
            owner.subagents.append(info)
            continue
        found.orphans.append(info)
        _, _, stat = threads[thread]
        orphan = SessionFile(
            path,
            thread,
            project_of(head.cwd),
            stat.st_size,
            stat.st_mtime_ns / 1e9,
            orphan=info,
            agent="codex",
        )
        sessions[thread] = orphan
    found.sessions.extend(sessions.values())


def _root(thread: str, parents: Mapping[str, str | None]) -> str | None:
    """The thread at the top of ``thread``'s chain of parents (``None`` past a cycle)."""
    seen = {thread}
    current: str | None = parents.get(thread)
    while current is not None and current in parents:
        if current in seen:
            return None
        seen.add(current)
        current = parents[current]
    return current
