"""Scripts written without spaces between words: every character is a word to search by.

Chinese and Japanese put no space between words, Thai, Lao, Khmer and Myanmar none either, and
a Korean word carries its particles (``데이터베이스를``). FTS5's ``unicode61`` tokenizer makes a
whole run of letters one token, so a word inside a longer run (``推广产品`` in
``我们需要推广产品的方案``) could not be found. The index therefore reads each character of these
scripts as a token of its own (:data:`UNIT`: one character with the marks that combine with
it): :func:`index_text` puts :data:`TOKEN_BREAK`, a character ``unicode61`` treats as a
separator and that indexed text never holds (:func:`cclens.index.extract.clean_text`), around
every such character of the text FTS5 reads, and a query goes through the same function, so a
query's run of them is the phrase of its characters: any substring is found, one character up.
:func:`shown_text` takes the breaks out again where the stored text is shown (snippets).

Measured against a plain substring scan, overlapping pairs of characters and an FTS5
``trigram`` table beside the word index (``benchmarks/search_cjk.py``; figures in
``docs/web.md``): characters find every session the scan finds, with the smallest index (+16%
on Chinese technical text; pairs +36%, trigrams +55%) and queries as fast as pairs.
"""

from __future__ import annotations

import re

from ..scripts import BASES, LETTER_MARKS, MARKS, UNIT

#: A character that separates tokens (a control character ``unicode61`` never keeps in one),
#: put around each :data:`UNIT` of the text FTS5 reads; taken out of every indexed text first.
TOKEN_BREAK = "\x1f"

_UNIT = re.compile(UNIT)
_RUN = re.compile(f"(?:{UNIT})+")
_MARK = re.compile(f"[{MARKS}{LETTER_MARKS}]")
_DROPPED = re.compile(f"[{MARKS}]")


def _broken(run: re.Match[str]) -> str:
    text = run.group()
    units = _UNIT.findall(text) if _MARK.search(text) else text
    return TOKEN_BREAK + TOKEN_BREAK.join(units) + TOKEN_BREAK


def index_text(text: str) -> str:
    """``text`` as FTS5 reads it: :data:`TOKEN_BREAK` around each unspaced character (an ASCII
    text is returned as it is)."""
    if text.isascii():
        return text
    return _RUN.sub(_broken, text)


def shown_text(text: str) -> str:
    """A stored text as it was written (:func:`index_text` undone)."""
    return text.replace(TOKEN_BREAK, "") if TOKEN_BREAK in text else text


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of an unspaced script."""
    return not text.isascii() and _UNIT.search(text) is not None


def fold_unit(unit: str) -> str:
    """An unspaced character as the tokenizer keeps it: without its combining marks (kana,
    Hangul and ideographs are not folded: ``が`` is not ``か``)."""
    return _DROPPED.sub("", unit) if len(unit) > 1 else unit


__all__ = [
    "BASES",
    "TOKEN_BREAK",
    "UNIT",
    "fold_unit",
    "has_unspaced",
    "index_text",
    "shown_text",
]
