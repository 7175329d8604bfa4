"""Views of the web tools: WebFetch and WebSearch."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...formats import duration
from ...model.session import ToolCall
from ...model.tools import web
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


def prepare_web_fetch(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    got = Fields(h)
    if result is not None:
        code = result.code if isinstance(result.code, int) else None
        status = " ".join(str(part) for part in (code, text_of(result.code_text)) if part)
        status_kind = "ok" if code is not None and 200 <= code < 400 else "error"
        got.add("Size", size_of(result.bytes)).add("Took", millis(result.duration_ms))
        if result.url and result.url != url:
            got.url("Fetched", result.url)
    v.update(
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
    return v


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


def prepare_web_search(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    links: list[dict[str, Any]] = []
    for hit in hits:
        url = text_of(hit.url)
        links.append(
            {
                "link": link(url, text_of(hit.title) or url),
                "title": text_of(hit.title) or url,
                "url": url,
                "snippet": text_of(hit.snippet),
                "age": text_of(hit.page_age),
            }
        )
    asked = Fields(h)
    if request is not None:
        asked.add("Only from", list_of(request.allowed_domains))
        asked.add("Never from", list_of(request.blocked_domains))
    got = Fields(h)
    if result is not None:
        got.add("Took", duration(number_of(result.duration_seconds)))
        got.add("Searches", result.search_count)
    query = request.query if request else (text_of(result.query) if result else "")
    v.update(
        query=query,
        asked=asked.rows,
        got=got.rows,
        links=links,
        notes=[note for note in notes if note.strip()],
        answered=result is not None or bool(links or notes),
        summary=query,
    )
    return v
