"""Source code and text drawn with Pygments, lines numbered from where they really start.

Size policy: the first :data:`MAX_HIGHLIGHT_LINES` lines (and at most
:data:`MAX_HIGHLIGHT_CHARS` characters) of a block are highlighted; the rest is drawn escaped,
plain, with its line numbers going on, and a note says from which line. Lexing is most of the
cost of a page, grows with the text, and past a few thousand lines nobody reads the colours.

Blocks are memoized per process (:mod:`cclens.render.memo`): a session shows the same text
again and again (a file read twice, an edit's original file, a prompt quoted by a subagent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup, escape
from pygments.lexer import Lexer

from .lexers import lexer_for
from .memo import MarkupMemo
from .token_html import html_lines

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = [
    "MAX_HIGHLIGHT_CHARS",
    "MAX_HIGHLIGHT_LINES",
    "code_cache",
    "highlighted_count",
    "lexer_for",
    "numbered_lines",
    "render_code",
    "split_lines",
]

#: At most this many lines of a block are highlighted; the rest is drawn plain.
MAX_HIGHLIGHT_LINES = 1500
#: At most this many characters of a block are highlighted (whole lines only).
MAX_HIGHLIGHT_CHARS = 150_000

#: The blocks already drawn in this process (see :mod:`cclens.render.memo`).
code_cache = MarkupMemo()


def split_lines(code: str) -> list[str]:
    """The lines of ``code`` without their endings (a final newline ends the last line)."""
    lines = code.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def highlighted_count(lines: list[str]) -> int:
    """How many of ``lines``, from the first, the size policy lets be highlighted."""
    budget = MAX_HIGHLIGHT_CHARS
    for index, line in enumerate(lines[:MAX_HIGHLIGHT_LINES]):
        budget -= len(line) + 1
        if budget < 0:
            return index
    return min(len(lines), MAX_HIGHLIGHT_LINES)


def _highlight(lines: list[str], lexer: Lexer) -> list[str] | None:
    """``lines`` as HTML, one string per line; ``None`` if the lexer's lines do not match up."""
    out = html_lines(lexer.get_tokens("\n".join(lines) + "\n"))
    return out if len(out) == len(lines) else None


def numbered_lines(lines: list[str], start: int, *, numbers: bool = True) -> Markup:
    """Safe HTML ``lines`` wrapped one ``<span class="line">`` each, numbered from ``start``.

    Joined here rather than looped in the template: a template loop costs a generator step per
    line, and a file read in a session has thousands. Every line must already be escaped.
    """
    if numbers:
        return Markup(
            "\n".join(
                f'<span class="line" data-n="{number}">{line}</span>'
                for number, line in enumerate(lines, start)
            )
        )
    return Markup("\n".join(f'<span class="line">{line}</span>' for line in lines))


def _draw(
    environment: Environment,
    code: str,
    lexer: Lexer | None,
    language: str | None,
    start_line: int,
    numbers: bool,
    fold_after: int | None = None,
) -> Markup:
    lines = split_lines(code)
    count = highlighted_count(lines) if lexer is not None else 0
    head = _highlight(lines[:count], lexer) if lexer is not None and count else []
    if head is None:
        # The lexer's lines did not line up with the text's: draw it plain, without a size note.
        lexer, count, head = None, 0, []
    # The plain rest is escaped at once (escaping never touches a newline), then split again.
    rest = str(escape("\n".join(lines[count:]))).split("\n") if count < len(lines) else []
    html = head + rest
    plain_from = start_line + count if lexer is not None and count < len(lines) else None
    # A long block shows its first lines; the others wait in an inert <template> (not in the
    # document) until the reader asks for them.
    folded = fold_after if fold_after is not None and len(html) > fold_after else len(html)
    return Markup(
        environment.get_template("_code.html").render(
            body=numbered_lines(html[:folded], start_line, numbers=numbers),
            more=numbered_lines(html[folded:], start_line + folded, numbers=numbers)
            if folded < len(html)
            else None,
            count=len(lines),
            numbers=numbers,
            language=(lexer.name if lexer is not None else (language or "")),
            highlighted=count > 0,
            plain_from=plain_from if plain_from is not None and len(lines) > 1 else None,
        )
    )


def render_code(
    environment: Environment,
    code: str,
    *,
    language: str | None = None,
    filename: str | None = None,
    start_line: int = 1,
    numbers: bool = True,
    fold_after: int | None = None,
) -> Markup:
    """``code`` as a ``<pre>`` block, highlighted when a lexer is known (see the size policy).

    ``fold_after``: lines past this many are kept in an inert ``<template>`` (drawn by the
    page's script when the reader shows them all).
    """
    lexer = lexer_for(language, filename)
    key = code_cache.key(
        code,
        lexer.name if lexer is not None else "",
        language or "",
        start_line,
        numbers,
        fold_after,
        environment,
    )
    found = code_cache.get(key)
    if found is None:
        found = _draw(environment, code, lexer, language, start_line, numbers, fold_after)
        code_cache.put(key, found)
    return found
