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
from typing import Final

import msgspec

from cclens.redact.entropy import HIGH_ENTROPY
from cclens.redact.patterns import TOKEN_PATTERNS
from cclens.redact.scanner import KEEP, Finding

#: ANSI escape sequences: CSI (``ESC [ … final``, colours and cursor moves), OSC (``ESC ] …``
#: ended by BEL or ``ESC \\``, titles and links) and two-character escapes.
_ANSI: Final = r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])"
#: Characters with no width that editors and chat tools insert (zero-width space, non-joiner,
#: joiner, word joiner, byte-order mark, soft hyphen, Mongolian vowel separator).
_INVISIBLE: Final = "[\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e]"
_NOISE: Final = re.compile(f"{_ANSI}|{_INVISIBLE}")
_TOKEN_CHARACTERS: Final = "A-Za-z0-9_\\-+/=.~"
_TOKEN_SET: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.~"
)
#: Runs of token characters joined by line breaks (``abc\\ndef\\nghi``): each break between
#: two of them is a place a token may have been wrapped. This expression defines them;
#: :func:`_chains` finds the same spans from the line breaks, about four times faster (the
#: expression is tried at every character of a text, a line break is found by a fast search).
_CHAIN: Final = re.compile(
    f"(?<![{_TOKEN_CHARACTERS}])[{_TOKEN_CHARACTERS}]++(?:\\r?\\n[{_TOKEN_CHARACTERS}]++)+"
)
#: A line break followed by a token character: where a chain may join two runs.
_JOIN: Final = re.compile(f"\\n(?=[{_TOKEN_CHARACTERS}])")
_RUN: Final = re.compile(f"[{_TOKEN_CHARACTERS}]+")
_BREAK: Final = re.compile("\\r?\\n")
#: Runs joined across a line break this long together may be a wrapped credential.
_JOINED_RUN: Final = 20
#: Characters looked at on each side of an insertion: more than the longest token format.
_REACH: Final = 600
#: Kinds recognised by their own format (a provider's key): the only ones believed across a
#: line break (not an assignment's value, not a high-entropy guess: ``secret: false`` then
#: ``password_required: true`` is two lines, not a value cut in two).
_FORMATS: Final = frozenset(pattern.kind for pattern in TOKEN_PATTERNS)
#: Characters looked at before a chain of wrapped lines: what may lead a secret there.
_LEAD: Final = 64
#: Insertions looked at in one text at most: a text made of escape sequences (a captured
#: progress bar) costs a bounded amount, the rest of its secrets found by the plain scan.
_MAX_INSERTIONS: Final = 20_000
_FAST_CHECK: Final = re.compile("[\x1b\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e]|\n")


class _Insertion(msgspec.Struct, frozen=True):
    start: int
    end: int
    #: A line break: findings across it count only when a rule recognised their format, and
    #: when they take the whole word that follows it (up to ``after``): a wrapped token is
    #: one word cut in two, ``KEY=sk-…`` followed by ``DEBUG=true`` is not.
    line_break: bool = False
    after: int = 0
    #: The stretch of text looked at again around it: for a line break, its chain of token
    #: runs (and what may lead a secret before it, ``Bearer `` or ``KEY=``); for the others,
    #: :data:`_REACH` characters on each side.
    low: int = -1
    high: int = -1


Scan = Callable[[str], list[Finding]]
Guess = Callable[[str, list[Finding]], list[Finding]]


def might_hide(text: str) -> bool:
    """Whether ``text`` holds anything that can cut a secret (cheap; most texts do not)."""
    return _FAST_CHECK.search(text) is not None


def _noise(text: str) -> list[_Insertion]:
    """The ANSI sequences and invisible characters of ``text`` that stand between two token
    characters (a run of them counts as one); those next to a space or a punctuation mark
    (nearly all colour codes) cut nothing."""
    found: list[_Insertion] = []
    start = end = -1
    for match in _NOISE.finditer(text):
        if match.start() == end:  # ``\x1b[0m\x1b[1;32m``: one insertion
            end = match.end()
            continue
        if end >= 0 and _between_tokens(text, start, end):
            found.append(_Insertion(start, end))
        start, end = match.span()
    if end >= 0 and _between_tokens(text, start, end):
        found.append(_Insertion(start, end))
    return found


def _between_tokens(text: str, start: int, end: int) -> bool:
    return (
        start > 0 and end < len(text) and text[start - 1] in _TOKEN_SET and text[end] in _TOKEN_SET
    )


def _insertions(text: str, known: list[Finding]) -> list[_Insertion]:
    found = _noise(text) if "\x1b" in text or not text.isascii() else []
    if "\n" in text:
        # A secret found whole that ends at a line break: the break is where it ends, unless
        # the next line starts with what looks like the rest of a token (not ``DEBUG=true``,
        # ``export``). Breaks inside what was found (a key block's lines) are its own.
        ends = {f.end for f in known if f.kind != KEEP}
        starts = [f.start for f in known]
        for base, stop in _chains(text):
            if stop - base < _JOINED_RUN + 1:
                continue  # no two of its runs are long enough together
            low, high = max(0, base - _LEAD), min(len(text), stop + 1)
            chain = text[base:stop]
            runs = _BREAK.split(chain)
            breaks = [m.span() for m in _BREAK.finditer(chain)]
            for number, (cut_start, cut_end) in enumerate(breaks):
                start, end = base + cut_start, base + cut_end
                last = end + len(runs[number + 1])
                if len(runs[number]) + len(runs[number + 1]) < _JOINED_RUN:
                    continue
                if start in ends and not _piece_after(text, end):
                    continue
                inside = bisect.bisect_right(starts, start) - 1
                if inside >= 0 and start < known[inside].end:
                    continue
                found.append(_Insertion(start, end, True, last, low, high))
            if len(found) > _MAX_INSERTIONS:
                break
    found.sort(key=lambda insertion: insertion.start)
    return found[:_MAX_INSERTIONS]


def _chains(text: str) -> Iterator[tuple[int, int]]:
    """The start and end of each match of :data:`_CHAIN` in ``text``, in order: the line
    breaks with a token character on each side (a ``\\r`` before one belongs to it), each
    run between two of them joining them into one chain."""
    start = end = -1
    for join in _JOIN.finditer(text):
        at = join.start()
        before = at - 1 if at > 0 and text[at - 1] == "\r" else at  # where the run before ends
        if before == 0 or text[before - 1] not in _TOKEN_SET:
            continue
        found = _RUN.match(text, at + 1)
        after = found.end() if found is not None else at + 1  # (always found: see _JOIN)
        if before == end:  # the run before is the last run of the chain: the chain goes on
            end = after
            continue
        if start >= 0:
            yield start, end
        start = before - 1
        while start > 0 and text[start - 1] in _TOKEN_SET:
            start -= 1
        end = after
    if start >= 0:
        yield start, end


#: The rest of a token wrapped onto the next line: a run of token characters standing alone
#: (up to a space, a quote or the end), that looks generated, not typed.
_PIECE_AFTER: Final = re.compile(r"[A-Za-z0-9_\-.+/~=]{2,200}(?=$|[\s\"'`,;)\]}])")


def _generated(piece: str) -> bool:
    """Whether ``piece`` looks like part of a generated token rather than a word a person
    typed at the start of a line (``export``, ``fi``, ``EOF``): a digit, mixed case, or four
    capitals and more (keys in capitals and digits are cut anywhere)."""
    has_digit = any(c.isdigit() for c in piece)
    mixed = any(c.isupper() for c in piece) and any(c.islower() for c in piece)
    return has_digit or mixed or (len(piece) >= 4 and piece.isupper())


def _piece_after(text: str, at: int) -> bool:
    """Whether the line from ``at`` starts with the rest of a wrapped token (not
    ``DEBUG=true`` or ``export``: a secret found whole ended at the line break)."""
    found = _PIECE_AFTER.match(text, at)
    return found is not None and _generated(found.group())


def _windows(
    insertions: list[_Insertion], size: int
) -> Iterator[tuple[int, int, list[_Insertion]]]:
    """Stretches of the text around the insertions, each with the insertions inside it."""
    group: list[_Insertion] = []
    low = high = 0
    for insertion in insertions:
        if insertion.low >= 0:
            start, end = insertion.low, insertion.high
        else:
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


def hidden_findings(
    text: str, scan: Scan, entropy: Guess, known: list[Finding] | None = None
) -> list[Finding]:
    """Secrets of ``text`` that only its insertions kept ``scan`` (the rules) and ``entropy``
    (the high-entropy pass, given the rules' findings) from finding, in ``text``'s positions,
    sorted; each spans at least one insertion. ``known``: what the plain scan found."""
    insertions = _insertions(text, known or [])
    found: list[Finding] = []
    for low, high, inside in _windows(insertions, len(text)):
        pieces: list[str] = []
        #: For each piece of the joined window: where it starts there, and in ``text``.
        starts: list[tuple[int, int]] = []
        #: Positions in the joined window where an insertion was taken out, and the insertion.
        cuts: list[tuple[int, _Insertion]] = []
        position, length = low, 0
        for insertion in inside:
            piece = text[position : insertion.start]
            starts.append((length, position))
            pieces.append(piece)
            length += len(piece)
            cuts.append((length, insertion))
            position = insertion.end
        starts.append((length, position))
        pieces.append(text[position:high])
        joined = "".join(pieces)
        rules = scan(joined)
        guessed = entropy(joined, rules) if any(not cut.line_break for _, cut in cuts) else []
        for finding in (*rules, *guessed):
            if finding.kind == KEEP:
                continue
            crossed = [cut for at, cut in cuts if finding.start < at < finding.end]
            breaks = [cut for cut in crossed if cut.line_break]
            if not crossed:
                continue
            if breaks and finding.kind not in _FORMATS and len(breaks) == len(crossed):
                continue  # across lines only a credential's own format is believed
            start = _back(starts, finding.start)
            end = _back(starts, finding.end - 1) + 1
            if any(end < cut.after for cut in breaks):
                continue  # not one word cut in two: a secret at a line's end, then a line
            found.append(Finding(start, end, finding.kind))
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
    changes nothing; one a rule recognised that overlaps a redacted part of it (half a token
    long enough to be redacted alone) or a kept region takes their union. A high-entropy guess
    that overlaps a redacted span is left out: it only reached across an insertion into its
    neighbour (``0\u00adsk-ant-…``), the secret itself already found.
    """
    redacted = [finding for finding in findings if finding.kind != KEEP]
    starts = [finding.start for finding in redacted]

    def covered(finding: Finding) -> bool:
        at = bisect.bisect_right(starts, finding.start) - 1
        return at >= 0 and finding.end <= redacted[at].end

    def overlaps(finding: Finding) -> bool:
        at = bisect.bisect_left(starts, finding.end) - 1
        return at >= 0 and redacted[at].end > finding.start

    new = [
        finding
        for finding in hidden
        if not covered(finding) and not (finding.kind == HIGH_ENTROPY and overlaps(finding))
    ]
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
