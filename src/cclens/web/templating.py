"""The web app's Jinja2 environment (autoescaped) and the filters its templates use."""

from __future__ import annotations

import shlex
from datetime import datetime
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


def when(moment: datetime | None) -> str:
    """``2025-06-01 14:03 UTC``, or an empty string."""
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else ""


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


def number(value: int | None) -> str:
    """``12,345`` (an empty string for ``None``)."""
    return "" if value is None else f"{value:,}"


def seconds(value: float | None) -> str:
    """``0.42 s``, ``12 s``, ``3.5 min`` (an empty string for ``None``)."""
    if value is None:
        return ""
    if value < 10:
        return f"{value:.2f} s"
    if value < 120:
        return f"{value:.0f} s"
    return f"{value / 60:.1f} min"


def path_part(value: str) -> str:
    """``value`` quoted to be one segment of a URL path."""
    return quote(value, safe="")


def shell_word(value: str) -> str:
    """``value`` quoted as one word for a POSIX shell (a session key comes from a file name)."""
    return shlex.quote(value)


def environment() -> Environment:
    """The templates under ``cclens/web/templates``, with HTML autoescaping always on."""
    env = Environment(
        loader=PackageLoader("cclens.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    filters: dict[str, Any] = {
        "when": when,
        "duration": duration,
        "compact": compact,
        "usd": usd,
        "number": number,
        "seconds": seconds,
        "path_part": path_part,
        "shell_word": shell_word,
    }
    env.filters.update(filters)
    return env
