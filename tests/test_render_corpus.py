"""Every session of the shared corpus exports to HTML, Markdown and JSON, completely and safely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cclens.export import export_json, export_markdown
from cclens.model.session import Session
from cclens.readers.claude import load_session
from cclens.render import SessionRenderer
from cclens.render.assets import page_js, theme_js
from cclens.render.parts import expand_page

from .conftest import CORPUS, corpus_files
from .test_render_hostile import audit

pytestmark = pytest.mark.slow
FILES = corpus_files()


def drawn_calls(session: Session) -> int:
    """Tool calls a page draws: those of the main line and branches, in every nested session."""
    count = 0
    for each in session.all_sessions():
        count += sum(
            1 for call in each.tool_calls.values() if call.item.main or call.item.branch is not None
        )
    return count


def test_the_corpus_is_there() -> None:
    assert len(FILES) > 100


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_session_exports(path: Path) -> None:
    session = load_session(path)
    renderer = SessionRenderer()
    html = renderer.page(session)
    assert renderer.view_failures == []
    page = audit(html)
    assert page.problems == []
    assert page.scripts == [theme_js(), page_js()]
    opened = expand_page(html)
    assert audit(opened).problems == []
    assert opened.count('<section class="tool ') == drawn_calls(session)
    assert opened.count("data-tool=") == opened.count("data-view=")

    markdown = export_markdown(session)
    assert markdown.startswith("# ")

    document = json.loads(export_json(session))
    assert document["format"] == "cclens.session"
    assert len(document["items"]) == len(session.items)
    assert [c["id"] for c in document["tool_calls"]] == list(session.tool_calls)
