"""Figures written for people, one form each: durations, counts, sizes, times, money, plurals,
the size of a text.

Every surface (the terminal, pages, exports, the status line) writes a figure through these
functions, so a duration, a token count or a size reads the same everywhere.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .scripts import unspaced_characters


def duration(value: float | timedelta | None) -> str:
    """A span of time: ``350ms``, ``4.2s``, ``42s``, ``3m 05s``, ``2h 05m``, ``3d 4h``; empty
    for ``None`` or a negative span. ``value`` is in seconds unless it is a ``timedelta``."""
    if value is None:
        return ""
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds < 0:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 10:
        return f"{seconds:.1f}".removesuffix(".0") + "s"
    whole = round(seconds)
    minutes, secs = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def compact(value: int | float | None) -> str:
    """A count in a few characters: ``950``, ``12.3k``, ``4.5M``, ``1.2B``; empty for ``None``."""
    if value is None:
        return ""
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.1f}{unit}"
    return f"{value:.0f}"


def number(value: int | None) -> str:
    """A count in full: ``12,345``; empty for ``None``."""
    return "" if value is None else f"{value:,}"


def size(value: int | float | None) -> str:
    """A size in bytes (powers of 1,000): ``512 B``, ``3.4 kB``, ``1.2 MB``, ``2.0 GB``; empty
    for ``None``."""
    if value is None:
        return ""
    amount = float(value)
    if abs(amount) < 1000:
        return f"{amount:.0f} B"
    for unit in ("kB", "MB", "GB"):
        amount /= 1000
        if abs(amount) < 1000 or unit == "GB":
            return f"{amount:.1f} {unit}"
    return f"{amount:.1f} GB"  # pragma: no cover - the loop returns at GB


def usd(amount: float | None) -> str:
    """``$1,234.56``, ``$0.0042`` for less than a cent, or ``—`` when there is no price."""
    if amount is None:
        return "—"
    if 0 < abs(amount) < 0.01:
        return f"${amount:.4f}"
    return f"${amount:,.2f}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 session``, ``2 sessions``, ``1,204 entries`` (with ``plural_form="entries"``)."""
    return f"{count:,} {singular if count == 1 else (plural_form or singular + 's')}"


def utc_time(moment: datetime | None, *, seconds: bool = False, zone: bool = True) -> str:
    """``2025-06-01 14:03 UTC`` (``14:03:05`` with ``seconds``; without `` UTC`` when ``zone``
    is false, for a column that says so once); empty for ``None``.

    Transcripts record UTC; a time without a zone is written without one."""
    if moment is None:
        return ""
    text = moment.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    offset = moment.utcoffset()
    return text + (" UTC" if zone and offset is not None and not offset else "")


def clock(moment: datetime | None) -> str:
    """The time of day: ``14:03:05 UTC`` (a time without a zone without one); empty for
    ``None``."""
    if moment is None:
        return ""
    offset = moment.utcoffset()
    return moment.strftime("%H:%M:%S") + (" UTC" if offset is not None and not offset else "")


def local_time(moment: datetime | None) -> str:
    """A moment in this machine's time zone, to the minute: ``2025-06-01 14:30`` (empty for
    ``None``); what every command prints."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M") if moment is not None else ""


def short_model(model: str) -> str:
    """A model id without its vendor prefix and date: ``claude-sonnet-4-5-20250929`` is
    ``sonnet-4-5`` (lists show the full id on hover)."""
    name = model.removeprefix("claude-")
    head, _, tail = name.rpartition("-")
    if head and len(tail) == 8 and tail.isdigit():
        name = head
    return name


def text_size(text: str) -> str:
    """How long ``text`` is, in the unit its script is read in: ``42 words``, or
    ``150 characters`` when most of it is written without spaces between words (Chinese,
    Japanese, Thai...): a third or more of its characters, where a count of words would say
    ``1 words``."""
    words = text.split()
    if not text.isascii():
        letters = sum(map(len, words))
        if unspaced_characters(text) * 3 >= letters > 0:
            return plural(letters, "character")
    return plural(len(words), "word")


__all__ = [
    "clock",
    "compact",
    "duration",
    "local_time",
    "number",
    "plural",
    "short_model",
    "size",
    "text_size",
    "usd",
    "utc_time",
]
