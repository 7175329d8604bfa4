"""``cclens show``: one session in the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ._folders import folder_option
from ._output import console
from .index import db_option


@click.command("show")
@click.argument("session")
@click.option("--details", is_flag=True, help="Also show hooks, progress, snapshots and reminders.")
@click.option("--subagents", is_flag=True, help="Show subagent conversations in full.")
@click.option(
    "--lines",
    "result_lines",
    type=click.IntRange(min=0),
    default=12,
    show_default=True,
    help="Lines of each part of a tool call to show: an output, a file, a diff (0: all).",
)
@click.option("--no-pager", is_flag=True, help="Print straight to the terminal, without a pager.")
@folder_option(
    dest="roots",
    text="Where to look up session ids: an agent's folder, a folder of transcripts or a "
    "file (repeatable; --claude-dir is the same). Default: every agent's folder that exists.",
)
@click.option("--root", "roots", multiple=True, type=click.Path(path_type=Path), hidden=True)
@db_option
@click.option(
    "--no-update", is_flag=True, help="Use the index as it is, without reading new lines."
)
def command(
    session: str,
    details: bool,
    subagents: bool,
    result_lines: int,
    no_pager: bool,
    roots: tuple[Path, ...],
    db: Path | None,
    no_update: bool,
) -> None:
    """Show SESSION (a transcript path, a session id, or the start of one) in the terminal.

    Prompts and answers as markdown, each tool call on one line with its input and the start of
    its result. Paged when stdout is a terminal.

    The session is looked up in the index (brought up to date first unless --no-update), so
    sessions Claude Code has deleted (archived) can be shown too, and the header gives the
    figures every other surface gives: what the session counts, its subagents' included (the
    Tokens line says how much of it they hold), and apart, what it carried over from the
    session it resumed (counted there). A transcript path with no index to compare it with is
    read on its own, and the header says so.
    """
    from ..render.terminal import TerminalOptions, session_renderables
    from ._session import find_session

    found = find_session(session, roots, db, no_update=no_update)
    loaded = found.session
    for diagnostic in loaded.diagnostics:
        click.echo(f"cclens: {diagnostic} ({diagnostic.outcome})", err=True)
    options = TerminalOptions(
        details=details, result_lines=result_lines, subagents=subagents, counts=found.counts
    )
    out = console()
    renderables = session_renderables(loaded, options)
    if sys.stdout.isatty() and not no_pager:
        # As git does: unless the person chose their own, less shows colours (R), quits when
        # the session fits on one screen (F) and leaves it on the screen when done (X).
        os.environ.setdefault("LESS", "FRX")
        with out.pager(styles=True):
            for renderable in renderables:
                out.print(renderable)
    else:
        for renderable in renderables:
            out.print(renderable)
