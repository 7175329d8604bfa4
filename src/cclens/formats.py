"""Short forms of figures for people: durations, large counts, dollars.

The web app's templates and the terminal tables use the same forms.
"""

from __future__ import annotations


def duration(seconds: float | None) -> str:
    """``42 s``, ``7 min``, ``2 h 05 min``, ``3 d 4 h``."""
    if seconds is None:
        return ""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, _ = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h"


def compact(number: int | None) -> str:
    """``950``, ``12.3k``, ``4.5M``."""
    if number is None:
        return ""
    if number < 1000:
        return str(number)
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if number >= size:
            return f"{number / size:.1f}{unit}"
    return str(number)


def usd(amount: float | None) -> str:
    """``$1,234.56``, ``$0.0042`` for less than a cent, or ``—`` when there is no price."""
    if amount is None:
        return "—"
    if 0 < abs(amount) < 0.01:
        return f"${amount:.4f}"
    return f"${amount:,.2f}"


def short_model(model: str) -> str:
    """A model id without its vendor prefix and date: ``claude-sonnet-4-5-20250929`` is
    ``sonnet-4-5`` (lists show the full id on hover)."""
    name = model.removeprefix("claude-")
    head, _, tail = name.rpartition("-")
    if head and len(tail) == 8 and tail.isdigit():
        name = head
    return name


__all__ = ["compact", "duration", "short_model", "usd"]
