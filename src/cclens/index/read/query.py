"""What a person types into search, read into a safe FTS5 query and the terms to highlight.

Words are matched as words, ``"two words"`` as a phrase, ``word*`` as a prefix, ``-word`` (or
``NOT word``) excludes, and ``OR`` between two terms means either. Every term is quoted before it
reaches FTS5, so its operators and punctuation in the text are matched literally and nothing a
person types can raise an FTS5 syntax error. The same term twice counts once; a query holds at
most :data:`MAX_TERMS` different terms and a phrase at most :data:`MAX_PHRASE_WORDS` words, so
that no query costs more than a bounded amount of work (a longer one raises
:class:`QueryError`, naming the limit).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TypeVar

from ..words import MAX_PHRASE_WORDS, PRIVATE_USE, SEPARATOR, TOKEN, WORD_CHARACTER, index_text
from .bounds import check_length

#: Different terms one query may hold (words, phrases, prefixes and exclusions together).
MAX_TERMS = 32


class SearchError(ValueError):
    """A search that cannot be run as asked: its message says what to change."""


class QueryError(SearchError):
    """A query beyond the limits (too many terms, too long a phrase)."""


def _has_token(text: str) -> bool:
    """Whether FTS5's unicode61 tokenizer finds a token in ``text`` (letters, digits, Co)."""
    return any(character.isalnum() or unicodedata.category(character) == "Co" for character in text)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass(frozen=True, slots=True)
class Term:
    """One term as typed: a word, a phrase (``"…"``) or a prefix (``word*``), maybe excluded."""

    text: str
    phrase: bool = False
    prefix: bool = False
    negated: bool = False

    def query(self) -> str:
        """The term as FTS5 reads it: quoted (a run of characters of a script written without
        spaces is then the phrase of its characters), with ``*`` after a prefix."""
        quoted = _quote(index_text(self.text))
        return quoted + "*" if self.prefix and not self.phrase else quoted

    @property
    def identity(self) -> tuple[str, bool, bool]:
        """What makes two terms the same search (case does not matter to FTS5)."""
        return (" ".join(TOKEN.findall(self.text.casefold())), self.prefix, self.negated)


def terms(text: str) -> list[Term | str]:
    """Split user text into terms and ``OR`` markers, the way :func:`parse_query` reads it."""
    found: list[Term | str] = []
    position = 0
    negate_next = False
    length = len(text)
    while position < length:
        character = text[position]
        if character.isspace():
            position += 1
            continue
        negated = negate_next
        negate_next = False
        if character == "-" and position + 1 < length and not text[position + 1].isspace():
            negated = True
            position += 1
            character = text[position]
        if character == '"':
            end = text.find('"', position + 1)
            end = length if end < 0 else end
            found.append(Term(text[position + 1 : end], phrase=True, negated=negated))
            position = end + 1
            continue
        end = position
        while end < length and not text[end].isspace() and text[end] != '"':
            end += 1
        word = text[position:end]
        position = end
        if word == "OR" and not negated:
            found.append("OR")
        elif word == "NOT" and not negated:
            negate_next = True
        elif word != "AND" or negated:
            prefix = word.endswith("*")
            found.append(Term(word.rstrip("*"), prefix=prefix, negated=negated))
    return found


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query read: the FTS5 expression, and what a page should highlight."""

    #: The FTS5 query (``""`` when there is nothing to find).
    fts: str
    #: The words, phrases and prefixes (without ``*``) to find, each once, as typed; exclusions
    #: are left out.
    highlights: tuple[str, ...]
    #: How many different terms the query holds (exclusions included).
    count: int
    #: The terms to find (not the exclusions), each once.
    positive: tuple[Term, ...] = ()


Item = TypeVar("Item", "Term", list["Term"])


def _distinct(items: list[Item]) -> list[Item]:
    """``items`` without repeats (terms by :attr:`Term.identity`, groups by their terms')."""
    kept: dict[object, Item] = {}
    for item in items:
        key = frozenset(term.identity for term in item) if isinstance(item, list) else item.identity
        kept.setdefault(key, item)
    return list(kept.values())


def _group(group: list[Term]) -> str:
    query = " OR ".join(term.query() for term in group)
    return f"({query})" if len(group) > 1 else query


def parse_query(text: str) -> ParsedQuery:
    """Read what a person typed (see the module's documentation).

    Terms without a letter or digit are dropped; a query of exclusions only finds nothing.
    Raises :class:`QueryError` beyond :data:`MAX_TERMS` different terms or a phrase longer
    than :data:`MAX_PHRASE_WORDS` words, :class:`~cclens.index.read.bounds.FilterTooLong`
    beyond :data:`~cclens.index.read.bounds.MAX_FILTER_LENGTH` characters.
    """
    check_length("the query", text)
    groups: list[list[Term]] = []
    negatives: list[Term] = []
    seen: set[tuple[str, bool, bool]] = set()
    pending_or = False
    # SQLite reads a query as a C string: a NUL would cut it short, mid-quote.
    for term in terms(text.replace("\x00", " ")):
        if isinstance(term, str):
            pending_or = bool(groups)
            continue
        if not _has_token(term.text):
            continue
        # A word of several tokens ("foo-bar", "推广产品") is a phrase of them as well.
        words = len(TOKEN.findall(term.text))
        if words > MAX_PHRASE_WORDS:
            raise QueryError(
                f"a phrase may hold at most {MAX_PHRASE_WORDS} words, each character of Chinese, "
                f'Japanese or Korean counting as one ("{term.text[:40]}…" has {words}); shorten it'
            )
        seen.add(term.identity)
        if len(seen) > MAX_TERMS:
            raise QueryError(
                f"a query may hold at most {MAX_TERMS} different terms; "
                "remove some, or search for a phrase"
            )
        if term.negated:
            negatives.append(term)
        elif pending_or and groups:
            groups[-1].append(term)
        else:
            groups.append([term])
        pending_or = False
    # The same term twice is searched once: within a group of alternatives, among the groups,
    # among the exclusions.
    groups = _distinct([_distinct(group) for group in groups])
    negatives = _distinct(negatives)
    if not groups:
        return ParsedQuery("", (), len(seen))
    query = " AND ".join(_group(group) for group in groups)
    if negatives:
        query = f"({query})" + "".join(f" NOT {term.query()}" for term in negatives)
    highlights: dict[str, None] = {}
    for group in groups:
        for term in group:
            highlights.setdefault(term.text.strip(), None)
    positive = _distinct([term for group in groups for term in group])
    return ParsedQuery(query, tuple(highlights), len(seen), tuple(positive))


def quote_query(text: str) -> str:
    """A valid FTS5 query for what a person typed, or ``""`` when there is nothing to find.

    See :func:`parse_query` (which also says what to highlight); raises :class:`QueryError`
    for a query beyond the limits.
    """
    return parse_query(text).fts


__all__ = [
    "MAX_PHRASE_WORDS",
    "MAX_TERMS",
    "PRIVATE_USE",
    "SEPARATOR",
    "TOKEN",
    "WORD_CHARACTER",
    "ParsedQuery",
    "QueryError",
    "SearchError",
    "Term",
    "parse_query",
    "quote_query",
    "terms",
]
