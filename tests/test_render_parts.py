"""Folded parts: what a lazily drawn page leaves out is in its parts, the page's map finds every
item and tool call, an exported file carries every part, and the web app draws one on request."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from markupsafe import Markup

from cclens.export import export_html
from cclens.readers.claude import Session, discover, load, load_session
from cclens.render import RenderOptions, SessionRenderer
from cclens.render.parts import (
    PartStore,
    element_ids,
    expand_page,
    pack_parts,
    page_data,
    page_data_json,
    unpack_parts,
)

from .conftest import CORPUS, sampled

#: Sessions with subagents (files and inline sidechains), branches, many items.
PICKED = [
    "iansherr__claude-code-log/test/test_data/real_projects/-experiments-worktrees",
    "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project",
    "iansherr__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-JSSoundRecorder",
    "iansherr__claude-code-log/test/test_data/sidechain.jsonl",
]
_IDS = re.compile(r' id="((?:tool-)?[^"]+)"')


def sessions() -> list[Session]:
    found = []
    for name in PICKED:
        for file in discover(CORPUS / name).sessions:
            found.append(load(file))
    return found


def item_and_call_ids(html: str) -> set[str]:
    """The ids a page promises: items (articles and events) and tool calls."""
    ids = set()
    for match in re.finditer(r'<(article|section|div|details) class="([^"]*)" id="([^"]+)"', html):
        tag, classes, element = match.groups()
        if tag == "section" or "msg" in classes or "event" in classes:
            ids.add(element)
    return ids


@pytest.mark.parametrize("session", sampled(sessions(), quick=2), ids=lambda s: s.session_id[:12])
def test_the_map_finds_every_item_and_call(session: Session) -> None:
    everything = SessionRenderer(RenderOptions(lazy=False)).body(session)
    promised = item_and_call_ids(str(everything))
    assert promised
    renderer = SessionRenderer()
    skeleton = str(renderer.body(session))
    found = renderer.page_map(session)
    drawn = set(_IDS.findall(skeleton))
    parts = renderer.parts.draw_all()
    for element in promised:
        if element in drawn:
            assert element not in found.ids, element
            continue
        chain = found.chain(element)
        assert chain, f"{element} is neither drawn nor mapped"
        # Each part of the chain is drawn inside the one before (or the page), and the last
        # holds the element.
        assert f'data-lazy="{chain[0]}"' in skeleton
        for outer, inner in itertools.pairwise(chain):
            assert f'data-lazy="{inner}"' in parts[outer], (outer, inner)
        assert f'id="{element}"' in parts[chain[-1]], (element, chain)


def test_a_lazy_page_leaves_folded_things_out() -> None:
    session = load_session(
        CORPUS
        / "iansherr__claude-code-log/test/test_data/real_projects/-experiments-worktrees"
        / "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"
    )
    lazy = str(SessionRenderer().body(session))
    eager = str(SessionRenderer(RenderOptions(lazy=False)).body(session))
    assert len(lazy) * 5 < len(eager)
    assert 'class="tool-input"' not in lazy and 'class="tool-input"' in eager
    assert lazy.count('<section class="tool ') < eager.count('<section class="tool ')  # chunks
    # Every tool block carries its tool and view, folded or not.
    for html in (lazy, eager):
        assert html.count("data-tool=") == html.count("data-view=") > 0
    assert '<details class="tool-details" open' not in lazy  # folded by default


def test_an_exported_file_carries_every_part(tmp_path: Path) -> None:
    session = load_session(
        CORPUS
        / "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project"
        / "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
    )
    html = export_html(session)
    data = page_data(html)
    assert set(data) == {"map", "parts", "text"}
    parts = unpack_parts(html)
    assert any(p.startswith("t.") for p in parts) and any(p.startswith("a.") for p in parts)
    opened = expand_page(html)
    assert 'data-lazy="t.' in opened and "data-lazy" in html
    calls = {f"tool-{c.id}" for agent in session.all_sessions() for c in agent.tool_calls.values()}
    assert calls <= element_ids(html)
    assert calls <= set(_IDS.findall(opened))  # every call drawn once every part is open
    # Nothing in the data can end its script element.
    assert "</" not in html.split('id="cclens-data">', 1)[1].split("</script>", 1)[0]


def test_packed_parts_round_trip_and_stay_safe_in_a_script() -> None:
    parts = {f"t.{n}": "<p>" + "x" * 5000 + f"</script>{n}</p>" for n in range(200)}
    packed = pack_parts(parts)
    assert len(packed["blocks"]) > 1  # opening one part inflates one block, not all
    text = page_data_json({"parts": packed, "note": "</script><script>alert(1)</script>"})
    assert "<" not in text
    page = f'<script type="application/json" id="cclens-data">{text}</script>'
    assert unpack_parts(page) == parts


def test_a_part_store_draws_each_part_once_with_its_parent() -> None:
    store = PartStore()
    drawn: list[str] = []

    def outer() -> Markup:
        drawn.append("outer")
        store.add("inner", inner)
        return Markup("outer")

    def inner() -> Markup:
        drawn.append("inner")
        return Markup("inner")

    store.add("outer", outer)
    assert store.draw_all() == {"outer": "outer", "inner": "inner"}
    assert store.parent_of("inner") == "outer" and store.parent_of("outer") is None
    assert store.draw("inner") == "inner" and drawn == ["outer", "inner"]


@pytest.mark.slow
def test_the_web_app_draws_any_part_on_request(tmp_path: Path) -> None:
    import httpx

    from .test_index_layout import make_claude_dir
    from .test_web import running

    root = make_claude_dir(CORPUS, tmp_path / "claude")
    key = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
    session = load(next(f for f in discover(root).sessions if f.session_id == key))
    renderer = SessionRenderer(RenderOptions(standalone=False))
    skeleton = str(renderer.body(session))
    found = renderer.page_map(session)
    late_call = next(c for c in session.tool_calls.values() if f"tool-{c.id}" in found.ids)
    agent = session.subagents[0]
    with running([root], tmp_path / "index.db", watch=False) as server:
        base = server.url.rstrip("/") + f"/sessions/{key}"
        with httpx.Client(timeout=60) as client:
            page = client.get(base).text
            data = page_data(page)
            assert data["source"] == f"/sessions/{key}/parts/" and "parts" not in data
            assert f'id="tool-{late_call.id}"' not in page  # in a chunk not drawn yet
            # Asked for before the chunk holding it: drawn all the same.
            body = client.get(f"{base}/parts/t.{late_call.id}")
            assert body.status_code == 200 and body.headers["content-type"].startswith("text/html")
            assert 'data-part="input"' in body.text or "tool-input" in body.text
            # A subagent's conversation, asked for before its call was opened.
            nested = client.get(f"{base}/parts/a.{agent.agent_id}")
            assert nested.status_code == 200 and "<article" in nested.text
            # A record's JSON inside a later chunk: found through the item's place in the map.
            event = next(
                v.anchor
                for v in renderer.context(session).items
                if v.role == "event" and v.anchor in found.ids
            )
            raw = client.get(f"{base}/parts/r.{event}")
            assert raw.status_code == 200 and 'class="json"' in raw.text
            assert client.get(f"{base}/parts/t.no-such-call").status_code == 404
    assert 'data-lazy="c.1"' in skeleton
