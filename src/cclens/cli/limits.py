"""``cclens limits``: each agent's plan windows: the use now, the reset, the pace, the history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import duration, utc_time
from ._output import console, json_option, print_json
from .index import db_option, open_index, resolve_db, resolve_roots, update

if TYPE_CHECKING:
    from rich.table import Table

    from ..reports.limits import LimitsReport, WindowReport

#: Periods shown per window in the terminal (``--json`` has them all).
SHOWN_PERIODS = 6


def _when(moment: datetime | None) -> str:
    return utc_time(moment) or "—"


def _pace_cells(entry: WindowReport) -> tuple[str, str]:
    pace = entry.now.pace
    if pace is None:
        return "—", "—"
    projected = f"{pace.projected_percent:.0f}% at reset"
    full = "not before reset" if pace.full_at is None else f"100% {_when(pace.full_at)}"
    return projected, full


def _table(report: LimitsReport) -> Table:
    from rich.table import Table

    table = Table(title="Plan limits", title_justify="left")
    for name, justify in (
        ("agent", "left"),
        ("window", "left"),
        ("used", "right"),
        ("resets", "left"),
        ("pace", "right"),
        ("full", "left"),
        ("last sample", "left"),
    ):
        table.add_column(name, justify=justify, no_wrap=name != "full")  # type: ignore[arg-type]
    for entry in report.windows:
        state = entry.now
        if state.reset_since:
            used, resets = "0%", "reset since"
        else:
            used = f"{state.used_percent:.0f}%"
            resets = f"in {duration(state.resets_in)}" if state.resets_in else "—"
        projected, full = _pace_cells(entry)
        age = (report.now - state.latest.at).total_seconds()
        table.add_row(
            entry.agent,
            entry.label,
            used,
            resets,
            projected,
            full,
            f"{duration(age)} ago",
        )
    return table


def _history(report: LimitsReport) -> Table:
    from rich.table import Table

    table = Table(title="Recent periods (highest use before each reset)", title_justify="left")
    table.add_column("agent")
    table.add_column("window")
    table.add_column("periods", overflow="fold")
    for entry in report.windows:
        shown = entry.periods[-SHOWN_PERIODS:]
        cells = [
            f"{period.peak_percent:.0f}% (reset {_when(period.resets_at)})" for period in shown
        ]
        table.add_row(entry.agent, entry.label, ", ".join(cells))
    return table


@click.command("limits", short_help="Your plan's usage windows: use, reset, pace, history.")
@click.option(
    "--agent",
    type=click.Choice(["claude", "codex"]),
    default=None,
    help="Only this agent's windows.",
)
@click.option(
    "--days",
    type=click.IntRange(1, 3650),
    default=None,
    help="History of the last N days only (the use now is always shown).",
)
@json_option
@db_option
@click.option(
    "--no-update", is_flag=True, help="Use the index as it is, without reading new lines."
)
def command(
    agent: str | None, days: int | None, as_json: bool, db: Path | None, no_update: bool
) -> None:
    """Each agent's plan windows (Claude's and Codex's five-hour and weekly limits): the
    share used now, the time to the reset, the pace (the use projected at the reset at the
    average rate since the window started, and when 100% would be reached) and the history
    (the highest use of each period, between two resets).

    Claude's figures are recorded by cclens's status line each time Claude Code passes them
    (Pro and Max plans, Claude Code 2.1.80 and later: run cclens setup); Codex writes its own
    into its transcripts, so its history goes back as far as they do. With --json, one
    object: now, and windows (agent, window, used_percent, reset_since_sample, sampled_at,
    resets_at, resets_in_seconds, window_minutes, pace {started, projected_percent, full_at},
    periods [{resets_at, peak_percent, samples}], history [{at, used_percent, resets_at,
    session}]).
    """
    from ..reports.limits import limits_report, report_json

    roots = resolve_roots(())
    path = resolve_db(db, roots)
    now = datetime.now(UTC)
    with open_index(path) as index:
        if not no_update:
            update(index, roots, show_progress=not as_json)
        since = now - timedelta(days=days) if days is not None else None
        report = limits_report(index, now, agent=agent, since=since)
    if as_json:
        print_json(report_json(report))
        return
    out = console()
    if not report.windows:
        out.print(
            "No plan limits recorded yet. Claude Code passes them to the status line "
            "(run cclens setup); Codex writes them into its transcripts.",
            markup=False,
        )
        return
    out.print(_table(report))
    out.print(_history(report))
