"""Search: safe query quoting (property-tested), ranking, snippets, filters, anchors."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.index import (
    DOCUMENT_KINDS,
    MATCH_END,
    MATCH_START,
    Index,
    SearchError,
    SearchFilters,
    quote_query,
)
from cclens.readers.claude import discover


@pytest.fixture(scope="module")
def index(corpus_index: Index) -> Index:
    return corpus_index


@pytest.fixture(scope="module")
def fts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    """A real FTS5 table, tokenized like the index's, to run quoted queries against."""
    connection = sqlite3.connect(tmp_path_factory.mktemp("fts") / "fts.db")
    connection.execute(
        "CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')"
    )
    connection.executemany(
        "INSERT INTO t(text) VALUES (?)",
        [("the quick brown fox",), ("NEAR AND OR NOT text:column",), ("exit code 127",)],
    )
    yield connection
    connection.close()


def words(text: str) -> str:
    return " ".join(re.split(r"[\W_]+", text.lower()))


HOSTILE = [
    "",
    '"',
    '""',
    "*",
    "-",
    "--",
    "- -x",
    "OR",
    "AND",
    "NOT",
    "foo OR",
    "OR foo",
    "NEAR(a b)",
    "text:fox",
    "a:b:c",
    "^fox",
    "(fox",
    "fox)",
    '"fox',
    'fox"',
    "f*o*x",
    "***fox",
    "{fox}",
    "'; DROP TABLE t; --",
    "\x00",
    "\ue000fox\ue001",
    "-fox",
    "-fox -dog",
    "NOT fox",
    "\u200b",
    "🦊",
    "ℌ𝔢𝔩𝔩𝔬",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_queries_never_raise(text: str, fts: sqlite3.Connection, index: Index) -> None:
    query = quote_query(text)
    if query:
        fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (query,)).fetchone()
    index.search(text)


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_any_text_becomes_a_valid_query_or_nothing(fts: sqlite3.Connection, text: str) -> None:
    query = quote_query(text)
    assert isinstance(query, str)
    if query:
        fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (query,)).fetchone()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(['"', "-", "*", " ", "OR", "NOT", "AND", "a", "é", "("])))
def test_operator_soup_is_always_valid(fts: sqlite3.Connection, pieces: list[str]) -> None:
    query = quote_query("".join(pieces))
    if query:
        fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (query,)).fetchone()


def test_quoting_reads_words_phrases_prefixes_exclusions_and_or() -> None:
    assert quote_query("quick fox") == '"quick" AND "fox"'
    assert quote_query('"quick brown" fox') == '"quick brown" AND "fox"'
    assert quote_query("qui*") == '"qui"*'
    assert quote_query("fox -dog") == '("fox") NOT "dog"'
    assert quote_query("fox OR dog cat") == '("fox" OR "dog") AND "cat"'
    assert quote_query("NOT dog fox") == '("fox") NOT "dog"'
    assert quote_query('say "hi"') == '"say" AND "hi"'
    assert quote_query('a"b') == '"a" AND "b"'
    assert quote_query("-dog") == ""
    assert quote_query("!!! ???") == ""
    assert quote_query("text:fox") == '"text:fox"'


def test_operators_in_text_are_matched_literally(fts: sqlite3.Connection) -> None:
    count = fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (quote_query("NEAR AND"),))
    assert count.fetchone()[0] == 1


def test_hits_are_ranked_and_point_at_a_message_of_their_session(index: Index) -> None:
    hits = index.search("sidechain", limit=30)
    assert len(hits) == 30
    assert [hit.rank for hit in hits] == sorted(hit.rank for hit in hits)
    for hit in hits[:10]:
        session = index.load(hit.session_key)
        assert session is not None
        anchors = {item.anchor for agent in session.all_sessions() for item in agent.items}
        assert hit.anchor in anchors


def test_snippets_mark_the_match(index: Index) -> None:
    (hit, *_) = index.search("sidechain")
    parts = hit.snippet_parts()
    assert any(is_match and text.lower() == "sidechain" for text, is_match in parts)
    assert "".join(text for text, _ in parts) == hit.snippet
    assert MATCH_START not in hit.snippet and MATCH_END not in hit.snippet


def test_phrase_and_prefix_queries(index: Index) -> None:
    phrase = index.search('"command not found"', limit=100)
    # the tokenizer splits on punctuation, so command_not_found is that phrase too
    assert phrase and all("command not found" in words(h.snippet) for h in phrase)
    loose = index.search("command not found", limit=1000)
    assert len(loose) >= len(phrase)
    exact = index.search("sidechain", limit=1000)
    assert len(index.search("sidech*", limit=1000)) >= len(exact) > 0
    wider = index.search("side*", limit=1000)
    assert len(wider) > len(exact)
    assert any(not words(hit.snippet).count("sidechain") for hit in wider)


def test_filters_narrow_the_results(index: Index) -> None:
    everything = index.search("test", limit=1000)
    kinds = {hit.kind for hit in everything}
    assert kinds <= set(DOCUMENT_KINDS) and len(kinds) >= 4
    for kind in DOCUMENT_KINDS:
        narrowed = index.search("test", SearchFilters(kinds=(kind,)), limit=1000)
        assert all(hit.kind == kind for hit in narrowed)
    bash = index.search("test", SearchFilters(tool="bash"), limit=1000)
    assert bash and all(hit.tool == "Bash" for hit in bash)
    failed = index.search("test", SearchFilters(errors_only=True), limit=1000)
    assert failed and all(hit.error for hit in failed) and len(failed) < len(everything)
    project = everything[0].project
    in_project = index.search("test", SearchFilters(project=project), limit=1000)
    assert in_project and all(hit.project == project for hit in in_project)
    assert not index.search("test", SearchFilters(project="no such project anywhere"))


def test_date_filters_use_each_message_time(index: Index) -> None:
    dated = [hit for hit in index.search("test", limit=1000) if hit.time is not None]
    middle = sorted(hit.time for hit in dated if hit.time)[len(dated) // 2]
    later = index.search("test", SearchFilters(since=middle), limit=1000)
    earlier = index.search("test", SearchFilters(until=middle), limit=1000)
    assert later and all(h.time is not None and h.time >= middle for h in later)
    assert earlier and all(h.time is not None and h.time < middle for h in earlier)
    naive = datetime(2100, 1, 1)
    assert not index.search("test", SearchFilters(since=naive))
    assert index.search("test", SearchFilters(until=datetime(2100, 1, 1, tzinfo=UTC)))


def test_an_unknown_kind_is_a_clear_error(index: Index) -> None:
    with pytest.raises(SearchError, match="unknown kind of content 'images'"):
        index.search("test", SearchFilters(kinds=("images",)))


def test_subagent_text_is_found_in_its_session(index: Index, corpus: Path) -> None:
    with_agents = [s for s in discover(corpus).sessions if s.subagents]
    assert with_agents
    hits = index.search("test", limit=1000)
    assert any(hit.in_subagent for hit in hits)
