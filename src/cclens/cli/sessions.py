"""``cclens sessions``: every session of every project, filtered and sorted, in the terminal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..formats import compact, duration, local_time, plural, usd
from ..index import SESSION_SORTS
from ..readers.names import AGENTS
from ._output import console, json_option, print_json
from .index import (
    claude_dir_option,
    db_option,
    open_index,
    report_problems,
    resolve_db,
    resolve_roots,
    update,
)

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from ..index import SessionPage, SessionSummary


def _day(ctx: click.Context, param: click.Parameter, text: str | None) -> date | None:
    from ..figures.period import DateError, parse_date

    if not text:
        return None
    try:
        return parse_date(text)
    except DateError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


#: Columns of the table, in order: heading, width it needs, how to fill it, how to lay it out.
_COLUMNS: list[tuple[str, int, Callable[[SessionSummary], str | Text], dict[str, Any]]] = [
    ("Last activity", 16, lambda s: _local(s.last_activity), {"no_wrap": True}),
    ("Session", 8, lambda s: s.key[:8], {"no_wrap": True, "style": "cyan"}),
    ("Title", 30, lambda s: _title(s), {"no_wrap": True, "overflow": "ellipsis", "max_width": 60}),
    ("Cost", 8, lambda s: _cost(s), {"justify": "right", "no_wrap": True}),
    ("Prompts", 7, lambda s: str(s.prompts), {"justify": "right"}),
    ("Failed", 6, lambda s: _failed(s), {"justify": "right"}),
    ("Agent", 6, lambda s: s.agent, {"no_wrap": True}),
    (
        "Project",
        20,
        lambda s: s.project_path or s.project,
        {"no_wrap": True, "overflow": "ellipsis", "max_width": 32},
    ),
    ("Tokens", 6, lambda s: compact(s.tokens), {"justify": "right"}),
    ("Calls", 5, lambda s: str(s.tool_calls), {"justify": "right"}),
    ("Duration", 11, lambda s: duration(s.duration_seconds), {"justify": "right"}),
    ("Branch", 12, lambda s: s.git_branch or "", {"no_wrap": True, "max_width": 24}),
    ("Version", 7, lambda s: s.version or "", {"no_wrap": True}),
    ("Models", 17, lambda s: _models(s), {"no_wrap": True, "max_width": 40}),
]


def _local(moment: datetime | None) -> str:
    return local_time(moment)


def _title(session: SessionSummary) -> Text:
    from rich.text import Text

    title = Text(session.title or "(untitled)")
    if session.archived:
        title.append(" [archived]", style="magenta")
    return title


def _cost(session: SessionSummary) -> str:
    # A star: some responses had no price (their model is not in the price table).
    return usd(session.cost) + ("*" if session.unpriced and session.cost is not None else "")


def _failed(session: SessionSummary) -> str | Text:
    from rich.text import Text

    return Text(str(session.errors), style="red") if session.errors else "0"


def _models(session: SessionSummary) -> str:
    return ", ".join(model.removeprefix("claude-") for model in session.models)


def _table(page: SessionPage, width: int) -> Table:
    """The page's sessions, with as many columns as ``width`` characters hold."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    chosen: list[tuple[str, int, Callable[[SessionSummary], str | Text], dict[str, Any]]] = []
    used = 0
    for column in _COLUMNS:
        if chosen and used + column[1] + 2 > width:
            continue
        chosen.append(column)
        used += column[1] + 2
    for heading, need, _, layout in chosen:
        if heading == "Title":  # the title takes what the other columns leave
            room = width - (used - need - 2) - 2
            layout = {**layout, "min_width": min(need, room), "max_width": max(need, room)}
        else:
            layout = {"min_width": need, **layout}
        table.add_column(heading, **layout)
    for session in page:
        table.add_row(*(fill(session) for _, _, fill, _ in chosen))
    return table


def _footer(page: SessionPage) -> str:
    if not page.total:
        return "No sessions match."
    shown = f"{page.offset + 1:,}–{page.offset + len(page):,} of {plural(page.total, 'session')}"
    more = f"; --offset {page.offset + len(page)} for more" if page.more else ""
    return f"{shown}, by {page.sort.replace('_', ' ')} ({page.order}){more}."


@click.command("sessions")
@click.option("--project", help="A project folder name or working directory (or part of one).")
@click.option(
    "--since", callback=_day, help="Sessions active on or after this day (YYYY-MM-DD, local)."
)
@click.option(
    "--until", callback=_day, help="Sessions started on or before this day (YYYY-MM-DD, local)."
)
@click.option(
    "-t", "--text", help="Words to find in the title, first prompt, directory or session id."
)
@click.option("--model", help="Sessions that used this model (or part of its id: opus).")
@click.option("--branch", help="Sessions last on this git branch.")
@click.option(
    "--errors/--no-errors",
    default=None,
    help="Only sessions with a failed tool call (--errors) or without one (--no-errors).",
)
@click.option(
    "--archived/--on-disk",
    default=None,
    help="Only sessions their agent deleted (kept by cclens), or only those still on disk.",
)
@click.option(
    "--agent",
    type=click.Choice(AGENTS),
    help="Only sessions of this agent (claude: Claude Code, codex: Codex CLI).",
)
@click.option(
    "--sort",
    type=click.Choice(list(SESSION_SORTS)),
    default="last_activity",
    show_default=True,
    metavar="FIELD",
    # The choices in the text, where they wrap: as a metavar they made one 126-column line.
    help=f"What to sort by: {', '.join(SESSION_SORTS)}.",
)
@click.option(
    "--order",
    type=click.Choice(["asc", "desc"]),
    help="Sort order (default: latest or largest first; A to Z for text).",
)
@click.option("--limit", default=50, show_default=True, type=click.IntRange(0), help="0: all.")
@click.option("--offset", default=0, type=click.IntRange(0), help="Skip this many sessions.")
@click.option(
    "--no-update", is_flag=True, help="List the index as it is, without reading new lines."
)
@claude_dir_option
@db_option
@json_option
def command(
    project: str | None,
    since: date | None,
    until: date | None,
    text: str | None,
    model: str | None,
    branch: str | None,
    errors: bool | None,
    archived: bool | None,
    agent: str | None,
    sort: str,
    order: str | None,
    limit: int,
    offset: int,
    no_update: bool,
    dirs: tuple[Path, ...],
    db: Path | None,
    as_json: bool,
) -> None:
    """List sessions across every project, the most recently active first.

    The same list as the web app's sessions view and /api/sessions (whose JSON --json
    prints): title, project, agent, last activity, duration, prompts, tool calls, failed
    calls, tokens, cost, models, git branch and agent version. Days are local days of this
    machine. Resume one with `cclens resume SESSION` (the Session column is the start of its
    id). The index is brought up to date first unless --no-update is given.
    """
    from rich.text import Text

    from ..figures.period import Period
    from ..index import ListError, SessionFilters

    period = Period(since=since, until=until)
    filters = SessionFilters(
        text=text or None,
        project=project or None,
        since=period.start,
        until=period.end,
        model=model or None,
        branch=branch or None,
        errors=errors,
        archived=archived,
        agent=agent,
    )
    roots = resolve_roots(dirs)
    with open_index(resolve_db(db, roots)) as index:
        if not no_update:
            report_problems(update(index, roots, show_progress=not as_json))
        try:
            page = index.sessions(
                filters, sort=sort, order=order, limit=limit or None, offset=offset
            )
        except ListError as error:
            raise click.BadParameter(str(error)) from error
    if as_json:
        print_json(page.as_json())
        return
    out = console()
    if page.sessions:
        out.print(_table(page, out.width))
    out.print(Text(_footer(page), style="dim"))
