"""``cclens stats``: tokens and cost by day, week, month, project, session, model, agent or
tool."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..figures.aggregate import GROUPINGS
from ..formats import compact, duration, plural
from ..readers.names import AGENTS
from ._folders import folder_option, given
from ._output import (
    UNREADABLE_EXIT,
    Column,
    console,
    fitted_table,
    json_option,
    print_json,
    report_unreadable,
)
from .index import db_option, open_index, resolve_db, resolve_roots, update

if TYPE_CHECKING:
    from rich.table import Table

    from ..figures.aggregate import GroupBy, UsageRow
    from ..reports.stats import StatsReport

_KEY_TITLES: dict[GroupBy, str] = {
    "day": "day",
    "week": "week of",
    "month": "month",
    "project": "project",
    "session": "session",
    "model": "model",
    "tool": "tool",
    "block": "block (UTC)",
    "agent": "agent",
}


def _date(ctx: click.Context, param: click.Parameter, text: str | None) -> date | None:
    from ..figures.period import DateError, parse_date

    if text is None:
        return None
    try:
        return parse_date(text)
    except DateError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _cost(row: UsageRow) -> str:
    if row.cost is None:
        return "unpriced"
    return f"${row.cost:,.2f}" + ("*" if row.unpriced_responses else "")


def _token_cells(row: UsageRow) -> list[str]:
    tokens = row.tokens
    return [
        f"{row.responses:,}",
        compact(tokens.input),
        compact(tokens.output),
        compact(tokens.cache_write),
        compact(tokens.cache_read),
        compact(tokens.total),
        _cost(row),
    ]


def _tool_cells(row: UsageRow) -> list[str]:
    tool = row.tool
    calls = ["", "", "", "", ""]
    if tool is not None:
        calls = [
            f"{tool.calls:,}",
            f"{tool.errors:,}",
            f"{tool.rejected:,}",
            duration(tool.median_seconds) or "—",
            duration(tool.p95_seconds) or "—",
        ]
    return [*calls, compact(row.tokens.total), _cost(row)]


def _block_note(row: UsageRow, limit: int | None) -> str:
    info = row.block
    if info is None:
        return ""
    if info.gap:
        return f"gap of {duration(info.end - info.start)}"
    notes = []
    if info.active:
        notes.append(f"active, {duration((info.minutes_left or 0) * 60)} left")
        if info.tokens_per_hour is not None:
            rate = f"{compact(round(info.tokens_per_hour))} tok/h"
            if info.cost_per_hour is not None:
                rate += f", ${info.cost_per_hour:,.2f}/h"
            notes.append(rate)
        if info.projected_tokens is not None:
            projected = f"→ {compact(info.projected_tokens)}"
            if info.projected_cost is not None:
                projected += f", ${info.projected_cost:,.2f}"
            notes.append(projected)
    if info.over_limit and limit is not None:
        notes.append(f"over {compact(limit)}" + (" (projected)" if info.active else ""))
    return "; ".join(notes)


def _block_cells(row: UsageRow) -> list[str]:
    return [f"{row.responses:,}", compact(row.tokens.total), _cost(row)]


def _block_table(report: StatsReport, width: int) -> tuple[Table, list[str]]:
    """One line per 5-hour block (and per gap between two), with the active block's rates.

    Responses, tokens and cost only (``--json`` has tokens by kind), so that the notes fit
    beside them; every figure keeps its width, and only the notes fold when space runs out.
    """
    keys: list[str] = []
    figures: list[list[str]] = []
    notes: list[str] = []
    styles: list[str | None] = []
    for row in report.rows:
        info = row.block
        if info is None:
            continue
        if info.gap:
            keys.append(f"{info.start:%Y-%m-%d %H:%M}")
            figures.append(["", "", ""])
            notes.append(_block_note(row, None))
            styles.append("dim")
            continue
        keys.append(f"{info.start:%Y-%m-%d %H:%M}–{info.end:%H:%M}")
        figures.append(_block_cells(row))
        notes.append(_block_note(row, report.token_limit))
        styles.append("bold" if info.active else ("red" if info.over_limit else None))
    totals = _block_cells(report.total)
    columns = [
        Column("block (UTC)", keys, footer="total", justify="left"),
        *[
            Column(name, [cells[position] for cells in figures], footer=totals[position])
            for position, name in enumerate(("resp.", "tokens", "cost"))
        ],
    ]
    # The notes take what is left, folded over several lines when they must.
    return fitted_table("Tokens and cost by 5-hour block", columns, width, styles, notes)


#: Which token-table columns stay longest when the terminal is narrow (0: always).
_KEEP = {"resp.": 3, "input": 1, "output": 2, "cache wr": 4, "cache rd": 5, "total": 0, "cost": 0}
_TOOL_KEEP = {
    "calls": 0,
    "errors": 5,
    "rejected": 1,
    "median": 3,
    "p95": 2,
    "tokens": 4,
    "cost": 0,
}


def _table(report: StatsReport, width: int) -> tuple[Table, list[str]]:
    """Tokens by kind per group; for tools, calls and durations with their share of tokens.

    The table keeps to the terminal's width (``--json`` has everything): both cache-write
    lifetimes share one column, sessions show the first 8 characters of their id (enough for
    ``cclens show``); when that is not enough, the least telling columns are left out (input
    and output first, the totals and cost never) and the key and title columns are cut short.
    """
    by = report.by
    total = report.total
    if by == "tool":
        names = ["calls", "errors", "rejected", "median", "p95", "tokens", "cost"]
        footers = ["", "", "", "", "", compact(total.tokens.total), _cost(total)]
        cells = _tool_cells
        keep = _TOOL_KEEP
    else:
        names = ["resp.", "input", "output", "cache wr", "cache rd", "total", "cost"]
        footers = _token_cells(total)
        cells = _token_cells
        keep = _KEEP
    rows = [cells(row) for row in report.rows]
    columns = [
        Column(
            _KEY_TITLES[by],
            [row.key[:8] if by == "session" else row.key for row in report.rows],
            footer="total",
            justify="left",
            shrink_to=8 if by == "session" else 12,
            # A project's path says more cut short than the figures left out for it.
            cut_first=by == "project",
        )
    ]
    if by == "session":
        titles = [row.title or "" for row in report.rows]
        columns.append(Column("title", titles, justify="left", keep=6, shrink_to=10))
    columns += [
        Column(name, [row[position] for row in rows], footer=footer, keep=keep[name])
        for position, (name, footer) in enumerate(zip(names, footers, strict=True))
    ]
    return fitted_table(f"Tokens and cost by {by}", columns, width)


def _print(report: StatsReport) -> None:
    out = console()
    dropped: list[str] = []
    if not report.rows:
        out.print("No API responses in the transcripts read.")
    elif report.by == "block":
        table, dropped = _block_table(report, out.width)
        out.print(table)
        if report.token_limit is not None:
            over = sum(1 for row in report.rows if row.block and row.block.over_limit)
            out.print(
                f"Token limit {report.token_limit:,}: {over:,} block(s) over it.", markup=False
            )
    else:
        table, dropped = _table(report, out.width)
        out.print(table)
    if dropped:
        out.print(
            f"Left out to fit {out.width} columns: {', '.join(dropped)} (see --json).",
            markup=False,
        )
    if report.unpriced:
        out.print("* Cost covers priced responses only. Without a price:")
        for model in report.unpriced:
            out.print(
                f"  {model.model}: {plural(model.responses, 'response')}, "
                f"{compact(model.tokens.total)} tokens ({model.reason})",
                markup=False,
            )
    prices = f"Prices as of {report.prices.as_of or 'an unknown date'}"
    if report.prices.overrides:
        prices += " with " + ", ".join(report.prices.overrides)
    out.print(
        f"{plural(report.responses, 'response')}; {plural(report.sessions_read, 'session')} "
        f"({plural(report.files_read, 'file')}) read; days in {report.timezone}.",
        markup=False,
    )
    out.print(f"{prices}.", markup=False)


def _token_limit(ctx: click.Context, param: click.Parameter, text: str | None) -> int | str | None:
    if text is None:
        return None
    if text.strip().lower() == "max":
        return "max"
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a number of tokens (or 'max')", ctx=ctx, param=param
        ) from None
    if value <= 0:
        raise click.BadParameter("must be a positive number of tokens", ctx=ctx, param=param)
    return value


@click.command("stats")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), metavar="[PATH]...")
@click.option(
    "--by",
    "by",
    type=click.Choice(GROUPINGS),
    default="day",
    show_default=True,
    help="Group tokens and cost by this (block: 5-hour billing windows).",
)
@click.option("--since", callback=_date, metavar="DATE", help="First day (YYYY-MM-DD), included.")
@click.option("--until", callback=_date, metavar="DATE", help="Last day (YYYY-MM-DD), included.")
@click.option("--project", metavar="NAME", help="Only this project (folder, path or its end).")
@click.option(
    "--agent",
    type=click.Choice(AGENTS),
    help="Only sessions of this agent (claude: Claude Code, codex: Codex CLI).",
)
@click.option(
    "--token-limit",
    callback=_token_limit,
    metavar="N|max",
    help="With --by block: flag blocks above N tokens (max: the most any past block used).",
)
@json_option
@click.option(
    "--pricing",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="A price table (JSON) merged over the bundled one.",
)
@folder_option(
    dest="claude_dirs",
    text="Read the transcripts under DIR (an agent's folder, a folder of transcripts or a "
    "file) directly, without the index, as PATH does (repeatable; --claude-dir is the same).",
)
@db_option
@click.option(
    "--no-update", is_flag=True, help="Use the index as it is, without reading new lines."
)
def command(
    paths: tuple[Path, ...],
    by: GroupBy,
    since: date | None,
    until: date | None,
    project: str | None,
    agent: str | None,
    token_limit: int | str | None,
    as_json: bool,
    pricing: Path | None,
    claude_dirs: tuple[Path, ...],
    db: Path | None,
    no_update: bool,
) -> None:
    """Tokens and cost of every API response, by day, week, month, project, session, model,
    agent, tool or 5-hour block.

    Without PATH, the figures come from the local index (brought up to date first, reading
    only what changed, unless --no-update): sessions Claude Code has since deleted still
    count. With PATH (or --dir DIR), the transcripts there are read directly, without the
    index; both give the same figures for the same transcripts. A PATH or DIR that does not
    exist is an error.

    Each API response is counted once, however many records and files repeat it (streamed
    records, resumed sessions, subagent replays), with its last, largest usage. Tokens are
    input, output, cache writes (5-minute and 1-hour) and cache reads. Cost comes from the
    bundled, dated price table (or --pricing FILE merged over it); models without a price,
    such as other vendors' models behind a compatible endpoint, are reported by name and left
    out of the cost, never guessed.

    Days are local days. --since and --until keep responses by their own timestamps (reading
    transcripts directly, a file last written before --since is not even read). --by week
    groups by the Monday that starts each week. --by tool splits each response's tokens and
    cost evenly among the tools it called, and shows each tool's calls, errors, rejections by
    the user and median and 95th-percentile durations. --by block groups responses into
    5-hour windows (starting at the UTC hour of their first response), shows the gaps between
    them, and for the active block its burn rate and projected tokens and cost at its end;
    --token-limit N|max flags blocks above N tokens.

    With --json, one object with the keys by, since, until, project, timezone, prices (as_of,
    source, overrides), files_read, sessions_read, prompts, responses, tool_calls (calls, ok,
    error, rejected, interrupted, pending, failed), total, rows, unpriced, activity,
    diagnostics, source (index or transcripts), token_limit and unreadable (paths that could not
    be read: named on stderr too; with PATH the command then exits with 2). Each row (and total)
    has key, responses, sessions, tokens (input, output, cache_write_5m, cache_write_1h,
    cache_read, total, and cache_write_unsplit: the 5-minute writes a response's breakdown did
    not split), cost (USD, null when no response of the row had a price), unpriced_responses,
    title and project (sessions), prices (the table entries used), tool (tool rows: calls,
    results, errors, rejected, interrupted, unpaired, timed, median_seconds, p95_seconds, …) and
    block (block rows: start, end, first, last, gap, active, minutes_left, tokens_per_hour,
    cost_per_hour, projected_tokens, projected_cost, over_limit). See docs/stats.md.
    """
    from ..figures.blocks import apply_token_limit
    from ..figures.period import Period
    from ..figures.pricing import PricingError, load_price_table
    from ..reports.stats import index_stats, usage_stats

    if since and until and since > until:
        raise click.BadParameter("--since is after --until", param_hint="--since")
    try:
        table = load_price_table(pricing)
    except PricingError as error:
        raise click.ClickException(str(error)) from None
    period = Period(since=since, until=until)
    direct = given([*paths, *claude_dirs])
    if direct:
        report = usage_stats(
            direct, by=by, period=period, project=project, prices=table, agent=agent
        )
    else:
        roots = resolve_roots(())
        with open_index(resolve_db(db, roots)) as index:
            problems: list[str] = []
            if not no_update:
                update_report = update(index, roots, show_progress=not as_json)
                report_unreadable(update_report.errors)  # the index answers: named only
                problems = [str(diagnostic) for diagnostic in update_report.diagnostics]
            report = index_stats(
                index,
                by=by,
                period=period,
                project=project,
                prices=table if pricing is not None else None,
                diagnostics=problems,
                agent=agent,
            )
    if by == "block":
        report.token_limit = apply_token_limit(report.rows, token_limit)
    unreadable = report_unreadable(report.unreadable)
    for problem in report.diagnostics:
        click.echo(f"cclens: {problem}", err=True)
    if as_json:
        print_json(report)
    else:
        _print(report)
    if unreadable:
        raise SystemExit(UNREADABLE_EXIT)
