"""Plain text that markdown would leave alone, drawn without parsing it.

Many messages are prose with no markdown at all ("Done, the tests pass."). For those,
markdown-it only splits paragraphs at blank lines and escapes four characters, but it still pays
for its whole rule chain. :func:`plain_paragraphs` gives the same HTML directly, and declines
(``None``) as soon as the text holds anything markdown could act on: a character that starts
inline syntax (emphasis, code, links, entities, escapes, raw HTML), something linkify could turn
into a link, a line that could start a block (heading, quote, list, rule, fence, table,
indented code), or whitespace at a line's edge (hard breaks, stripping). Its output is tested to
be identical to markdown-it's (``tests/test_render_speed.py``).
"""

from __future__ import annotations

import re

from markdown_it.common.utils import escapeHtml

__all__ = ["plain_paragraphs"]

#: Anything markdown (with our options and plugins) could treat as syntax.
_SYNTAX = re.compile(
    r"[\\`*_~\[\]<>&|@\x00\r]"  # inline syntax, entities, tables, emails, NUL and CR
    r"|//|www\."  # what linkify could make a link of (with "@"): schemes need "//" or "@"
    r"|^[#=+\-]"  # headings, setext underlines, lists, rules
    r"|^\d{1,9}[.)]",  # ordered lists
    re.MULTILINE,
)


def plain_paragraphs(text: str, *, breaks: bool = False) -> str | None:
    """``text`` as markdown-it renders it when it holds no markdown, else ``None``.

    Paragraphs are split at empty lines; lines within one are joined by a newline (``breaks``:
    by ``<br />``); ``&``-free text needs only ``"``, ``<`` and ``>`` escaped, and those two
    never get here.
    """
    if _SYNTAX.search(text):
        return None
    lines = text.split("\n")
    for line in lines:
        # Markdown strips (and, for two spaces, breaks at) whitespace at the edge of a line.
        if line and (line[0].isspace() or line[-1].isspace()):
            return None
    separator = "<br />\n" if breaks else "\n"
    out: list[str] = []
    paragraph: list[str] = []
    for line in [*lines, ""]:
        if line:
            paragraph.append(escapeHtml(line))
        elif paragraph:
            out.append("<p>" + separator.join(paragraph) + "</p>\n")
            paragraph = []
    return "".join(out)
