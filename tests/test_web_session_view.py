"""The session view pieces of the web app: the plain fallback view, page state, changed items."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest

from cclens.readers.claude import AssistantItem, Session, discover, load
from cclens.render import RenderOptions
from cclens.render.page_map import page_map
from cclens.web.session_view import (
    PageRenderer,
    PlainRenderer,
    changed_items,
    page_state,
    parse_state,
    top_level,
)
from cclens.web.templating import environment

WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.extend(value for name, value in attrs if name == "id" and value)
        self.scripts += tag == "script"


def ids_in(html: str) -> _Ids:
    parser = _Ids()
    parser.feed(html)
    return parser


@pytest.fixture(scope="module")
def session(corpus: Path) -> Session:
    found = next(s for s in discover(corpus).sessions if s.session_id == WITH_SUBAGENTS)
    return load(found)


def test_the_page_renderer_gives_every_message_its_anchor(session: Session) -> None:
    # Drawn with the page, or in a folded part that the page's map points to.
    html = PageRenderer().body(session)
    mapped = page_map(session, RenderOptions(standalone=False)).ids
    shown = [i.anchor for i in top_level(session) if getattr(i, "kind", "") != "tool_results"]
    assert shown and set(shown) <= set(ids_in(html).ids) | set(mapped)
    assert set(shown) & set(ids_in(html).ids)


def test_the_plain_fallback_view_gives_every_message_its_anchor(session: Session) -> None:
    html = PlainRenderer(environment()).body(session)
    found = ids_in(html)
    shown = [i.anchor for i in top_level(session) if getattr(i, "kind", "") != "tool_results"]
    assert set(shown) <= set(found.ids)
    assert found.scripts == 0
    nested = {item.anchor for agent in session.subagents for item in agent.items}
    assert nested & set(found.ids)  # subagent conversations are drawn under their call


def test_the_plain_fallback_view_escapes_transcript_text(corpus: Path) -> None:
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    found = next(s for s in discover(corpus).sessions if s.session_id == WITH_SUBAGENTS)
    session = load(found)  # a copy of its own: it is changed below
    first = next(i for i in session.items if isinstance(i, AssistantItem) and i.tool_calls)
    call = first.tool_calls[0]
    block = msgspec.structs.replace(call.block, input={"command": hostile})
    first.tool_calls[0] = msgspec.structs.replace(call, block=block)
    html = PlainRenderer(environment()).fragment(session, [first])
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in html


def test_page_state_round_trips_and_bad_state_means_nothing_shown(session: Session) -> None:
    state = page_state(session)
    assert state[str(session.path)] == max(e.line for e in session.entries)
    assert all(str(agent.path) in state for agent in session.subagents)
    assert parse_state(msgspec.json.encode(state).decode()) == state
    for bad in ("", "[1]", "{", '{"a": "x", "b": true}'):
        assert parse_state(bad) == {}


def test_changed_items_are_the_new_ones_and_those_whose_calls_moved(session: Session) -> None:
    state = page_state(session)
    assert changed_items(session, state) == []
    main = str(session.path)
    last = max(e.line for e in session.entries)
    earlier = dict(state, **{main: last - 3})
    changed = changed_items(session, earlier)
    assert changed and all(
        any(e.line > last - 3 for e in item.entries)
        or (
            isinstance(item, AssistantItem)
            and any(c.result_entry and c.result_entry.line > last - 3 for c in item.tool_calls)
        )
        for item in changed
    )
    agent = session.subagents[0]
    grown = dict(state, **{str(agent.path): 1})
    (spawner,) = changed_items(session, grown)
    assert isinstance(spawner, AssistantItem)
    assert any(agent in call.subagents for call in spawner.tool_calls)
