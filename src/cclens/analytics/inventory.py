"""The tool inventory: which tools were called, how often, and how often they failed."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..model.tools import mcp_parts, tool_spec
from ..parse.session import Session


class ToolUsage(msgspec.Struct, kw_only=True):
    """Calls of one tool across sessions."""

    name: str
    calls: int = 0
    results: int = 0
    errors: int = 0
    rejected: int = 0
    interrupted: int = 0
    unpaired: int = 0
    description: str = ""
    server: str | None = None


def tool_usage(sessions: Iterable[Session]) -> dict[str, ToolUsage]:
    """Per tool name: calls, paired results, errors (including rejections and interruptions)
    and calls with no result in their file. Subagent sessions are included."""
    usage: dict[str, ToolUsage] = {}
    for top in sessions:
        for session in top.all_sessions():
            for call in session.tool_calls.values():
                row = usage.get(call.name)
                if row is None:
                    parts = mcp_parts(call.name)
                    row = ToolUsage(
                        name=call.name,
                        description=tool_spec(call.name).description,
                        server=parts[0] if parts else None,
                    )
                    usage[call.name] = row
                row.calls += 1
                status = call.status
                if status == "pending":
                    row.unpaired += 1
                    continue
                row.results += 1
                if status != "ok":
                    row.errors += 1
                if status == "rejected":
                    row.rejected += 1
                elif status == "interrupted":
                    row.interrupted += 1
    return usage


def inventory(sessions: Iterable[Session]) -> list[ToolUsage]:
    """The tool inventory, most-called first (then by name)."""
    return sorted(tool_usage(sessions).values(), key=lambda row: (-row.calls, row.name))
