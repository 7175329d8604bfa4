"""The helpers every view draws untrusted content with, the view registry and the frame."""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cclens.formats import clock, compact, duration, plural, size, usd, utc_time
from cclens.model.session import ToolCall
from cclens.render import RenderOptions, SessionRenderer, ToolView, ViewHelpers, view_for
from cclens.render.context import BLOCK_TEMPLATES
from cclens.render.environment import template_environment
from cclens.render.generic import generic_view
from cclens.render.highlight import MAX_HIGHLIGHT_LINES
from cclens.render.images import image_uri
from cclens.render.markdown import is_safe_url
from cclens.render.page_map import agent_part
from cclens.render.prepared import PreparedView

from .test_render_hostile import audit
from .test_render_records import Transcript


@pytest.fixture
def h() -> ViewHelpers:
    return ViewHelpers(template_environment())


def test_markdown_keeps_only_safe_links(h: ViewHelpers) -> None:
    html = str(
        h.markdown(
            "[a](https://example.com) [b](javascript:alert(1)) [c](JAVASCRIPT:x) "
            "[d](data:text/html,x) [e](mailto:a@b.c) [f](#top) [g](vbscript:x) <b>bold</b>"
        )
    )
    assert 'href="https://example.com" rel="noopener noreferrer" target="_blank"' in html
    assert 'href="mailto:a@b.c"' in html and 'href="#top"' in html
    assert "javascript" not in html.split("[b](")[0]
    assert html.count("<a ") == 3
    assert "&lt;b&gt;bold&lt;/b&gt;" in html


def test_markdown_images_become_links(h: ViewHelpers) -> None:
    html = str(h.markdown("![a cat](https://example.com/cat.png) ![x](javascript:alert(1))"))
    assert "<img" not in html
    assert '<a class="md-image" href="https://example.com/cat.png"' in html
    assert "image: a cat" in html


def test_markdown_tables_align_with_classes(h: ViewHelpers) -> None:
    html = str(h.markdown("| a | b |\n|:-:|--:|\n| 1 | 2 |"))
    assert "style=" not in html
    assert 'class="align-center"' in html and 'class="align-right"' in html


def test_markdown_fences_are_highlighted_and_breaks_kept(h: ViewHelpers) -> None:
    html = str(h.markdown("```python\nx = 1\n```"))
    assert 'data-lang="Python"' in html and '<span class="n">x</span>' in html
    assert "<br" in str(h.markdown("one\ntwo", breaks=True))
    assert "<br" not in str(h.markdown("one\ntwo"))


@given(st.text())
def test_is_safe_url_never_accepts_script_schemes(text: str) -> None:
    for scheme in ("javascript:", "JavaScript:", " javascript:", "java\tscript:", "data:"):
        assert not is_safe_url(scheme + text)


def test_highlight_numbers_from_the_start_line(h: ViewHelpers) -> None:
    html = str(h.highlight("\n\nfirst = 1\nsecond = 2\n", filename="a.py", start_line=40))
    assert [f'data-n="{n}"' in html for n in (40, 41, 42, 43)] == [True] * 4
    assert 'data-n="44"' not in html
    assert '<span class="n">first</span>' in html


def test_highlight_skips_very_large_text(h: ViewHelpers) -> None:
    # The size policy: the first MAX_HIGHLIGHT_LINES lines are highlighted, the rest is plain.
    code = "x = 1\n" * (MAX_HIGHLIGHT_LINES + 1)
    html = str(h.highlight(code, language="python"))
    assert html.count('<span class="n">') == MAX_HIGHLIGHT_LINES
    assert f"too long to highlight past line {MAX_HIGHLIGHT_LINES}" in html
    assert html.count('class="line"') == MAX_HIGHLIGHT_LINES + 1


def test_highlight_escapes(h: ViewHelpers) -> None:
    html = str(h.highlight("<script>alert(1)</script>", filename="x.txt"))
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_diff_from_structured_patch(h: ViewHelpers) -> None:
    patch = [
        {"oldStart": 10, "oldLines": 2, "newStart": 10, "newLines": 2, "lines": [" a", "-b", "+B"]}
    ]
    html = str(h.diff(patch, filename="f.py"))
    assert 'class="dl dl-del"><td class="ln" data-n="11">' in html
    assert 'class="dl dl-add"><td class="ln" data-n=""></td><td class="ln" data-n="11">' in html
    assert "+1" in html and "-1" in html and "computed" not in html


def test_diff_computed_when_the_patch_is_missing(h: ViewHelpers) -> None:
    html = str(h.diff(None, old="a\nb\nc\n", new="a\nB\nc\n"))
    assert "computed from the old and new text" in html
    assert '<td class="dt">B</td>' in html
    assert "No changes" in str(h.diff(None, old="same", new="same"))


def test_images_only_for_allowed_types(h: ViewHelpers) -> None:
    assert image_uri("AAAA", "image/png") == "data:image/png;base64,AAAA"
    assert image_uri("AAAA", "IMAGE/JPG") == "data:image/jpeg;base64,AAAA"
    assert image_uri("AAAA", "image/svg+xml") is None
    assert image_uri("AAAA", "text/html") is None
    assert image_uri('AA"><script>', "image/png") is None
    assert "<img" not in str(h.image("PHN2Zz4=", "image/svg+xml"))
    assert '<img src="data:image/gif;base64,R0lG"' in str(h.image("R0lG", "image/gif"))


@pytest.mark.slow
def test_json_tree(h: ViewHelpers) -> None:
    html = str(h.json({"<k>": ["x\ny", None, True, 1.5], "empty": {}}))
    assert '<span class="jk">&lt;k&gt;</span>' in html
    assert "j-multi" in html and "j-null" in html and "j-bool" in html and "1.5" in html
    assert '<span class="jk">empty</span>: <span class="jt">{}</span>' in html
    big = str(h.json(list(range(5000))))
    assert "more" in big


def test_truncate(h: ViewHelpers) -> None:
    assert h.truncate("short", 10) == ("short", False)
    text, cut = h.truncate("line\n" * 100, 52)
    assert cut and text.endswith("line") and len(text) <= 52


def test_formatting() -> None:
    spans = (0.35, 4.21, 4.0, 42, 65, 3725, 3 * 86400 + 4 * 3600 + 59)
    assert [duration(s) for s in spans] == [
        "350ms",
        "4.2s",
        "4s",
        "42s",
        "1m 05s",
        "1h 02m",
        "3d 4h",
    ]
    assert duration(timedelta(minutes=2)) == "2m 00s" and duration(-1) == duration(None) == ""
    counts = (950, 12_345, 4_100_000, 2_500_000_000)
    assert [compact(n) for n in counts] == ["950", "12.3k", "4.1M", "2.5B"]
    assert [size(n) for n in (512, 3_400, 1_200_000, 2_000_000_000)] == [
        "512 B",
        "3.4 kB",
        "1.2 MB",
        "2.0 GB",
    ]
    assert (
        plural(1, "session") == "1 session" and plural(1204, "entry", "entries") == "1,204 entries"
    )
    assert usd(None) == "—" and usd(0.0042) == "$0.0042" and usd(1234.5) == "$1,234.50"
    moment = datetime(2025, 6, 1, 14, 3, 5, tzinfo=UTC)
    assert utc_time(moment) == "2025-06-01 14:03 UTC"
    assert utc_time(moment, seconds=True, zone=False) == "2025-06-01 14:03:05"
    assert clock(moment) == "14:03:05 UTC" and clock(moment.replace(tzinfo=None)) == "14:03:05"


def test_every_surface_writes_figures_through_one_module() -> None:
    # A figure's form is decided in cclens.formats: no other module defines its own.
    source = Path(__file__).resolve().parents[1] / "src" / "cclens"
    own = re.compile(r"^def _?(?:human|format)_(?:count|bytes|tokens|duration|time|size)\b", re.M)
    found = [
        str(path.relative_to(source))
        for path in source.rglob("*.py")
        if own.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def calls_of(tmp_path: Path, *tools: tuple[str, Any]) -> list[ToolCall]:
    transcript = Transcript()
    for name, tool_input in tools:
        transcript.tool(name, tool_input, "ok")
    session = transcript.load(tmp_path)
    return list(session.tool_calls.values())


def test_view_for_falls_back_to_generic(tmp_path: Path) -> None:
    unknown, untyped, mcp = calls_of(
        tmp_path, ("NoSuchTool", {"a": 1}), ("Read", "not an object"), ("mcp__srv__do", {"x": 1})
    )
    assert view_for(unknown) is generic_view
    assert view_for(untyped) is generic_view
    assert view_for(mcp).name != ""  # the MCP view when tool views are installed, else generic


def test_a_failing_view_is_drawn_generically(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.tool("Bash", {"command": "ls"}, "a.txt")
    session = transcript.load(tmp_path)

    def broken(call: ToolCall, helpers: ViewHelpers) -> PreparedView:
        raise ValueError("boom")

    def broken_view(call: ToolCall) -> ToolView:
        return ToolView("broken", "tools/generic.html", broken)

    renderer = SessionRenderer(RenderOptions(lazy=False), views=broken_view)
    html = str(renderer.body(session))
    assert 'data-view="generic"' in html and "a.txt" in html
    assert renderer.view_failures and "ValueError: boom" in renderer.view_failures[0]
    # Folded (the default), the header names the view; opening the call shows the failure.
    lazy = SessionRenderer(views=broken_view)
    folded = str(lazy.body(session))
    assert 'data-view="broken"' in folded and "a.txt" not in folded
    (call_id,) = session.tool_calls
    opened = lazy.draw_part(f"t.{call_id}")
    assert "a.txt" in opened and "ValueError: boom" in opened
    assert lazy.view_failures and "ValueError: boom" in lazy.view_failures[0]


def test_session_items_is_recursion_safe(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.user("hi")
    session = transcript.load(tmp_path)
    renderer = SessionRenderer(RenderOptions(lazy=False))
    first = str(renderer.helpers.session_items(session))
    assert "hi" in first and renderer.helpers.was_drawn(session)
    renderer._scope = (agent_part(session),)  # drawing it again from inside itself
    again = str(renderer.helpers.session_items(session))
    assert "already shown above" in again
    lazy = SessionRenderer()
    folded = str(lazy.helpers.session_items(session))
    assert 'class="md' not in folded and f'data-lazy="{agent_part(session)}"' in folded
    assert "<p>hi</p>" in lazy.draw_part(agent_part(session))


def test_static_page_links_assets(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.user("hi")
    session = transcript.load(tmp_path)
    options = RenderOptions(standalone=False, static_url="/assets", theme="dark")
    html = SessionRenderer(options).page(session)
    assert '<link rel="stylesheet" href="/assets/cclens.css">' in html
    assert '<script src="/assets/cclens.js" defer></script>' in html
    assert 'id="cclens-data"' in html and '"parts"' not in html  # parts come from a server
    assert 'data-theme="dark"' in html
    assert audit(html).problems == ["<link> element", "external script"]  # linked, not inline
    with pytest.raises(ValueError):
        RenderOptions(theme="neon")


@pytest.mark.parametrize("module", ["cclens.render", "cclens.export"])
def test_public_names_are_exported(module: str) -> None:
    imported = importlib.import_module(module)
    names = imported.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), n))
    assert all(hasattr(imported, name) for name in names)


def test_every_registered_template_exists() -> None:
    environment = template_environment()
    templates = set(BLOCK_TEMPLATES.values()) | {"items/event.html", "tools/_frame.html"}
    for name in templates:
        environment.get_template(name)


def test_unshown_lines_are_the_lines_a_view_leaves_out() -> None:
    from cclens.render.unshown import unshown_lines

    code = (
        '<pre><span class="line" data-n="1"><span class="p">&lt;</span><span>html</span>'
        ' lang=&#39;en&#39;&gt;</span>\n<span class="line" data-n="2">  body</span></pre>'
    )
    read = "     1\u2192<html lang='en'>\n     2\u2192  body\n\n<system-reminder>\nBe careful.\n"
    assert unshown_lines([read + "</system-reminder>"], code) == (
        "<system-reminder>\nBe careful.\n</system-reminder>"
    )
    old_style = "     1\t<html lang='en'>\n     2\t  body\n"  # numbered as Claude Code 1.x did
    assert unshown_lines([old_style], code) == ""
    todo = '<ul><li class="todo">Fix the bug</li></ul>'
    said = "Todos have been modified successfully."
    assert unshown_lines([said], todo) == said
    assert unshown_lines(["Fix the bug", "", "  "], todo) == ""  # shown, or blank
    assert unshown_lines([], todo) == ""
