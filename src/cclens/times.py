"""Reading the timestamps Claude Code writes (kept light: the status line imports it)."""

from __future__ import annotations

from datetime import datetime


def parse_time(text: object) -> datetime | None:
    """An ISO 8601 timestamp as an aware datetime, or ``None`` when it is not one."""
    if not isinstance(text, str) or not text:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return parsed


__all__ = ["parse_time"]
