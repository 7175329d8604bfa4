"""``cclens mcp``: the index as a Model Context Protocol server (official ``mcp`` SDK).

The tools are read-only (:mod:`.tools` answers them); the index is brought up to date in a
background thread when the server starts and each time a transcript changes (the web app's
:class:`~cclens.index.watch.Indexer`), so the tools answer at once with what is indexed.
Everything a tool returns passes through :class:`cclens.redact.Redactor` unless
``redact=False``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from .. import __version__
from ..index import DOCUMENT_KINDS, FilterTooLong, Index
from ..redact import Redactor
from .tools import MAX_CALLS, MAX_HITS, MAX_MESSAGES, MAX_ROWS, MAX_SESSIONS, MAX_TEXT, ToolProblem
from .tools import Tools as ToolAnswers

INSTRUCTIONS = """\
cclens holds every coding agent session of this machine (Claude Code's transcripts from
~/.claude/projects, Codex CLI's from ~/.codex/sessions, kept even after the agent deletes them;
each session names its `agent`): what was asked, answered, thought, and every tool
call with its result. Use it to find how something was done before, what a past session
decided, which files it touched, or what usage cost.

Start broad and drill down: `search` (full-text, the cclens search language) or
`list_sessions`, then `get_session` for an outline, then `get_messages` (around a hit's uuid),
`get_tool_calls` or `get_session_files`; `read_message` gives the rest of a cut text.
`usage_summary` reports tokens and cost; `permission_audit` what permission rules decide.
Answers are bounded in size and paged (`next_offset`/`next_start`); each item cites its
session key, its message uuid and a `url` where `cclens serve` shows it. Secrets are redacted.
"""

#: The sort keys of the sessions view (:data:`cclens.index.read.session_list.SESSION_SORTS`; a test
#: checks they are the same).
SessionSort = Literal[
    "last_activity",
    "started",
    "title",
    "project",
    "agent",
    "duration",
    "prompts",
    "tool_calls",
    "failures",
    "tokens",
    "cost",
    "models",
    "branch",
    "version",
    "archived",
]

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

Session = Annotated[
    str,
    Field(
        description="The session: its key or id as search and list_sessions give it "
        "(`session`), or a unique prefix of it."
    ),
]
Since = Annotated[
    str | None, Field(description="Only from this date (YYYY-MM-DD, or an ISO time; UTC).")
]
Until = Annotated[str | None, Field(description="Only up to this date (YYYY-MM-DD included).")]
Agent = Annotated[
    Literal["claude", "codex", "gemini", "copilot"] | None,
    Field(description="Only this agent's sessions: claude (Claude Code), codex (Codex CLI)…"),
]
Project = Annotated[
    str | None,
    Field(
        description="Only this project: its folder name (`-home-me-app`), its path "
        "(`/home/me/app`) or the end of its path (`app`)."
    ),
]


@dataclass(slots=True)
class ServerOptions:
    """How ``cclens mcp`` runs: the index, the Claude folders to keep it in step with, whether
    to watch them, whether to redact, and where ``cclens serve`` shows sessions."""

    db_path: Path
    claude_dirs: list[Path]
    redact: bool = True
    watch: bool = True
    update: bool = True
    serve_url: str = "http://127.0.0.1:8765"


def _answer(redact: bool, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    try:
        found = call()
    except (ToolProblem, FilterTooLong) as problem:
        raise ToolError(str(problem)) from None
    if not redact:
        return found
    cleaned = Redactor().json(found)
    assert isinstance(cleaned, dict)
    return cleaned


def build_server(tools: ToolAnswers, *, redact: bool = True) -> MCPServer[Any]:
    """The MCP server with every tool of ``tools`` registered."""
    server: MCPServer[Any] = MCPServer(
        "cclens", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )

    @server.tool(
        name="search",
        annotations=_READ_ONLY,
        description=(
            "Full-text search over every session: prompts, answers, thinking, tool inputs and "
            "tool outputs. Query language of `cclens search`: words match whole words in any "
            'order, "quoted words" a phrase, word* a prefix, -word excludes, OR between two '
            "terms matches either; Chinese, Japanese, Korean and other text written without "
            "spaces matches any part of it, one character up. The answer is what "
            "`cclens search --json` prints: sessions with the best hits first (`groups`, each "
            "with its hit count and best hits `shown`), the totals, and facets (projects, "
            "agents, kinds, tools, months) to narrow by. "
            "Each hit names its session, its message (`anchor`) and element (`target`), a "
            "snippet, and a `url` that opens the session at it. At most "
            f"{MAX_HITS} sessions per call, paged with offset; session= lists one session's "
            "hits. mode: lexical (words), semantic (meaning: English; other languages and "
            "scripts are found by words) or hybrid (both; the default when the index has "
            "vectors). like_session with like_anchor: more like this, the texts nearest in "
            "meaning to that message (query may then be empty)."
        ),
    )
    def search(
        query: Annotated[str, Field(description="What to look for (see the description).")],
        project: Project = None,
        agent: Agent = None,
        since: Since = None,
        until: Until = None,
        tool: Annotated[
            str | None, Field(description="Only inputs and outputs of this tool (e.g. Bash).")
        ] = None,
        kinds: Annotated[
            list[Literal["prompt", "assistant", "thinking", "tool_input", "tool_output"]],
            Field(description=f"Only these kinds of content ({', '.join(DOCUMENT_KINDS)})."),
        ] = [],  # noqa: B006 (pydantic copies defaults)
        errors_only: Annotated[
            bool, Field(description="Only failed tool calls and API errors.")
        ] = False,
        origin: Annotated[
            Literal["main", "subagent"] | None,
            Field(description="Only the main conversations, or only subagents'."),
        ] = None,
        session: Annotated[
            str | None, Field(description="Only this session (its key or id): all its hits.")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_HITS, description="Sessions per page.")] = 10,
        per_session: Annotated[
            int, Field(ge=1, le=MAX_HITS, description="Hits shown per session.")
        ] = 3,
        offset: Annotated[int, Field(ge=0, description="Sessions to skip (paging).")] = 0,
        mode: Annotated[
            Literal["lexical", "semantic", "hybrid"] | None,
            Field(description="Find by words, meaning, or both (default: hybrid with vectors)."),
        ] = None,
        like_session: Annotated[
            str | None, Field(description="More like this: the session of the message.")
        ] = None,
        like_anchor: Annotated[
            str | None, Field(description="More like this: the message's anchor (a hit's).")
        ] = None,
    ) -> dict[str, Any]:
        return _answer(
            redact,
            lambda: tools.search(
                query,
                project=project,
                agent=agent,
                since=since,
                until=until,
                tool=tool,
                kinds=kinds,
                errors_only=errors_only,
                origin=origin,
                session=session,
                limit=limit,
                per_session=per_session,
                offset=offset,
                mode=mode,
                like=(like_session, like_anchor) if like_session and like_anchor else None,
            ),
        )

    @server.tool(
        name="list_sessions",
        annotations=_READ_ONLY,
        description=(
            "The sessions view of cclens: sessions with their agent, title, project, working "
            "directory, branch, times, models, prompts, responses, tool calls and failures, "
            "tokens and cost (each counted once), filtered and sorted as the view does. The "
            "most recently active first by default. At most "
            f"{MAX_SESSIONS} per call, paged with offset (`total` says how many match)."
        ),
    )
    def list_sessions(
        text: Annotated[
            str | None,
            Field(
                description="Words that must each appear in the title, first prompt, working "
                "directory, project or session id."
            ),
        ] = None,
        project: Project = None,
        agent: Agent = None,
        since: Annotated[
            str | None, Field(description="Only sessions active on or after this date.")
        ] = None,
        until: Annotated[
            str | None, Field(description="Only sessions active on or before this date.")
        ] = None,
        model: Annotated[
            str | None, Field(description="Only sessions that used this model (part of its id).")
        ] = None,
        branch: Annotated[
            str | None, Field(description="Only sessions last on this git branch.")
        ] = None,
        errors: Annotated[
            bool | None,
            Field(description="true: only sessions with a failed tool call; false: without."),
        ] = None,
        archived: Annotated[
            bool | None,
            Field(
                description="true: only sessions whose transcript Claude Code deleted; "
                "false: only those still on disk."
            ),
        ] = None,
        sort: Annotated[SessionSort, Field(description="What to sort by.")] = "last_activity",
        order: Annotated[
            Literal["asc", "desc"] | None,
            Field(description="asc or desc (default: latest or largest first, text A to Z)."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_SESSIONS, description="Sessions per page.")] = 20,
        offset: Annotated[int, Field(ge=0, description="Sessions to skip (paging).")] = 0,
    ) -> dict[str, Any]:
        return _answer(
            redact,
            lambda: tools.list_sessions(
                text=text,
                project=project,
                agent=agent,
                since=since,
                until=until,
                model=model,
                branch=branch,
                errors=errors,
                archived=archived,
                sort=sort,
                order=order,
                limit=limit,
                offset=offset,
            ),
        )

    @server.tool(
        name="get_session",
        annotations=_READ_ONLY,
        description=(
            "One session's outline: title, project, working directory, git branch, start and "
            "end, models, tokens and cost, tools used (calls and errors), files read and "
            "changed, subagents, compactions and the first prompt."
        ),
    )
    def get_session(session: Session) -> dict[str, Any]:
        return _answer(redact, lambda: tools.session_overview(session))

    @server.tool(
        name="get_messages",
        annotations=_READ_ONLY,
        description=(
            "The messages of a session's main line, in order: prompts, answers (with their "
            "tool calls and results) and system events. Start at `start`, or centre the page "
            f"on the message `around` (a uuid from search). At most {MAX_MESSAGES} messages; "
            "long texts are cut to max_chars with a marker, and read_message gives the rest. "
            "next_start pages on."
        ),
    )
    def get_messages(
        session: Session,
        start: Annotated[int, Field(ge=0, description="Index of the first message.")] = 0,
        limit: Annotated[int, Field(ge=1, le=MAX_MESSAGES, description="Messages.")] = 20,
        around: Annotated[
            str | None, Field(description="A message uuid to centre the page on.")
        ] = None,
        include_thinking: Annotated[
            bool, Field(description="Include the model's thinking.")
        ] = False,
        include_tool_results: Annotated[
            bool, Field(description="Include each tool call's result.")
        ] = True,
        max_chars: Annotated[
            int, Field(ge=100, le=MAX_TEXT, description="Longest text kept per message.")
        ] = 2000,
    ) -> dict[str, Any]:
        return _answer(
            redact,
            lambda: tools.messages(
                session,
                start=start,
                limit=limit,
                around=around,
                include_thinking=include_thinking,
                include_tool_results=include_tool_results,
                max_chars=max_chars,
            ),
        )

    @server.tool(
        name="read_message",
        annotations=_READ_ONLY,
        description=(
            "The whole text of one message (uuid) or tool call (`tool-<id>`: its input and "
            f"result), {MAX_TEXT:,} characters at a time from offset: the rest of a text "
            "get_messages or get_tool_calls cut."
        ),
    )
    def read_message(
        session: Session,
        uuid: Annotated[str, Field(description="The message uuid, or tool-<tool_use id>.")],
        offset: Annotated[int, Field(ge=0, description="First character.")] = 0,
        length: Annotated[int, Field(ge=1, le=MAX_TEXT, description="Characters.")] = MAX_TEXT,
    ) -> dict[str, Any]:
        return _answer(
            redact, lambda: tools.read_message(session, uuid, offset=offset, length=length)
        )

    @server.tool(
        name="get_tool_calls",
        annotations=_READ_ONLY,
        description=(
            "A session's tool calls (its subagents' too) in order: name, status (ok, error, "
            "rejected, interrupted, pending), time, duration, input and result (cut to "
            f"max_chars). Filter by tool name or status (`failed`: every call that did not "
            f"succeed). At most {MAX_CALLS} per call, paged with offset."
        ),
    )
    def get_tool_calls(
        session: Session,
        tool: Annotated[str | None, Field(description="Only this tool (e.g. Bash).")] = None,
        status: Annotated[
            Literal["ok", "error", "rejected", "interrupted", "pending", "failed"] | None,
            Field(description="Only calls that ended so."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_CALLS, description="Calls per page.")] = 20,
        offset: Annotated[int, Field(ge=0, description="Calls to skip (paging).")] = 0,
        max_chars: Annotated[
            int, Field(ge=100, le=MAX_TEXT, description="Longest input or result kept.")
        ] = 1000,
    ) -> dict[str, Any]:
        return _answer(
            redact,
            lambda: tools.tool_calls(
                session, tool=tool, status=status, limit=limit, offset=offset, max_chars=max_chars
            ),
        )

    @server.tool(
        name="get_session_files",
        annotations=_READ_ONLY,
        description=(
            "The files a session (with its subagents) read, changed (Write, Edit, "
            "NotebookEdit; Codex's apply_patch) and searched (Glob, Grep), each once, in the "
            "order first touched."
        ),
    )
    def get_session_files(session: Session) -> dict[str, Any]:
        return _answer(redact, lambda: tools.session_files(session))

    @server.tool(
        name="usage_summary",
        annotations=_READ_ONLY,
        description=(
            "Tokens (input, output, cache writes and reads) and cost in US dollars, each API "
            "response counted once, grouped by day, week, month, project, session, model, "
            "agent, tool (each tool's share, its calls, failures and durations) or 5-hour "
            "block (with the active block's burn rate and projection), with the prompts and "
            f"tool calls by status: the figures of `cclens stats`. At most {MAX_ROWS} rows: "
            "the latest for time groupings, the largest otherwise."
        ),
    )
    def usage_summary(
        by: Annotated[
            Literal[
                "day", "week", "month", "project", "session", "model", "tool", "block", "agent"
            ],
            Field(description="The grouping."),
        ] = "day",
        since: Annotated[str | None, Field(description="First local day (YYYY-MM-DD).")] = None,
        until: Annotated[str | None, Field(description="Last local day (YYYY-MM-DD).")] = None,
        project: Project = None,
        agent: Agent = None,
        limit: Annotated[int, Field(ge=1, le=MAX_ROWS, description="Rows.")] = 31,
    ) -> dict[str, Any]:
        return _answer(
            redact,
            lambda: tools.usage(
                by=by, since=since, until=until, project=project, agent=agent, limit=limit
            ),
        )

    @server.tool(
        name="permission_audit",
        annotations=_READ_ONLY,
        description=(
            "What today's permission rules (user, project and local settings) decide for a "
            "project's recorded tool calls: calls per tool allowed, asked or denied, the "
            "calls the user rejected, and suggested rules that would have saved prompts."
        ),
    )
    def permission_audit(
        project: Annotated[str, Field(description="The project (folder, path or its end).")],
        limit: Annotated[int, Field(ge=1, le=50, description="Items per list.")] = 20,
    ) -> dict[str, Any]:
        return _answer(redact, lambda: tools.permission_audit(project, limit=limit))

    return server


@contextmanager
def running_indexer(options: ServerOptions, index: Index) -> Iterator[None]:
    """Keep the index in step with the Claude folders while the server runs."""
    if not options.update:
        yield
        return
    from ..index.watch import Broker, Indexer

    indexer = Indexer(index, options.claude_dirs, Broker(), watch_files=options.watch)
    indexer.start()
    try:
        yield
    finally:
        indexer.stop()
        indexer.join(timeout=5)


def serve(options: ServerOptions, *, port: int | None = None) -> None:
    """Run the server on stdio, or on Streamable HTTP at 127.0.0.1:``port``."""
    with Index(options.db_path) as index:
        answers = ToolAnswers(index, options.serve_url, options.claude_dirs)
        server = build_server(answers, redact=options.redact)
        with running_indexer(options, index):
            if port is None:
                server.run("stdio")
            else:
                server.run("streamable-http", host="127.0.0.1", port=port)


__all__ = ["INSTRUCTIONS", "ServerOptions", "build_server", "running_indexer", "serve"]
