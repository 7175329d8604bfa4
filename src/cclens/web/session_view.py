"""The session view inside the web app, and the pieces live updates send.

The view is drawn by :mod:`cclens.render` (:class:`PageRenderer`); should it fail on a session,
a plain built-in template draws it (:class:`PlainRenderer`), so that a view's bug never hides a
session. Either way every item's element carries the item's
anchor as its ``id`` (drawn, or in a folded part the page's map points to), which is what search
hits and live updates point at. The renderer's page draws folded parts when they are opened:
the web app draws each one on request (``/sessions/<key>/parts/<id>``).
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import msgspec
from jinja2 import Environment

from .. import render
from ..figures.counts import SessionCounts
from ..model import format_json, to_builtins
from ..model.blocks import TextBlock, ThinkingBlock
from ..readers.claude import (
    AssistantItem,
    AttachmentItem,
    Item,
    MetaItem,
    ProgressItem,
    Session,
    SystemItem,
    ToolCall,
    UserItem,
)
from ..render import RenderOptions

#: Where the renderer's CSS and JS are served.
RENDER_STATIC_URL = "/static/render"
_TEXT_LIMIT = 20_000
_NESTING_LIMIT = 4


def _no_image(digest: str) -> tuple[bytes, str] | None:
    return None


def _no_texts() -> bytes:
    return b"[]"


@dataclass(slots=True)
class DrawnSession:
    """A session's page body, the data its script reads (JSON, or ``None``), what draws its
    folded parts by id (``None`` for an unknown id), what gives the bytes and media type
    of an image its parts link to by digest (``None`` for an unknown one), and what gives the
    page's text index as JSON (what its find searches, :mod:`cclens.render.find_index`)."""

    body: str
    data: str | None = None
    part: Callable[[str], str | None] = field(default=lambda part_id: None)
    image: Callable[[str], tuple[bytes, str] | None] = field(default=_no_image)
    texts: Callable[[], bytes] = field(default=_no_texts)


class SessionRenderer(Protocol):
    """Draws a session's body (the ``<main>`` element), its folded parts, and fragments.

    ``counts`` are the session's figures as the index counts them (what a resumed session
    copied from an earlier one is counted for the earlier one): the header shows those.
    """

    name: str

    def draw(
        self,
        session: Session,
        parts_url: str,
        counts: SessionCounts | None = None,
        images_url: str | None = None,
        texts_url: str | None = None,
    ) -> DrawnSession: ...

    def body(self, session: Session, counts: SessionCounts | None = None) -> str: ...

    def fragment(self, session: Session, items: list[Item]) -> str: ...

    def static_files(self) -> dict[str, bytes]: ...

    def policy(self) -> str | None: ...


#: Parts held inside an item, named ``[<scope>.]<kind>.<anchor>[.<n>]`` (a record's JSON,
#: thinking, a compaction summary): the item's place in the map finds them.
_ITEM_PART = re.compile(r"(?:^|\.)(?P<kind>[rks])\.(?P<anchor>[^.]+)(?:\.\d+)?$")


def _outer_parts(part_id: str, found: Any) -> list[str]:
    """The parts to draw, outermost first, for ``part_id`` to be registered."""
    chain: list[str] = []
    current = part_id
    while current in found.parents and current not in chain:
        current = found.parents[current]
        chain.append(current)
    item = _ITEM_PART.search(part_id)
    if not chain and item is not None:
        chain = found.chain(item.group("anchor"))[::-1]
    return chain[::-1]


class PageRenderer:
    """The session view of :mod:`cclens.render`: folded parts drawn when the page asks."""

    name = "render"

    def __init__(self) -> None:
        # The app's top bar has the theme switch of every page: the session's toolbar has none.
        self._options = RenderOptions(
            standalone=False, static_url=RENDER_STATIC_URL, theme_button=False, app_keys=True
        )
        # Live updates send whole items: every part of them drawn in place, no chunks.
        self._fragment_options = RenderOptions(
            standalone=False, static_url=RENDER_STATIC_URL, chunk_items=1_000_000_000
        )

    def draw(
        self,
        session: Session,
        parts_url: str,
        counts: SessionCounts | None = None,
        images_url: str | None = None,
        texts_url: str | None = None,
    ) -> DrawnSession:
        options = dataclasses.replace(self._options, counts=counts, images_url=images_url)
        renderer = render.SessionRenderer(options)
        body = str(renderer.body(session))
        found = renderer.page_map(session)
        data = renderer.data(
            session, parts=False, source=parts_url, found=found, texts=texts_url or ""
        )
        lock = threading.Lock()
        texts: list[bytes] = []

        def text_index() -> bytes:
            # Worked out when a page first finds something in it, then kept with the drawing.
            with lock:
                if not texts:
                    texts.append(msgspec.json.encode(renderer.texts(session)))
                return texts[0]

        def part(part_id: str) -> str | None:
            # Drawing a part registers the parts inside it: a part not known yet is drawn once
            # the parts around it are (the map says which), never by drawing everything.
            with lock:
                parts = renderer.parts
                if part_id not in parts:
                    for outer in _outer_parts(part_id, found):
                        if outer in parts:
                            parts.draw(outer)
                return parts.draw(part_id) if part_id in parts else None

        images = renderer.images
        return DrawnSession(
            body, data, part, images.get if images is not None else _no_image, text_index
        )

    def body(self, session: Session, counts: SessionCounts | None = None) -> str:
        options = dataclasses.replace(self._options, counts=counts)
        return str(render.render_session_body(session, options))

    def fragment(self, session: Session, items: list[Item]) -> str:
        # The same view over a session holding only the items to send: every element keeps
        # the id the page already has for it.
        replaced = msgspec.structs.replace(session, items=items)
        return str(render.render_session_body(replaced, self._fragment_options))

    def static_files(self) -> dict[str, bytes]:
        return dict(render.static_files())

    def policy(self) -> str | None:
        return str(render.CSP)


@dataclass(frozen=True, slots=True)
class ToolCallView:
    """A tool call as the built-in view shows it."""

    id: str
    name: str
    status: str
    input: str
    result: str
    duration: float | None
    subagents: list[list[ItemView]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ItemView:
    """One item as the built-in view shows it: who, when, what was said, what was done."""

    anchor: str
    role: str
    label: str
    time: datetime | None
    main: bool
    #: ``(kind, text)`` pieces: ``text`` or ``thinking``.
    texts: list[tuple[str, str]]
    tool_calls: list[ToolCallView]
    #: For records that are not messages: their JSON, shortened.
    detail: str = ""


def _shorten(text: str, limit: int = _TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit:,} more)"


def _json(value: Any) -> str:
    return format_json(value).decode()


def _call_view(call: ToolCall, depth: int) -> ToolCallView:
    duration = call.duration.total_seconds() if call.duration else None
    agents = (
        [item_views(agent.items, depth + 1) for agent in call.subagents]
        if depth < _NESTING_LIMIT
        else []
    )
    return ToolCallView(
        call.id,
        call.name,
        call.status,
        _shorten(_json(call.block.input)),
        _shorten(call.result_text),
        duration,
        agents,
    )


_ROLES: tuple[tuple[type[Item], str], ...] = (
    (UserItem, "user"),
    (AssistantItem, "assistant"),
    (SystemItem, "system"),
    (AttachmentItem, "attachment"),
    (ProgressItem, "progress"),
    (MetaItem, "meta"),
)


def _item_view(item: Item, depth: int) -> ItemView:
    role = next(name for kind, name in _ROLES if isinstance(item, kind))
    texts: list[tuple[str, str]] = []
    calls: list[ToolCallView] = []
    detail = ""
    label = role
    if isinstance(item, UserItem):
        label = item.kind.replace("_", " ")
        if item.kind != "tool_results" and item.text:
            texts.append(("text", _shorten(item.text)))
    elif isinstance(item, AssistantItem):
        label = item.model or "assistant"
        for block in item.blocks:
            if isinstance(block, TextBlock) and block.text:
                texts.append(("text", _shorten(block.text)))
            elif isinstance(block, ThinkingBlock):
                texts.append(("thinking", _shorten(block.thinking or "(thinking not kept)")))
        calls = [_call_view(call, depth) for call in item.tool_calls]
    else:
        record = item.first.record
        label = str(getattr(record, "subtype", None) or getattr(record, "type", role) or role)
        detail = _shorten(_json(to_builtins(record)), 2000)
    return ItemView(item.anchor, role, label, item.timestamp, item.main, texts, calls, detail)


def item_views(items: list[Item], depth: int = 0) -> list[ItemView]:
    """The built-in view of ``items``; tool results are shown with their calls."""
    return [
        _item_view(item, depth)
        for item in items
        if not (isinstance(item, UserItem) and item.kind == "tool_results")
    ]


def top_level(session: Session) -> list[Item]:
    """The items shown at the top of the page: sidechains appear under their Agent call."""
    if all(item.is_sidechain for item in session.items):
        return list(session.items)
    return [item for item in session.items if not item.is_sidechain]


class PlainRenderer:
    """A plain view of a session, drawn when :class:`PageRenderer` fails on it."""

    name = "built-in"

    def __init__(self, environment: Environment) -> None:
        self._environment = environment

    def draw(
        self,
        session: Session,
        parts_url: str,
        counts: SessionCounts | None = None,
        images_url: str | None = None,
        texts_url: str | None = None,
    ) -> DrawnSession:
        return DrawnSession(self.body(session, counts))

    def body(self, session: Session, counts: SessionCounts | None = None) -> str:
        template = self._environment.get_template("session_fallback.html")
        return template.render(session=session, items=item_views(top_level(session)))

    def fragment(self, session: Session, items: list[Item]) -> str:
        template = self._environment.get_template("_items.html")
        return template.render(items=item_views(items))

    def static_files(self) -> dict[str, bytes]:
        return {}

    def policy(self) -> str | None:
        return None


def page_state(session: Session) -> dict[str, int]:
    """For each file of the session, the last line shown (what a page has)."""
    state: dict[str, int] = {}
    for agent in session.all_sessions():
        last = max((entry.line for entry in agent.entries), default=0)
        key = str(agent.path)
        state[key] = max(state.get(key, 0), last)
    return state


#: A page's state is one flat object of file paths and line numbers: decoded as that type, a
#: value of another shape (nesting thousands of levels deep, say) fails at its first level.
_STATE = msgspec.json.Decoder(dict[str, int])
#: Longer text is not a state a page sent.
_STATE_BYTES = 1 << 20


def parse_state(text: str) -> dict[str, int]:
    """A state sent back by a page; anything malformed counts as "nothing shown yet"."""
    if len(text) > _STATE_BYTES:
        return {}
    try:
        return _STATE.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return {}


def _grown(session: Session, since: Mapping[str, int]) -> bool:
    limit = since.get(str(session.path))
    if limit is None:
        return True
    return any(entry.line > limit for entry in session.entries) or any(
        _grown(agent, since) for agent in session.subagents
    )


def changed_items(session: Session, since: Mapping[str, int]) -> list[Item]:
    """Top-level items that are new or changed since a page showed ``since``.

    An item changed when one of its records is new, when a tool call of it got its result,
    or when a subagent it spawned wrote more.
    """
    limit = since.get(str(session.path), 0)
    changed: list[Item] = []
    for item in top_level(session):
        if any(entry.line > limit for entry in item.entries) or (
            isinstance(item, AssistantItem)
            and any(
                (call.result_entry is not None and call.result_entry.line > limit)
                or any(_grown(agent, since) for agent in call.subagents)
                for call in item.tool_calls
            )
        ):
            changed.append(item)
    return changed
