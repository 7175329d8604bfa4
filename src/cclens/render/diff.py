"""Diffs drawn from ``structuredPatch`` hunks, or computed with difflib when a result has none."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import msgspec
from markupsafe import Markup
from msgspec.structs import replace

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["DiffHunk", "DiffLine", "build_hunks", "diff_stats", "render_diff", "unified_text"]

LineKind = Literal["add", "del", "ctx", "note"]
_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
#: Diffs with more lines than this are cut, with a note saying how much was left out.
MAX_DIFF_LINES = 4000
#: Old and new texts longer than this together are not compared (difflib can be quadratic).
MAX_DIFF_CHARS = 800_000


class DiffLine(msgspec.Struct, frozen=True):
    """One line of a hunk: its kind, its numbers in the old and new file, its text.

    ``segments``: for a changed line paired with its old or new version, the text in pieces,
    each marked ``True`` where it changed within the line (empty: no such pairing).
    """

    kind: LineKind
    old: int | None
    new: int | None
    text: str
    segments: tuple[tuple[str, bool], ...] = ()


#: Lines longer than this are not compared character by character.
MAX_INTRALINE_CHARS = 400
#: A removed and an added line are shown as one line changed when at least this much is alike.
_ALIKE = 0.5


def _segments(
    old: str, new: str
) -> tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]] | None:
    if len(old) > MAX_INTRALINE_CHARS or len(new) > MAX_INTRALINE_CHARS or old == new:
        return None
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    # The cheap upper bounds first: most removed/added pairs are not alike at all.
    if matcher.real_quick_ratio() < _ALIKE or matcher.quick_ratio() < _ALIKE:
        return None
    if matcher.ratio() < _ALIKE:
        return None
    before: list[tuple[str, bool]] = []
    after: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        same = tag == "equal"
        if i2 > i1:
            before.append((old[i1:i2], not same))
        if j2 > j1:
            after.append((new[j1:j2], not same))
    return tuple(before), tuple(after)


def _pair_changes(hunk: DiffHunk) -> None:
    """Mark what changed within lines: each run of removed lines followed by added lines is
    paired line by line (as claude-code-log and GitHub do)."""
    lines = hunk.lines
    index = 0
    while index < len(lines):
        if lines[index].kind != "del":
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].kind == "del":
            index += 1
        middle = index
        while index < len(lines) and lines[index].kind == "add":
            index += 1
        for offset in range(min(middle - start, index - middle)):
            removed, added = lines[start + offset], lines[middle + offset]
            found = _segments(removed.text, added.text)
            if found is not None:
                lines[start + offset] = replace(removed, segments=found[0])
                lines[middle + offset] = replace(added, segments=found[1])


class DiffHunk(msgspec.Struct):
    """A hunk: where it starts in both files (``None``: not known) and its lines."""

    old_start: int | None
    new_start: int | None
    lines: list[DiffLine] = msgspec.field(default_factory=list)


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _hunk(old_start: int | None, new_start: int | None, raw_lines: Sequence[Any]) -> DiffHunk:
    """A hunk's lines, numbered from its starts (not numbered when they are not known)."""
    hunk = DiffHunk(old_start, new_start)
    old, new = old_start, new_start
    for raw in raw_lines:
        text = raw if isinstance(raw, str) else str(raw)
        mark, body = text[:1], text[1:]
        if mark == "+":
            hunk.lines.append(DiffLine("add", None, new, body))
            new = new + 1 if new is not None else None
        elif mark == "-":
            hunk.lines.append(DiffLine("del", old, None, body))
            old = old + 1 if old is not None else None
        elif mark == "\\":
            hunk.lines.append(DiffLine("note", None, None, text))
        else:
            hunk.lines.append(DiffLine("ctx", old, new, body))
            old = old + 1 if old is not None else None
            new = new + 1 if new is not None else None
    return hunk


def _from_patch(hunks: Sequence[Mapping[str, Any]]) -> list[DiffHunk]:
    out = []
    for raw in hunks:
        lines = raw.get("lines")
        numbered = "oldStart" in raw or "newStart" in raw  # a patch's hunks may have no numbers
        out.append(
            _hunk(
                _int(raw.get("oldStart"), 1) if numbered else None,
                _int(raw.get("newStart"), 1) if numbered else None,
                lines if isinstance(lines, list) else [],
            )
        )
    return out


def _from_texts(old: str, new: str) -> list[DiffHunk]:
    old_lines = old.split("\n")
    new_lines = new.split("\n")
    out: list[DiffHunk] = []
    current: list[str] = []
    starts = (1, 1)
    for line in difflib.unified_diff(old_lines, new_lines, lineterm="", n=3):
        if line.startswith(("---", "+++")) and not out and not current:
            continue
        match = _HUNK_HEADER.match(line)
        if match:
            if current:
                out.append(_hunk(*starts, current))
            # difflib writes start 0 for an empty side; the first line is still line 1.
            starts = (max(1, int(match.group(1))), max(1, int(match.group(3))))
            current = []
        else:
            current.append(line)
    if current:
        out.append(_hunk(*starts, current))
    return out


def build_hunks(
    hunks: Sequence[Mapping[str, Any]] | None, *, old: str | None = None, new: str | None = None
) -> list[DiffHunk]:
    """Hunks of ``structuredPatch``, else computed from ``old`` and ``new`` (either may be "").

    A ``structuredPatch`` that is not a list (a transcript of an odd shape) counts as none.
    """
    if hunks and isinstance(hunks, list | tuple):
        return _from_patch([h for h in hunks if isinstance(h, Mapping)])
    if old is None and new is None:
        return []
    return _from_texts(old or "", new or "")


def diff_stats(hunks: Sequence[DiffHunk]) -> tuple[int, int]:
    """Lines added and removed."""
    added = sum(1 for h in hunks for line in h.lines if line.kind == "add")
    removed = sum(1 for h in hunks for line in h.lines if line.kind == "del")
    return added, removed


def unified_text(hunks: Sequence[DiffHunk]) -> str:
    """``hunks`` as the text of a unified diff (``@@ -3 +3 @@``, then ``+``, ``-``, `` `` lines)."""
    marks = {"add": "+", "del": "-", "ctx": " ", "note": ""}
    lines = []
    for hunk in hunks:
        numbered = hunk.old_start is not None and hunk.new_start is not None
        lines.append(f"@@ -{hunk.old_start} +{hunk.new_start} @@" if numbered else "@@")
        lines.extend(marks[line.kind] + line.text for line in hunk.lines)
    return "\n".join(lines)


def _cap(hunks: list[DiffHunk]) -> tuple[list[DiffHunk], int]:
    total = sum(len(h.lines) for h in hunks)
    if total <= MAX_DIFF_LINES:
        return hunks, 0
    kept: list[DiffHunk] = []
    budget = MAX_DIFF_LINES
    for hunk in hunks:
        if budget <= 0:
            break
        kept.append(DiffHunk(hunk.old_start, hunk.new_start, hunk.lines[:budget]))
        budget -= len(hunk.lines)
    return kept, total - MAX_DIFF_LINES


def render_diff(
    environment: Environment,
    hunks: Sequence[Mapping[str, Any]] | None,
    *,
    old: str | None = None,
    new: str | None = None,
    filename: str | None = None,
) -> Markup:
    """A unified diff table: old and new line numbers, added and removed lines styled apart."""
    if (
        hunks is None
        and old is not None
        and new is not None
        and len(old) + len(new) > MAX_DIFF_CHARS
    ):
        # difflib is quadratic in the worst case; on huge texts show the sizes instead.
        built: list[DiffHunk] = []
        too_large = True
    else:
        built = build_hunks(hunks, old=old, new=new)
        too_large = False
    added, removed = diff_stats(built)
    shown, omitted = _cap(built)
    for hunk in shown:
        _pair_changes(hunk)
    template = environment.get_template("_diff.html")
    return Markup(
        template.render(
            hunks=shown,
            added=added,
            removed=removed,
            omitted=omitted,
            filename=filename,
            too_large=too_large,
            computed=not hunks,
        )
    )
