"""Views of the web tools: WebFetch and WebSearch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec

from ...formats import duration
from ...model.session import ToolCall
from ...model.tools import web
from ..prepared import Field, Link, PreparedView, TextPart, field_parts, text_part
from ..views import ViewHelpers
from ._common import (
    Fields,
    as_type,
    base,
    link,
    list_of,
    millis,
    number_of,
    size_of,
    text_of,
)

_LINKS_PREFIX = "Links: "


class WebFetchView(PreparedView, frozen=True, kw_only=True):
    """A page fetched (``tools/web_fetch.html``): the ``url`` (``href``: a safe link to it),
    the ``prompt`` asked of it, the HTTP ``status`` and the ``answer`` (markdown)."""

    url: str = ""
    href: Link | None = None
    prompt: str = ""
    offset: Any = None
    status: str = ""
    status_kind: str = "muted"
    got: Sequence[Field] = ()
    answer: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.url, "URL"), *text_part("field", self.status, "Status")]
        parts += text_part("field", self.prompt, "Prompt")
        parts += text_part("field", str(self.offset or ""), "From character")
        if self.answer or self.r is not None:
            parts += field_parts(self.got, result=True)
            parts += text_part("markdown", self.answer, result=True) or [
                TextPart("result", "No answer.", result=True)
            ]
        return parts


def prepare_web_fetch(call: ToolCall, h: ViewHelpers) -> WebFetchView:
    """WebFetch: the URL, the HTTP answer and what the model made of the page, as markdown."""
    v = base(call, web.WebFetchResult)
    request = as_type(call.input, web.WebFetchInput)
    result: web.WebFetchResult | None = v["r"]
    url = (request.url if request else "") or (text_of(result.url) if result else "")
    answer = text_of(result.result) if result else ""
    if result is None and v["error"] is None:
        answer = call.result_text
    status = ""
    status_kind = "muted"
    got = Fields()
    if result is not None:
        code = result.code if isinstance(result.code, int) else None
        status = " ".join(str(part) for part in (code, text_of(result.code_text)) if part)
        status_kind = "ok" if code is not None and 200 <= code < 400 else "error"
        got.add("Size", size_of(result.bytes)).add("Took", millis(result.duration_ms))
        if result.url and result.url != url:
            got.url("Fetched", result.url)
    return WebFetchView(
        **v,
        url=url,
        href=link(url),
        prompt=text_of(request.prompt) if request else "",
        offset=request.offset if request else None,
        status=status,
        status_kind=status_kind,
        got=got.rows,
        answer=answer,
        summary=url,
    )


def _hits_from_text(text: str) -> tuple[list[web.WebSearchHit], list[str]]:
    """The links and prose of a search result as the model saw it.

    That text reads ``Web search results for query: "…"``, then ``Links: [{"title", "url"}…]``
    (JSON), then the model's notes.
    """
    hits: list[web.WebSearchHit] = []
    prose: list[str] = []
    for line in text.split("\n"):
        if line.startswith(_LINKS_PREFIX):
            try:
                found = json.loads(line[len(_LINKS_PREFIX) :])
            except ValueError:
                prose.append(line)
                continue
            for item in list_of(found):
                if isinstance(item, dict):
                    hits.append(
                        web.WebSearchHit(
                            title=text_of(item.get("title")), url=text_of(item.get("url"))
                        )
                    )
        elif not line.startswith("Web search results for query:"):
            prose.append(line)
    return hits, ["\n".join(prose).strip()]


class SearchLink(msgspec.Struct, frozen=True):
    """A page a web search found: ``link`` (``None`` when its URL is not a safe web address),
    its ``title``, ``url``, ``snippet`` and ``age``."""

    link: Link | None
    title: str
    url: str
    snippet: str = ""
    age: str = ""


class WebSearchView(PreparedView, frozen=True, kw_only=True):
    """A web search (``tools/web_search.html``): the ``query``, the pages found (``links``)
    and the ``answers`` written from them (markdown)."""

    query: str = ""
    asked: Sequence[Field] = ()
    got: Sequence[Field] = ()
    links: Sequence[SearchLink] = ()
    answers: Sequence[str] = ()
    answered: bool = False

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.query, "Query"), *field_parts(self.asked)]
        if not self.answered:
            return parts
        parts += field_parts(self.got, result=True)
        found = [
            "\n".join(
                line
                for line in (
                    hit.title,
                    hit.url if hit.url != hit.title else "",
                    hit.snippet,
                    hit.age,
                )
                if line
            )
            for hit in self.links
        ]
        parts += text_part("result", "\n\n".join(found), result=True)
        return parts + [TextPart("markdown", text, "Answer", result=True) for text in self.answers]


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> WebSearchView:
    """WebSearch: the query, the pages found as links, and the model's notes as markdown."""
    v = base(call, web.WebSearchResult)
    request = as_type(call.input, web.WebSearchInput)
    result: web.WebSearchResult | None = v["r"]
    hits: list[web.WebSearchHit] = []
    notes: list[str] = []
    if result is not None:
        hits = result.hits
        notes = [group for group in list_of(result.results) if isinstance(group, str)]
    elif v["error"] is None and call.result_text:
        hits, notes = _hits_from_text(call.result_text)
    links: list[SearchLink] = []
    for hit in hits:
        url = text_of(hit.url)
        title = text_of(hit.title) or url
        links.append(
            SearchLink(link(url, title), title, url, text_of(hit.snippet), text_of(hit.page_age))
        )
    asked = Fields()
    if request is not None:
        asked.add("Only from", list_of(request.allowed_domains))
        asked.add("Never from", list_of(request.blocked_domains))
    got = Fields()
    if result is not None:
        got.add("Took", duration(number_of(result.duration_seconds)))
        got.add("Searches", result.search_count)
    query = request.query if request else (text_of(result.query) if result else "")
    return WebSearchView(
        **v,
        query=query,
        asked=asked.rows,
        got=got.rows,
        links=links,
        answers=[note for note in notes if note.strip()],
        answered=result is not None or bool(links or notes),
        summary=query,
    )
