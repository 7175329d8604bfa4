"""Random-looking strings that no rule recognised: the last line of defence.

A candidate is a run of at least 32 base64 or base64url characters. It is reported as
``high-entropy`` when it looks like random key material:

* mixed upper case, lower case and digits (random base64 of that length nearly always has all
  three; identifiers, words and base32 seldom do), mixed closely: neighbouring characters
  change class at least 30% of the time (random base64: about 60%, below 31% in fewer than one
  in ten thousand strings), where names built of words and numbers change far less;
* not mostly words: under 70% of it in word-like runs (camelCase names score 80-90%);
* Shannon entropy at or above a length-dependent threshold, set at the first per-mille of
  random base64 strings of that length (4.0 bits per character at 32 characters, rising to 4.75
  at 64 and beyond), so only one random token in a thousand slips under it.

Deliberately not reported, because in transcripts they are almost always identifiers:

* hexadecimal strings of any length: git commit ids (40 hex), SHA-256 digests, UUIDs, Docker
  digests, lock-file checksums. Hex secrets are still caught when they are assigned to a
  secret-named field or carry a provider prefix;
* ids Claude Code and the model APIs generate (``toolu_…``, ``msg_…``, ``req_…``: ``ids.py``),
  wherever they stand, even glued to other text: the scanner protects them, and a run is judged
  in the pieces around them; and integrity hashes;
* runs longer than 1,024 characters: inline images and file blobs, not keys;
* paths, URLs and model names: a run with a word between slashes is judged segment by
  segment, so ``/Users/alice/miniconda3/envs`` and ``Qwen/Qwen3-Next-80B-A3B-Instruct`` stay
  while a token inside a URL path still goes.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from typing import Final

from cclens.redact.ids import PREFIXES
from cclens.redact.scanner import Finding

HIGH_ENTROPY: Final = "high-entropy"

MIN_LENGTH: Final = 32
MAX_LENGTH: Final = 1024

_BASE64_CHARACTERS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
)
_CANDIDATE: Final = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}")
_HEX: Final = re.compile(r"[0-9a-fA-F-]+")
_IDENTIFIER_PREFIX: Final = re.compile(rf"(?:{'|'.join(PREFIXES)})[_-]")
# A word between slashes ("com", "status", "envs", "Qwen" in "Qwen/Qwen3-Next-80B") marks a
# path, URL or model name, whose segments are judged one by one.
_PATH_WORD: Final = re.compile(r"[A-Za-z][a-z0-9._-]{2,}")
_WORD_RUN: Final = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{4,}")
_VOWELS: Final = frozenset("aeiouyAEIOUY")
MIN_CLASS_CHANGES: Final = 0.3
MAX_WORDINESS: Final = 0.7


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` under its own character frequencies."""
    length = len(value)
    if length == 0:
        return 0.0
    return -sum(count / length * math.log2(count / length) for count in Counter(value).values())


def entropy_threshold(length: int) -> float:
    """The least entropy a random base64 string of ``length`` characters reaches 999 times in
    1,000 (measured; see ``tests/test_redact_entropy.py``)."""
    return 4.0 + min(max(length - MIN_LENGTH, 0), 32) * (0.75 / 32)


def looks_random(token: str) -> bool:
    """True when ``token`` (no separators but base64's own) reads as key material."""
    body = token.rstrip("=")
    if not MIN_LENGTH <= len(body) <= MAX_LENGTH:
        return False
    if _HEX.fullmatch(body) or _IDENTIFIER_PREFIX.match(body):
        return False
    if not _has_every_class(body):
        return False
    if class_changes(body) < MIN_CLASS_CHANGES or wordiness(body) >= MAX_WORDINESS:
        return False
    return shannon_entropy(body) >= entropy_threshold(len(body))


# Over ASCII (all a candidate run can hold) these say what str.isdigit, isupper, islower and
# isalnum say, character by character, but run in C.
_DIGIT: Final = re.compile(r"[0-9]")
_UPPER: Final = re.compile(r"[A-Z]")
_LOWER: Final = re.compile(r"[a-z]")
_PAIR: Final = re.compile(r"[A-Za-z0-9](?=[A-Za-z0-9])")
_CHANGE: Final = re.compile(r"[0-9](?=[A-Za-z])|[A-Z](?=[0-9a-z])|[a-z](?=[0-9A-Z])")


def _has_every_class(token: str) -> bool:
    """Whether ``token`` has a digit, an upper-case and a lower-case letter."""
    if token.isascii():
        return bool(_DIGIT.search(token) and _UPPER.search(token) and _LOWER.search(token))
    return (
        any(c.isdigit() for c in token)
        and any(c.isupper() for c in token)
        and any(c.islower() for c in token)
    )


def _character_class(character: str) -> int:
    return 0 if character.isdigit() else 1 if character.isupper() else 2


def class_changes(token: str) -> float:
    """How often two neighbouring letters or digits differ in class (digit, upper, lower).

    About 0.6 for random base62 or base64; 0.3 or less for names made of words and numbers
    (``Qwen3-Next-80B-A3B-Instruct``, ``claude-3-5-sonnet-20241022``).
    """
    if token.isascii():
        pairs = len(_PAIR.findall(token))
        changes = len(_CHANGE.findall(token))
        return changes / pairs if pairs else 0.0
    pairs = changes = 0
    for first, second in pairwise(token):
        if first.isalnum() and second.isalnum():
            pairs += 1
            changes += _character_class(first) != _character_class(second)
    return changes / pairs if pairs else 0.0


def wordiness(token: str) -> float:
    """The share of ``token`` in runs that read as words (three or more lower-case letters
    with a vowel, or four capitals), such as camelCase names: ``getServerSideProps2``."""
    words = (word for word in _WORD_RUN.findall(token) if _VOWELS.intersection(word))
    return sum(len(word) for word in words) / len(token) if token else 0.0


# Base64 characters to "a", everything else to " ": a run of 32 is then a plain substring.
_RUN_TABLE: Final = bytes(
    ord("a") if chr(code) in _BASE64_CHARACTERS else ord(" ") for code in range(256)
)
_RUN: Final = b"a" * MIN_LENGTH
#: Characters translated at a time in a long text (see :func:`candidate_runs`).
_WINDOW = 1 << 20
_SEPARATOR: Final = re.compile(r"[^A-Za-z0-9+/_-]")


def candidate_runs(text: str) -> Iterator[tuple[int, int]]:
    """The spans ``_CANDIDATE.finditer(text)`` gives, found faster.

    Python's regular expressions try a run of base64 characters at every position; here the
    text's UTF-8 bytes are translated (in C) into "a" for a base64 character and " " for
    anything else (bytes of characters beyond ASCII included), and ``bytes.find`` jumps to the
    next 32 "a" in a row, where the expression is then matched. The same spans: the first 32
    "a" in a row at or after the end of the last span start a run, which is where the
    expression matches next.

    A long text is translated a window of about :data:`_WINDOW` characters at a time, each cut
    just after a character no run holds, so that memory stays bounded (a 200 MB tool output
    is not copied twice more) and no run is cut.
    """
    if len(text) < MIN_LENGTH:
        return
    start = 0
    while start < len(text):
        end = start + _WINDOW
        if end < len(text):
            separator = _SEPARATOR.search(text, end)
            end = separator.end() if separator else len(text)
        yield from _runs(text, start, min(end, len(text)))
        start = end


def _runs(text: str, low: int, high: int) -> Iterator[tuple[int, int]]:
    """:func:`candidate_runs` of ``text[low:high]``, as positions in ``text``."""
    piece = text[low:high] if low or high < len(text) else text
    ascii_only = piece.isascii()
    data = piece.encode("ascii") if ascii_only else piece.encode("utf-8", "surrogatepass")
    find, match = data.translate(_RUN_TABLE).find, _CANDIDATE.match
    at = find(_RUN)
    byte = character = 0  # where the last span ended, in bytes and in characters of piece
    while at >= 0:
        if ascii_only:
            character = at
        else:
            character += len(data[byte:at].decode("utf-8", "surrogatepass"))
        byte = at
        found = match(text, low + character)
        if found is None:  # cannot happen (see above); never loop on it
            at = find(_RUN, at + 1)
            continue
        start, end = found.span()
        yield start, end
        # Everything in a span is ASCII: one byte a character.
        byte, character = at + end - start, end - low
        at = find(_RUN, byte)


def find_high_entropy(
    text: str, protected: Sequence[Finding], runs: Iterable[tuple[int, int]] | None = None
) -> list[Finding]:
    """High-entropy spans of ``text`` outside the ``protected`` spans (sorted findings).

    A run that a finding cuts is judged in the pieces left on either side, as it will read
    once the finding is replaced by its marker. ``runs``: ``candidate_runs(text)`` when the
    caller has them already.
    """
    findings: list[Finding] = []
    cursor = 0
    for start, end in candidate_runs(text) if runs is None else runs:
        if end - start > MAX_LENGTH:
            continue
        while cursor < len(protected) and protected[cursor].end <= start:
            cursor += 1
        piece_start = start
        index = cursor
        while index < len(protected) and protected[index].start < end:
            _judge(text, piece_start, protected[index].start, findings)
            piece_start = max(piece_start, protected[index].end)
            index += 1
        _judge(text, piece_start, end, findings)
    return findings


def _judge(text: str, start: int, end: int, findings: list[Finding]) -> None:
    """Judge ``text[start:end]``: a path-like run segment by segment, any other run whole
    (and then by segment).

    A segment that goes is replaced, and what is left on either side is judged again in the
    same way, exactly as the next pass over the output would see it: that keeps redaction
    idempotent.
    """
    if end - start < MIN_LENGTH:
        return
    token = text[start:end]
    if not _has_every_class(token):
        return  # whatever is reported is a part that has all three, so the whole has them
    segments = token.split("/")
    path_like = len(segments) > 1 and any(_PATH_WORD.fullmatch(part) for part in segments)
    if not path_like and looks_random(token):
        findings.append(Finding(start, end, HIGH_ENTROPY))
        return
    offset = 0
    for segment in segments:
        if len(segment) >= MIN_LENGTH and looks_random(segment):
            _judge(text, start, start + offset, findings)
            findings.append(Finding(start + offset, start + offset + len(segment), HIGH_ENTROPY))
            _judge(text, start + offset + len(segment), end, findings)
            return
        offset += len(segment) + 1
