"""The shortcuts that make pages fast give the same pages: lexer lookup, token formatting, the
markdown fast path and linkify pre-check, the highlighting size policy, memos, template cache."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.tasklists import tasklists_plugin
from pygments import highlight
from pygments.formatters.html import HtmlFormatter
from pygments.lexers import find_lexer_class_for_filename, get_all_lexers, get_lexer_by_name
from pygments.util import ClassNotFound

from cclens.render import ViewHelpers
from cclens.render.environment import template_environment
from cclens.render.highlight import (
    MAX_HIGHLIGHT_CHARS,
    MAX_HIGHLIGHT_LINES,
    code_cache,
    highlighted_count,
)
from cclens.render.lexers import LANGUAGE_ALIASES, lexer_by_filename, lexer_by_name
from cclens.render.markdown import _parser, is_safe_url, markdown_memo, render_markdown
from cclens.render.memo import MarkupMemo
from cclens.render.plain_text import plain_paragraphs
from cclens.render.template_cache import TemplateCache, template_cache
from cclens.render.token_html import html_lines

from .conftest import ROOT

SOURCES = sorted((ROOT / "src" / "cclens").rglob("*.*"))


@pytest.fixture
def h() -> ViewHelpers:
    return ViewHelpers(template_environment())


# Lexer lookup -----------------------------------------------------------------------------------


def _example(pattern: str) -> str:
    # A file name the glob matches: "*" → "x", "?" → "a", "[abc]" → "a".
    name = re.sub(r"\[!?(.)[^\]]*\]", r"\1", pattern)
    return name.replace("*", "x").replace("?", "a")


def _builtin(cls: type | None) -> str | None:
    if cls is None or not cls.__module__.startswith("pygments.lexers"):
        return None
    return str(cls.__name__)


@pytest.mark.slow
def test_lexer_by_filename_chooses_as_pygments_does() -> None:
    names = {_example(p) for _, _, patterns, _ in get_all_lexers(plugins=False) for p in patterns}
    names |= {path.name for path in SOURCES} | {"Makefile", "x.h", "a.pl", "b.m", "README"}
    checked = 0
    for name in sorted(names):
        expected = _builtin(find_lexer_class_for_filename(name))
        found = lexer_by_filename(name)
        assert (type(found).__name__ if found is not None else None) == expected, name
        checked += expected is not None
    assert checked > 500


@pytest.mark.slow
def test_lexer_by_name_matches_pygments_aliases() -> None:
    for _, aliases, _, _ in get_all_lexers(plugins=False):
        for alias in aliases:
            if alias in LANGUAGE_ALIASES:  # ours on purpose ("console" is drawn as bash)
                continue
            assert type(lexer_by_name(alias)) is type(get_lexer_by_name(alias)), alias
    assert type(lexer_by_name("SH")).__name__ == "BashLexer"
    assert lexer_by_name("no-such-language") is None
    with pytest.raises(ClassNotFound):
        get_lexer_by_name("no-such-language")


# Token formatting --------------------------------------------------------------------------------


def _quotes(lines: list[str]) -> list[str]:
    # Pygments 2.21 stopped escaping quotes in text; cclens still does (as 2.20 did), so pages
    # do not change with the installed Pygments. Everything else must be the same.
    return [line.replace("&quot;", '"').replace("&#39;", "'") for line in lines]


def _pygments_lines(code: str, language: str) -> list[str]:
    lexer = lexer_by_name(language)
    assert lexer is not None
    lines = highlight(code, lexer, HtmlFormatter(nowrap=True)).split("\n")
    return _quotes(lines[:-1] if lines and lines[-1] == "" else lines)


@pytest.mark.slow
def test_html_lines_match_pygments_on_real_sources() -> None:
    for path in SOURCES:
        lexer = lexer_by_filename(path.name)
        if lexer is None:
            continue
        code = path.read_text(encoding="utf-8")
        assert _quotes(html_lines(lexer.get_tokens(code))) == _pygments_lines(
            code, lexer.aliases[0]
        )


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab1 \n\t'\"#<>&/*\\()[]{}:=.,-_`$x"), max_size=120),
    st.sampled_from(["python", "bash", "html", "javascript", "markdown", "json"]),
)
def test_html_lines_match_pygments_on_any_text(code: str, language: str) -> None:
    lexer = lexer_by_name(language)
    assert lexer is not None
    assert _quotes(html_lines(lexer.get_tokens(code))) == _pygments_lines(code, language)


# Size policy -----------------------------------------------------------------------------------


def test_size_policy_counts_lines_and_characters() -> None:
    assert highlighted_count(["x"] * 10) == 10
    assert highlighted_count(["x"] * (MAX_HIGHLIGHT_LINES + 5)) == MAX_HIGHLIGHT_LINES
    wide = ["y" * 1999] * 100  # 2,000 characters a line with its newline
    assert highlighted_count(wide) == MAX_HIGHLIGHT_CHARS // 2000
    assert highlighted_count(["z" * (MAX_HIGHLIGHT_CHARS + 1), "a = 1"]) == 0


def test_long_code_is_highlighted_up_to_the_limit_then_plain(h: ViewHelpers) -> None:
    code = "".join(f"value_{n} = {n}\n" for n in range(MAX_HIGHLIGHT_LINES + 20))
    html = str(h.highlight(code, language="python", start_line=100))
    lines = re.findall(r'<span class="line" data-n="(\d+)">(.*?)</span>\n?', html)
    assert [int(n) for n, _ in lines] == list(range(100, 100 + MAX_HIGHLIGHT_LINES + 20))
    last_highlighted = lines[MAX_HIGHLIGHT_LINES - 1][1]
    first_plain = lines[MAX_HIGHLIGHT_LINES][1]
    assert '<span class="n">' in last_highlighted
    assert first_plain == f"value_{MAX_HIGHLIGHT_LINES} = {MAX_HIGHLIGHT_LINES}"
    assert f"too long to highlight past line {100 + MAX_HIGHLIGHT_LINES - 1}" in html


def test_plain_rest_is_escaped(h: ViewHelpers) -> None:
    code = "x = 1\n" * MAX_HIGHLIGHT_LINES + "<script>alert('&')</script>\n"
    html = str(h.highlight(code, language="python"))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#39;&amp;&#39;)&lt;/script&gt;" in html


def test_one_huge_line_is_not_highlighted(h: ViewHelpers) -> None:
    code = "[" + "1, " * (MAX_HIGHLIGHT_CHARS // 3 + 10) + "]\nx = 2\n"
    html = str(h.highlight(code, language="python"))
    assert '<span class="mi">' not in html
    assert "2 lines, too large to highlight" in html


def test_small_code_has_no_note(h: ViewHelpers) -> None:
    html = str(h.highlight("print('hi')\n", language="python"))
    assert "code-note" not in html and '<span class="nb">print</span>' in html


# Memos -----------------------------------------------------------------------------------------


def test_highlight_memo_never_mixes_content_or_options(h: ViewHelpers) -> None:
    code_cache.clear()
    one = str(h.highlight("a = 1\n", language="python"))
    two = str(h.highlight("b = 2\n", language="python"))
    assert "a</span>" in one and "b</span>" in two and one != two
    assert str(h.highlight("a = 1\n", language="python")) == one
    assert code_cache.hits == 1
    moved = str(h.highlight("a = 1\n", language="python", start_line=7))
    assert 'data-n="7"' in moved and 'data-n="1"' not in moved
    as_text = str(h.highlight("a = 1\n", language="text"))
    assert '<span class="n">' not in as_text and 'data-lang="Text only"' in as_text
    same_length = str(h.highlight("a = 3\n", language="python"))
    assert '<span class="mi">3</span>' in same_length


def test_markdown_memo_keeps_breaks_apart() -> None:
    environment = template_environment()
    markdown_memo.clear()
    text = "*one*\ntwo"
    soft = str(render_markdown(text, environment))
    hard = str(render_markdown(text, environment, breaks=True))
    assert "<br />" in hard and "<br />" not in soft
    assert str(render_markdown(text, environment)) == soft
    assert markdown_memo.hits == 1


def test_memo_is_bounded() -> None:
    from markupsafe import Markup

    memo = MarkupMemo(max_entries=2, max_chars=10)
    keys = [memo.key(text) for text in ("a", "b", "c")]
    for key, text in zip(keys, ("1", "2", "3"), strict=True):
        memo.put(key, Markup(text))
    assert len(memo) == 2 and memo.get(keys[0]) is None and memo.get(keys[2]) == "3"
    memo.put(memo.key("big"), Markup("x" * 11))  # larger than the whole memo: not kept
    assert memo.get(memo.key("big")) is None
    memo.put(memo.key("d"), Markup("y" * 10))  # pushes the others out by size
    assert len(memo) == 1
    assert memo.key("same") == memo.key("same") != memo.key("other")


# Markdown fast path and linkify pre-check ------------------------------------------------------


def _markdown_it(text: str, breaks: bool) -> str:
    return str(_parser(breaks).render(text, {"jinja": template_environment()}))


PROSE = st.lists(
    st.lists(
        st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
        | st.sampled_from(["Done", "the tests pass.", "ok,", "2024", "é", "(see", "it)", "a:b"]),
        max_size=8,
    ).map(" ".join),
    max_size=6,
).map("\n".join)
TRICKY = st.text(
    alphabet=st.sampled_from("ab 1.)\n\t\r\x00\xa0\u2028\x1c#>-+*=_`~[]()!<&|@:/\\w\"'"),
    max_size=40,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(PROSE | TRICKY, st.booleans())
def test_plain_text_fast_path_matches_markdown_it(text: str, breaks: bool) -> None:
    fast = plain_paragraphs(text, breaks=breaks)
    if fast is not None:
        assert fast == _markdown_it(text, breaks)


def test_plain_text_fast_path_is_taken_for_prose() -> None:
    text = 'Done: the "tests" pass.\nNext, I will look at 3 files.\n\n\nThanks!'
    fast = plain_paragraphs(text)
    assert fast == _markdown_it(text, False)
    assert fast == (
        "<p>Done: the &quot;tests&quot; pass.\nNext, I will look at 3 files.</p>\n<p>Thanks!</p>\n"
    )
    assert plain_paragraphs(text, breaks=True) == _markdown_it(text, True)
    for markdown in ("**bold**", "# title", "1. item", "a  \nb", " indented", "see https://x.io"):
        assert plain_paragraphs(markdown) is None


def _stock_parser() -> MarkdownIt:
    # The same configuration with linkify-it's own pre-check.
    md = MarkdownIt("commonmark", {"html": False, "linkify": True, "typographer": False})
    md.enable(["table", "strikethrough", "linkify"])
    assert md.linkify is not None
    md.linkify.set({"fuzzy_link": False})
    md.use(tasklists_plugin)
    md.validateLink = is_safe_url  # type: ignore[method-assign]
    return md


LINKISH = st.text(
    alphabet=st.sampled_from("ab.c om:/@ \nhtpsfwmailo_-1x"),
    max_size=40,
) | st.sampled_from(
    [
        "see https://example.com/x and www.example.org",
        "mail me@example.com or mailto:a@b.co",
        "//example.com and ftp://files.example.net",
        "README.md and example.com are not links",
    ]
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(LINKISH)
def test_narrowed_linkify_check_links_the_same(text: str) -> None:
    stock = _stock_parser()
    ours = _parser(False)
    assert ours.linkify is not None and stock.linkify is not None
    if stock.linkify.test(text):
        assert ours.linkify.pretest(text)
    # Only the links differ between the two parsers' options (ours adds rel/target, checks URLs).
    links = re.compile(r'<a href="([^"]*)"')
    env = {"jinja": template_environment()}
    assert links.findall(ours.render(text, env)) == links.findall(stock.render(text))


# Template cache ----------------------------------------------------------------------------------


def test_template_cache_is_used_and_survives_damage(tmp_path: Path) -> None:
    from jinja2 import DictLoader, Environment

    cache = template_cache(tmp_path / "cache")
    assert isinstance(cache, TemplateCache)
    loader = DictLoader({"t.html": "<b>{{ x }}</b>"})
    first = Environment(loader=loader, autoescape=True, bytecode_cache=cache)
    assert first.get_template("t.html").render(x="<i>") == "<b>&lt;i&gt;</b>"
    files = list((tmp_path / "cache").iterdir())
    assert len(files) == 1
    files[0].write_bytes(b"damaged")
    second = Environment(loader=loader, autoescape=True, bytecode_cache=cache)
    assert second.get_template("t.html").render(x="y") == "<b>y</b>"


def test_template_cache_is_skipped_where_it_cannot_live(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert template_cache(blocker / "cache") is None
