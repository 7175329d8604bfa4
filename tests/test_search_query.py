"""Reading what a person types: quoting keeps the meaning, limits are named, terms are kept once.

The property tests build a query from a structure (groups of alternatives, exclusions; words,
phrases and prefixes), write it as a person would type it, and check that FTS5 run with
:func:`parse_query`'s expression finds exactly the documents the structure describes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.index import (
    MAX_PHRASE_WORDS,
    MAX_TERMS,
    FilterTooLong,
    QueryError,
    parse_query,
    quote_query,
)
from cclens.index.read.query import TOKEN

VOCABULARY = ["alpha", "alpine", "beta", "gamma", "delta", "deltoid", "omega", "zeta", "x1"]
SEPARATORS = [" ", "  ", "\n", ", ", ".", "-", "_", "/", "(", "): "]


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]
    prefix: bool = False

    def typed(self, upper: bool) -> str:
        text = " ".join(word.upper() if upper else word for word in self.words)
        if len(self.words) > 1:
            return f'"{text}"'
        return text + ("*" if self.prefix else "")

    def found_in(self, tokens: list[str]) -> bool:
        if self.prefix:
            return any(token.startswith(self.words[0]) for token in tokens)
        size = len(self.words)
        return any(tuple(tokens[i : i + size]) == self.words for i in range(len(tokens) - size + 1))


@dataclass(frozen=True)
class Query:
    groups: tuple[tuple[Term, ...], ...]
    excluded: tuple[Term, ...]
    upper: bool

    def typed(self) -> str:
        parts = [" OR ".join(term.typed(self.upper) for term in group) for group in self.groups]
        parts += ["-" + term.typed(self.upper) for term in self.excluded]
        return "  ".join(parts)

    def finds(self, text: str) -> bool:
        tokens = TOKEN.findall(text.casefold())
        wanted = all(any(term.found_in(tokens) for term in group) for group in self.groups)
        return wanted and not any(term.found_in(tokens) for term in self.excluded)


words = st.sampled_from(VOCABULARY)
terms = st.one_of(
    st.builds(lambda w: Term((w,)), words),
    st.builds(lambda w: Term((w[:3],), prefix=True), words),
    st.builds(lambda ws: Term(tuple(ws)), st.lists(words, min_size=2, max_size=3)),
)
queries = st.builds(
    Query,
    st.lists(st.lists(terms, min_size=1, max_size=3).map(tuple), min_size=1, max_size=3).map(tuple),
    st.lists(terms, max_size=2).map(tuple),
    st.booleans(),
)


def _documents() -> list[str]:
    import random

    chosen = random.Random(7)
    documents = []
    for _ in range(400):
        length = chosen.randint(1, 12)
        tokens = [chosen.choice(VOCABULARY) for _ in range(length)]
        text = "".join(token + chosen.choice(SEPARATORS) for token in tokens)
        documents.append(text.upper() if chosen.random() < 0.2 else text)
    return documents


DOCUMENTS = _documents()


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:")
    connection.execute(
        "CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')"
    )
    connection.executemany(
        "INSERT INTO t(rowid, text) VALUES (?, ?)", list(enumerate(DOCUMENTS, start=1))
    )
    yield connection
    connection.close()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(queries)
def test_fts_finds_what_the_typed_query_means(fts: sqlite3.Connection, query: Query) -> None:
    parsed = parse_query(query.typed())
    assert parsed.fts
    found = {row[0] for row in fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (parsed.fts,))}
    expected = {number for number, text in enumerate(DOCUMENTS, start=1) if query.finds(text)}
    assert found == expected, (query.typed(), parsed.fts)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(queries)
def test_highlights_are_the_positive_terms_as_typed(query: Query) -> None:
    parsed = parse_query(query.typed())
    typed = {term.typed(query.upper).strip('"').rstrip("*") for g in query.groups for term in g}
    assert set(parsed.highlights) == typed
    assert len(parsed.highlights) == len(set(parsed.highlights))
    assert all("*" not in term and '"' not in term for term in parsed.highlights)


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_any_text_is_a_valid_query_or_a_named_limit(fts: sqlite3.Connection, text: str) -> None:
    try:
        parsed = parse_query(text)
    except QueryError as error:
        assert str(MAX_TERMS) in str(error) or str(MAX_PHRASE_WORDS) in str(error)
        return
    assert parsed.count <= MAX_TERMS
    if parsed.fts:
        fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (parsed.fts,)).fetchone()


def test_a_repeated_term_counts_once() -> None:
    text = " OR ".join(["a"] * 800)  # within MAX_FILTER_LENGTH
    parsed = parse_query(text)
    assert parsed.fts == '"a"' and parsed.count == 1 and parsed.highlights == ("a",)
    assert quote_query("fox fox FOX") == '"fox"'
    assert quote_query("fox OR dog fox") == '("fox" OR "dog") AND "fox"'
    assert quote_query("fox -dog -dog") == '("fox") NOT "dog"'


def test_the_limits_are_named() -> None:
    many = " OR ".join(f"w{number}" for number in range(MAX_TERMS + 1))
    with pytest.raises(QueryError, match=f"at most {MAX_TERMS} different terms"):
        parse_query(many)
    parse_query(" OR ".join(f"w{number}" for number in range(MAX_TERMS)))
    with pytest.raises(QueryError, match=f"at most {MAX_TERMS} different terms"):
        parse_query(" OR ".join(f"w{number}" for number in range(500)))
    with pytest.raises(FilterTooLong, match="too long"):
        parse_query(" OR ".join(f"w{number}" for number in range(2000)))
    long_phrase = '"' + " ".join(f"w{n}" for n in range(MAX_PHRASE_WORDS + 1)) + '"'
    with pytest.raises(QueryError, match=f"at most {MAX_PHRASE_WORDS} words"):
        parse_query(long_phrase)
    parse_query('"' + " ".join(f"w{n}" for n in range(MAX_PHRASE_WORDS)) + '"')


def test_highlights_leave_out_exclusions_and_keep_phrases() -> None:
    parsed = parse_query('"exit code" pyt* -flaky NOT skip')
    assert parsed.highlights == ("exit code", "pyt")
