"""The tables of the Parquet dataset: every column, its type and what it means.

The descriptions travel with the data (Arrow field metadata, key ``description``) and
``docs/dataset.md`` is generated from them (:func:`markdown_tables`), so the documentation and
the files cannot disagree. Columns ``project`` and ``month`` are not stored in the files: they
are the hive partition directories (``project=<slug>/month=YYYY-MM``) every engine turns back
into columns.
"""

from __future__ import annotations

import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type hints

TIMESTAMP = pa.timestamp("us", tz="UTC")
STRINGS = pa.list_(pa.string())

#: Partition columns, outermost first: (name, description).
PARTITIONS: tuple[tuple[str, str], ...] = (
    (
        "project",
        "Project folder Claude Code wrote the session under (`~/.claude/projects/<project>`), or "
        "for another agent its working directory written the same way, with characters other "
        "than letters, digits, `.`, `_` and `-` replaced by `-`.",
    ),
    (
        "month",
        "Month the session started, `YYYY-MM` in UTC (`unknown` when no record has a time).",
    ),
)


def _column(name: str, kind: pa.DataType, description: str) -> pa.Field:
    return pa.field(name, kind, nullable=True, metadata={"description": description})


_MACHINE = _column(
    "machine", pa.string(), "Name of the machine the transcripts were read on (`--machine`)."
)
_SESSION = _column(
    "session_id", pa.string(), "Id of the top-level session (the transcript file name)."
)
_AGENT = _column(
    "agent_id",
    pa.string(),
    "Subagent id for rows of a subagent transcript, null for the main session.",
)
_TOKENS = (
    _column("input_tokens", pa.int64(), "Input tokens not read from or written to the cache."),
    _column("output_tokens", pa.int64(), "Output tokens."),
    _column("cache_creation_input_tokens", pa.int64(), "Input tokens written to the cache."),
    _column("cache_read_input_tokens", pa.int64(), "Input tokens read from the cache."),
)

SESSIONS = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _column(
            "agent",
            pa.string(),
            "Agent that wrote the session: `claude` (Claude Code), `codex` (Codex CLI)…",
        ),
        _column("title", pa.string(), "Title: custom, AI-generated, summary or first prompt."),
        _column(
            "title_source",
            pa.string(),
            "Where the title comes from: custom, ai, summary, first-prompt or none.",
        ),
        _column("first_prompt", pa.string(), "First prompt typed, on one line."),
        _column("cwd", pa.string(), "Working directory of the session."),
        _column("git_branch", pa.string(), "Last git branch recorded."),
        _column("version", pa.string(), "Last version of the agent that wrote to the session."),
        _column("versions", STRINGS, "Every version of the agent that wrote to the session."),
        _column("models", STRINGS, "Models that answered, subagents included, first use first."),
        _column("started", TIMESTAMP, "First record, subagents included."),
        _column("ended", TIMESTAMP, "Last record, subagents included."),
        _column("duration_seconds", pa.float64(), "`ended - started` in seconds."),
        _column(
            "turns",
            pa.int32(),
            "Turns of the main transcript: prompts and slash commands typed, copies included.",
        ),
        _column(
            "prompts",
            pa.int32(),
            "Prompts and slash commands typed, each counted once in the project (a resumed "
            "session's copies count for the session they came from).",
        ),
        _column("messages", pa.int32(), "Rows of `messages` for the session."),
        _column(
            "responses",
            pa.int32(),
            "API responses the session counts: its rows of `usage` (what `cclens stats` counts).",
        ),
        _column("tool_calls", pa.int32(), "Rows of `tool_calls` for the session."),
        _column(
            "tool_errors",
            pa.int32(),
            "Tool calls that failed: ended in an error, a rejection or an interruption.",
        ),
        _column(
            "orphan",
            pa.bool_(),
            "A subagent transcript whose session file is gone, kept as a session of its own.",
        ),
        _column(
            "parent_session_id",
            pa.string(),
            "For an orphan: the session that spawned it, when its records name it.",
        ),
        _column("subagents", pa.int32(), "Rows of `subagents` for the session."),
        _column("branches", pa.int32(), "Abandoned branches (rewinds and edited prompts)."),
        _column("compactions", pa.int32(), "Compaction boundaries."),
        *_TOKENS,
        _column("path", pa.string(), "Path of the transcript file on the machine."),
        _column("file_size", pa.int64(), "Size of the transcript file in bytes."),
        _column("lines", pa.int64(), "Non-empty lines of the transcript file."),
        _column(
            "malformed_lines", pa.int32(), "Lines that could not be read, subagent files included."
        ),
    ]
)

MESSAGES = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _AGENT,
        _column("uuid", pa.string(), "Record uuid (the first record of a streamed response)."),
        _column("parent_uuid", pa.string(), "Uuid of the record this one follows."),
        _column("role", pa.string(), "`user` or `assistant`."),
        _column(
            "kind",
            pa.string(),
            "For user messages: prompt, command, command_output, tool_results, "
            "compact_summary, meta or interrupt; `response` for assistant messages.",
        ),
        _column("timestamp", TIMESTAMP, "When the record was written."),
        _column("turn", pa.int32(), "Turn number in its transcript (1 = first prompt)."),
        _column("is_main", pa.bool_(), "On the conversation's current line."),
        _column("branch", pa.int32(), "Index of the abandoned branch it is on, else null."),
        _column("message_id", pa.string(), "API message id of a response."),
        _column("request_id", pa.string(), "API request id of a response."),
        _column("model", pa.string(), "Model of a response."),
        _column("stop_reason", pa.string(), "Why the model stopped (end_turn, tool_use, …)."),
        _column("text", pa.string(), "Text of the message (text blocks joined)."),
        _column("text_chars", pa.int64(), "Length of the text before redaction."),
        _column("thinking_chars", pa.int64(), "Length of the response's thinking text."),
        _column("tool_uses", pa.int32(), "Tool calls the response made."),
        _column("tool_results", pa.int32(), "Tool results the user message carries."),
        _column("images", pa.int32(), "Images in the message."),
        _column("is_api_error", pa.bool_(), "A synthetic message for an API error."),
        _column("line", pa.int64(), "Line of the record in its transcript file."),
    ]
)

TOOL_CALLS = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _AGENT,
        _column("tool_use_id", pa.string(), "The `tool_use` block id (joins `subagents`)."),
        _column("message_uuid", pa.string(), "Uuid of the assistant record that made the call."),
        _column("message_id", pa.string(), "API message id of that response."),
        _column("turn", pa.int32(), "Turn number in its transcript."),
        _column("is_main", pa.bool_(), "On the conversation's current line."),
        _column("name", pa.string(), "Tool name as called (`Task`, `mcp__github__get_issue`)."),
        _column("tool", pa.string(), "Current name of a built-in tool (`Task` becomes `Agent`)."),
        _column("family", pa.string(), "Tool family (shell, files, search, web, agents, mcp, …)."),
        _column("mcp_server", pa.string(), "MCP server of an MCP tool."),
        _column("mcp_tool", pa.string(), "Tool name on its MCP server."),
        _column("status", pa.string(), "ok, error, rejected, interrupted or pending."),
        _column("is_error", pa.bool_(), "Status is error, rejected or interrupted."),
        _column("started", TIMESTAMP, "When the call was made."),
        _column("finished", TIMESTAMP, "When its result was recorded."),
        _column("duration_seconds", pa.float64(), "`finished - started` in seconds."),
        _column("input", pa.string(), "Tool input as JSON."),
        _column("result", pa.string(), "Result text the model was shown."),
        _column("result_chars", pa.int64(), "Length of the result text before redaction."),
        _column("subagent_ids", STRINGS, "Subagents the call spawned."),
    ]
)

USAGE = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _AGENT,
        _column("message_id", pa.string(), "API message id."),
        _column("request_id", pa.string(), "API request id."),
        _column("message_uuid", pa.string(), "Uuid of the response's first record."),
        _column("timestamp", TIMESTAMP, "When the response was recorded."),
        _column("turn", pa.int32(), "Turn number in its transcript."),
        _column("model", pa.string(), "Model that answered."),
        *_TOKENS,
        _column(
            "cache_write_5m_tokens",
            pa.int64(),
            "Cache writes with a 5-minute lifetime (with those the response's breakdown did not "
            "split: `cache_creation_input_tokens` is authoritative).",
        ),
        _column("cache_write_1h_tokens", pa.int64(), "Cache writes with a 1-hour lifetime."),
        _column("total_tokens", pa.int64(), "Sum of the four token columns."),
        _column(
            "cost_usd",
            pa.float64(),
            "What the response cost in US dollars, from cclens's dated price table (as "
            "`cclens stats`); null for a model without a price.",
        ),
        _column("service_tier", pa.string(), "API service tier."),
        _column("web_search_requests", pa.int64(), "Server-side web searches."),
        _column("web_fetch_requests", pa.int64(), "Server-side web fetches."),
    ]
)

SUBAGENTS = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _column("agent_id", pa.string(), "Subagent id."),
        _column(
            "parent_agent_id", pa.string(), "Subagent that spawned it, null for the main session."
        ),
        _column("tool_use_id", pa.string(), "The Agent/Task call that spawned it, if known."),
        _column("agent_type", pa.string(), "Subagent type (general-purpose, Explore, …)."),
        _column("description", pa.string(), "Short description given to the Agent/Task call."),
        _column("source", pa.string(), "`file` (own transcript) or `inline` (Claude Code 1.x)."),
        _column("started", TIMESTAMP, "First record."),
        _column("ended", TIMESTAMP, "Last record."),
        _column("duration_seconds", pa.float64(), "`ended - started` in seconds."),
        _column("messages", pa.int32(), "Rows of `messages` for the subagent."),
        _column("tool_calls", pa.int32(), "Rows of `tool_calls` for the subagent."),
        *_TOKENS,
        _column("models", STRINGS, "Models that answered."),
    ]
)

BRANCHES = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _AGENT,
        _column("branch", pa.int32(), "Branch index (`messages.branch`)."),
        _column("fork_uuid", pa.string(), "Main-line record the branch grew from."),
        _column("messages", pa.int32(), "Messages on the branch."),
        _column("started", TIMESTAMP, "First record of the branch."),
    ]
)

COMPACTIONS = pa.schema(
    [
        _MACHINE,
        _SESSION,
        _AGENT,
        _column("uuid", pa.string(), "Uuid of the compaction boundary record."),
        _column("timestamp", TIMESTAMP, "When the history was compacted."),
        _column("trigger", pa.string(), "`manual` (/compact) or `auto`."),
        _column("pre_tokens", pa.int64(), "Context tokens before compaction."),
        _column("summary", pa.string(), "Summary that replaced the history."),
    ]
)

#: Every table, in the order the documentation lists them.
TABLES: dict[str, pa.Schema] = {
    "sessions": SESSIONS,
    "messages": MESSAGES,
    "tool_calls": TOOL_CALLS,
    "usage": USAGE,
    "subagents": SUBAGENTS,
    "branches": BRANCHES,
    "compactions": COMPACTIONS,
}

#: Free-text columns, passed through the redactor unless redaction is turned off.
REDACTED: dict[str, tuple[str, ...]] = {
    "sessions": ("title", "first_prompt", "cwd", "path"),
    "messages": ("text",),
    "tool_calls": ("input", "result"),
    "subagents": ("description",),
    "compactions": ("summary",),
}

_TYPE_NAMES: dict[pa.DataType, str] = {
    pa.string(): "string",
    pa.int32(): "int32",
    pa.int64(): "int64",
    pa.float64(): "double",
    pa.bool_(): "boolean",
    TIMESTAMP: "timestamp (µs, UTC)",
    STRINGS: "list of string",
}


def type_name(kind: pa.DataType) -> str:
    """A column type as the documentation writes it."""
    return _TYPE_NAMES.get(kind, str(kind))


def description(column: pa.Field) -> str:
    """A column's description, from its metadata."""
    metadata = column.metadata or {}
    return str(metadata.get(b"description", b"").decode())


def markdown_tables() -> str:
    """The schema section of ``docs/dataset.md``: one table of columns per dataset table."""
    parts: list[str] = []
    for table, schema in TABLES.items():
        parts.append(f"### `{table}`\n")
        parts.append("| column | type | meaning |")
        parts.append("|---|---|---|")
        redacted = REDACTED.get(table, ())
        for column in schema:
            note = " Redacted." if column.name in redacted else ""
            parts.append(
                f"| `{column.name}` | {type_name(column.type)} | {description(column)}{note} |"
            )
        for name, meaning in PARTITIONS:
            parts.append(f"| `{name}` | string (partition) | {meaning} |")
        parts.append("")
    return "\n".join(parts)


__all__ = [
    "BRANCHES",
    "COMPACTIONS",
    "MESSAGES",
    "PARTITIONS",
    "REDACTED",
    "SESSIONS",
    "SUBAGENTS",
    "TABLES",
    "TIMESTAMP",
    "TOOL_CALLS",
    "USAGE",
    "description",
    "markdown_tables",
    "type_name",
]
