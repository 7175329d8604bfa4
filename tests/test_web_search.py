"""/search and /api/search on a real server: one result shape, hits that land on an element of
their session page, clear refusals, and a search that stops when its client goes away."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlsplit

import httpx
import pytest

from cclens.index import MAX_TERMS, Budget, Index, SearchFilters
from cclens.render.parts import element_ids
from cclens.web import RunningServer

from .search_corpus import EVERY_WORD, common_words_corpus
from .test_index_layout import make_claude_dir
from .test_web import client, running, server

__all__ = ["client", "server"]  # fixtures shared with test_web: the corpus, served

_ID = re.compile(r'\sid="([^"]*)"')


def _index(server: RunningServer) -> Index:
    index = server.app.state.cclens.index
    assert isinstance(index, Index)
    return index


def page_ids(client: httpx.Client, key: str) -> set[str]:
    """The element ids of a session page as served: drawn, or in a folded part its map knows
    (which the page draws when a link asks for it)."""
    response = client.get(f"/sessions/{quote(key, safe='')}")
    assert response.status_code == 200, key
    return element_ids(response.text)


@pytest.mark.slow
def test_every_hit_target_is_an_element_of_its_session_page(
    server: RunningServer, client: httpx.Client
) -> None:
    with _index(server).connection() as connection:
        rows = connection.execute(
            "SELECT DISTINCT s.key, d.target FROM documents d JOIN sessions s ON s.id = d.session"
        ).fetchall()
    targets: dict[str, set[str]] = {}
    for key, target in rows:
        targets.setdefault(key, set()).add(target)
    assert len(targets) > 50 and sum(map(len, targets.values())) > 1500
    missing: dict[str, list[str]] = {}
    for key, wanted in targets.items():
        absent = wanted - page_ids(client, key)
        if absent:
            missing[key] = sorted(absent)[:3]
    assert missing == {}


def test_the_api_answers_the_result_every_surface_draws(
    server: RunningServer, client: httpx.Client
) -> None:
    found = client.get("/api/search", params={"q": "worktree", "kind": "tool_output"}).json()
    expected = (
        _index(server).search_results("worktree", SearchFilters(kinds=("tool_output",))).as_json()
    )
    found.pop("seconds")
    expected.pop("seconds")
    assert found == expected and found["total"]["hits"] > 0
    hit = found["groups"][0]["shown"][0]
    url = urlsplit(hit["url"])
    assert parse_qsl(url.query) == [("hl", "worktree"), ("part", "tool_output")]
    assert url.fragment == hit["target"] and hit["target"].startswith("tool-")
    assert client.get("/api/search", params={"q": ""}).json()["total"] == {
        "hits": 0,
        "sessions": 0,
    }


def test_the_page_shows_the_total_sessions_and_facets(client: httpx.Client) -> None:
    response = client.get("/search", params={"q": "test"})
    assert response.status_code == 200
    text = response.text
    total = re.search(r'data-hits="(\d+)" data-sessions="(\d+)"', text)
    assert total and int(total.group(1)) > int(total.group(2)) > 10
    assert text.count('class="group"') == 10 and 'class="facets"' in text
    counts = [int(n) for n in re.findall(r'class="group-count" data-count="(\d+)"', text)]
    assert len(counts) == 10 and sum(counts) <= int(total.group(1))
    assert 'class="snippet code"' in text  # tool output in a fixed-width font
    for title in ("Project", "Kind of text", "Tool", "Month"):
        assert f"<h2>{title}</h2>" in text
    assert "More sessions" in text


def test_a_facet_narrows_to_its_count(client: httpx.Client) -> None:
    text = client.get("/search", params={"q": "test"}).text
    link = re.search(
        r'<a href="([^"]*kind=tool_input[^"]*)"><span class="facet-label">tool input</span> '
        r'<span class="facet-count">([\d,]+)</span>',
        text,
    )
    assert link
    narrowed = client.get(html.unescape(link.group(1))).text
    hits = re.search(r'data-hits="(\d+)"', narrowed)
    assert hits and int(hits.group(1)) == int(link.group(2).replace(",", ""))
    assert 'class="active"' in narrowed and 'data-kind="tool_output"' not in narrowed


def test_all_hits_of_one_session(client: httpx.Client) -> None:
    found = client.get("/api/search", params={"q": "test"}).json()
    group = found["groups"][0]
    alone = client.get("/api/search", params={"q": "test", "session": group["session"]}).json()
    assert alone["total"] == {"hits": group["hits"], "sessions": 1}
    assert len(alone["groups"][0]["shown"]) == group["hits"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"q": "x", "since": "notadate"}, "since: 'notadate' is not a date"),
        ({"q": "x", "until": "2025-13-40"}, "until: '2025-13-40' is not a date"),
        ({"q": "x", "kind": "pictures"}, "kind: 'pictures' is not one of"),
        ({"q": "x", "origin": "elsewhere"}, "origin: 'elsewhere' is not one of"),
        ({"q": "x", "limit": "ten"}, "limit: 'ten' is not a number"),
        (
            {"q": " OR ".join(f"w{n}" for n in range(400))},
            f"at most {MAX_TERMS} different terms",
        ),
    ],
)
def test_what_cannot_be_searched_is_400_naming_why(
    client: httpx.Client, params: dict[str, str], message: str
) -> None:
    began = time.perf_counter()
    api = client.get("/api/search", params=params)
    assert api.status_code == 400 and message in api.json()["error"]
    page = client.get("/search", params=params)
    assert page.status_code == 400 and message in html.unescape(page.text)
    assert time.perf_counter() - began < 2


def test_dates_at_the_edges_are_searched(client: httpx.Client) -> None:
    for params in ({"since": "0001-01-01"}, {"until": "9999-12-31"}):
        assert client.get("/api/search", params={"q": "test", **params}).status_code == 200
        assert client.get("/search", params={"q": "test", **params}).status_code == 200


def test_a_500_term_query_of_one_word_answers_at_once(client: httpx.Client) -> None:
    began = time.perf_counter()
    found = client.get("/api/search", params={"q": " OR ".join(["test"] * 500)})
    assert found.status_code == 200 and found.json()["terms"] == ["test"]
    assert time.perf_counter() - began < 1


@pytest.mark.slow
def test_a_query_past_the_budget_is_422(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    with (
        running([root], tmp_path / "index.db", watch=False, search_seconds=1e-6) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        api = client.get("/api/search", params={"q": "test OR error OR file"})
        assert api.status_code == 422
        assert api.json()["error"].startswith("query too broad: ")
        page = client.get("/search", params={"q": "test OR error OR file"})
        assert page.status_code == 422 and "query too broad" in page.text


SLOW = {"q": EVERY_WORD, "per_session": "30"}


@pytest.mark.slow
def test_a_search_stops_when_its_client_goes_away(tmp_path: Path) -> None:
    root = common_words_corpus(tmp_path, sessions=40, prompts=100, words=1400)
    with running([root], tmp_path / "index.db", watch=False, search_seconds=600) as started:
        index = started.app.state.cclens.index
        began = time.perf_counter()
        whole = index.search_results(SLOW["q"], per_session=30, budget=Budget(600))
        alone = time.perf_counter() - began
        assert whole.total_hits == 4000 and len(whole.hits) == 300
        with httpx.Client(base_url=started.url) as client:
            with pytest.raises(httpx.ReadTimeout):
                client.get("/api/search", params=SLOW, timeout=alone / 5)
            gone = time.perf_counter()
            while client.get("/api/status").json()["searches"]:
                assert time.perf_counter() - gone < alone, "the search went on without its client"
                time.sleep(0.01)
            stopped = time.perf_counter() - gone
            status = client.get("/api/status").json()
        assert status["searches_cancelled"] == 1
        assert stopped < max(alone / 2, 0.3), (stopped, alone)
