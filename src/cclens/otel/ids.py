"""Trace and span ids derived from session and record ids.

The same session always gives the same ids, so exporting it twice sends the same spans (a
backend that deduplicates by id keeps one copy) and a span can be found again from the record
it came from:

* trace id: the first 16 bytes of ``sha256(session_id)``;
* span id: the first 8 bytes of ``sha256(session_id + "/" + key)``, where ``key`` names what
  the span stands for (see :func:`span_key`).
"""

from __future__ import annotations

import hashlib


def _number(data: str, size: int) -> int:
    digest = hashlib.sha256(data.encode("utf-8", "surrogatepass")).digest()
    # An all-zero id is invalid in OpenTelemetry; sha256 will not give one, but never send it.
    return int.from_bytes(digest[:size], "big") or 1


def trace_id(session_id: str) -> int:
    """The trace id of a session (128 bits)."""
    return _number(session_id, 16)


def span_id(session_id: str, key: str) -> int:
    """The id of the span ``key`` in the trace of ``session_id`` (64 bits)."""
    return _number(f"{session_id}/{key}", 8)


def span_key(kind: str, record_id: str, agent_id: str | None = None) -> str:
    """The key of a span: its kind (``session``, ``agent``, ``turn``, ``chat``, ``tool``), the
    subagent it belongs to (empty for the main session) and the record or tool use id."""
    return f"{kind}/{agent_id or ''}/{record_id}"


__all__ = ["span_id", "span_key", "trace_id"]
