"""``cclens check``: read transcripts and report what they hold."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import plural, size
from ._folders import dir_option, required_folders
from ._output import (
    UNREADABLE_EXIT,
    console,
    json_option,
    print_json,
    print_wrapped,
    report_unreadable,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from ..reports.check import CheckReport, MalformedLine


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@dir_option
@json_option
def command(paths: tuple[Path, ...], dirs: tuple[Path, ...], as_json: bool) -> None:
    """Read every transcript under PATHS and report what was found.

    PATHS (and --dir) may be agents' folders (~/.claude, ~/.codex), any folder holding
    transcripts, or single transcript files; with none, every agent's folder that exists is
    read. A path that does not exist is an error. The report counts files, bytes, non-empty
    lines and records by type (a Codex line by its type and its payload's); lists malformed
    lines (file, line, reason; consecutive lines with the same reason as one, with their first
    and last line and count); counts record types, content blocks and tools cclens does not
    know; lists lines read only in part (a value of an unexpected type, or nesting past the
    depth cclens decodes, kept as it is); counts tool calls per tool (calls, results, errors,
    unpaired); and says how many subagent files were attached to the call that spawned them. A
    subagent file whose session file is gone (an orphan) counts as a session of its own, as
    everywhere in cclens.

    Malformed lines do not make the command fail. A path that cannot be read does (exit code 2).
    With --json the report is one JSON object with the keys files, bytes, lines, records,
    record_types, malformed, partial, unknown (record_types, content_blocks, tools), tools (per
    name: calls, results, errors — every failed call —, unpaired, rejected, interrupted),
    sessions, subagents (files, attached, orphans) and unreadable.
    """
    from ..reports.check import check

    report = check(required_folders([*paths, *dirs]))
    if as_json:
        print_json(report)
    else:
        _print(report)
    if report_unreadable(report.unreadable):
        raise SystemExit(UNREADABLE_EXIT)


#: Lines listed in the text report (``--json`` lists every one).
_SHOWN_LINES = 100


def _lines(out: Console, lines: list[MalformedLine]) -> None:
    """The first :data:`_SHOWN_LINES` of ``lines``, ``file:line: reason`` each (``file:a-b
    (n lines)`` for a run of lines with the same problem), then how many more there are."""
    for line in lines[:_SHOWN_LINES]:
        where = str(line.line)
        if line.repeats:
            where = f"{line.line}-{line.last_line} ({line.repeats + 1:,} lines)"
        print_wrapped(out, f"{line.file}:{where}: {line.reason}")
    if len(lines) > _SHOWN_LINES:
        out.print(f"… and {len(lines) - _SHOWN_LINES:,} more (--json lists them all)")


def _counts(title: str, counts: dict[str, int]) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("kind")
    table.add_column("count", justify="right")
    for name, count in counts.items():
        table.add_row(name, f"{count:,}")
    return table


def _print(report: CheckReport) -> None:
    from rich.table import Table

    out = console()
    out.print(
        f"Read {plural(report.files, 'file')} ({size(report.bytes)}, "
        f"{plural(report.lines, 'non-empty line')}): {plural(report.records, 'record')}, "
        f"{plural(sum(1 + line.repeats for line in report.malformed), 'malformed line')}."
    )
    out.print(
        f"Sessions: {report.sessions:,}. Subagent files: {report.subagents.files:,}, "
        f"{report.subagents.attached:,} attached to the call that spawned them, "
        f"{report.subagents.orphans:,} without their session (each counted as a session).",
        markup=False,
    )
    out.print(_counts("Records by type", report.record_types))
    if report.malformed:
        out.print("[bold]Malformed lines[/]")
        _lines(out, report.malformed)
    if report.partial:
        out.print("[bold]Lines read in part[/] (what did not fit is kept as it is)")
        _lines(out, report.partial)
    unknown = report.unknown
    if unknown.record_types or unknown.content_blocks or unknown.tools:
        for title, counts in (
            ("Unknown record types", unknown.record_types),
            ("Unknown content blocks", unknown.content_blocks),
            ("Unknown tools", unknown.tools),
        ):
            if counts:
                out.print(_counts(title, counts))
    else:
        out.print("Every record type, content block and tool is known.")
    table = Table(title="Tool calls", title_justify="left")
    for column in ("tool", "calls", "results", "errors", "unpaired"):
        table.add_column(column, justify="left" if column == "tool" else "right")
    for name, tool in report.tools.items():
        table.add_row(
            name, f"{tool.calls:,}", f"{tool.results:,}", f"{tool.errors:,}", f"{tool.unpaired:,}"
        )
    out.print(table)
