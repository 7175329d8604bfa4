"""``cclens search``: full-text search over every indexed session, from the terminal."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from ..figures.period import DateError, parse_moment
from ..index import (
    DEFAULT_SECONDS,
    DOCUMENT_KINDS,
    MAX_SHOWN,
    ORIGINS,
    Budget,
    SearchError,
    SearchFilters,
    SearchHit,
    SearchResult,
    SessionGroup,
)
from ..readers.agents import AGENTS
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


def parse_when(text: str | None, *, end: bool) -> datetime | None:
    """``2025-06-01`` or an ISO date and time (UTC unless it says otherwise); a bare date as an
    upper bound means its end (see :func:`cclens.figures.period.parse_moment`)."""
    if not text:
        return None
    try:
        return parse_moment(text, end=end, zone=UTC)
    except DateError as error:
        option = "--until" if end else "--since"
        raise click.BadParameter(str(error), param_hint=option) from None


def _hit(out: Console, hit: SearchHit) -> None:
    details = [hit.kind.replace("_", " ")]
    if hit.tool:
        details.append(hit.tool)
    if hit.error:
        details.append("error")
    if hit.in_subagent:
        details.append("subagent")
    if hit.time:
        details.append(hit.time.strftime("%Y-%m-%d %H:%M UTC"))
    out.print(Text("  " + " · ".join(details) + f"  {hit.url}", style="cyan"))
    snippet = Text("    ")
    for text, is_match in hit.snippet_parts():
        # Whitespace is kept as it is in the text; lines of the snippet stay indented.
        snippet.append(text.replace("\n", "\n    "), style="bold yellow" if is_match else "")
    out.print(snippet)


def _group(out: Console, group: SessionGroup) -> None:
    heading = Text()
    heading.append(group.title or group.session_key, style="bold")
    heading.append(f"  {group.project_path}", style="dim")
    heading.append(f"  {group.count:,} hit{'s' if group.count != 1 else ''}")
    if group.archived:
        heading.append("  archived", style="magenta")
    out.print(heading)
    for hit in group.shown:
        _hit(out, hit)
    if group.count > len(group.shown):
        out.print(
            Text(
                f"  … {group.count - len(group.shown):,} more in this session "
                f"(--session {group.session_key})",
                style="dim",
            )
        )
    out.print()


def print_result(result: SearchResult) -> None:
    """The result for a person: the total, then session by session, the best hits first."""
    out = console()
    if not result.total_hits:
        out.print("No matches.")
        return
    hits = f"{result.total_hits:,} hit{'s' if result.total_hits != 1 else ''}"
    sessions = f"{result.total_sessions:,} session{'s' if result.total_sessions != 1 else ''}"
    shown = ""
    if result.groups and len(result.groups) < result.total_sessions:
        first = result.offset + 1
        shown = f"; sessions {first}–{result.offset + len(result.groups)} below"
    out.print(Text(f"{hits} in {sessions}{shown}", style="bold"))
    out.print()
    for group in result.groups:
        _group(out, group)
    if result.more:
        out.print(
            Text(f"More: --offset {result.offset + result.limit}", style="dim"),
        )


@click.command("search")
@click.argument("query")
@click.option("--project", help="A project folder name or working directory (or part of one).")
@click.option("--since", help="Only messages from this date (YYYY-MM-DD or ISO time, UTC).")
@click.option("--until", help="Only messages up to this date (inclusive for a bare date).")
@click.option("--tool", help="Only tool inputs and outputs of this tool (e.g. Bash).")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(DOCUMENT_KINDS),
    help="Only this kind of content. Repeatable.",
)
@click.option("--errors", is_flag=True, help="Only failed tool calls and API errors.")
@click.option(
    "--origin",
    type=click.Choice(ORIGINS),
    help="Only the main conversations, or only what subagents said and did.",
)
@click.option(
    "--agent",
    type=click.Choice(AGENTS),
    help="Only sessions of this agent (claude: Claude Code, codex: Codex CLI).",
)
@click.option("--session", "session_key", help="Only this session (its id).")
@click.option(
    "--limit",
    default=10,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="Sessions to show.",
)
@click.option(
    "--per-session",
    type=click.IntRange(1, MAX_SHOWN),
    help="Hits to show per session (default 3; with --session, all of them up to 1,000).",
)
@click.option("--offset", default=0, type=click.IntRange(0), help="Sessions to skip.")
@click.option(
    "--max-seconds",
    default=DEFAULT_SECONDS,
    show_default=True,
    type=click.FloatRange(0.01, 600),
    help="Give up on a query that takes more processor time than this to rank.",
)
@click.option(
    "--no-update", is_flag=True, help="Search the index as it is, without reading new lines."
)
@claude_dir_option
@db_option
@json_option
def command(
    query: str,
    project: str | None,
    since: str | None,
    until: str | None,
    tool: str | None,
    kinds: tuple[str, ...],
    errors: bool,
    origin: str | None,
    agent: str | None,
    session_key: str | None,
    limit: int,
    per_session: int | None,
    offset: int,
    max_seconds: float,
    no_update: bool,
    dirs: tuple[Path, ...],
    db: Path | None,
    as_json: bool,
) -> None:
    """Search prompts, answers, thinking, tool inputs and tool outputs of every session.

    Words match whole words (any order), "quoted words" match a phrase, word* matches a
    prefix, -word excludes, and OR between two terms matches either (at most 32 different
    terms). Every match is ranked; the sessions with the best hits come first, each with its
    hit count and best hits, and each hit names the page that opens at it (`cclens serve`).
    The index is brought up to date first unless --no-update is given.
    """
    filters = SearchFilters(
        project=project,
        since=parse_when(since, end=False),
        until=parse_when(until, end=True),
        tool=tool,
        kinds=kinds,
        errors_only=errors,
        session=session_key,
        origin="subagent" if origin == "subagent" else "main" if origin == "main" else None,
        agent=agent,
    )
    roots = resolve_roots(dirs)
    with open_index(resolve_db(db, roots)) as index:
        if not no_update:
            report_problems(update(index, roots, show_progress=not as_json))
        try:
            result = index.search_results(
                query,
                filters,
                offset=offset,
                limit=1 if session_key else limit,  # one session: one group
                per_session=per_session or (MAX_SHOWN if session_key else 3),
                budget=Budget(max_seconds),
            )
        except SearchError as error:
            raise click.ClickException(str(error)) from None
    if as_json:
        print_json(result.as_json())
    else:
        print_result(result)
