"""Markdown from transcripts, rendered safely.

CommonMark with the GitHub extensions people write in prompts and answers (tables,
strikethrough, task lists, bare links), raw HTML off. Only ``http``, ``https`` and ``mailto``
links (and in-page ``#anchors``) become links; every link opens in a new tab with
``rel="noopener noreferrer"``. Markdown images become links: the page never fetches anything from
the network, and a remote image could track the reader. Fenced code is highlighted through
:func:`cclens.render.highlight.render_code`, so it gets the same line handling as files.

Speed: text with no markdown in it skips the parser (:mod:`cclens.render.plain_text`), rendered
text is memoized per process (:mod:`cclens.render.memo`), and linkify's first check is narrowed
to what can actually become a link with these options (its stock check also matches every
"word.com" and costs about a tenth of all parsing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from linkify_it import LinkifyIt  # type: ignore[import-untyped]
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup, escape
from mdit_py_plugins.tasklists import tasklists_plugin

from .highlight import render_code
from .memo import MarkupMemo
from .plain_text import plain_paragraphs

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["SAFE_SCHEMES", "is_safe_url", "markdown_memo", "render_markdown"]

#: The URL schemes a rendered link may use.
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
#: Markdown longer than this is shown as plain text: parsing it would cost more than it shows.
MAX_MARKDOWN = 500_000

#: Markdown already rendered in this process.
markdown_memo = MarkupMemo()

#: Without fuzzy links, linkify-it links only after a scheme ("http:", "https:", "ftp:",
#: "mailto:", "//": each needs "//" or an "@" to be valid) or a bare e-mail address ("@").
_MAY_LINK = re.compile(r"https?:|ftp:|//|mailto:|@", re.IGNORECASE)


class _Linkify(LinkifyIt):  # type: ignore[misc]
    """linkify-it whose quick pre-check knows that fuzzy links are off."""

    def pretest(self, text: str) -> bool:
        # Called on every paragraph; the stock pattern is a very long regex searched ignoring
        # case. This one is a superset of what test() can accept with fuzzy_link off.
        return _MAY_LINK.search(text) is not None


def is_safe_url(url: str) -> bool:
    """Whether ``url`` may be a link: an ``http``/``https``/``mailto`` URL or a ``#fragment``."""
    url = url.strip()
    if url.startswith("#"):
        return True
    # Browsers ignore tabs and newlines inside a scheme ("java\tscript:"): strip them the same way.
    cleaned = "".join(ch for ch in url if ch not in "\t\r\n")
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return False
    return scheme in SAFE_SCHEMES


def _link_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("rel", "noopener noreferrer")
    if not str(token.attrGet("href") or "").startswith("#"):
        token.attrSet("target", "_blank")
    return renderer.renderToken(tokens, idx, options, env)


def _image(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # Drawn as a link to the image: no request leaves the page, and the reader still sees it.
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = renderer.renderInlineAsText(token.children or [], options, env) or src
    label = escape(f"image: {alt}")
    if not is_safe_url(src):
        return str(label)
    return str(
        Markup(
            '<a class="md-image" href="{}" rel="noopener noreferrer" target="_blank">{}</a>'
        ).format(src, label)
    )


def _fence(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    language = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else None
    return str(render_code(env["jinja"], token.content, language=language, numbers=False))


def _code_block(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return str(render_code(env["jinja"], tokens[idx].content, numbers=False))


def _table_cell(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # markdown-it aligns cells with a style attribute, which the page's CSP forbids: use a class.
    token = tokens[idx]
    style = str(token.attrGet("style") or "")
    if style:
        token.attrs.pop("style", None)
        align = style.removeprefix("text-align:").strip()
        if align in ("left", "center", "right"):
            token.attrSet("class", f"align-{align}")
    return renderer.renderToken(tokens, idx, options, env)


@lru_cache(maxsize=2)
def _parser(breaks: bool = False) -> MarkdownIt:
    md = MarkdownIt(
        "commonmark", {"html": False, "linkify": True, "typographer": False, "breaks": breaks}
    )
    md.enable(["table", "strikethrough", "linkify"])
    # Only links with a scheme or "www.": "README.md" and "CLAUDE.md" are file names, not sites.
    md.linkify = _Linkify()
    md.linkify.set({"fuzzy_link": False})
    md.use(tasklists_plugin)
    md.validateLink = is_safe_url  # type: ignore[method-assign]
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image)
    md.add_render_rule("fence", _fence)
    md.add_render_rule("code_block", _code_block)
    md.add_render_rule("th_open", _table_cell)
    md.add_render_rule("td_open", _table_cell)
    return md


def render_markdown(text: str, environment: Environment, *, breaks: bool = False) -> Markup:
    """``text`` rendered as markdown (see the module docstring for what is allowed).

    ``breaks`` keeps single line breaks, as people mean them in prompts they type.
    """
    if not text.strip():
        return Markup("")
    if len(text) > MAX_MARKDOWN:
        return render_code(environment, text, numbers=False)
    plain = plain_paragraphs(text, breaks=breaks)
    if plain is not None:
        return Markup(plain)
    key = markdown_memo.key(text, breaks, environment)
    found = markdown_memo.get(key)
    if found is None:
        env: dict[str, Any] = {"jinja": environment}
        # markdown-it escapes every text token and, with html off, every tag the text contains.
        found = Markup(_parser(breaks).render(text, env))
        markdown_memo.put(key, found)
    return found
