"""``cclens dataset``: the transcripts as a Parquet dataset for DuckDB, Spark or Trino.

Also defines the options ``cclens otel`` shares: which sessions (``--since``, ``--project``,
``--claude-dir``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..formats import plural
from ._folders import folder_option, required_folders
from ._output import console, json_option, need_extra, print_json, writable_folder
from ._redaction import redaction_options, redaction_summary, redactor

if TYPE_CHECKING:
    from rich.table import Table

    from ..dataset import SessionFilter
    from ..model.entries import Diagnostic

F = TypeVar("F", bound=Callable[..., Any])


def selection_options(function: F) -> F:
    """``--since``, ``--project`` and ``--dir``."""
    options = [
        click.option(
            "--since",
            metavar="DATE",
            help="Only sessions active at or after DATE (YYYY-MM-DD or YYYYMMDD in local time, "
            "or an ISO 8601 time).",
        ),
        click.option(
            "--project",
            "projects",
            multiple=True,
            metavar="NAME",
            help="Only this project: its folder name, its path or the end of its path "
            "(repeatable).",
        ),
        folder_option(
            dest="roots",
            text="Read transcripts here (an agent's folder, a folder of transcripts or a file; "
            "repeatable; --claude-dir is the same) instead of every agent's folder.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def session_filter(
    since: str | None, projects: Sequence[str], sessions: Sequence[str] = ()
) -> SessionFilter:
    """The filter the options describe (a bad date is a usage error)."""
    from ..dataset import SessionFilter, parse_since

    try:
        moment = parse_since(since) if since else None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--since") from None
    return SessionFilter(moment, tuple(projects), tuple(sessions))


def report_problems(
    diagnostics: Iterable[Diagnostic], unreadable: Iterable[tuple[Path, str]]
) -> None:
    """Malformed lines and unreadable paths, on stderr."""
    for diagnostic in diagnostics:
        click.echo(f"cclens: {diagnostic}", err=True)
    for path, reason in unreadable:
        click.echo(f"cclens: cannot read {path}: {reason}", err=True)


@contextmanager
def progress(total: int, what: str) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr when it is a terminal; yields the function to advance it."""
    from rich.progress import Progress

    if not sys.stderr.isatty() or total == 0:
        yield lambda *_: None
        return
    with Progress(console=console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda *_: bar.advance(task)


def refuse_inside(directory: Path, roots: Sequence[Path]) -> None:
    """Stop when ``directory`` is inside a folder an agent owns: cclens never writes there."""
    from ..readers.agents import homes

    target = directory.expanduser().resolve()
    for root in [*roots, *homes()]:
        folder = root.expanduser().resolve()
        folder = folder if folder.is_dir() or not folder.suffix else folder.parent
        if target == folder or folder in target.parents:
            raise click.ClickException(
                f"{directory} is inside {root}: cclens never writes there; choose a folder "
                "outside it"
            )


def _table(rows: Mapping[str, int]) -> Table:
    from rich.table import Table

    table = Table(title_justify="left")
    table.add_column("table")
    table.add_column("rows", justify="right")
    for name, count in rows.items():
        table.add_row(name, f"{count:,}")
    return table


@click.command("dataset")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@selection_options
@redaction_options
@click.option(
    "--machine",
    metavar="NAME",
    help="Name of this machine in the rows and the file names (default: the host name).",
)
@json_option
def command(
    directory: Path,
    since: str | None,
    projects: tuple[str, ...],
    roots: tuple[Path, ...],
    no_redact: bool,
    redact_patterns: tuple[str, ...],
    anonymize_paths: bool,
    machine: str | None,
    as_json: bool,
) -> None:
    """Write the transcripts to DIRECTORY as a Parquet dataset.

    Tables sessions, messages, tool_calls, usage, subagents, branches and compactions go to
    DIRECTORY/<table>/project=<project>/month=<YYYY-MM>/<machine>.parquet, for DuckDB, Spark or
    Trino to read with hive partitioning. Datasets from several machines can be copied into one
    folder: each machine writes its own files. Running the command again replaces this
    machine's rows of the sessions it reads and keeps the rest, so it can run every day with
    --since. Secrets are redacted unless --no-redact is given. docs/dataset.md describes every
    column.

    Malformed lines are reported on stderr and skipped. With --json, one object with
    directory, machine, sessions, rows (per table), files, redacted (per kind), malformed and
    unreadable.
    """
    from ..model.entries import malformed

    need_extra("dataset", "dataset", "pyarrow")
    from ..dataset import DatasetError, load_selected, select_files, write_dataset

    refuse_inside(directory, roots)
    writable_folder(directory, "the dataset")
    wanted = session_filter(since, projects)
    redaction = redactor(no_redact, redact_patterns, anonymize_paths)
    selection = select_files(required_folders(roots), wanted)
    try:
        with progress(len(selection.files), "Reading sessions") as advance:
            report = write_dataset(
                directory,
                load_selected(selection, wanted),
                redaction=redaction,
                machine=machine,
                on_session=advance,
            )
    except DatasetError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(
            f"cannot write the dataset to {directory}: {error.strerror or error}; choose a "
            "folder you can write to"
        ) from None
    if as_json:
        print_json(
            {
                "directory": str(report.root),
                "machine": report.machine,
                "sessions": report.sessions,
                "rows": report.rows,
                "files": len(report.files),
                "redacted": dict(redaction.counts),
                "malformed": [
                    {"file": str(d.path), "line": d.line, "reason": d.reason}
                    for d in report.diagnostics
                ],
                "unreadable": [{"path": str(p), "reason": r} for p, r in selection.errors],
            }
        )
    else:
        out = console()
        out.print(
            f"Wrote {plural(report.sessions, 'session')} to {report.root} as machine "
            f"[bold]{report.machine}[/] ({plural(len(report.files), 'file')}).",
        )
        out.print(_table(report.rows))
        out.print(redaction_summary(redaction))
        if skipped := malformed(report.diagnostics):
            out.print(f"{plural(skipped, 'malformed line')} skipped (see stderr).")
        if selection.orphans:
            out.print(
                f"{plural(selection.orphans, 'subagent file')} without their session written "
                "as sessions of their own."
            )
    report_problems(report.diagnostics, selection.errors)
    if selection.errors:
        raise SystemExit(2)
