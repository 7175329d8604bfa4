"""Snippets: the stretch of a matched text where the query's terms are densest, terms marked.

FTS5's own ``snippet()`` compares every match of a text with every other (a text where every
word matches, 4,000 characters long, took 100 ms), so snippets are cut here instead, in one pass
over the text's words: each word is folded as FTS5's ``unicode61 remove_diacritics 2``
tokenizer folds it (case, diacritics), the query's words, phrases and prefixes are found, and
the window of :data:`WORDS` words (:data:`UNSPACED_FACTOR` times more where each character is
a word) holding the most different terms (then the most matches) is kept, whitespace and all,
with its matches between :data:`~cclens.index.extract.MATCH_START` and
:data:`~cclens.index.extract.MATCH_END`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, compress, count
from operator import methodcaller, not_, or_

from ...scripts import UNIT
from ..extract import MATCH_END, MATCH_START
from ..words import fold_unit, has_unspaced
from .query import PRIVATE_USE, TOKEN, Term

#: Words a snippet holds (about three lines of prose).
WORDS = 32
#: Words shown before the first match of the window.
_LEAD = 4
#: In a text with characters of scripts written without spaces, each of which is a word, a
#: window holds this many times more words (32 Chinese characters are one short line).
UNSPACED_FACTOR = 3
#: The longest snippet, in characters (32 long words, a path or a hash, would make a wall).
MAX_CHARACTERS = 600
ELLIPSIS = "…"
#: Splits a text into separators and words (the words are the odd items); the same with plain
#: character classes (several times faster) for a text without private-use characters or
#: characters of scripts written without spaces, and for an ASCII one.
_SPLIT = re.compile(f"({TOKEN.pattern})")
_UNIT = re.compile(UNIT)
_SPLIT_UNICODE = re.compile(r"([^\W_]+)")
_SPLIT_ASCII = re.compile(r"([a-zA-Z0-9]+)")


def fold(word: str) -> str:
    """``word`` as FTS5 compares it: case folded, diacritics removed (a character of a script
    written without spaces: only its marks removed, see :func:`fold_unit`)."""
    if _UNIT.match(word):
        return fold_unit(word)
    folded = word.casefold()
    if folded.isascii():
        return folded
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


#: :func:`fold`, remembered (the words of a text in Chinese are its characters, a few thousand).
_folded = lru_cache(maxsize=1 << 16)(fold)


@dataclass(frozen=True, slots=True)
class Matcher:
    """One term to find: its folded words in order; with ``prefix``, the last one is a
    prefix."""

    words: tuple[str, ...]
    prefix: bool = False

    @classmethod
    def of(cls, term: Term) -> Matcher:
        """The matcher of a term of a query."""
        words = tuple(fold(word) for word in TOKEN.findall(term.text))
        return cls(words, term.prefix and not term.phrase)


def _matches(words: Sequence[str], matchers: Sequence[Matcher]) -> list[tuple[int, int, int]]:
    """``(first word, word after the last, matcher)`` of every match, in text order."""
    exact: dict[str, list[tuple[int, Matcher]]] = {}
    prefixed: list[tuple[int, Matcher]] = []
    for number, matcher in enumerate(matchers):
        if not matcher.words:
            continue
        if matcher.prefix and len(matcher.words) == 1:
            prefixed.append((number, matcher))
        else:
            exact.setdefault(matcher.words[0], []).append((number, matcher))
    # The words where a match may begin, found with C-level calls; then each is checked.
    starts = map(exact.__contains__, words)
    if prefixed:
        beginnings = tuple(matcher.words[0] for _, matcher in prefixed)
        starts = map(or_, starts, map(methodcaller("startswith", beginnings), words))
    found: list[tuple[int, int, int]] = []
    count_of_words = len(words)
    for position in compress(count(), starts):
        word = words[position]
        for number, matcher in exact.get(word, ()):
            size = len(matcher.words)
            if position + size > count_of_words:
                continue
            if matcher.prefix:
                whole = tuple(words[position : position + size - 1]) == matcher.words[:-1]
                if whole and words[position + size - 1].startswith(matcher.words[-1]):
                    found.append((position, position + size, number))
            elif size == 1 or tuple(words[position : position + size]) == matcher.words:
                found.append((position, position + size, number))
        for number, matcher in prefixed:
            if word.startswith(matcher.words[0]):
                found.append((position, position + 1, number))
    return found


def _window(
    found: list[tuple[int, int, int]], count_of_words: int, size: int = WORDS, lead: int = _LEAD
) -> tuple[int, int]:
    """The words ``[start, end)`` holding the most different terms, then the most matches.

    Candidate windows begin a few words before each match; one pass, counting the terms of
    the matches that enter and leave the window.
    """
    if not found:
        return 0, min(count_of_words, size)
    best = (-1, -1)
    chosen = 0
    inside: dict[int, int] = {}
    last = 0
    for first, (begin, _, number) in enumerate(found):
        start = max(begin - lead, 0)
        while last < len(found) and found[last][1] <= start + size:
            inside[found[last][2]] = inside.get(found[last][2], 0) + 1
            last += 1
        if first < last:
            score = (len(inside), last - first)
            if score > best:
                best, chosen = score, start
            inside[number] -= 1  # the match leaves the next windows
            if not inside[number]:
                del inside[number]
        else:
            last = first + 1  # a match longer than a window: none of it was counted
    end = min(chosen + size, count_of_words)
    return max(end - size, 0), end


def _words(text: str, unspaced: bool) -> tuple[list[str], list[int]]:
    """The words of ``text`` folded, and the offsets where each word starts and ends
    (``offsets[2 * i]`` and ``offsets[2 * i + 1]``), with whole-text C calls rather than a
    Python step per word."""
    if text.isascii():
        split = _SPLIT_ASCII
    elif PRIVATE_USE.search(text) is None and not unspaced:
        split = _SPLIT_UNICODE
    else:
        split = _SPLIT
    parts = split.split(text)  # separator, word, separator, word, ..., separator
    if unspaced:  # a word per character: the same few thousand words again and again
        return list(map(_folded, parts[1::2])), list(accumulate(map(len, parts)))
    words = list(map(str.casefold, parts[1::2]))
    for position in compress(count(), map(not_, map(str.isascii, words))):
        words[position] = fold(words[position])
    return words, list(accumulate(map(len, parts)))


def snippet(text: str, matchers: Sequence[Matcher]) -> str:
    """The best stretch of ``text`` for ``matchers``, matches marked, cut ends shown as "…"."""
    unspaced = has_unspaced(text)
    words, offsets = _words(text, unspaced)
    if not words:
        return text[:MAX_CHARACTERS]
    matches = _matches(words, matchers)
    factor = UNSPACED_FACTOR if unspaced else 1
    start, end = _window(matches, len(words), WORDS * factor, _LEAD * factor)
    begin = 0 if start == 0 else offsets[2 * start]
    finish = len(text) if end == len(words) else offsets[2 * end - 1]
    if finish - begin > MAX_CHARACTERS:
        first = next((m for m in matches if start <= m[0] and m[1] <= end), None)
        if first is not None:
            begin = max(begin, min(offsets[2 * first[0]], finish - MAX_CHARACTERS))
        finish = min(finish, begin + MAX_CHARACTERS)
    pieces = [ELLIPSIS if begin > 0 else ""]
    position = begin
    for first_word, after, _ in matches:
        if first_word < start or after > end:
            continue
        low, high = offsets[2 * first_word], offsets[2 * after - 1]
        if low < position or high > finish:
            continue  # overlapping an earlier match, or outside the snippet
        pieces += [text[position:low], MATCH_START, text[low:high], MATCH_END]
        position = high
    pieces.append(text[position:finish])
    if finish < len(text):
        pieces.append(ELLIPSIS)
    return "".join(pieces)


__all__ = ["ELLIPSIS", "MAX_CHARACTERS", "UNSPACED_FACTOR", "WORDS", "Matcher", "fold", "snippet"]
