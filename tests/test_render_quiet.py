"""Repeated events are one line with a count (issue 19): renames, queued prompts and hook lines
that repeat are folded into the first, which counts them; errors never are."""

from __future__ import annotations

from itertools import pairwise

import pytest

from cclens.readers.claude import load_session
from cclens.render import RenderOptions, render_session_page
from cclens.render.context import ItemView, page_context
from cclens.render.parts import expand_page

from .conftest import corpus_files


def _views() -> list[tuple[str, list[ItemView]]]:
    found = []
    for path in corpus_files():
        try:
            session = load_session(path)
        except Exception:  # files the corpus keeps to test failures
            continue
        found.append((path.stem, page_context(session).items))
    return found


@pytest.mark.slow
def test_repeats_point_at_a_first_that_counts_them() -> None:
    folded = 0
    for name, views in _views():
        heads = {view.anchor: view for view in views if view.repeats}
        for view in views:
            if view.repeat_of:
                folded += 1
                head = heads[view.repeat_of]
                assert view.noisy and view.event is not None and head.event is not None, name
                assert view.event.kind == head.event.kind, name
                assert view.event.level != "error", name
        for anchor, head in heads.items():
            members = [v for v in views if v.repeat_of == anchor]
            assert head.repeats == len(members) + 1, name
            assert not head.noisy, name
    assert folded > 0  # the corpus has repeated events (permission modes, hooks)


@pytest.mark.slow
def test_an_identical_event_far_apart_is_folded_but_a_message_ends_a_run() -> None:
    for _, views in _views():
        shown = [v for v in views if not v.noisy]
        for before, after in pairwise(shown):
            # Two events of one kind, one after the other with nothing shown between: never
            # both shown.
            if (
                before.event is not None
                and after.event is not None
                and before.template == after.template == "items/event.html"
                and before.event.level != "error"
                and after.event.level != "error"
            ):
                assert before.event.kind != after.event.kind


def test_the_page_draws_the_count_and_folds_the_others() -> None:
    path = next(p for p in corpus_files() if p.stem == "ef958aa1-0e93-49f0-bb71-150f63befcd1")
    session = load_session(path)
    html = expand_page(render_session_page(session, RenderOptions()))
    head = next(view for view in page_context(session).items if view.repeats)
    assert f'data-repeats="{head.anchor}"' in html
    assert f">×{head.repeats}</button>" in html
    assert html.count(f'data-repeat-of="{head.anchor}"') == head.repeats - 1
