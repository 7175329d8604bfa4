"""Many sessions exported at once: one HTML file each, an index page, every core busy.

:func:`export_sessions` writes ``<project>/<session-id>.html`` under a folder for each discovered
session, then ``index.html`` listing them; the pages share one copy of their CSS and JavaScript
(``assets/``). Sessions are read and drawn in worker processes
(``os.cpu_count()`` by default): rendering is pure Python, so threads would share one core.
Workers are forked where the platform allows it, so they start with the parent's imports; the
largest sessions are handed out first, so one long session does not finish alone at the end.

A session that cannot be read or drawn is reported in its :class:`ExportedSession` (``error``)
and listed as such on the index; the others are written all the same. With ``redaction``
options, each worker redacts its sessions (page, index entry, reported problems) before drawing
them, and the counts of what was removed come back with each session.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..figures.counts import SessionCounts
from ..files import write_file
from ..model.entries import malformed
from ..readers.agents import load
from ..readers.discovery import SessionFile
from ..render.assets import static_files
from ..render.context import session_header
from ..render.index_page import IndexEntry, render_index_page
from ..render.options import DEFAULT_OPTIONS, RenderOptions
from .html_file import export_html
from .transform import transform_session

if TYPE_CHECKING:
    from ..redact import RedactionOptions

__all__ = [
    "BulkExport",
    "ExportedSession",
    "Progress",
    "SessionHeading",
    "export_sessions",
    "output_names",
]

#: Called after each session is written: the session, and the bytes of transcript it read.
Progress = Callable[["ExportedSession", int], None]

#: The index page's file name inside the output folder.
INDEX_NAME = "index.html"
#: The folder (inside the output folder) of the CSS and JavaScript every page links to.
ASSETS_FOLDER = "assets"


@dataclass(frozen=True)
class ExportedSession:
    """One session of a bulk export: what the index shows, and what went wrong if anything.

    ``entry.href`` is the page's path relative to the output folder (empty when ``error``);
    ``diagnostics`` are the transcript's unreadable lines and lines read in part
    (``file:line: reason (skipped|read in part)``).
    """

    source: Path
    entry: IndexEntry
    diagnostics: tuple[str, ...] = ()
    #: Secrets removed from this session, by kind.
    redacted: Mapping[str, int] = field(default_factory=dict)
    #: Bytes of the page written (0 when not written).
    written: int = 0

    @property
    def error(self) -> str:
        """Why the session was not exported (empty when it was)."""
        return self.entry.error


@dataclass
class BulkExport:
    """The result of :func:`export_sessions`: the folder, its index page and every session."""

    directory: Path
    index: Path
    sessions: list[ExportedSession] = field(default_factory=list)

    @property
    def failed(self) -> list[ExportedSession]:
        """The sessions that could not be exported."""
        return [s for s in self.sessions if s.error]

    @property
    def redacted(self) -> dict[str, int]:
        """Secrets removed from all sessions, by kind."""
        total: Counter[str] = Counter()
        for session in self.sessions:
            total.update(session.redacted)
        return dict(total)


def _safe_name(name: str) -> str:
    # One path component, whatever the transcript folder or id was called.
    cleaned = "".join("_" if ch in '/\\:*?"<>|\0' or ord(ch) < 32 else ch for ch in name)
    cleaned = cleaned.strip().lstrip(".")[:120]
    return cleaned or "_"


def output_names(files: Sequence[SessionFile]) -> list[str]:
    """Each session's page path relative to the output folder: ``<project>/<session-id>.html``.

    Names are made safe as single path components; two sessions that would share a path (same
    project name and id under different roots) get ``-2``, ``-3``… suffixes.
    """
    seen: set[str] = set()
    names = []
    for file in files:
        stem = f"{_safe_name(file.project)}/{_safe_name(file.session_id)}"
        name, number = f"{stem}.html", 1
        while name.lower() in seen:
            number += 1
            name = f"{stem}-{number}.html"
        seen.add(name.lower())
        names.append(name)
    return names


@dataclass(frozen=True, slots=True)
class SessionHeading:
    """What the index says of a session, for its page's header and its line on the index
    page: its title (which a summary in another file may give) and its figures."""

    title: str
    counts: SessionCounts


@dataclass(frozen=True)
class _Job:
    file: SessionFile
    directory: Path
    name: str
    options: RenderOptions
    redaction: RedactionOptions | None = None
    heading: SessionHeading | None = None


def _export_one(job: _Job) -> ExportedSession:
    """Read, draw and write one session (runs in a worker process)."""
    file = job.file
    redactor = None
    if job.redaction:
        # Imported only when asked for: its patterns take a while to compile.
        from ..redact import Redactor

        redactor = Redactor(job.redaction)
    heading = job.heading
    counts = heading.counts if heading is not None else None
    try:
        session = load(file)
        if heading is not None and heading.title:
            session.title = heading.title
        if redactor is not None:
            session = transform_session(session, redactor.text, json_transform=redactor.json)
        # Pages are <project>/<session>.html: the shared files are one folder up.
        html = export_html(
            session,
            options=replace(job.options, counts=counts),
            shared_assets=f"../{ASSETS_FOLDER}",
        )
        data = html.encode("utf-8")
    except OSError as error:
        return _failed(file, f"cannot read: {error.strerror or error}")
    # A bug in drawing one session must not lose the others: it is reported with the session.
    except Exception as error:
        return _failed(file, f"cannot export: {type(error).__name__}: {error}")
    target = job.directory / job.name
    try:  # whole or not at all: a failed write leaves the page that was there
        target.parent.mkdir(parents=True, exist_ok=True)
        write_file(target, data)
    except OSError as error:
        return _failed(file, f"cannot write {target}: {error.strerror or error}")
    header = session_header(session, counts)
    entry = IndexEntry(
        project=redactor.text(file.project) if redactor else file.project,
        session_id=file.session_id,
        title=session.title,
        href=job.name,
        started=header.started,
        duration=header.duration,
        prompts=header.prompts,
        responses=header.responses,
        tool_calls=header.tool_calls,
        failed=header.tool_errors,
        tokens=header.tokens.total,
        path=redactor.text(str(file.path)) if redactor else str(file.path),
        subagents=header.subagents,
        size=len(data),
        malformed=malformed(header.diagnostics),
        orphan=session.orphan,
    )
    diagnostics = tuple(f"{d} ({d.outcome})" for d in session.diagnostics)
    redacted = dict(redactor.counts) if redactor else {}
    return ExportedSession(file.path, entry, diagnostics, redacted, len(data))


def _failed(file: SessionFile, reason: str) -> ExportedSession:
    entry = IndexEntry(
        project=file.project,
        session_id=file.session_id,
        title=file.session_id,
        href="",
        error=f"{file.path}: {reason}",
    )
    return ExportedSession(file.path, entry)


def _weight(file: SessionFile) -> int:
    total = file.size
    for agent in file.subagents:
        with contextlib.suppress(OSError):
            total += agent.path.stat().st_size
    return total


def _start_method(asked: str | None) -> str | None:
    # fork: workers start with every module the parent imported (templates included), at no
    # cost. Only on Linux, and only from a single-threaded process (forking threads can
    # deadlock); elsewhere the platform's default, safer method.
    if asked is not None:
        return asked
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return None


def _pool(workers: int, start_method: str | None) -> ProcessPoolExecutor:
    method = _start_method(start_method)
    context = multiprocessing.get_context(method) if method else None
    return ProcessPoolExecutor(workers, mp_context=context)


def export_sessions(
    files: Sequence[SessionFile],
    directory: Path | str,
    *,
    options: RenderOptions = DEFAULT_OPTIONS,
    workers: int | None = None,
    title: str = "",
    start_method: str | None = None,
    redaction: RedactionOptions | None = None,
    progress: Progress | None = None,
    headings: Mapping[Path, SessionHeading] | None = None,
) -> BulkExport:
    """Export every session of ``files`` as HTML under ``directory``, then write its index page.

    ``workers`` processes do the work (default: the number of CPUs; 1 works in this process),
    started with ``start_method`` (default: ``fork`` on Linux from a single-threaded process,
    else the platform's default). Each page is what :func:`~cclens.export.export_html` writes
    for the session, except that it links the CSS and JavaScript of ``assets/`` (written once)
    instead of holding its own copy. Sessions keep the order of ``files`` in the result;
    ``title`` heads the index page. ``redaction``: redact every session (and the project names
    in file names) with a :class:`~cclens.redact.Redactor` built from these options.
    ``progress`` is called as each session is done (in the order they finish) with the session
    and the bytes of transcript it read, for a progress bar. ``headings``: what the index says
    of each session by its path (its title and figures, see :class:`SessionHeading`); a
    session without one is counted on its own.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    assets = directory / ASSETS_FOLDER
    assets.mkdir(exist_ok=True)
    for name, content in static_files().items():
        write_file(assets / name, content)
    names = output_names(files)
    if redaction is not None and redaction.anonymize_paths:
        from ..redact import Redactor

        # Project folders are named after paths (``-home-alice-app``): so are the pages.
        names = [Redactor(redaction).text(name) for name in names]
    count = max(1, min(workers or os.cpu_count() or 1, len(files)))
    if count > 1:  # sessions side by side: each drawn by its one worker
        options = replace(options, workers=1)
    headings = headings or {}
    jobs = [
        _Job(file, directory, name, options, redaction, headings.get(file.path))
        for file, name in zip(files, names, strict=True)
    ]
    weights = [_weight(job.file) for job in jobs]

    def done(result: ExportedSession, index: int) -> ExportedSession:
        if progress is not None:
            progress(result, weights[index])
        return result

    if count == 1:
        results = [done(_export_one(job), index) for index, job in enumerate(jobs)]
    else:
        order = sorted(range(len(jobs)), key=lambda i: weights[i], reverse=True)
        # Forked workers leave alone what the parent already holds (modules, templates): frozen
        # objects are neither scanned by their garbage collector nor copied into them by it.
        gc.freeze()
        try:
            with _pool(count, start_method) as pool:
                futures = {pool.submit(_export_one, jobs[i]): i for i in order}
                by_index: dict[int, ExportedSession] = {}
                for future in as_completed(futures):
                    number = futures[future]
                    by_index[number] = done(future.result(), number)
        finally:
            gc.unfreeze()
        results = [by_index[i] for i in range(len(jobs))]
    index = directory / INDEX_NAME
    page = render_index_page([r.entry for r in results], options, title=title)
    write_file(index, page.encode("utf-8"))
    return BulkExport(directory, index, results)
