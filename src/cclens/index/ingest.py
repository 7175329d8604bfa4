"""Bring the index up to date with the transcripts on disk.

The plan (:mod:`.plan`) says which sessions need work; the work (:mod:`.worker`) runs in two
worker processes when there is a lot of it (a first index), in-line otherwise (a live session
that grew by a few lines); the main process writes each outcome (:mod:`.write`) in batched
transactions.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from ..parse.read import Diagnostic
from .plan import SessionTask, make_plan
from .worker import SessionOutcome, process
from .write import Writer, assign_keys, mark_missing

#: Called with (bytes done, bytes to do) as sessions are written.
Progress = Callable[[int, int], None]

#: Below this much to read, starting worker processes costs more than it saves.
POOL_THRESHOLD = 16 * 1024 * 1024
#: A transaction is committed after this many sessions or bytes read, so a reader sees
#: progress and a crash loses little.
BATCH_SESSIONS = 256
BATCH_BYTES = 64 * 1024 * 1024


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

    @property
    def changed(self) -> list[str]:
        """Every session key the update touched."""
        return self.added + self.updated + self.archived


def _failed(task: SessionTask, error: BaseException) -> SessionOutcome:
    outcome = SessionOutcome(task)
    reason = f"could not be indexed ({type(error).__name__}: {error})"
    outcome.diagnostics.append(Diagnostic(Path(task.path), 0, reason))
    return outcome


def _in_line(tasks: list[SessionTask]) -> Iterator[SessionOutcome]:
    for task in tasks:
        try:
            yield process(task)
        except Exception as error:  # one bad session must not stop the rest
            yield _failed(task, error)


def _pooled(tasks: list[SessionTask], workers: int) -> Iterator[SessionOutcome]:
    # "spawn" rather than fork: the web app indexes from a thread, and forking a threaded
    # process can deadlock the child.
    context = multiprocessing.get_context("spawn")
    limit = workers * 4  # bounded, so results never pile up in memory faster than written
    queue = iter(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: dict[Future[SessionOutcome], SessionTask] = {}

        def submit() -> None:
            for task in queue:
                pending[pool.submit(process, task)] = task
                if len(pending) >= limit:
                    return

        submit()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                try:
                    yield future.result()
                except Exception as error:  # as in _in_line
                    yield _failed(task, error)
            submit()


def update_index(
    connection: sqlite3.Connection,
    db_path: Path,
    roots: list[Path],
    *,
    workers: int = 2,
    progress: Progress | None = None,
    pool_threshold: int = POOL_THRESHOLD,
    changed: Collection[Path | str] | None = None,
) -> UpdateReport:
    """Read what changed under ``roots`` into the index; return what was done.

    ``roots`` are Claude config folders (their ``projects/`` is read), transcript folders or
    files. Sessions stored from other roots are left alone; sessions whose files disappeared
    from these roots are archived, never removed. With at least ``pool_threshold`` bytes to
    read, sessions are parsed by ``workers`` processes. ``changed`` narrows the update to
    those paths (what a file watcher saw change).
    """
    started = time.perf_counter()
    roots = [Path(root).expanduser().absolute() for root in roots]
    paths = None if changed is None else {str(Path(p).absolute()) for p in changed}
    plan = make_plan(connection, db_path, roots, paths)
    report = UpdateReport(files_seen=plan.files_seen, errors=list(plan.errors))
    assign_keys(connection, plan.tasks)
    tasks = sorted(plan.tasks, key=lambda task: task.to_read, reverse=True)
    total = plan.to_read
    use_pool = workers > 1 and len(tasks) > 1 and total >= pool_threshold
    outcomes = _pooled(tasks, workers) if use_pool else _in_line(tasks)
    done = 0
    batch_sessions = batch_bytes = 0
    writer = Writer(connection)
    connection.execute("BEGIN IMMEDIATE")
    try:
        for outcome in outcomes:
            report.diagnostics.extend(outcome.diagnostics)
            report.files_read += sum(1 for f in outcome.files if f.task.read and not f.failed)
            report.bytes_read += outcome.bytes_read
            written = writer.apply(outcome, time.time())
            if written is not None:
                (report.added if written.new else report.updated).append(written.key)
            done += outcome.task.to_read
            batch_sessions += 1
            batch_bytes += outcome.bytes_read
            if batch_sessions >= BATCH_SESSIONS or batch_bytes >= BATCH_BYTES:
                writer.flush()
                connection.execute("COMMIT")
                connection.execute("BEGIN IMMEDIATE")
                batch_sessions = batch_bytes = 0
            if progress is not None:
                progress(done, total)
        writer.flush()
        report.archived = mark_missing(connection, plan.missing, time.time())
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    if progress is not None:
        progress(total, total)
    report.seconds = time.perf_counter() - started
    return report
