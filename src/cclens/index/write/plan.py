"""Decide what an index update has to read: compare what is on disk with what is stored.

A file is read again only when its size or modification time changed. It is then read from the
byte offset the last update reached, unless it shrank or its first bytes differ from those
stored: a rewritten file is read again from the start, and its old bytes are kept as a version.
(The worker also checks that the bytes before that offset are still those stored, against their
hash: a file edited in place without changing its first bytes is a new version too.) Files
that disappeared from a folder being indexed are marked missing; a session whose transcript is
missing is archived, and stays in the index whole.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...files import read_regular
from ...readers import agents
from ...readers.discovery import SessionFile
from ..extract import EXTRACT_VERSION

#: How many leading bytes of each file are kept to notice that it was rewritten.
HEAD_BYTES = 1024


@dataclass(slots=True)
class FileTask:
    """One file of a session: what is stored of it, and whether to read it now."""

    path: str
    role: str
    relative: str
    position: int
    agent_id: str | None = None
    layout: str | None = None
    workflow_run: str | None = None
    parent_session_id: str | None = None
    file_id: int | None = None
    #: Bytes of the file already stored, and the line number they end at.
    stored: int = 0
    stored_lines: int = 0
    read: bool = False
    #: Drop what is stored and read the file from its first byte.
    reset: bool = False
    size: int = 0
    mtime_ns: int = 0
    #: The hash of the bytes stored (``None``: not known yet, see cclens.index.storage.versions).
    digest: str | None = None

    @property
    def to_read(self) -> int:
        """Bytes this update will read from the file."""
        if not self.read:
            return 0
        return self.size if self.reset else max(self.size - self.stored, 0)


@dataclass(slots=True)
class SessionTask:
    """Everything to do for one session: the files to read, the documents to derive."""

    db_path: str
    path: str
    session_id: str
    project: str
    session_row: int | None
    files: list[FileTask] = field(default_factory=list)
    #: Derive every document again (the extraction changed, or the session is new).
    rederive: bool = False
    #: The key of a new session, chosen before any work so it never depends on which worker
    #: finishes first (see :func:`cclens.index.write.write.assign_keys`).
    key: str | None = None
    #: The agent that wrote the session (see :mod:`cclens.readers.agents`).
    agent: str = "claude"
    #: The session's path inside the folder it was found in: a new session whose id another
    #: file holds takes its key from it, the same on every machine (see ``assign_keys``).
    inside: str = ""

    @property
    def to_read(self) -> int:
        return sum(f.to_read for f in self.files)


@dataclass(slots=True)
class Plan:
    """The tasks of an update, and the stored files no longer found on disk."""

    tasks: list[SessionTask] = field(default_factory=list)
    #: ``(file row, session row, role)`` of stored files that disappeared.
    missing: list[tuple[int, int, str]] = field(default_factory=list)
    errors: list[tuple[Path, str]] = field(default_factory=list)
    files_seen: int = 0

    @property
    def to_read(self) -> int:
        return sum(task.to_read for task in self.tasks)


@dataclass(slots=True)
class _Known:
    file_id: int
    session_row: int
    path: str
    relative: str
    role: str
    position: int
    agent_id: str | None
    layout: str | None
    workflow_run: str | None
    parent_session_id: str | None
    size: int
    mtime_ns: int
    stored: int
    lines: int
    missing: bool
    digest: str | None


@dataclass(slots=True)
class _KnownSession:
    row: int
    path: str
    session_id: str
    project: str
    doc_version: int
    archived: bool
    agent: str = "claude"


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return path.name


def _head_matches(path: str, head: bytes) -> bool:
    try:
        return read_regular(path, len(head)) == head
    except OSError:
        return False


def _decide(task: FileTask, known: _Known | None, heads: Callable[[int], bytes]) -> None:
    """Set whether and from where ``task`` is read, given what is stored of it.

    ``heads`` gives the first bytes stored of a file (only wanted for a file that changed).
    """
    if known is None:
        task.read = task.reset = True
        return
    task.file_id = known.file_id
    task.stored, task.stored_lines = known.stored, known.lines
    task.digest = known.digest
    unchanged = task.size == known.size and task.mtime_ns == known.mtime_ns
    # Stored short of the size: an index written before incomplete last lines were stored
    # (they are now), whose tail is taken now.
    if unchanged and not known.missing and known.stored >= task.size:
        return
    task.read = True
    if task.size < known.stored or not _head_matches(task.path, heads(known.file_id)):
        task.reset = True


def _stat(path: Path, errors: list[tuple[Path, str]]) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError as error:
        errors.append((path, error.strerror or str(error)))
        return None
    return stat.st_size, stat.st_mtime_ns


def _under(path: str, roots: Iterable[Path]) -> bool:
    return any(path == str(root) or path.startswith(str(root) + os.sep) for root in roots)


_FILE_COLUMNS = (
    "f.id, f.session, f.path, f.relative, f.role, f.position, f.agent_id, f.layout, "
    "f.workflow_run, f.parent_session_id, f.size, f.mtime_ns, f.offset, f.lines, f.missing, "
    "f.digest"
)
_SESSION_COLUMNS = "s.id, s.path, s.session_id, p.slug, s.doc_version, s.archived, s.agent"


def _known_file(row: tuple[Any, ...]) -> _Known:
    return _Known(
        file_id=row[0],
        session_row=row[1],
        path=row[2],
        relative=row[3],
        role=row[4],
        position=row[5],
        agent_id=row[6],
        layout=row[7],
        workflow_run=row[8],
        parent_session_id=row[9],
        size=row[10],
        mtime_ns=row[11],
        stored=row[12],
        lines=row[13],
        missing=row[14] is not None,
        digest=row[15],
    )


def _load_known(
    connection: sqlite3.Connection, paths: Collection[str] | None = None
) -> tuple[dict[str, _Known], list[_KnownSession]]:
    """What the index holds: every file and session, or only the sessions owning ``paths``."""
    if paths is None:
        file_rows = connection.execute(f"SELECT {_FILE_COLUMNS} FROM files f").fetchall()
        session_rows = connection.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project"
        ).fetchall()
    else:
        connection.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (path TEXT PRIMARY KEY)")
        connection.execute("DELETE FROM temp.wanted")
        connection.executemany(
            "INSERT OR IGNORE INTO temp.wanted VALUES (?)", [(p,) for p in paths]
        )
        owners = "SELECT session FROM files WHERE path IN (SELECT path FROM temp.wanted)"
        file_rows = connection.execute(
            f"SELECT {_FILE_COLUMNS} FROM files f WHERE f.session IN ({owners})"
        ).fetchall()
        session_rows = connection.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project "
            f"WHERE s.id IN ({owners})"
        ).fetchall()
    files = {row[2]: _known_file(row) for row in file_rows}
    sessions = [
        _KnownSession(row[0], row[1], row[2], row[3], row[4], row[5] is not None, row[6])
        for row in session_rows
    ]
    return files, sessions


def _task_from_known(known: _Known) -> FileTask:
    """A task for a stored file, not read unless :func:`_decide` says so."""
    return FileTask(
        known.path,
        known.role,
        known.relative,
        known.position,
        known.agent_id,
        known.layout,
        known.workflow_run,
        known.parent_session_id,
        file_id=known.file_id,
        stored=known.stored,
        stored_lines=known.lines,
        size=known.size,
        mtime_ns=known.mtime_ns,
        digest=known.digest,
    )


def _session_files(session: SessionFile) -> list[FileTask]:
    folder = session.path.parent
    found = [FileTask(str(session.path), "session", session.path.name, 0)]
    if session.orphan is not None:  # a subagent transcript kept as a session of its own
        orphan = session.orphan
        found[0].agent_id, found[0].layout = orphan.agent_id, orphan.layout
        found[0].workflow_run, found[0].parent_session_id = (
            orphan.workflow_run,
            orphan.parent_session_id,
        )
    for position, agent in enumerate(session.subagents, start=1):
        found.append(
            FileTask(
                str(agent.path),
                "subagent",
                _relative(agent.path, folder),
                position,
                agent.agent_id,
                agent.layout,
                agent.workflow_run,
                agent.parent_session_id,
            )
        )
    offset = len(found)
    for position, journal in enumerate(session.journals, start=offset):
        found.append(FileTask(str(journal), "journal", _relative(journal, folder), position))
    return found


@dataclass(slots=True)
class _Candidate:
    """A session found on disk (an orphan subagent file is one, see
    :mod:`cclens.readers.claude`)."""

    path: str
    session_id: str
    project: str
    files: list[FileTask]
    agent: str = "claude"
    #: The path inside the folder it was found in (the key's suffix, see ``SessionTask.inside``).
    inside: str = ""


def _inside(path: Path, roots: list[Path]) -> str:
    """The path of a file inside the first of the folders given that holds it."""
    for root in roots:
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return path.as_posix()


def _candidates(roots: list[Path], plan: Plan) -> list[_Candidate]:
    if not roots:
        return []
    found = agents.discover(*roots)
    plan.errors.extend(found.errors)
    return [
        _Candidate(
            str(s.path),
            s.session_id,
            s.project,
            _session_files(s),
            s.agent,
            _inside(s.path, roots),
        )
        for s in found.sessions
    ]


@dataclass(slots=True)
class _Stored:
    """What the index holds, keyed for the comparisons a plan makes."""

    connection: sqlite3.Connection
    files: dict[str, _Known]
    sessions: list[_KnownSession]
    by_path: dict[str, _KnownSession] = field(default_factory=dict)
    by_row: dict[int, _KnownSession] = field(default_factory=dict)
    files_of: dict[int, list[_Known]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_path = {session.path: session for session in self.sessions}
        self.by_row = {session.row: session for session in self.sessions}
        for known in self.files.values():
            self.files_of.setdefault(known.session_row, []).append(known)

    def head(self, file_id: int) -> bytes:
        """The first bytes stored of a file (kept out of the bulk load: a KB per file)."""
        row = self.connection.execute("SELECT head FROM files WHERE id = ?", (file_id,))
        found = row.fetchone()
        return bytes(found[0]) if found else b""

    def owner(self, path: str) -> _KnownSession | None:
        """The stored session a file found on disk belongs to."""
        owner = self.by_path.get(path)
        if owner is None and (known := self.files.get(path)) is not None:
            owner = self.by_row.get(known.session_row)
        return owner


def _session_task(
    candidate: _Candidate,
    owner: _KnownSession | None,
    stored: _Stored,
    plan: Plan,
    seen: set[str],
    scan: dict[str, tuple[int, int]],
) -> SessionTask | None:
    """The work for one session found on disk, or ``None`` when it is up to date."""
    tasks: dict[str, FileTask] = {}
    if owner is not None:
        for stored_file in stored.files_of.get(owner.row, []):
            tasks[stored_file.path] = _task_from_known(stored_file)
    discovered = {task.path for task in candidate.files}
    for task in candidate.files:
        known = stored.files.get(task.path)
        if known is not None and owner is not None and known.session_row != owner.row:
            continue  # stored with another session: it stays there
        tasks.setdefault(task.path, task)
    for task in tasks.values():
        if task.path not in discovered:
            continue  # stored but not found now: see the missing files
        stat = scan.get(task.path) or _stat(Path(task.path), plan.errors)
        if stat is None:
            continue
        seen.add(task.path)
        task.size, task.mtime_ns = stat
        _decide(task, stored.files.get(task.path), stored.head)
    plan.files_seen += len(discovered)
    files = sorted(tasks.values(), key=lambda t: (t.position, t.path))
    rederive = owner is None or owner.doc_version < EXTRACT_VERSION
    if not rederive and not any(task.read for task in files):
        return None
    if owner is None:
        return SessionTask(
            "",
            candidate.path,
            candidate.session_id,
            candidate.project,
            None,
            files,
            True,
            agent=candidate.agent,
            inside=candidate.inside,
        )
    return SessionTask(
        "",
        owner.path,
        owner.session_id,
        owner.project,
        owner.row,
        files,
        rederive,
        agent=owner.agent,
    )


def scan_sizes(roots: list[Path]) -> dict[str, tuple[int, int]] | None:
    """Every transcript file under ``roots`` with its size and modification time.

    A plain ``os.scandir`` walk, much cheaper than discovery: when it finds only files the
    index already knows, the update needs no discovery at all. ``None`` when a folder could not
    be read (discovery then reports it).
    """
    found: dict[str, tuple[int, int]] = {}
    pending: list[str] = []
    suffixes = agents.suffixes()
    for root in _transcript_roots(roots):
        if root.is_file():
            stat = root.stat()
            found[str(root)] = (stat.st_size, stat.st_mtime_ns)
        elif root.is_dir():
            pending.append(str(root))
        elif root.is_symlink() or root.exists():
            return None  # a FIFO, a device, a dangling link: discovery names it
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.name.endswith(suffixes) and not entry.is_file():
                        return None  # a FIFO, a device, a dangling link: discovery names it
                    elif entry.name.endswith(suffixes):
                        if entry.name == "journal.jsonl" and f"{os.sep}workflows{os.sep}" in (
                            entry.path
                        ):
                            continue  # stored with its session when discovery attaches it
                        stat = entry.stat()
                        found[entry.path] = (stat.st_size, stat.st_mtime_ns)
        except OSError:
            return None
    return found


def _quick_plan(
    stored: _Stored, scan: dict[str, tuple[int, int]], plan: Plan, seen: set[str]
) -> None:
    """Plan from the index alone: every file on disk is known, so no discovery is needed."""
    changed_rows: set[int] = set()
    for path, (size, mtime_ns) in scan.items():
        known = stored.files[path]
        seen.add(path)
        changed = (size, mtime_ns) != (known.size, known.mtime_ns) or known.stored < size
        if known.missing or changed:
            changed_rows.add(known.session_row)
    plan.files_seen = len(scan)
    for row in sorted(changed_rows):
        owner = stored.by_row.get(row)
        if owner is None:
            continue
        files = []
        for known in stored.files_of.get(row, []):
            task = _task_from_known(known)
            if known.path in scan:
                task.size, task.mtime_ns = scan[known.path]
                _decide(task, known, stored.head)
            files.append(task)
        files.sort(key=lambda t: (t.position, t.path))
        rederive = owner.doc_version < EXTRACT_VERSION
        plan.tasks.append(
            SessionTask(
                "",
                owner.path,
                owner.session_id,
                owner.project,
                row,
                files,
                rederive,
                agent=owner.agent,
            )
        )


def _full_plan(
    stored: _Stored,
    roots: list[Path],
    plan: Plan,
    seen: set[str],
    scan: dict[str, tuple[int, int]],
) -> None:
    """Plan from discovery: new sessions, new subagent files, and changed known files.

    ``scan`` holds the size and modification time of the files :func:`scan_sizes` just saw.
    """
    visited: set[int] = set()
    for candidate in _candidates(roots, plan):
        owner = stored.owner(candidate.path)
        if owner is not None:
            if owner.row in visited:
                continue
            visited.add(owner.row)
        task = _session_task(candidate, owner, stored, plan, seen, scan)
        if task is not None:
            plan.tasks.append(task)


def _changed_plan(
    connection: sqlite3.Connection, db_path: Path, roots: list[Path], changed: Collection[str]
) -> Plan | None:
    """The plan for a few paths a file watcher reported, or ``None`` when one of them is new
    to the index (discovery must then place it)."""
    scanned = [root for root in _transcript_roots(roots) if root.is_dir()]
    wanted = {path for path in changed if _under(path, scanned)}
    stored = _Stored(connection, *_load_known(connection, wanted))
    scan: dict[str, tuple[int, int]] = {}
    plan = Plan()
    for path in wanted:
        try:
            stat = os.stat(path)
        except OSError:
            known = stored.files.get(path)
            if known is not None and not known.missing:
                plan.missing.append((known.file_id, known.session_row, known.role))
            continue
        if path not in stored.files:
            if path.endswith(agents.suffixes()) and not (
                path.endswith(f"{os.sep}journal.jsonl") and f"{os.sep}workflows{os.sep}" in path
            ):
                return None
            continue
        scan[path] = (stat.st_size, stat.st_mtime_ns)
    _quick_plan(stored, scan, plan, set())
    for task in plan.tasks:
        task.db_path = str(db_path)
    return plan


def make_plan(
    connection: sqlite3.Connection,
    db_path: Path,
    roots: list[Path],
    changed: Collection[str] | None = None,
    *,
    scan: dict[str, tuple[int, int]] | None = None,
) -> Plan:
    """Compare the transcripts under ``roots`` with the index and list what to do.

    ``changed``: the only paths that may have changed (from a file watcher); the rest of the
    folders is then not even listed, unless one of those paths is new to the index. ``scan``:
    what :func:`scan_sizes` just found under ``roots``, when the caller has it.
    """
    if changed is not None:
        targeted = _changed_plan(connection, db_path, roots, changed)
        if targeted is not None:
            return targeted
    plan = Plan()
    stored = _Stored(connection, *_load_known(connection))
    seen: set[str] = set()
    if scan is None:
        scan = scan_sizes(roots) if roots else {}
    if scan is not None and all(path in stored.files for path in scan):
        _quick_plan(stored, scan, plan, seen)
    else:
        _full_plan(stored, roots, plan, seen, scan or {})

    scanned = [root for root in _transcript_roots(roots) if root.is_dir()]
    for known in stored.files.values():
        if known.path in seen or known.missing or not _under(known.path, scanned):
            continue
        if not os.path.exists(known.path):
            plan.missing.append((known.file_id, known.session_row, known.role))

    # Sessions whose documents predate the current extraction, wherever their files are: they
    # are derived again from the stored bytes.
    planned = {task.session_row for task in plan.tasks}
    for session in stored.sessions:
        if session.row in planned or session.doc_version >= EXTRACT_VERSION:
            continue
        files = [_task_from_known(known) for known in stored.files_of.get(session.row, [])]
        files.sort(key=lambda t: (t.position, t.path))
        plan.tasks.append(
            SessionTask(
                "",
                session.path,
                session.session_id,
                session.project,
                session.row,
                files,
                True,
                agent=session.agent,
            )
        )
    for task in plan.tasks:
        task.db_path = str(db_path)
    return plan


def _transcript_roots(roots: Iterable[Path]) -> list[Path]:
    """The folders an update walks: each agent home's transcript folders, other folders as
    they are (see :func:`cclens.readers.agents.scanned_roots`)."""
    return agents.scanned_roots(roots)
