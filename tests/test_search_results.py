"""Search results over the corpus: every match counted, grouped and faceted exactly; long texts
cut into overlapping pieces so phrases are found wherever they fall; the work bounded."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.index import (
    DOCUMENT_KINDS,
    MAX_PHRASE_WORDS,
    Budget,
    Index,
    QueryTooBroad,
    SearchCancelled,
    SearchFilters,
    parse_query,
)
from cclens.index.extract import (
    MAX_OVERLAP,
    OVERLAP_WORDS,
    PIECE,
    SPLIT_ABOVE,
    piece_spans,
    text_pieces,
)
from cclens.index.read.query import TOKEN
from cclens.index.read.search import MatchCache, _Matches, search_results
from cclens.index.read.search_facts import Gathered

from .search_corpus import COMMON_WORDS, EVERY_WORD, common_words_corpus

QUERIES = ["test", "error", "sidechain", '"command not found"', "side*", "file OR directory"]


@pytest.fixture(scope="module")
def index(corpus_index: Index) -> Index:
    return corpus_index


def rows(index: Index, statement: str, *parameters: object) -> list[tuple[Any, ...]]:
    """The rows of ``statement`` on a connection of ``index``."""
    with index.connection() as connection:
        return list(connection.execute(statement, parameters).fetchall())


def _brute_force(index: Index, text: str, filters: str = "1") -> list[tuple[Any, ...]]:
    """Every matching text, found without the search module: one row per piece, through SQL."""
    return rows(
        index,
        "SELECT d.part, d.session, p.slug, d.kind, d.tool, d.error, d.subagent, "
        "strftime('%Y-%m', d.time, 'unixepoch') FROM documents_text t "
        "JOIN documents d ON d.id = t.rowid JOIN projects p ON p.id = d.project "
        f"WHERE documents_text MATCH ? AND {filters}",
        parse_query(text).fts,
    )


@pytest.mark.parametrize("text", QUERIES)
def test_totals_and_facets_equal_a_brute_force_count(index: Index, text: str) -> None:
    result = index.search_results(text, limit=1000, per_session=1)
    assert result.total_sessions <= 1000
    rows = {row[0]: row for row in _brute_force(index, text)}  # one per text
    assert result.total_hits == len(rows) > 0
    assert result.total_sessions == len({row[1] for row in rows.values()})
    assert sum(group.count for group in result.groups) == result.total_hits
    per_session = Counter(row[1] for row in rows.values())
    assert sorted(g.count for g in result.groups) == sorted(per_session.values())
    facets = {name: {v.value: v.hits for v in values} for name, values in result.facets.items()}
    expected_projects = Counter(str(row[2]) for row in rows.values())
    for slug, hits in facets["project"].items():
        assert expected_projects[slug] == hits
    assert (
        sorted(facets["project"].values(), reverse=True)
        == sorted(expected_projects.values(), reverse=True)[: len(facets["project"])]
    )
    assert facets["kind"] == dict(Counter(str(row[3]) for row in rows.values()))
    tools = Counter(str(row[4]) for row in rows.values() if row[4] is not None)
    assert facets["tool"] == dict(tools.most_common(len(facets["tool"])))
    errors = sum(1 for row in rows.values() if row[5])
    assert facets["error"] == ({"1": errors} if errors else {})
    subagents = sum(1 for row in rows.values() if row[6])
    origins = {"main": len(rows) - subagents, "subagent": subagents}
    assert facets["origin"] == {k: v for k, v in origins.items() if v}
    months = Counter(str(row[7]) for row in rows.values() if row[7] is not None)
    assert facets["month"] == dict(sorted(months.items(), reverse=True)[:20])


def test_sessions_come_best_hit_first_and_hits_best_first(index: Index) -> None:
    result = index.search_results("test", limit=10, per_session=5)
    ranks = [group.rank for group in result.groups]
    assert ranks == sorted(ranks) and len(ranks) == 10 and result.total_sessions > 20
    for group in result.groups:
        shown = [hit.rank for hit in group.shown]
        assert shown == sorted(shown) and shown[0] == group.rank
        assert len(group.shown) == min(5, group.count)
        assert all(hit.session_key == group.session_key for hit in group.shown)
    following = index.search_results("test", offset=10, limit=10, per_session=1)
    assert following.groups[0].rank >= ranks[-1]
    keys = {g.session_key for g in result.groups}
    assert not keys & {g.session_key for g in following.groups}


def test_filters_agree_with_a_brute_force_count(index: Index) -> None:
    checks = [
        (SearchFilters(kinds=("tool_output",)), "d.kind = 'tool_output'"),
        (SearchFilters(tool="bash"), "d.tool = 'Bash'"),
        (SearchFilters(errors_only=True), "d.error = 1"),
        (SearchFilters(origin="subagent"), "d.subagent = 1"),
        (SearchFilters(origin="main"), "d.subagent = 0"),
    ]
    for filters, condition in checks:
        result = index.search_results("test", filters)
        rows = {row[0] for row in _brute_force(index, "test", condition)}
        assert result.total_hits == len(rows) > 0, condition


def test_one_session_filter(index: Index) -> None:
    everything = index.search_results("test", limit=1)
    (group,) = everything.groups
    alone = index.search_results(
        "test", SearchFilters(session=group.session_key), limit=1, per_session=1000
    )
    assert alone.total_sessions == 1 and alone.total_hits == group.count
    assert len(alone.groups[0].shown) == group.count
    assert index.search_results("test", SearchFilters(session="no such session")).total_hits == 0


def test_hits_name_the_finest_element_and_the_terms(index: Index) -> None:
    result = index.search_results('"command not found" OR sidechain*', limit=20, per_session=50)
    kinds = set()
    for hit in result.hits:
        kinds.add(hit.kind)
        if hit.kind in ("tool_input", "tool_output"):
            assert hit.target.startswith("tool-") and hit.tool
        else:
            assert hit.target == hit.anchor
        assert f"#{hit.target}" in hit.url and f"part={hit.kind}" in hit.url
        assert "hl=command+not+found" in hit.url and "hl=sidechain&" in hit.url
    assert {"tool_output", "assistant"} <= kinds


def test_the_json_form_is_one_shape(index: Index) -> None:
    found = index.search_results("sidechain", limit=2, per_session=2).as_json()
    assert set(found) == {
        "query", "terms", "total", "offset", "limit", "per_session", "groups", "facets", "seconds",
        "mode",
    }  # fmt: skip
    assert found["terms"] == ["sidechain"] and found["total"]["hits"] > 0
    group = found["groups"][0]
    assert set(group) == {
        "session", "agent", "title", "project", "project_id", "archived", "hits", "rank", "url",
        "shown",
    }  # fmt: skip
    hit = group["shown"][0]
    assert hit["project"] == group["project"] and hit["project_id"] == group["project_id"]
    assert set(found["facets"]) == {"project", "agent", "kind", "tool", "error", "origin", "month"}
    json.dumps(found)


def test_projects_are_shown_as_their_path(index: Index) -> None:
    cwd = dict(rows(index, "SELECT slug, cwd FROM projects"))
    result = index.search_results("test", limit=20)
    for group in result.groups:
        assert group.project_path == (cwd[group.project] or group.project)
    for value in result.facets["project"]:
        assert value.label == (cwd[value.value] or value.value)


# Long texts are cut into overlapping pieces.


def _words(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=600))
    separators = draw(st.lists(st.sampled_from([" ", " ", "\n", ", ", "  ", "::"]), min_size=1))
    return "".join(
        token + separators[number % len(separators)] for number, token in enumerate(tokens)
    )


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.composite(_words)())
def test_every_short_phrase_lies_whole_in_one_piece(text: str) -> None:
    spans = list(piece_spans(text))
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(end - start <= PIECE for start, end in spans)
    assert all(b[0] <= a[1] for a, b in pairwise(spans))  # no gap
    words = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    for first in range(len(words) - MAX_PHRASE_WORDS + 1):
        begin, end = words[first][0], words[first + MAX_PHRASE_WORDS - 1][1]
        if end - begin > MAX_OVERLAP:
            continue
        assert any(start <= begin and end <= stop for start, stop in spans), (begin, end)


def _reference_spans(text: str) -> list[tuple[int, int]]:
    """Where pieces are cut, found a word at a time (what piece_spans does with regexes)."""
    spans = []
    start = 0
    while len(text) - start > PIECE:
        limit = start + PIECE
        end = text.rfind("\n", start + PIECE * 3 // 4, limit)
        if end >= 0:
            end += 1
        else:
            end = limit
            for word in TOKEN.finditer(text, max(start + 1, limit - 200), limit + 1):
                if word.start() < limit < word.end():
                    end = word.start()
                    break
        spans.append((start, end))
        low = max(start + 1, end - MAX_OVERLAP)
        words = [word.start() for word in TOKEN.finditer(text, low, end)]
        if words and words[0] == low and TOKEN.match(text, low - 1):
            words.pop(0)
        start = (
            (words[-OVERLAP_WORDS] if len(words) >= OVERLAP_WORDS else words[0]) if words else end
        )
    spans.append((start, len(text)))
    return spans


_ALPHABET = st.sampled_from(
    [*"abcxyz019", *"éßΣжあ", "\ue0a0", "_", " ", " ", "\n", ".", "→", "\u0301", "\t"]
)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(_ALPHABET, min_size=1, max_size=30), min_size=300, max_size=900))
def test_pieces_are_cut_where_a_word_at_a_time_reading_cuts_them(chunks: list[str]) -> None:
    text = "".join(chunks)
    if len(text) > SPLIT_ABOVE:
        assert list(piece_spans(text)) == _reference_spans(text)


def test_a_short_text_stays_whole_and_pieces_cut_between_words() -> None:
    assert list(text_pieces("word " * (SPLIT_ABOVE // 5))) == ["word " * (SPLIT_ABOVE // 5)]
    text = "".join(f"w{number:05d}" for number in range(2000))  # no separator before 200 chars
    assert "".join(text[s:e] for s, e in piece_spans(text)).startswith(text[:PIECE])
    spaced = " ".join(f"word{number}" for number in range(3000))
    for start, end in piece_spans(spaced):
        assert start == 0 or spaced[start - 1] == " "
        assert end == len(spaced) or spaced[end] == " " or spaced[end - 1] == " "


def _tool_output_session(folder: Path, output: str) -> None:
    session = "5e55e55e-0000-4000-8000-000000000001"
    lines = [
        {
            "type": "user",
            "uuid": "00000000-0000-4000-8000-000000000001",
            "parentUuid": None,
            "sessionId": session,
            "timestamp": "2025-06-01T10:00:00Z",
            "cwd": "/work/phrase",
            "message": {"role": "user", "content": "read the log"},
        },
        {
            "type": "assistant",
            "uuid": "00000000-0000-4000-8000-000000000002",
            "parentUuid": "00000000-0000-4000-8000-000000000001",
            "sessionId": session,
            "timestamp": "2025-06-01T10:00:01Z",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_phrase",
                        "name": "Bash",
                        "input": {"command": "cat log"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "uuid": "00000000-0000-4000-8000-000000000003",
            "parentUuid": "00000000-0000-4000-8000-000000000002",
            "sessionId": session,
            "timestamp": "2025-06-01T10:00:02Z",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_phrase", "content": output}
                ],
            },
        },
    ]  # fmt: skip
    folder.mkdir(parents=True)
    (folder / f"{session}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_phrase_across_a_cut_is_found(tmp_path: Path) -> None:
    phrase = "zebra quokka narwhal"
    filler = " ".join(f"filler{number}" for number in range(700))  # one line, no line end
    # "quokka" spans character 4,000, where the first piece is cut (before "quokka").
    head = filler[: PIECE - 10].rsplit(" ", 1)[0]
    head += " " + "x" * (PIECE - 11 - len(head))
    output = head + " " + phrase + " " + filler + "\n" + filler
    first_end = next(iter(piece_spans(output)))[1]
    at = output.index(phrase)
    assert at < first_end < at + len(phrase)  # the first cut falls inside the phrase
    _tool_output_session(tmp_path / "claude" / "projects" / "-work-phrase", output)
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / "claude"])
        pieces = rows(index, "SELECT count(*) FROM documents")[0][0]
        assert pieces > 3  # the prompt, the input, and the output in pieces
        result = index.search_results(f'"{phrase}"')
        assert result.total_hits == 1
        (hit,) = result.hits
        assert hit.target == "tool-toolu_phrase" and hit.kind == "tool_output"
        assert phrase in hit.snippet
        # Words of the overlap are in two pieces, and count once.
        assert index.search_results("filler699").total_hits == 1
        assert index.search_results("filler0 filler699").total_hits == 1


# Bounded work.


@pytest.fixture(scope="module")
def broad(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """An index of many texts full of short common words, where broad queries are slow."""
    folder = tmp_path_factory.mktemp("broad")
    root = common_words_corpus(folder, sessions=1, prompts=6000, words=60)
    with Index(folder / "index.db", pool_size=1) as opened:
        opened.update([root])
        yield opened


HEAVY = EVERY_WORD


def test_a_query_past_its_budget_is_refused_quickly(broad: Index) -> None:
    began = time.perf_counter()
    with pytest.raises(QueryTooBroad, match=r"query too broad: .* 0.01 s"):
        broad.search_results(HEAVY, budget=Budget(0.01))
    assert time.perf_counter() - began < 0.5
    assert broad.search_results(HEAVY, budget=Budget(60)).total_hits == 6000


def test_a_cancelled_search_stops(broad: Index) -> None:
    cancelled = threading.Event()
    cancelled.set()
    with pytest.raises(SearchCancelled):
        broad.search_results(HEAVY, budget=Budget(60, cancelled))
    # The connection is left as it was: no progress handler, no open transaction (the index
    # has a pool of one connection).
    with broad.connection() as connection:
        assert not connection.in_transaction
    assert broad.search_results("a", budget=Budget(60)).total_hits == 6000


@pytest.mark.slow
def test_the_progress_handler_does_not_stay_on_the_connection(broad: Index) -> None:
    broad.search_results("and")
    slow = rows(
        broad,
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000) "
        "SELECT count(*) FROM n",
    )
    assert slow[0][0] == 2000000  # not interrupted once the search is over


def test_kinds_are_the_documented_ones(index: Index) -> None:
    kinds = {row[0] for row in rows(index, "SELECT DISTINCT kind FROM documents")}
    assert kinds == set(DOCUMENT_KINDS)


def test_search_results_work_without_an_index_object(index: Index) -> None:
    connection = sqlite3.connect(index.path)
    try:
        found = search_results(connection, "sidechain")
        assert found.total_hits == index.search_results("sidechain").total_hits
    finally:
        connection.close()


# Snippets.


def _marked(text: str, query: str) -> str:
    from cclens.index.extract import MATCH_END, MATCH_START
    from cclens.index.read.snippet import Matcher, snippet

    cut = snippet(text, [Matcher.of(term) for term in parse_query(query).positive])
    return cut.replace(MATCH_START, "[").replace(MATCH_END, "]")


def test_a_snippet_keeps_whitespace_and_marks_every_kind_of_term() -> None:
    text = "def main():\n    print('Exit code 1')\n\treturn café_au_lait\n"
    assert _marked(text, '"exit code" prin* cafe') == (
        "def main():\n    [print]('[Exit code] 1')\n\treturn [café]_au_lait\n"
    )
    assert _marked("Error\ncalling tool", "error") == "[Error]\ncalling tool"


def test_a_snippet_is_the_densest_window_and_says_where_it_was_cut() -> None:
    words = [f"w{number}" for number in range(400)]
    words[200] = "needle"
    words[203] = "thread"
    text = " ".join(words)
    cut = _marked(text, "needle thread")
    assert cut.startswith("…w196 ") and cut.endswith("…")
    assert "[needle] w201 w202 [thread]" in cut
    assert len(cut.split()) == 32
    whole = _marked("just a needle here", "needle")
    assert whole == "just a [needle] here"
    long_words = " ".join("x" * 150 + str(n) for n in range(40)) + " needle"
    cut = _marked(long_words, "needle")
    assert len(cut) <= 600 + 3 and cut.endswith("[needle]")  # 600, "…" and the marks


def test_a_snippet_of_a_text_that_matches_everywhere_is_cheap() -> None:
    from cclens.index.read.snippet import Matcher, snippet

    words = COMMON_WORDS
    text = " ".join(words[n % len(words)] for n in range(1900))  # 6,000 characters
    matchers = [Matcher.of(term) for term in parse_query(" OR ".join(words)).positive]
    began = time.perf_counter()
    for _ in range(10):
        snippet(text, matchers)
    assert (time.perf_counter() - began) / 10 < 0.05  # FTS5's snippet(): seconds


def test_facts_learnt_at_once_are_those_a_search_learns(index: Index) -> None:
    import numpy as np

    from cclens.index.read.search_facts import DocumentFacts

    ids = np.array([row[0] for row in rows(index, "SELECT id FROM documents")])
    at_once = DocumentFacts()
    by_search = DocumentFacts()
    with index.connection() as connection:
        at_once.learn_all(connection, batch=997)
        first, second = at_once.gather(connection, ids), by_search.gather(connection, ids[::-1])
    assert at_once.known == len(ids)
    for name in ("part", "session", "project", "kind", "error", "subagent", "month"):
        assert np.array_equal(getattr(first, name), getattr(second, name)[::-1]), name
    assert [at_once.tools[code] for code in first.tool] == [
        by_search.tools[code] for code in second.tool[::-1]
    ]


_SNIPPET_WORDS = ["test", "Testing", "error", "the", "a", "file", "exit", "code", "café", "x_y"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(_SNIPPET_WORDS), max_size=150),
    st.sampled_from(["test", "test*", '"exit code"', "error OR cafe", 'te* "code the"']),
)
def test_a_snippet_marks_only_matches(words: list[str], query: str) -> None:
    from cclens.index.extract import MATCH_END, MATCH_START
    from cclens.index.read.snippet import WORDS, Matcher, fold, snippet

    text = " ".join(words)
    terms = parse_query(query).positive
    cut = snippet(text, [Matcher.of(term) for term in terms])
    marked = [part.split(MATCH_END)[0] for part in cut.split(MATCH_START)[1:]]

    def is_match(found: str) -> bool:
        folded = [fold(word) for word in TOKEN.findall(found)]
        for term in terms:
            wanted = [fold(word) for word in TOKEN.findall(term.text)]
            if folded == wanted:
                return True
            if term.prefix and len(folded) == 1 and folded[0].startswith(wanted[0]):
                return True
        return False

    assert all(is_match(found) for found in marked), marked
    tokens = TOKEN.findall(text)
    every = [
        " ".join(tokens[start : start + size]) for size in (1, 2) for start in range(len(tokens))
    ]
    if any(is_match(candidate) for candidate in every):
        assert marked  # a text with a match gets a snippet showing one
    if len(tokens) <= WORDS:
        assert cut.replace(MATCH_START, "").replace(MATCH_END, "") == text


def test_ranked_matches_are_reused_until_the_index_changes(tmp_path: Path) -> None:
    claude = common_words_corpus(tmp_path / "first", sessions=3, prompts=2, words=20)
    with Index(tmp_path / "index.db") as index:
        index.update([claude])
        first = index.search_results("quokka OR and", limit=1)
        assert first.total_sessions == 3
        cache = index._search_cache
        assert len(cache._entries) == 1
        # The next page and the same search again rank nothing: the kept matches are used.
        (kept,) = cache._entries.values()
        again = index.search_results("quokka OR and", limit=1, offset=1)
        assert again.total_hits == first.total_hits and len(cache._entries) == 1
        assert next(iter(cache._entries.values())) is kept
        # Another process (here another Index on the same file) adds a session that matches.
        _tool_output_session(tmp_path / "second" / "projects" / "-work-phrase", "a quokka")
        with Index(tmp_path / "index.db") as other:
            other.update([tmp_path / "second"])
        changed = index.search_results("quokka OR and", limit=1)
        assert changed.total_sessions == 4
        assert index.search_results("quokka").total_hits == 1
        assert next(iter(cache._entries.values())) is not kept


def test_the_match_cache_is_bounded_by_matches_kept() -> None:
    def matches(count: int) -> _Matches:
        zeros = np.zeros(count, dtype=np.int64)
        flags = zeros.astype(np.bool_)
        small = zeros.astype(np.int32)
        kinds = zeros.astype(np.int8)
        facts = Gathered(zeros, zeros, zeros, kinds, small, flags, flags, small, kinds)
        return _Matches(np.arange(count), np.zeros(count), facts)

    cache = MatchCache(lambda: 7, rows=10)
    key = {name: (name, SearchFilters()) for name in "abcd"}
    cache.put(key["a"], 7, matches(6))
    cache.put(key["b"], 7, matches(4))
    assert cache.get(key["a"], 7) is not None
    cache.put(key["c"], 7, matches(3))  # over 10 in all: the least recently used (b) goes
    assert cache.get(key["b"], 7) is None
    assert cache.get(key["a"], 7) is not None
    assert cache.get(key["a"], 8) is None  # the index changed since
    cache.put(key["d"], 7, matches(11))  # more than the bound alone: not kept
    assert cache.get(key["d"], 7) is None
