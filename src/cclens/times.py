"""Reading the timestamps Claude Code writes (kept light: the status line imports it)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

#: How far past the present a timestamp may be: a clock a little ahead is fine; a record from
#: year 9999 (a wrong clock, a forged line) would pin its session to the top of every list
#: with a duration of 8,000 years. Its time is not used (see :func:`is_in_the_future`).
AHEAD = timedelta(days=1)
#: The bound in epoch seconds, when it was worked out (``time.monotonic``), and the day
#: before it as ``YYYY-MM-DD``: a timestamp whose date sorts before that is never too late.
_LATEST: list[float] = [0.0, -120.0]
_SAFE_DAY: list[str] = [""]


def _latest() -> float:
    """The latest timestamp believed, in epoch seconds (worked out again once a minute)."""
    now = time.monotonic()
    if now - _LATEST[1] > 60:
        _LATEST[0] = time.time() + AHEAD.total_seconds()
        _LATEST[1] = now
        day_before = datetime.fromtimestamp(_LATEST[0], UTC) - timedelta(days=1)
        _SAFE_DAY[0] = day_before.strftime("%Y-%m-%d")
    return _LATEST[0]


def _parse(text: object) -> datetime | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return parsed


def parse_time(text: object) -> datetime | None:
    """An ISO 8601 timestamp as an aware datetime, or ``None`` when it is not one, or when it
    is more than :data:`AHEAD` in the future (its time is not used)."""
    parsed = _parse(text)
    if parsed is None or parsed.timestamp() > _latest():
        return None
    return parsed


def is_in_the_future(text: object) -> bool:
    """Whether ``text`` is a timestamp :func:`parse_time` leaves out for being more than
    :data:`AHEAD` in the future (what readers report)."""
    latest = _latest()
    if not isinstance(text, str) or text[:10] < _SAFE_DAY[0]:
        return False  # cheap: nearly every timestamp is of a day long past
    parsed = _parse(text)
    return parsed is not None and parsed.timestamp() > latest


__all__ = ["AHEAD", "is_in_the_future", "parse_time"]
