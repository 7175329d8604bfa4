"""The text index a session page searches when finding within it (issue 19): every part of
the page, folded ones and subagents included, in page order, each text naming the element
that shows it."""

from __future__ import annotations

import json
from pathlib import Path

from cclens.readers.claude import load_session
from cclens.render import RenderOptions, SessionRenderer, render_session_page
from cclens.render.find_index import FIND_KINDS, find_entries
from cclens.render.parts import decompress_json, expand_page, page_data, unpack_parts

from .conftest import corpus_files

WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"


def _path(name: str) -> Path:
    return next(p for p in corpus_files() if p.stem == name)


def test_every_text_of_the_page_is_in_page_order_with_its_element() -> None:
    session = load_session(_path(WITH_SUBAGENTS))
    entries = find_entries(session)
    assert entries
    assert {kind for _, kind, _ in entries} <= set(FIND_KINDS)
    html = expand_page(render_session_page(session, RenderOptions()))
    # Every element an entry names is on the page once every part is open, and the entries
    # come in the order their elements do.
    positions = []
    for target, _, _ in entries:
        at = html.find(f'id="{target}"')
        assert at >= 0, target
        positions.append(at)
    first_seen: dict[str, int] = {}
    for target, at in zip([t for t, _, _ in entries], positions, strict=True):
        first_seen.setdefault(target, at)
    order = list(first_seen.values())
    assert order == sorted(order)
    # Subagents' texts are there, after the call that spawned them.
    agents = [call for call in session.tool_calls.values() if call.subagents]
    assert agents
    inner = {item.anchor for agent in agents[0].subagents for item in agent.items}
    targets = [t for t, _, _ in entries]
    assert inner & set(targets)
    spawn = targets.index(f"tool-{agents[0].id}")
    assert min(targets.index(anchor) for anchor in inner & set(targets)) > spawn


def test_tool_inputs_outputs_and_thinking_are_found() -> None:
    session = load_session(_path(WITH_SUBAGENTS))
    entries = find_entries(session)
    kinds = {kind for _, kind, _ in entries}
    assert {"prompt", "assistant", "tool_input", "tool_output"} <= kinds
    call = next(c for c in session.tool_calls.values() if c.name == "Bash")
    texts = {kind: text for target, kind, text in entries if target == f"tool-{call.id}"}
    assert call.block.input["command"] in texts["tool_input"]
    assert texts["tool_output"] == call.result_text


def test_an_exported_page_carries_the_index_and_the_web_app_asks_for_it() -> None:
    session = load_session(_path(WITH_SUBAGENTS))
    html = render_session_page(session, RenderOptions())
    data = page_data(html)
    assert "text" in data
    carried = decompress_json(data["text"])
    entries = find_entries(session)
    # The calls' texts are read from their bodies' parts, which the page carries; the rest is
    # carried as it is, in the same order.
    parts = unpack_parts(html)
    assert [e[:3] for e in carried if e[3] is None] == [
        list(e) for e in entries if not e[0].startswith("tool-")
    ]
    calls = [e for e in carried if e[3] is not None]
    assert calls and all(e[1] == "tool" and e[3] in parts for e in calls)
    bash = next(c for c in session.tool_calls.values() if c.name == "Bash")
    row = next(e for e in calls if e[0] == f"tool-{bash.id}")
    assert bash.block.input["description"] in row[2]  # the row's text: it is on the row only
    assert [e[0] for e in calls] == list(
        dict.fromkeys(e[0] for e in entries if e[0].startswith("tool-"))
    )
    renderer = SessionRenderer(RenderOptions(standalone=False))
    renderer.body(session)
    linked = json.loads(renderer.data(session, parts=False, source="/p/", texts="/t"))
    assert linked["texts"] == "/t" and "text" not in linked
