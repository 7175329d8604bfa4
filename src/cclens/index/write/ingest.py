"""Bring the index up to date with the transcripts on disk.

The plan (:mod:`.plan`) says which sessions need work; the work (:mod:`.worker`) runs in two
worker processes when there is a lot of it (a first index), in-line otherwise (a live session
that grew by a few lines); the main process writes each outcome (:mod:`.write`) in batched
transactions. The main process is the only writer, so a large update is arranged around it:
the workers start while it plans, get many small sessions per round trip, and keep a bounded
amount of work ahead of it; it commits rarely and checkpoints the write-ahead log more rarely.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from pathlib import Path

from ...model.entries import Diagnostic
from ..costs import prices_changed, prices_recorded
from ..storage.locking import end_with_parent, update_lock
from ..storage.schema import drop_bulk_indexes, restore_bulk_indexes
from .counted import settle
from .plan import Plan, SessionTask, make_plan, scan_sizes
from .worker import SessionOutcome, failed, process, process_all, process_all_into, read_outcomes
from .write import Writer, assign_keys, mark_missing

#: Called with (bytes done, bytes to do) as sessions are written.
Progress = Callable[[int, int], None]

#: Below this much to read, starting worker processes costs more than it saves.
POOL_THRESHOLD = 16 * 1024 * 1024
#: A transaction is committed after this many sessions or bytes read, so a reader sees
#: progress and a crash loses little.
BATCH_SESSIONS = 256
BATCH_BYTES = 64 * 1024 * 1024
#: Work goes to a worker process as one large session, or as small ones up to this many bytes
#: or sessions: a round trip costs about a millisecond, and a first index has thousands.
TASK_BYTES = 4 * 1024 * 1024
TASK_SESSIONS = 64
#: Bytes of work handed to the workers and not written yet: enough to keep them busy while the
#: main process commits, bounded so that results never pile up in memory.
IN_FLIGHT = 48 * 1024 * 1024
#: The write-ahead log grows to this size between checkpoints during a large update (else to
#: 1000 pages): the same pages are copied, with a fraction of the syncs.
BULK_CHECKPOINT_BYTES = 256 * 1024 * 1024


@dataclass(slots=True)
class UpdateReport:
    """What an update did."""

    files_seen: int = 0
    files_read: int = 0
    bytes_read: int = 0
    #: Keys of the sessions added, changed and archived.
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    #: Malformed lines and unreadable files met while reading (the rest was still indexed).
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Folders or files discovery could not read.
    errors: list[tuple[Path, str]] = field(default_factory=list)
    seconds: float = 0.0
    #: Documents given vectors for semantic search (0 without the model installed), and the
    #: seconds it took (included in ``seconds``).
    embedded: int = 0
    embed_seconds: float = 0.0

    @property
    def changed(self) -> list[str]:
        """Every session key the update touched."""
        return self.added + self.updated + self.archived


#: A session's task and what its work found.
Done = tuple[SessionTask, SessionOutcome]


def _in_line(tasks: list[SessionTask]) -> Iterator[Done]:
    for task in tasks:
        try:
            yield task, process(task)
        except Exception as error:  # one bad session must not stop the rest
            yield task, failed(task, error)


def _start_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes, started now (they take a moment to import cclens)."""
    # "spawn" rather than fork: the web app indexes from a thread, and forking a threaded
    # process can deadlock the child. The workers end with this process, however it ends.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=end_with_parent,
        initargs=(os.getpid(),),
    )
    for _ in range(workers):
        pool.submit(process_all, [])  # the executor starts a process per call it cannot place
    return pool


def _groups(tasks: list[SessionTask]) -> Iterator[list[SessionTask]]:
    """``tasks`` (largest first) in groups sent to a worker at once."""
    group: list[SessionTask] = []
    size = 0
    for task in tasks:
        group.append(task)
        size += task.to_read
        if size >= TASK_BYTES or len(group) >= TASK_SESSIONS:
            yield group
            group, size = [], 0
    if group:
        yield group


#: Said (once) when a worker process ends in the middle of an update.
WORKER_LOST = (
    "a worker process ended unexpectedly (killed, or out of memory?); the rest of this update "
    "runs in the main process"
)


def _pooled(
    pool: ProcessPoolExecutor, tasks: list[SessionTask], workers: int, problems: list[str]
) -> Iterator[Done]:
    """Outcomes of ``tasks`` worked out by the pool's processes, as they come.

    When a worker process dies (``kill -9``, the kernel's out-of-memory killer), the pool is
    broken: the sessions not written yet are worked out in this process instead, and
    ``problems`` gets one line saying so.
    """
    with tempfile.TemporaryDirectory(prefix="cclens-index-") as folder:
        yield from _pooled_into(pool, tasks, workers, problems, folder)


def _pooled_into(
    pool: ProcessPoolExecutor,
    tasks: list[SessionTask],
    workers: int,
    problems: list[str],
    folder: str,
) -> Iterator[Done]:
    """:func:`_pooled`, the workers' outcomes passed through files in ``folder``."""
    queue = _groups(tasks)
    pending: dict[Future[str], tuple[list[SessionTask], int]] = {}
    in_flight = 0
    broken = False
    unfinished: list[list[SessionTask]] = []

    def submit() -> None:
        nonlocal in_flight, broken
        for group in queue:
            size = sum(task.to_read for task in group)
            try:
                pending[pool.submit(process_all_into, group, folder)] = (group, size)
            except BrokenProcessPool:
                broken = True
                unfinished.append(group)
                return
            in_flight += size
            if in_flight >= IN_FLIGHT and len(pending) >= 2 * workers:
                return

    submit()
    while pending:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            group, size = pending.pop(future)
            in_flight -= size
            try:
                outcomes = read_outcomes(future.result())
            except BrokenProcessPool:
                broken = True
                unfinished.append(group)
                continue
            except Exception as error:  # one group's failure is reported, not fatal
                outcomes = [failed(task, error) for task in group]
            yield from zip(group, outcomes, strict=True)
        if not broken:
            submit()
    if broken:
        problems.append(WORKER_LOST)
        rest = [task for group in unfinished for task in group]
        rest += [task for group in queue for task in group]
        yield from _in_line(rest)


def update_index(
    connection: sqlite3.Connection,
    db_path: Path,
    roots: list[Path],
    *,
    workers: int = 2,
    progress: Progress | None = None,
    pool_threshold: int = POOL_THRESHOLD,
    changed: Collection[Path | str] | None = None,
    waiting: Callable[[float], None] | None = None,
    embed: bool = True,
) -> UpdateReport:
    """Read what changed under ``roots`` into the index; return what was done.

    ``roots`` are Claude config folders (their ``projects/`` is read), transcript folders or
    files. Sessions stored from other roots are left alone; sessions whose files disappeared
    from these roots are archived, never removed. With at least ``pool_threshold`` bytes to
    read, sessions are parsed by ``workers`` processes. ``changed`` narrows the update to
    those paths (what a file watcher saw change).

    One update runs at a time per index file, across processes: this one waits for another
    to end (see :func:`cclens.index.storage.locking.update_lock`; ``waiting`` is called meanwhile).
    With ``embed`` and the semantic search model installed, the new documents then get their
    vectors (:func:`cclens.index.write.vectors.embed_documents`).
    """
    with update_lock(Path(db_path), waiting):
        report = _update(connection, db_path, roots, workers, progress, pool_threshold, changed)
        if embed:
            # Imported only here: an update that embeds nothing (the hook) loads no numpy.
            from .vectors import embed_documents

            started = time.perf_counter()
            report.embedded = embed_documents(connection)
            report.embed_seconds = time.perf_counter() - started
            report.seconds += report.embed_seconds
        return report


def _update(
    connection: sqlite3.Connection,
    db_path: Path,
    roots: list[Path],
    workers: int,
    progress: Progress | None,
    pool_threshold: int,
    changed: Collection[Path | str] | None,
) -> UpdateReport:
    started = time.perf_counter()
    roots = [Path(root).expanduser().absolute() for root in roots]
    paths = None if changed is None else {str(Path(p).absolute()) for p in changed}
    pool: ProcessPoolExecutor | None = None
    restore_bulk_indexes(connection)  # a first index that was cut short left them out
    if not prices_recorded(connection):
        with _transaction(connection):
            if prices_changed(connection):  # stored costs came from another price table
                connection.execute("UPDATE sessions SET doc_version = 0")
    first = _is_empty(connection)
    try:
        scan = None
        if paths is None and workers > 1 and first:
            # A first index: when there is a lot to read, the worker processes start while the
            # folders are searched, rather than after.
            scan = scan_sizes(roots)
            if scan is not None and sum(size for size, _ in scan.values()) >= pool_threshold:
                pool = _start_pool(workers)
        plan = make_plan(connection, db_path, roots, paths, scan=scan)
        report = UpdateReport(files_seen=plan.files_seen, errors=list(plan.errors))
        assign_keys(connection, plan.tasks)
        tasks = sorted(plan.tasks, key=lambda task: task.to_read, reverse=True)
        use_pool = workers > 1 and len(tasks) > 1 and plan.to_read >= pool_threshold
        if use_pool and pool is None:
            pool = _start_pool(workers)
        problems: list[str] = []
        outcomes = _pooled(pool, tasks, workers, problems) if pool and use_pool else _in_line(tasks)
        with _bulk_mode(connection) if use_pool else nullcontext():
            _write(connection, outcomes, plan, report, progress, bulk=use_pool, first=first)
        report.errors.extend((Path(db_path), problem) for problem in problems)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    report.seconds = time.perf_counter() - started
    return report


def _leave_wal(connection: sqlite3.Connection) -> bool:
    """Switch to a rollback journal, when no other connection has the index open."""
    timeout = int(connection.execute("PRAGMA busy_timeout").fetchone()[0])
    connection.execute("PRAGMA busy_timeout = 0")  # another connection is open: give up at once
    try:
        mode = str(connection.execute("PRAGMA journal_mode = DELETE").fetchone()[0])
    except sqlite3.OperationalError:
        return False
    finally:
        connection.execute(f"PRAGMA busy_timeout = {timeout}")
    if mode != "delete":
        return False
    connection.execute("PRAGMA synchronous = FULL")
    return True


@contextmanager
def _bulk_mode(connection: sqlite3.Connection) -> Iterator[None]:
    """Journal settings for a large update, put back afterwards.

    When no other connection has the index open (``cclens index``), the update leaves
    write-ahead logging for a rollback journal: the pages new to the file, most of what a large
    update writes, are then written once instead of twice (to the log, then to the file at a
    checkpoint), which makes a first index 10-15% faster. It is as safe: with ``synchronous =
    FULL`` each commit is atomic and durable, and a crash rolls back the transaction under way.
    A connection opened meanwhile reads in that mode (waiting while a commit is written), or
    puts the file back into WAL mode if it opens between two transactions; the update goes on
    either way. When readers are already connected (the web app), the log stays, checkpointed
    every :data:`BULK_CHECKPOINT_BYTES` rather than every 1,000 pages.
    """
    rollback = _leave_wal(connection)
    if not rollback:
        page_size = int(connection.execute("PRAGMA page_size").fetchone()[0])
        connection.execute(f"PRAGMA wal_autocheckpoint = {BULK_CHECKPOINT_BYTES // page_size}")
    try:
        yield
    finally:
        if rollback:
            connection.execute("PRAGMA synchronous = NORMAL")
            with suppress(sqlite3.OperationalError):
                # Only a reader holding the file past the busy timeout stops this; the next
                # connection cclens opens switches to WAL mode then.
                connection.execute("PRAGMA journal_mode = WAL")
        else:
            connection.execute("PRAGMA wal_autocheckpoint = 1000")


@contextmanager
def _transaction(connection: sqlite3.Connection) -> Iterator[None]:
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        _rollback(connection)
        raise
    connection.execute("COMMIT")


def _rollback(connection: sqlite3.Connection) -> None:
    """Roll back the transaction under way, if SQLite has not already (it does by itself after
    a full disk or an I/O error): the error that stopped the update is the one to report."""
    if connection.in_transaction:
        with suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def _is_empty(connection: sqlite3.Connection) -> bool:
    return connection.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None


def _write(
    connection: sqlite3.Connection,
    outcomes: Iterator[Done],
    plan: Plan,
    report: UpdateReport,
    progress: Progress | None,
    *,
    bulk: bool,
    first: bool,
) -> None:
    """Write each outcome as it comes, in transactions of :data:`BATCH_BYTES`.

    ``bulk``: a large update; ``first``: into an empty index (its documents' index is then
    built once, at the end).
    """
    total = plan.to_read
    done = 0
    batch_sessions = batch_bytes = 0
    writer = Writer(connection)
    connection.execute("BEGIN IMMEDIATE")
    if bulk and first:
        drop_bulk_indexes(connection)
    try:
        for task, outcome in outcomes:
            report.diagnostics.extend(outcome.diagnostics)
            # (an outcome whose work failed has no files)
            report.files_read += sum(
                1
                for t, f in zip(task.files, outcome.files, strict=False)
                if t.read and not f.failed
            )
            report.bytes_read += outcome.bytes_read
            written = writer.apply(task, outcome, time.time())
            if written is not None:
                (report.added if written.new else report.updated).append(written.key)
            done += task.to_read
            batch_sessions += 1
            batch_bytes += outcome.bytes_read
            # A large update counts bytes only: each commit writes a new full-text segment, and
            # fewer, larger ones leave less to merge.
            if (batch_sessions >= BATCH_SESSIONS and not bulk) or batch_bytes >= BATCH_BYTES:
                writer.flush()
                connection.execute("COMMIT")
                connection.execute("BEGIN IMMEDIATE")
                batch_sessions = batch_bytes = 0
            if progress is not None:
                progress(done, total)
        writer.flush()
        report.archived = mark_missing(connection, plan.missing, time.time())
        if not (bulk and first):
            settle(connection, writer.touched, writer.shared_before)
        connection.execute("COMMIT")
        touched = set(report.added) | set(report.updated)
        report.updated.extend(key for key in dict.fromkeys(writer.retitled) if key not in touched)
    except BaseException:
        _rollback(connection)
        raise
    finally:
        if bulk and first:
            with _transaction(connection):
                restore_bulk_indexes(connection)
    if bulk and first:
        # The claims' index was built just now: settle what every session shares, once.
        with _transaction(connection):
            settle(connection, None)
    if progress is not None:
        progress(total, total)
