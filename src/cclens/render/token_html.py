"""Pygments tokens turned into escaped HTML lines, as ``HtmlFormatter(nowrap=True)`` draws them.

The same markup as Pygments' formatter (``<span class="k">``, the same class names, a span
closed at every line end, neighbouring tokens of one class merged), produced straight into a
list of lines: the caller numbers them, so nothing is joined only to be split again. Tested
against Pygments' own output (``tests/test_render_speed.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from pygments.token import STANDARD_TYPES, _TokenType

__all__ = ["css_class", "html_lines"]


def _escape(value: str) -> str:
    # Pygments' entities ("&quot;", "&#39;"); most tokens hold none of these characters, and
    # a membership test is cheaper than a translation table.
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    if '"' in value:
        value = value.replace('"', "&quot;")
    if "'" in value:
        value = value.replace("'", "&#39;")
    return value


def _own_class(token: _TokenType) -> str:
    # The short class of a token type: its standard name, or its nearest standard ancestor's
    # name followed by the rest of its path ("n-Magic" style), as Pygments names them.
    name = STANDARD_TYPES.get(token)
    suffix = ""
    current: _TokenType | None = token
    while name is None and current is not None:
        suffix = "-" + current[-1] + suffix
        current = current.parent
        name = STANDARD_TYPES.get(current) if current is not None else ""
    return (name or "") + suffix


def css_class(token: _TokenType) -> str:
    """The CSS classes Pygments' HTML formatter gives ``token`` (``""`` for plain text)."""
    classes = _own_class(token)
    current: _TokenType | None = token
    while current is not None and current not in STANDARD_TYPES:
        current = current.parent
        if current is not None:
            classes = _own_class(current) + " " + classes
    return classes


@cache
def _opener(token: _TokenType) -> str:
    classes = css_class(token)
    return f'<span class="{classes}">' if classes else ""


def html_lines(tokens: Iterable[tuple[_TokenType, str]]) -> list[str]:
    """Each line of the token stream as HTML (text escaped, one ``<span>`` per class run)."""
    lines: list[str] = []
    line: list[str] = []
    open_span = ""  # the span open on the current line ("" for none)
    for token, value in tokens:
        span = _opener(token)
        if "\n" in value:
            parts = _escape(value).split("\n")
            for part in parts[:-1]:
                # The token goes on past this line: close what is open, end the line.
                if line:
                    if open_span != span and part:
                        line += ((open_span and "</span>"), span, part, (span and "</span>"))
                    else:
                        line += (part, (open_span and "</span>"))
                    lines.append("".join(line))
                    line = []
                elif part:
                    lines.append(span + part + (span and "</span>"))
                else:
                    lines.append("")
            value = parts[-1]
        elif value:
            value = _escape(value)
        if not value:
            continue
        if not line:
            line = [span, value]
            open_span = span
        elif open_span != span:
            line += ((open_span and "</span>"), span, value)
            open_span = span
        else:
            line.append(value)
    if line:
        line.append(open_span and "</span>")
        lines.append("".join(line))
    return lines
