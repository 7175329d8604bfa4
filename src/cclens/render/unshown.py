"""What the model read in a tool's result that the tool's own view does not show.

A view that draws a result from its structured form (a todo list, a file's content, a diff)
leaves out words of the text the model was given: Claude Code's confirmations ("Todos have
been modified successfully…", "File created successfully at: …") and the reminders it appends
to a file it read. Those words are searchable, so a search hit can point into them; the tool's
body then shows them, and only them, under their own fold.
"""

from __future__ import annotations

import html
import re

__all__ = ["NUMBERED_LINE", "unshown_lines"]

_TAG = re.compile(r"<[^>]*>")
#: A line of a file as Claude Code's Read gives it: ``cat -n`` style, ``   12→text`` (older
#: versions: a tab); the number, then the line.
NUMBERED_LINE = re.compile(r"^ *(\d+)(?:→|\t)(.*)$")


def _text(body: str) -> str:
    return html.unescape(_TAG.sub("", body))


def unshown_lines(texts: list[str], body: str) -> str:
    """The lines of ``texts`` (the result as the model read it) that the view's ``body`` (its
    HTML) does not show, in their order; ``""`` when it shows them all.

    A line counts as shown when the body's text holds it whole: first looked up among the
    body's lines (a file's or an output's lines, most of them), then searched for in the whole
    text. Blank lines and ``cat -n`` numbers are left out of the comparison.
    """
    shown: str | None = None
    lines: set[str] = set()
    kept: list[str] = []
    for text in texts:
        for line in text.splitlines():
            numbered = NUMBERED_LINE.match(line)
            stripped = (numbered.group(2) if numbered else line).strip()
            if not stripped:
                continue
            if shown is None:
                shown = _text(body)
                lines = {each.strip() for each in shown.splitlines()}
            if stripped not in lines and stripped not in shown:
                kept.append(line)
    return "\n".join(kept)
