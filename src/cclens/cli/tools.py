"""``cclens tools``: the tool inventory."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ._folders import dir_option, required_folders
from ._output import UNREADABLE_EXIT, console, json_option, print_json, report_unreadable

if TYPE_CHECKING:
    from ..model.entries import Diagnostic


@click.command("tools")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@dir_option
@json_option
def command(paths: tuple[Path, ...], dirs: tuple[Path, ...], as_json: bool) -> None:
    """List every tool called in the transcripts under PATHS, most-called first.

    For each tool: how many calls, how many failed (errors, rejections by the user and
    interruptions), and what the tool does; MCP tools name their server. PATHS (and --dir) are
    agents' folders, folders holding transcripts or transcript files; with none, every agent's
    folder that exists is read (a path that does not exist is an error). With --json, a list of
    objects with name, calls, results, errors, rejected, interrupted, unpaired, description,
    server, timed, median_seconds and p95_seconds (seconds from a call to its result).
    """
    from rich.table import Table

    from ..figures.inventory import inventory
    from ..readers.agents import discover, load
    from ..readers.claude.isolate import each_isolated, unreadable_reasons

    found = discover(*required_folders([*paths, *dirs]))
    problems: list[Diagnostic] = []
    sessions = list(each_isolated(found.sessions, load, lambda file: file.path, problems))
    unreadable = report_unreadable([*found.errors, *unreadable_reasons(problems)])
    rows = inventory(sessions)
    if as_json:
        print_json(rows)
    else:
        table = Table(title_justify="left")
        for column in ("tool", "calls", "errors", "what it does"):
            table.add_column(column, justify="right" if column in ("calls", "errors") else "left")
        for row in rows:
            table.add_row(row.name, f"{row.calls:,}", f"{row.errors:,}", row.description)
        console().print(table)
    if unreadable:
        raise SystemExit(UNREADABLE_EXIT)
