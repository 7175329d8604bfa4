"""Secrets cut in two by what a terminal or an editor inserts: ANSI escape sequences (a colour
change in captured terminal output), zero-width characters, and line breaks (a long token
wrapped at the terminal's width).

The scan of a text finds secrets that are whole. Here, each place where such an insertion
sits is looked at again with the insertions of its neighbourhood removed; a secret found
there that spans a removed insertion was hidden by it, and is redacted in the original text,
from its first character to its last, insertions included.

Line breaks join two runs of token characters only when together they are long enough to be
a credential, and only for secrets the rules recognise by their format (never for the
high-entropy guess: two lines of identifiers joined look random enough without being a
secret). ANSI sequences and zero-width characters never belong in a token, so every finding
across one counts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from cclens.redact.scanner import KEEP, Finding

#: ANSI escape sequences: CSI (``ESC [ … final``, colours and cursor moves), OSC (``ESC ] …``
#: ended by BEL or ``ESC \\``, titles and links) and two-character escapes.
_ANSI: Final = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])"
#: Characters with no width that editors and chat tools insert (zero-width space, non-joiner,
#: joiner, word joiner, byte-order mark, soft hyphen, Mongolian vowel separator).
_INVISIBLE: Final = "[\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e]"
_NOISE: Final = re.compile(f"{_ANSI}|{_INVISIBLE}")
_TOKEN_CHARACTERS: Final = "A-Za-z0-9_\\-+/=.~"
#: A line break inside a run of token characters (the run is measured in Python).
_LINE_BREAK: Final = re.compile(f"(?<=[{_TOKEN_CHARACTERS}])\\r?\\n(?=[{_TOKEN_CHARACTERS}])")
_RUN_BEFORE: Final = re.compile(f"[{_TOKEN_CHARACTERS}]{{1,200}}\\Z")
_RUN_AFTER: Final = re.compile(f"[{_TOKEN_CHARACTERS}]{{1,200}}")
#: Runs joined across a line break this long together may be a wrapped credential.
_JOINED_RUN: Final = 20
#: Characters looked at on each side of an insertion: more than the longest token format.
_REACH: Final = 600
#: Insertions looked at in one text at most: a text made of escape sequences (a captured
#: progress bar) costs a bounded amount, the rest of its secrets found by the plain scan.
_MAX_INSERTIONS: Final = 20_000
_FAST_CHECK: Final = re.compile("[\x1b\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e]|\n")


@dataclass(frozen=True, slots=True)
class _Insertion:
    start: int
    end: int
    #: A line break: findings across it count only when a rule recognised their format.
    line_break: bool


Scan = Callable[[str], list[Finding]]
Guess = Callable[[str, list[Finding]], list[Finding]]


def might_hide(text: str) -> bool:
    """Whether ``text`` holds anything that can cut a secret (cheap; most texts do not)."""
    return _FAST_CHECK.search(text) is not None


def _insertions(text: str) -> list[_Insertion]:
    found = [_Insertion(m.start(), m.end(), False) for m in _NOISE.finditer(text)]
    if "\n" in text:
        for match in _LINE_BREAK.finditer(text):
            start, end = match.span()
            before = _RUN_BEFORE.search(text, max(0, start - 200), start)
            after = _RUN_AFTER.match(text, end)
            joined = (before.end() - before.start() if before else 0) + (
                after.end() - after.start() if after else 0
            )
            if joined >= _JOINED_RUN:
                found.append(_Insertion(start, end, True))
            if len(found) > _MAX_INSERTIONS:
                break
    found.sort(key=lambda insertion: insertion.start)
    return found[:_MAX_INSERTIONS]


def _windows(
    insertions: list[_Insertion], size: int
) -> Iterator[tuple[int, int, list[_Insertion]]]:
    """Stretches of the text around the insertions, each with the insertions inside it."""
    group: list[_Insertion] = []
    low = high = 0
    for insertion in insertions:
        start, end = max(0, insertion.start - _REACH), min(size, insertion.end + _REACH)
        if group and start <= high:
            group.append(insertion)
            high = max(high, end)
            continue
        if group:
            yield low, high, group
        group, low, high = [insertion], start, end
    if group:
        yield low, high, group


def hidden_findings(text: str, scan: Scan, entropy: Guess) -> list[Finding]:
    """Secrets of ``text`` that only its insertions kept ``scan`` (the rules) and ``entropy``
    (the high-entropy pass, given the rules' findings) from finding, in ``text``'s positions,
    sorted; each spans at least one insertion."""
    insertions = _insertions(text)
    found: list[Finding] = []
    for low, high, inside in _windows(insertions, len(text)):
        pieces: list[str] = []
        #: For each piece of the joined window: where it starts there, and in ``text``.
        starts: list[tuple[int, int]] = []
        #: Positions in the joined window where an insertion was taken out, and its kind.
        cuts: list[tuple[int, bool]] = []
        position, length = low, 0
        for insertion in inside:
            piece = text[position : insertion.start]
            starts.append((length, position))
            pieces.append(piece)
            length += len(piece)
            cuts.append((length, insertion.line_break))
            position = insertion.end
        starts.append((length, position))
        pieces.append(text[position:high])
        joined = "".join(pieces)
        rules = scan(joined)
        guessed = entropy(joined, rules) if any(not cut[1] for cut in cuts) else []
        for finding in (*rules, *guessed):
            if finding.kind == KEEP:
                continue
            crossed = [line for at, line in cuts if finding.start < at < finding.end]
            if not crossed or (finding in guessed and all(crossed)):
                continue
            found.append(
                Finding(
                    _back(starts, finding.start), _back(starts, finding.end - 1) + 1, finding.kind
                )
            )
    found.sort()
    return found


def _back(starts: list[tuple[int, int]], joined: int) -> int:
    """The position in the original text of position ``joined`` of the joined window."""
    original = starts[0][1]
    for piece_start, piece_original in starts:
        if piece_start > joined:
            break
        original = piece_original + (joined - piece_start)
    return original


def kept_insertions(text: str, start: int, end: int) -> str:
    """The ANSI sequences and line breaks inside ``text[start:end]`` (a span being replaced),
    in order: put back after the marker, they keep the terminal's colours and the lines."""
    span = text[start:end]
    kept = [m.group() for m in re.finditer(f"{_ANSI}|\\r?\\n", span)]
    return "".join(kept)


def merge(findings: list[Finding], hidden: list[Finding]) -> tuple[list[Finding], set[int]]:
    """``findings`` (sorted, not overlapping) with the ``hidden`` ones added, and the starts of
    the merged findings that a hidden secret made or widened (their insertions are put back
    after the marker: see :func:`kept_insertions`).

    A hidden secret already inside a redacted span (a key block, which holds line breaks)
    changes nothing; one that overlaps a redacted part of it (half a token long enough to be
    redacted alone) or a kept region takes their union.
    """
    redacted = [finding for finding in findings if finding.kind != KEEP]
    starts = [finding.start for finding in redacted]

    def covered(finding: Finding) -> bool:
        at = bisect.bisect_right(starts, finding.start) - 1
        return at >= 0 and finding.end <= redacted[at].end

    new = [finding for finding in hidden if not covered(finding)]
    if not new:
        return findings, set()
    merged: list[Finding] = []
    widened: set[int] = set()
    fresh = set(new)
    for finding in sorted([*findings, *new]):
        if merged and finding.start < merged[-1].end:
            previous = merged[-1]
            kind = finding.kind if previous.kind == KEEP else previous.kind
            merged[-1] = Finding(previous.start, max(previous.end, finding.end), kind)
            widened.add(previous.start)
            continue
        if finding in fresh:
            widened.add(finding.start)
        merged.append(finding)
    return merged, widened


__all__ = ["hidden_findings", "kept_insertions", "merge", "might_hide"]
