"""Source code and text drawn with Pygments, lines numbered from where they really start."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape
from pygments import highlight as pygments_highlight
from pygments.formatters.html import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["MAX_HIGHLIGHT_BYTES", "MAX_HIGHLIGHT_LINES", "lexer_for", "render_code", "split_lines"]

#: Above either limit text is drawn plain: highlighting it would cost seconds and help nobody.
MAX_HIGHLIGHT_BYTES = 200_000
MAX_HIGHLIGHT_LINES = 5000

#: Names people put after ``` that Pygments does not know by that name.
_LANGUAGE_ALIASES = {
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "console": "bash",
    "jsonl": "json",
}


# Pygments strips leading and trailing blank lines by default, which would shift line numbers.


@lru_cache(maxsize=256)
def _by_name(name: str) -> Lexer | None:
    try:
        return get_lexer_by_name(
            _LANGUAGE_ALIASES.get(name, name), stripnl=False, stripall=False, ensurenl=False
        )
    except ClassNotFound:
        return None


@lru_cache(maxsize=1024)
def _by_filename(filename: str) -> Lexer | None:
    try:
        return get_lexer_for_filename(filename, None, stripnl=False, stripall=False, ensurenl=False)
    except ClassNotFound:
        return None


def lexer_for(language: str | None = None, filename: str | None = None) -> Lexer | None:
    """The lexer for ``language`` (a name or alias), else for ``filename``; ``None`` if neither."""
    if language:
        lexer = _by_name(language.lower())
        if lexer is not None:
            return lexer
    if filename:
        # Only the base name matters; paths may be long and would defeat the cache.
        return _by_filename(filename.replace("\\", "/").rsplit("/", 1)[-1])
    return None


_FORMATTER = HtmlFormatter(nowrap=True)


def split_lines(code: str) -> list[str]:
    """The lines of ``code`` without their endings (a final newline ends the last line)."""
    lines = code.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def highlighted_lines(code: str, lexer: Lexer | None) -> tuple[list[Markup], bool]:
    """Each line of ``code`` as safe HTML, and whether it was highlighted."""
    lines = split_lines(code)
    too_big = len(code) > MAX_HIGHLIGHT_BYTES or len(lines) > MAX_HIGHLIGHT_LINES
    if lexer is None or too_big:
        return [escape(line) for line in lines], False
    highlighted = _highlight("\n".join(lines) + "\n", lexer)
    if len(highlighted) != len(lines):
        return [escape(line) for line in lines], False
    return list(highlighted), True


@lru_cache(maxsize=32)
def _highlight(code: str, lexer: Lexer) -> tuple[Markup, ...]:
    # Cached: a session often shows the same text twice (a file written, then read back).
    # The HTML formatter closes its spans at every line end, so the output splits cleanly by line.
    html = pygments_highlight(code, lexer, _FORMATTER)
    out = [Markup(line) for line in html.split("\n")]
    if out and out[-1] == "":
        out.pop()
    return tuple(out)


def render_code(
    environment: Environment,
    code: str,
    *,
    language: str | None = None,
    filename: str | None = None,
    start_line: int = 1,
    numbers: bool = True,
) -> Markup:
    """``code`` as a ``<pre>`` block: highlighted when a lexer is known and it is not too large."""
    lexer = lexer_for(language, filename)
    lines, highlighted = highlighted_lines(code, lexer)
    template = environment.get_template("_code.html")
    return Markup(
        template.render(
            lines=lines,
            start=start_line,
            numbers=numbers,
            language=(lexer.name if lexer is not None else (language or "")),
            highlighted=highlighted,
            plain_reason=(
                "too large to highlight"
                if lexer is not None and not highlighted and len(lines) > 1
                else ""
            ),
        )
    )
