"""The web app's Jinja2 environment (autoescaped) and the filters its templates use."""

from __future__ import annotations

import shlex
from functools import partial
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..formats import compact, duration, number, plural, short_model, text_size, usd, utc_time
from ..readers.agents import label as agent_label
from ..readers.claude import Session
from ..readers.resume import resume_command


def path_breaks(path: str) -> Markup:
    """``path`` escaped, with a line-break opportunity after each ``/`` (a narrow column wraps
    a directory between its parts, not inside one)."""
    return Markup("/<wbr>").join(escape(part) for part in path.split("/"))


def path_tail(path: str, parts: int = 2) -> str:
    """The last ``parts`` parts of a directory (``src/app`` for ``/Users/me/src/app``; Windows
    paths too), with ``…/`` when more came before: what a one-line list shows of it."""
    pieces = [piece for piece in path.replace("\\", "/").split("/") if piece]
    if len(pieces) <= parts:
        return path
    return "…/" + "/".join(pieces[-parts:])


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
        "when": utc_time,
        "day_time": partial(utc_time, zone=False),
        "path_breaks": path_breaks,
        "path_tail": path_tail,
        "duration": duration,
        "compact": compact,
        "usd": usd,
        "short_model": short_model,
        "resume_command": session_resume,
        "number": number,
        "plural": plural,
        "text_size": text_size,
        "seconds": duration,
        "path_part": path_part,
        "shell_word": shell_word,
        "agent_label": agent_label,
    }
    env.filters.update(filters)
    return env
