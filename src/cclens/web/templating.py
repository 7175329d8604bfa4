"""The web app's Jinja2 environment (autoescaped) and the filters its templates use."""

from __future__ import annotations

import shlex
from datetime import datetime
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..formats import compact, duration, short_model, usd
from ..readers.agents import label as agent_label
from ..readers.claude import Session
from ..readers.resume import resume_command


def when(moment: datetime | None) -> str:
    """``2025-06-01 14:03 UTC``, or an empty string."""
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else ""


def path_breaks(path: str) -> Markup:
    """``path`` escaped, with a line-break opportunity after each ``/`` (a narrow column wraps
    a directory between its parts, not inside one)."""
    return Markup("/<wbr>").join(escape(part) for part in path.split("/"))


def day_time(moment: datetime | None) -> str:
    """``2025-06-01 14:03`` (UTC, as :func:`when`, which says so), or an empty string."""
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


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


def session_resume(session: Session) -> str:
    """The command that resumes ``session`` in the directory it ran in."""
    return resume_command(session.session_id, session.cwd, agent=session.agent).shell


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
        "day_time": day_time,
        "path_breaks": path_breaks,
        "duration": duration,
        "compact": compact,
        "usd": usd,
        "short_model": short_model,
        "resume_command": session_resume,
        "number": number,
        "seconds": seconds,
        "path_part": path_part,
        "shell_word": shell_word,
        "agent_label": agent_label,
    }
    env.filters.update(filters)
    return env
