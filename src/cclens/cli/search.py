"""``cclens search``: full-text search over every indexed session, from the terminal."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
from rich.text import Text

from ..analytics.period import DateError, parse_moment
from ..index import DOCUMENT_KINDS, SearchError, SearchFilters, SearchHit
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
    upper bound means its end (see :func:`cclens.analytics.period.parse_moment`)."""
    if not text:
        return None
    try:
        return parse_moment(text, end=end, zone=UTC)
    except DateError as error:
        option = "--until" if end else "--since"
        raise click.BadParameter(str(error), param_hint=option) from None


def _print(hits: list[SearchHit]) -> None:
    out = console()
    if not hits:
        out.print("No matches.")
        return
    for hit in hits:
        heading = Text()
        heading.append(hit.session_title or hit.session_key, style="bold")
        heading.append(f"  {hit.project}", style="dim")
        out.print(heading)
        details = [hit.kind.replace("_", " ")]
        if hit.tool:
            details.append(hit.tool)
        if hit.error:
            details.append("error")
        if hit.in_subagent:
            details.append("subagent")
        if hit.archived:
            details.append("archived")
        if hit.time:
            details.append(hit.time.strftime("%Y-%m-%d %H:%M UTC"))
        out.print(Text("  " + " · ".join(details) + f"  {hit.url}", style="cyan"))
        snippet = Text("  ")
        for text, is_match in hit.snippet_parts():
            snippet.append(" ".join(text.split()), style="bold yellow" if is_match else "")
            if text[-1:].isspace():
                snippet.append(" ")
        out.print(snippet)
        out.print()


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
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000))
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
    limit: int,
    no_update: bool,
    claude_dir: tuple[Path, ...],
    db: Path | None,
    as_json: bool,
) -> None:
    """Search prompts, answers, thinking, tool inputs and tool outputs of every session.

    Words match whole words (any order), "quoted words" match a phrase, word* matches a
    prefix, -word excludes, and OR between two terms matches either. Results are ranked best
    first; each names its session and the message it is in (open it with `cclens serve`).
    The index is brought up to date first unless --no-update is given.
    """
    filters = SearchFilters(
        project=project,
        since=parse_when(since, end=False),
        until=parse_when(until, end=True),
        tool=tool,
        kinds=kinds,
        errors_only=errors,
    )
    roots = resolve_roots(claude_dir)
    with open_index(resolve_db(db, roots)) as index:
        if not no_update:
            report_problems(update(index, roots, show_progress=not as_json))
        try:
            hits = index.search(query, filters, limit=limit)
        except SearchError as error:
            raise click.BadParameter(str(error)) from error
    if as_json:
        print_json([hit.as_json() for hit in hits])
    else:
        _print(hits)
