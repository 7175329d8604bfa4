"""The folded parts of a session page, drawn only when the reader opens them.

A page draws at once what a reader sees before opening anything: messages, one line per tool
call, one line per event. What is folded (a tool call's body, a subagent's conversation, a
record's JSON, thinking, a branch, the later chunks of a long session) is a *part*: a template
and its variables, kept in a :class:`PartStore` under an id that names what it holds
(``t.<tool_use_id>``, ``a.<agent_id>``, ``c.<chunk>``, …), and drawn when asked. The page holds
an empty ``data-lazy="<id>"`` element where the part goes.

* The web app draws a part when the page asks for it (``/sessions/<key>/parts/<id>``).
* An exported file carries every part, drawn and compressed (:func:`pack_parts`): blocks of parts
  as deflate streams in base64, which the page inflates with ``DecompressionStream`` when one of
  their parts is opened. :func:`expand_page` does the same in Python (tests, tools).
"""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import msgspec
from markupsafe import Markup

__all__ = [
    "DATA_ELEMENT_ID",
    "Part",
    "PartStore",
    "element_ids",
    "expand_page",
    "pack_parts",
    "page_data_json",
    "unpack_parts",
]

#: The id of the ``<script type="application/json">`` element that carries a page's data.
DATA_ELEMENT_ID = "cclens-data"
#: Parts are compressed in blocks of about this many characters of HTML: opening a part inflates
#: one block (a millisecond or two), not the whole session.
BLOCK_CHARS = 128_000


@dataclass(frozen=True)
class Part:
    """What a template gets back when it asks for a part: its id, and its HTML when drawn now.

    ``html`` is ``None`` when the part is deferred (the template then draws the empty
    ``data-lazy`` element); it is the drawn part when the renderer is not lazy.
    """

    id: str
    html: Markup | None = None


@dataclass
class _Pending:
    draw: Callable[[], Markup]
    parent: str | None
    scope: tuple[str, ...]


@dataclass
class PartStore:
    """Deferred parts by id, with the part each one was registered from.

    ``add`` keeps the first registration of an id: an id names what the part holds, so a second
    one is the same thing seen again (a subagent that refers to itself). ``registered_by`` lists,
    for each part (``None``: the page), the ids it registered while drawn, repeats included
    (:mod:`cclens.render.part_workers` puts parts drawn apart back in order with it).
    """

    pending: dict[str, _Pending] = field(default_factory=dict)
    drawn: dict[str, str] = field(default_factory=dict)
    registered_by: dict[str | None, list[str]] = field(default_factory=dict)
    _stack: list[str] = field(default_factory=list)

    @property
    def current(self) -> str | None:
        """The part being drawn now (``None`` for the page itself)."""
        return self._stack[-1] if self._stack else None

    def add(self, part_id: str, draw: Callable[[], Markup], scope: tuple[str, ...] = ()) -> None:
        """Register ``draw`` as the part ``part_id``, inside the part being drawn now."""
        self.registered_by.setdefault(self.current, []).append(part_id)
        if part_id not in self.pending:
            self.pending[part_id] = _Pending(draw, self.current, scope)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self.pending

    def parent_of(self, part_id: str) -> str | None:
        """The part ``part_id`` is drawn inside (``None``: the page)."""
        return self.pending[part_id].parent

    def draw(self, part_id: str) -> str:
        """The HTML of ``part_id`` (drawn once, then kept); its own parts get registered."""
        done = self.drawn.get(part_id)
        if done is not None:
            return done
        pending = self.pending[part_id]
        self._stack.append(part_id)
        try:
            html = str(pending.draw())
        finally:
            self._stack.pop()
        self.drawn[part_id] = html
        return html

    def draw_all(self) -> dict[str, str]:
        """Every part, the ones registered while drawing others included, in drawing order."""
        done: dict[str, str] = {}
        while True:
            waiting = [part_id for part_id in self.pending if part_id not in done]
            if not waiting:
                return done
            for part_id in waiting:
                done[part_id] = self.draw(part_id)


def _blocks(parts: dict[str, str]) -> Iterator[dict[str, str]]:
    block: dict[str, str] = {}
    size = 0
    for part_id, html in parts.items():
        block[part_id] = html
        size += len(html)
        if size >= BLOCK_CHARS:
            yield block
            block, size = {}, 0
    if block:
        yield block


def _deflate(data: bytes) -> str:
    # Raw deflate (no zlib header): what the browser's DecompressionStream("deflate-raw") reads.
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return base64.b64encode(compressor.compress(data) + compressor.flush()).decode("ascii")


def _inflate(text: str) -> bytes:
    return zlib.decompress(base64.b64decode(text), -15)


def pack_parts(parts: dict[str, str], *, threads: int = 1) -> dict[str, Any]:
    """Every drawn part, for an exported file: ``{"blocks": [...], "where": {id: block}}``.

    Each block is a JSON object ``{id: html}``, deflated and in base64. ``threads`` above 1
    deflates blocks side by side (zlib lets go of the interpreter while it works).
    """
    where: dict[str, int] = {}
    encoded: list[bytes] = []
    for number, block in enumerate(_blocks(parts)):
        encoded.append(msgspec.json.encode(block))
        for part_id in block:
            where[part_id] = number
    if threads > 1 and len(encoded) > 1:
        with ThreadPoolExecutor(min(threads, len(encoded))) as pool:
            blocks = list(pool.map(_deflate, encoded))
    else:
        blocks = [_deflate(data) for data in encoded]
    return {"blocks": blocks, "where": where}


def page_data_json(data: dict[str, Any]) -> str:
    """``data`` as JSON safe inside a ``<script>`` element (no ``<`` can close it)."""
    return msgspec.json.encode(data).decode("utf-8").replace("<", "\\u003c")


def compress_json(value: Any) -> str:
    """``value`` as JSON, deflated and in base64 (a page's map of element ids, say)."""
    return _deflate(msgspec.json.encode(value))


def decompress_json(text: str) -> Any:
    """The value :func:`compress_json` packed."""
    return msgspec.json.decode(_inflate(text))


_DATA = re.compile(
    r'<script type="application/json" id="' + DATA_ELEMENT_ID + r'">(.*?)</script>', re.S
)
_LAZY = re.compile(r'<(div|tbody) ([^>]*?)data-lazy="([^"]+)"([^>]*)></\1>')


def page_data(html: str) -> dict[str, Any]:
    """The data an exported page carries (empty when it carries none)."""
    found = _DATA.search(html)
    if found is None:
        return {}
    data: dict[str, Any] = msgspec.json.decode(found.group(1))
    return data


def element_ids(html: str) -> set[str]:
    """Every element id a page has, drawn in it or in a folded part its map points to."""
    drawn = set(re.findall(r' id="([^"]+)"', html))
    packed = page_data(html).get("map")
    mapped = decompress_json(packed)["ids"] if isinstance(packed, str) else {}
    return drawn | set(mapped)


def unpack_parts(html: str) -> dict[str, str]:
    """Every part an exported page carries: id → HTML."""
    data = page_data(html)
    parts: dict[str, str] = {}
    for block in data.get("parts", {}).get("blocks", []):
        parts.update(msgspec.json.decode(_inflate(block)))
    return parts


def expand_page(html: str) -> str:
    """An exported page with every part put in its place, as if the reader opened everything.

    For tests and tools that read a page's text; the page a browser gets stays lazy.
    """
    parts = unpack_parts(html)

    def fill(match: re.Match[str]) -> str:
        inner = parts.get(match.group(3))
        if inner is None:
            return match.group(0)
        inner = _LAZY.sub(fill, inner)
        tag = match.group(1)
        return (
            f'<{tag} {match.group(2)}data-lazy="{match.group(3)}"{match.group(4)}>{inner}</{tag}>'
        )

    return _LAZY.sub(fill, html)
