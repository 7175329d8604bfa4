"""Words as the index sees them: what makes a token, what separates tokens.

The write path cuts documents with these definitions and the read path reads queries with them,
so both live here, below both.

Scripts written without spaces between words (:mod:`cclens.scripts`: Chinese, Japanese, Thai,
Lao, Khmer, Myanmar; Korean, whose words carry their particles) have every character read as a
word: FTS5's ``unicode61`` tokenizer makes a whole run of letters one token, so a word inside a
longer run (``推广产品`` in ``我们需要推广产品的方案``) could not be found. :func:`index_text` puts
:data:`TOKEN_BREAK`, a character ``unicode61`` treats as a separator and that indexed text never
holds (:func:`cclens.index.extract.clean_text`), around each such character (:data:`UNIT`: one
character with the marks that combine with it) of the text FTS5 reads; a query goes through
the same function, so a query's run of them is the phrase of its characters and any substring
is found, one character up. :func:`shown_text` takes the breaks out where a stored text is
shown (snippets).

Measured against a plain substring scan, overlapping pairs of characters and an FTS5
``trigram`` table beside the word index (``benchmarks/search_cjk.py``, figures in
``docs/web.md``): characters find every session the scan finds, with the smallest index and
queries as fast as pairs.
"""

from __future__ import annotations

import re

from ..scripts import BASES, LETTER_MARKS, MARKS, UNIT

#: Words one phrase may hold. Long texts are indexed in pieces that overlap by more words than
#: this (see :data:`cclens.index.extract.OVERLAP_WORDS`), so a phrase is found wherever it falls.
MAX_PHRASE_WORDS = 32

#: A token as the index reads text: one character of a script written without spaces, with its
#: marks (:data:`~cclens.scripts.UNIT`), or a run of the other characters FTS5's ``unicode61``
#: tokenizer keeps in a token (letters, digits and private-use characters); everything else
#: separates tokens.
TOKEN = re.compile(
    f"{UNIT}"
    # Runs of word characters and of private-use ones, alternating: one class with an
    # alternative per character is twice as slow.
    f"|[^\\W_{BASES}]+(?:[\ue000-\uf8ff\U000f0000-\U0010ffff]+[^\\W_{BASES}]*)*"
    f"|[\ue000-\uf8ff\U000f0000-\U0010ffff]+(?:[^\\W_{BASES}]+[\ue000-\uf8ff\U000f0000-\U0010ffff]*)*"
)


#: A private-use character (a token character to FTS5, rare in text: patterns without them
#: run several times faster where none is found).
PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
#: One character of a token, and one that separates tokens.
WORD_CHARACTER = re.compile(r"(?:[^\W_]|[\ue000-\uf8ff\U000f0000-\U0010ffff])")
SEPARATOR = re.compile(r"(?:[^\w\ue000-\uf8ff\U000f0000-\U0010ffff]|_)")

#: A character that separates tokens (a control character ``unicode61`` never keeps in one),
#: put around each :data:`UNIT` of the text FTS5 reads; taken out of every indexed text first.
TOKEN_BREAK = "\x1f"

_UNIT = re.compile(UNIT)
# A run of units, written to begin with one unit's character class: ``re`` then scans for that
# class at C speed, where ``(?:unit)+`` was tried at every position (2.5 times as slow over text
# that is not ASCII, 4 times where it holds no unspaced character).
_RUN = re.compile(f"{UNIT}(?:{UNIT})*")
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
