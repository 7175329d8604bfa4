"""The Jinja2 environment every cclens page is drawn with: autoescaped, with display filters."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader

from .template_cache import template_cache

__all__ = ["format_duration", "format_time", "format_tokens", "template_environment"]


def format_duration(value: timedelta | float | int | None) -> str:
    """``1h 02m``, ``3m 05s``, ``4.2s``, ``350ms``; empty for ``None``."""
    if value is None:
        return ""
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds < 0:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 10:
        return f"{seconds:.1f}s"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def format_tokens(value: int | None) -> str:
    """A token count for people: ``950``, ``12.3k``, ``4.1M``."""
    if value is None:
        return ""
    if value < 1000:
        return str(value)
    if value < 1_000_000:
        return f"{value / 1000:.1f}k"
    return f"{value / 1_000_000:.1f}M"


def format_time(value: datetime | None, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    """A timestamp in UTC (transcripts record UTC; the reader's zone is unknown to a file)."""
    if value is None:
        return ""
    return value.strftime(fmt) + (
        " UTC" if value.utcoffset() is not None and not value.utcoffset() else ""
    )


def _tag(value: Any) -> str:
    """The ``type`` tag of a model value (``"text"``, ``"web_search_tool_result"``, …)."""
    config = getattr(type(value), "__struct_config__", None)
    return str(config.tag) if config is not None and config.tag is not None else ""


def _plural(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


@lru_cache(maxsize=1)
def template_environment() -> Environment:
    """The shared environment (templates from ``cclens/render/templates``, autoescape on)."""
    environment = Environment(
        loader=PackageLoader("cclens.render", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        # Templates ship with the package: checking their mtime on every include costs ~10%.
        auto_reload=False,
        # Every template stays loaded (there are ~70): a plain dict, not an LRU whose every
        # lookup reorders a queue.
        cache_size=-1,
        # Compiled templates are kept between runs (see template_cache.py).
        bytecode_cache=template_cache(),
    )
    environment.filters["duration"] = format_duration
    environment.filters["tokens"] = format_tokens
    environment.filters["time"] = format_time
    environment.filters["plural"] = _plural
    environment.filters["tag"] = _tag
    return environment
