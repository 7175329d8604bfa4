"""Search in scripts written without spaces: any substring of Chinese, Japanese or Korean text is
found, one character up, alone, as a phrase or beside words of other scripts; snippets mark
exactly the characters matched; the library, the CLI, the JSON API and MCP answer the same.

The property tests index text through the real migrations and :func:`index_text` into FTS5
and ask it with :func:`parse_query`'s expression; the rest run :class:`Index` over transcripts:
the shared corpus (a real Japanese session) and sessions written here in Chinese, Japanese and
Korean.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cclens.index import MATCH_END, MATCH_START, Index, parse_query
from cclens.index.read.snippet import Matcher, snippet
from cclens.index.storage.schema import migrate
from cclens.index.words import TOKEN_BREAK, has_unspaced, index_text, shown_text
from cclens.scripts import BASES

from .test_mcp import _call, _run, _search_json
from .test_usage import assistant, prompt, usage, write
from .test_web import running

#: The real Japanese session of the shared corpus.
JAPANESE = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
HAN = "推广产品生命周期组件的一是了我不在人有这中大为上个国用户增长方案"
KANA = "アップデートをしてくださいの状態がか"
HANGUL = "데이터베이스를한국어백업"
UNSPACED = HAN + KANA + HANGUL
SEPARATORS = "，。、 \n（）"


def session_id(number: int) -> str:
    return f"c0000000-0000-4000-8000-{number:012d}"


#: ``(prompt, answer, thinking)`` of each session written here.
SESSIONS = {
    session_id(1): (
        "帮我写一个推广产品的方案，重点是用户增长和API接入。",
        "好的，我先整理一下推广产品的渠道：社交媒体、搜索引擎和合作伙伴。",
        "用户想要一个推广产品的方案。" * 10,
    ),
    session_id(2): (
        "解释一下React组件的生命周期，特别是useEffect的清理函数。",
        "组件的生命周期分为挂载、更新和卸载三个阶段。",
        "",
    ),
    session_id(3): ("このファイルを最新の状態にアップデートしてください。", "更新しました。", ""),
    session_id(4): ("데이터베이스를 백업하는 스크립트를 작성해 주세요.", "네, 작성했습니다.", ""),
    session_id(5): ("deploy the product to production", "Deployed the product.", ""),
}


def _records(key: str, texts: tuple[str, str, str]) -> list[dict[str, object]]:
    asked, answer, thinking = texts
    content: list[dict[str, object]] = [{"type": "text", "text": answer}]
    if thinking:
        content.insert(0, {"type": "thinking", "thinking": thinking, "signature": "s"})
    return [
        prompt(f"{key[:8]}-u", asked, session=key, time="2025-06-01T09:00:00Z"),
        assistant(
            f"{key[:8]}-a",
            f"msg_{key[-4:]}",
            usage(input=10, output=20),
            parent=f"{key[:8]}-u",
            session=key,
            time="2025-06-01T09:00:05Z",
            content=content,
        ),
    ]


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("claude")
    for key, texts in SESSIONS.items():
        write(root / "projects" / "-home-me-app" / f"{key}.jsonl", _records(key, texts))
    return root


@pytest.fixture(scope="module")
def index(claude: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    with Index(tmp_path_factory.mktemp("db") / "index.db") as opened:
        opened.update([claude])
        yield opened


def found(index: Index, query: str) -> set[str]:
    """The sessions a search finds."""
    result = index.search_results(query, limit=100, per_session=1)
    return {group.session_key for group in result.groups}


@pytest.mark.parametrize(
    ("query", "sessions"),
    [
        ("推广产品", {1}),  # inside a longer run: the first word
        ("生命周期", {2}),
        ("组件", {2}),
        ("推", {1}),  # one character
        ("期", {2}),
        ("品的", {1}),
        ("状態", {3}),
        ("アップデート", {3}),
        ("데이터베이스", {4}),  # a Korean word without its particle
        ("推广 API", {1}),  # both scripts, apart
        ("API接入", {1}),  # both scripts, in one word
        ("React组件", {2}),
        ('"推广产品的方案"', {1}),
        ("推广*", {1}),
        ("推广产品 OR 生命周期", {1, 2}),
        ("清理 -useEffect", set()),  # exclusions are of the text that matches
        ("生命周期 -useEffect", {2}),  # (the answer, without it)
        ("生命周期 -推广", {2}),
        ("product -推广", {5}),
        ("产品 product", set()),
        ("が", set()),  # kana are not folded: が is not か
    ],
)
def test_words_of_unspaced_scripts_are_found_anywhere(
    index: Index, query: str, sessions: set[int]
) -> None:
    assert found(index, query) == {session_id(number) for number in sessions}


def test_snippets_mark_exactly_the_characters_matched(index: Index) -> None:
    result = index.search_results("推广产品 API", limit=10, per_session=5)
    (group,) = result.groups
    marked = {
        piece[1]
        for hit in group.shown
        for piece in re.findall(f"({MATCH_START}([^{MATCH_END}]*){MATCH_END})", hit.marked_snippet)
    }
    assert marked == {"推广产品", "API"}
    hit = next(hit for hit in group.shown if hit.kind == "prompt")
    assert hit.snippet == SESSIONS[session_id(1)][0]  # the text as written, no break left in it
    assert TOKEN_BREAK not in hit.marked_snippet


# --- Properties, on FTS5 itself ----------------------------------------------------------


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    migrate(connection)
    yield connection
    connection.close()


def _matches(fts: sqlite3.Connection, text: str, query: str) -> bool:
    fts.execute("DELETE FROM documents_text")
    fts.execute("INSERT INTO documents_text(rowid, text) VALUES (1, ?)", (index_text(text),))
    expression = parse_query(query).fts
    assert expression, query
    statement = "SELECT 1 FROM documents_text WHERE documents_text MATCH ?"
    return bool(fts.execute(statement, (expression,)).fetchall())


UNSPACED_TEXT = st.text(alphabet=UNSPACED + SEPARATORS, min_size=1, max_size=80)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=UNSPACED_TEXT, data=st.data())
def test_any_substring_of_unspaced_text_is_found(
    fts: sqlite3.Connection, text: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, min(len(text), start + 32)))
    word = text[start:end]
    assume(has_unspaced(word))
    assert _matches(fts, text, word)


TOKENS = st.one_of(
    st.sampled_from(list(UNSPACED)), st.sampled_from(["api", "deploy", "x1", "日本", "über"])
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    tokens=st.lists(TOKENS, min_size=1, max_size=30),
    glue=st.lists(st.sampled_from(["", " ", "，", "-", "/"]), min_size=30, max_size=30),
    data=st.data(),
)
def test_mixed_scripts_are_found_by_any_run_of_whole_words(
    fts: sqlite3.Connection, tokens: list[str], glue: list[str], data: st.DataObject
) -> None:
    # Latin words touching each other would be one word: keep a space between them.
    pieces = []
    for number, token in enumerate(tokens):
        if number:
            joint = glue[number]
            if not has_unspaced(token) and not has_unspaced(tokens[number - 1]) and not joint:
                joint = " "
            pieces.append(joint)
        pieces.append(token)
    first = data.draw(st.integers(0, len(tokens) - 1))
    last = data.draw(st.integers(first, len(tokens) - 1))
    text = "".join(pieces)
    word = "".join(pieces[2 * first : 2 * last + 1])
    assume(word.strip("-/ ，") == word)
    assert _matches(fts, text, word)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=UNSPACED_TEXT, data=st.data())
def test_a_snippet_marks_each_match_and_nothing_else(text: str, data: st.DataObject) -> None:
    runs = re.findall(f"[{UNSPACED}]+", text)
    assume(runs)
    run = data.draw(st.sampled_from(runs))
    start = data.draw(st.integers(0, len(run) - 1))
    word = run[start : data.draw(st.integers(start + 1, min(len(run), start + 12)))]
    marked = snippet(text, [Matcher.of(term) for term in parse_query(word).positive])
    inside = re.findall(f"{MATCH_START}([^{MATCH_END}]*){MATCH_END}", marked)
    assert inside and set(inside) == {word}
    assert marked.replace(MATCH_START, "").replace(MATCH_END, "").strip("…") in text


@given(st.text())
def test_breaks_are_taken_out_exactly(text: str) -> None:
    text = text.replace(TOKEN_BREAK, "")
    assert shown_text(index_text(text)) == text
    assert index_text("plain ascii") == "plain ascii"
    assert index_text("推广 API") == f"{TOKEN_BREAK}推{TOKEN_BREAK}广{TOKEN_BREAK} API"


# --- The real corpus, and every surface ----------------------------------------------------


@pytest.mark.slow
def test_the_real_corpus_finds_every_session_a_substring_scan_finds(corpus_index: Index) -> None:
    with corpus_index.connection() as connection:
        rows = connection.execute(
            "SELECT s.key, t.text FROM documents_text t JOIN documents d ON d.id = t.rowid "
            "JOIN sessions s ON s.id = d.session"
        ).fetchall()
    texts = [(key, shown_text(text).casefold()) for key, text in rows]
    runs = sorted({run for _, text in texts for run in re.findall(f"[{BASES}]+", text)})
    words = sorted(
        {run[i : i + n] for run in runs for n in range(1, 7) for i in range(len(run) - n + 1)}
    )
    assert len(words) > 300 and "アップデート" in words and "状態" in words
    for word in words[::3]:
        expected = {key for key, text in texts if word in text}
        assert found(corpus_index, word) == expected, word
    assert found(corpus_index, "最新の状態にアップデート") == {JAPANESE}


@pytest.mark.slow
@pytest.mark.parametrize("query", ["推广产品", "アップデート", "生命周期 OR 데이터베이스"])
def test_library_cli_api_and_mcp_answer_the_same(
    index: Index, claude: Path, tmp_path: Path, query: str
) -> None:
    expected = index.search_results(query, limit=10, per_session=3)
    sessions = [group.session_key for group in expected.groups]
    assert sessions
    snippets = [hit.marked_snippet for group in expected.groups for hit in group.shown]
    cli = _search_json(index.path, query)
    assert [group["session"] for group in cli["groups"]] == sessions
    with running([claude], tmp_path / "served.db", watch=False) as server:
        answered = httpx.get(f"{server.url}api/search", params={"q": query}, timeout=30)
        assert answered.status_code == 200, answered.text[-600:]
        api = answered.json()
    assert [group["session"] for group in api["groups"]] == sessions
    assert api["total"] == cli["total"]

    async def body(session: object) -> None:
        answer = await _call(session, "search", query=query)  # type: ignore[arg-type]
        assert [group["session"] for group in answer["groups"]] == sessions
        assert answer["total"] == cli["total"]

    _run(index.path, claude, body)
    assert all(MATCH_START in each for each in snippets)


def test_an_index_written_before_migration_19_finds_words_inside_runs_after_its_update(
    claude: Path, tmp_path: Path
) -> None:
    path = tmp_path / "old.db"
    with Index(path) as opened:
        opened.update([claude])
    # The index as cclens wrote it before: whole runs as tokens, documents of version 5.
    connection = sqlite3.connect(path, isolation_level=None)
    for rowid, text in connection.execute("SELECT rowid, text FROM documents_text").fetchall():
        connection.execute(
            "UPDATE documents_text SET text = ? WHERE rowid = ?", (shown_text(text), rowid)
        )
    connection.execute("DELETE FROM migrations WHERE number = 19")
    connection.execute("UPDATE sessions SET doc_version = 5")
    connection.close()
    with Index(path) as migrated:
        with migrated.connection() as connection:
            numbers = {row[0] for row in connection.execute("SELECT number FROM migrations")}
        assert 19 in numbers
        assert found(migrated, "推广产品") == set()  # not until its documents are made again
        report = migrated.update([claude])
        assert report.bytes_read == 0  # from the stored lines
        assert found(migrated, "推广产品") == {session_id(1)}
        assert found(migrated, "帮我写一个推广产品的方案") == {session_id(1)}
