"""``cclens export``: one session as a single HTML file, Markdown or JSON; or, with ``--all``,
every discovered session as HTML with an index page, on every core."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..export import FORMATS
from ..formats import size as human_size
from ..render.options import THEMES
from ._folders import folder_option, required_folders
from ._output import UNREADABLE_EXIT, report_unreadable, writable_folder
from ._redaction import redaction_options, redaction_summary, redactor
from .index import db_option, open_index, report_problems, resolve_db, update

if TYPE_CHECKING:
    from ..export.bulk import ExportedSession, Progress, SessionHeading
    from ..readers.discovery import SessionFile
    from ..redact import Redactor
    from ..render import RenderOptions
    from ._session import FoundSession


def _inside_claude_dir(path: Path) -> Path | None:
    from ..readers.agents import homes

    target = path.expanduser().resolve()
    for directory in homes():
        root = directory.resolve()
        if target == root or target.is_relative_to(root):
            return directory
    return None


@click.command("export")
@click.argument("sessions", nargs=-1, metavar="SESSION | --all [PATHS]...")
@click.option(
    "--all",
    "export_all",
    is_flag=True,
    help="Export every session found (under PATHS, else the --dir or every agent's "
    "folder) to "
    "-o DIR as <project>/<session-id>.html, with an index.html listing them.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per CPU): with --all, sessions exported side by side; "
    "for one session, processes drawing its folded parts (the file is the same either way).",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="html",
    show_default=True,
    help="html: one self-contained file; md: GitHub Markdown; json: the normalized session.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="File to write ('-': stdout). Default: <session-id>.html here for html, else stdout. "
    "With --all: the folder to write (required).",
)
@click.option(
    "--theme", type=click.Choice(THEMES), default="auto", show_default=True, help="HTML theme."
)
@click.option("--no-branches", is_flag=True, help="Leave abandoned branches out of the HTML page.")
@folder_option(
    dest="roots",
    text="Where to look up session ids, and what --all exports without PATHS: an agent's "
    "folder, a folder of transcripts or a file (repeatable; --claude-dir is the same). "
    "Default: every agent's folder that exists.",
)
# The old name of --claude-dir, kept working (hidden).
@click.option("--root", "roots", multiple=True, type=click.Path(path_type=Path), hidden=True)
@db_option
@click.option(
    "--no-update", is_flag=True, help="Use the index as it is, without reading new lines."
)
@redaction_options
def command(
    sessions: tuple[str, ...],
    export_all: bool,
    jobs: int | None,
    fmt: str,
    output: Path | None,
    theme: str,
    no_branches: bool,
    roots: tuple[Path, ...],
    db: Path | None,
    no_update: bool,
    no_redact: bool,
    redact_patterns: tuple[str, ...],
    anonymize_paths: bool,
) -> None:
    """Export SESSION: a transcript path, a session id, or the start of one.

    The HTML file works offline (open it from disk: CSS, script and images are inside) and
    carries a Content-Security-Policy; nothing in it loads from the network. Lines of the
    transcript that cannot be read are reported on stderr and the rest is exported.

    With --all, every session under PATHS (folders or .jsonl files; default: the --claude-dir
    folders, else Claude Code's) is exported as HTML into -o DIR, in parallel, with
    DIR/index.html; a subagent transcript whose session file is gone is exported as a session
    of its own.

    Secrets (API keys, tokens, private keys, passwords in URLs, secret assignments, high-entropy
    tokens) are replaced by [REDACTED:<kind>] in every format unless --no-redact is given; the
    command says how many of each kind it removed.

    SESSION is looked up in the index (brought up to date first unless --no-update), so
    sessions Claude Code has deleted (archived) can be exported too; the header, like the index
    page of --all (when an index is given with --db or exists), gives the title and figures
    every other surface gives, what the session carried over from the one it resumed apart.
    """
    from ..render.options import RenderOptions

    options = RenderOptions(standalone=True, theme=theme, show_branches=not no_branches)
    redaction = redactor(no_redact, redact_patterns, anonymize_paths)
    if export_all:
        if fmt != "html":
            raise click.UsageError("--all exports HTML only")
        if output is None or str(output) == "-":
            raise click.UsageError("--all needs -o DIR, the folder to write")
        paths = sessions or tuple(str(r) for r in roots)
        _export_all(paths, output, options, jobs, redaction, db, no_update=no_update)
        return
    if len(sessions) != 1:
        raise click.UsageError("give one SESSION (or --all to export every session)")
    options = replace(options, workers=jobs or os.cpu_count() or 1)
    from ._session import find_session

    found = find_session(sessions[0], roots, db, no_update=no_update)
    with _collector_paused():
        _export_one(found, fmt, output, options, redaction)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cycle collector off while one session is redacted and drawn: its passes walk the
    session's objects again and again (40-50 ms of CPU for a session of 4.5 MB), and what
    drawing leaves in cycles is small (the same peak memory with it off). The process ends
    after the export."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _headers(
    files: Sequence[SessionFile], roots: list[Path], db: Path | None, *, no_update: bool
) -> dict[Path, SessionHeading] | None:
    """What the index says of each session (its title and figures), when an index is given or
    exists at the default place (brought up to date with ``roots`` unless ``no_update``)."""
    from ..export.bulk import SessionHeading

    db_path = resolve_db(db, roots)
    if db is None and not db_path.exists():
        return None
    with open_index(db_path) as index:
        if not no_update and not index.read_only:
            report_problems(update(index, roots, show_progress=True))
        found: dict[Path, SessionHeading] = {}
        for file in files:
            listed = index.find(str(file.path.absolute()))
            counts = index.counts(listed[0].key) if len(listed) == 1 else None
            if counts is not None:
                found[file.path] = SessionHeading(listed[0].title, counts)
        return found


def _export_all(
    paths: tuple[str, ...],
    output: Path,
    options: RenderOptions,
    jobs: int | None,
    redaction: Redactor,
    db: Path | None,
    *,
    no_update: bool,
) -> None:
    from concurrent.futures.process import BrokenProcessPool

    from ..export.bulk import export_sessions
    from ..formats import plural
    from ..readers.agents import discover

    inside = _inside_claude_dir(output)
    if inside is not None:
        raise click.ClickException(
            f"refusing to write inside an agent's folder {inside}; choose a path outside it"
        )
    writable_folder(output, "the sessions")
    roots = required_folders([Path(p) for p in paths])
    found = discover(*roots)
    unreadable = report_unreadable(found.errors)
    if not found.sessions:
        raise click.ClickException("no session found under " + ", ".join(map(str, roots)))
    headings = _headers(found.sessions, roots, db, no_update=no_update)
    try:
        with _progress_bar(found.sessions) as progress:
            result = export_sessions(
                found.sessions,
                output,
                options=options,
                workers=jobs,
                redaction=redaction.options if redaction.options.enabled else None,
                progress=progress,
                headings=headings,
            )
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from error
    except BrokenProcessPool as error:
        raise click.ClickException(
            f"a worker process died ({error}); try --jobs 1 to find the session"
        ) from error
    for exported in result.sessions:
        for diagnostic in exported.diagnostics:
            click.echo(f"cclens: {diagnostic}", err=True)
        if exported.error:
            click.echo(f"cclens: {exported.error}", err=True)
    click.echo(redaction_summary(redaction, result.redacted), err=True)
    written = len(result.sessions) - len(result.failed)
    size = sum(s.written for s in result.sessions)
    click.echo(
        f"Wrote {written:,} of {plural(len(result.sessions), 'session')} ({human_size(size)}) to "
        f"{output.resolve()}; index: {result.index.resolve()}",
        err=True,
    )
    if result.failed or unreadable:
        raise SystemExit(UNREADABLE_EXIT)


@contextmanager
def _progress_bar(sessions: Sequence[SessionFile]) -> Iterator[Progress | None]:
    """A progress bar on stderr when it is a terminal (sessions done, MB read, time left)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import (  # only for a terminal: the bulk export imports no Rich otherwise
        BarColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    from ._output import console

    total = sum(s.size + sum(_size(a.path) for a in s.subagents) for s in sessions)
    # The bar and the time left follow the bytes read (the largest sessions go first).
    with Bar(
        TextColumn("Exporting"),
        BarColumn(),
        TextColumn(f"{{task.fields[sessions]}}/{len(sessions)} sessions"),
        TextColumn("· {task.fields[read]} of " + human_size(total)),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("export", total=max(total, 1), sessions=0, read=human_size(0))
        done = count = 0

        def advance(session: ExportedSession, read: int) -> None:
            nonlocal done, count
            done += read
            count += 1
            bar.update(task, advance=read, sessions=count, read=human_size(done))

        yield advance


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _export_one(
    found: FoundSession,
    fmt: str,
    output: Path | None,
    options: RenderOptions,
    redaction: Redactor,
) -> None:
    loaded = found.session
    if redaction.options.enabled:
        from ..export.transform import transform_session

        loaded = transform_session(loaded, redaction.text, json_transform=redaction.json)
    for diagnostic in loaded.diagnostics:
        click.echo(f"cclens: {diagnostic} ({diagnostic.outcome})", err=True)
    click.echo(redaction_summary(redaction), err=True)

    pieces: Iterable[bytes]
    counts = found.counts
    if fmt == "html":
        from ..export.html_file import export_html

        pieces = [export_html(loaded, options=replace(options, counts=counts)).encode("utf-8")]
    elif fmt == "md":
        from ..export.markdown_file import export_markdown

        pieces = [export_markdown(loaded, counts=counts).encode("utf-8")]
    else:
        from ..export.json_document import json_pieces

        # Written as it is made: a huge line is never doubled.
        pieces = json_pieces(loaded, counts=counts)

    if output is None and fmt == "html":
        output = Path(f"{loaded.session_id}.html")
    if output is None or str(output) == "-":
        sys.stdout.flush()
        for piece in pieces:
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
        return
    inside = _inside_claude_dir(output)
    if inside is not None:
        raise click.ClickException(
            f"refusing to write inside an agent's folder {inside}; choose a path outside it"
        )
    if output.is_dir():
        raise click.ClickException(f"{output} is a folder; give a file name (or use --all)")
    writable_folder(output.parent, "the session")
    from ..files import replace_file

    written = 0
    try:  # to a temporary file renamed over OUTPUT: a failed write leaves the old file whole
        with replace_file(output) as handle:
            for piece in pieces:
                written += handle.write(piece)
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from error

    size = human_size(written)
    click.echo(f"Wrote {output.resolve()} ({size})", err=True)
