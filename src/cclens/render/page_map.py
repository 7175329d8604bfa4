"""Where every item and tool call of a lazily drawn page is: the part that holds its element.

A page promises an element ``id`` for every item (its anchor) and every tool call
(``tool-<tool_use_id>``), drawn or not. Those in folded parts are not in the document until
their part is opened, so the page carries this map: element id → the innermost part holding it,
and part → the part it is drawn inside. ``window.cclens.reveal(id)`` opens the chain.

The map is worked out from the session's structure, the same walk the page's templates make
(items in chunks, calls in items, subagent conversations in calls, branches after their fork
item), so the web app has it without drawing any part. Part ids are named by what they hold:
``c.<n>`` a chunk of the main line, ``t.<tool_use_id>`` a call's body, ``a.<agent id>`` a
subagent's conversation, ``[<agent parts>.]b.<n>`` a branch (records' JSON and thinking, inside
drawn items, need no map).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from .context import BranchView, ItemView, PageContext, page_context

if TYPE_CHECKING:
    from ..model.session import Session, ToolCall
    from .options import RenderOptions

__all__ = ["PageMap", "agent_part", "chunk_part", "page_map", "tool_part"]

#: Subagents nested deeper than this are not drawn (as ``ViewHelpers.max_depth``).
_MAX_DEPTH = 8


def tool_part(call: ToolCall) -> str:
    """The part holding ``call``'s body: ``t.<tool_use_id>``."""
    return f"t.{call.id}"


def agent_part(agent: Session) -> str:
    """The part holding a subagent's conversation: ``a.<agent id>``."""
    return f"a.{agent.agent_id or agent.session_id}"


#: How the id of a chunk of the main line starts.
CHUNK_PREFIX = "c."


def chunk_part(number: int) -> str:
    """The part holding chunk ``number`` of the main line: ``c.<number>`` (``c.0`` is drawn)."""
    return f"{CHUNK_PREFIX}{number}"


class PageMap(msgspec.Struct):
    """``ids``: element id → the part it is drawn in (absent: drawn with the page);
    ``parents``: part → the part it is drawn in (absent: the page)."""

    ids: dict[str, str] = msgspec.field(default_factory=dict)
    parents: dict[str, str] = msgspec.field(default_factory=dict)

    def chain(self, element_id: str) -> list[str]:
        """The parts to open, outermost first, for ``element_id`` to be in the document."""
        chain: list[str] = []
        part = self.ids.get(element_id)
        while part is not None and part not in chain:
            chain.append(part)
            part = self.parents.get(part)
        return chain[::-1]

    def as_json(self) -> dict[str, dict[str, str]]:
        """The map as the page's script reads it."""
        return {"ids": self.ids, "parents": self.parents}


class _Walk:
    def __init__(
        self, options: RenderOptions, context: Callable[[Session], PageContext] | None
    ) -> None:
        self.options = options
        self.context = context or (
            lambda session: page_context(session, show_branches=options.show_branches)
        )
        self.map = PageMap()
        self.seen: set[int] = set()

    def place(self, element: str, part: str | None) -> None:
        if part is not None:
            self.map.ids.setdefault(element, part)

    def nest(self, child: str, part: str | None) -> None:
        if part is not None and child != part:
            self.map.parents.setdefault(child, part)

    def items(self, views: list[ItemView], part: str | None, scope: tuple[str, ...]) -> None:
        for view in views:
            self.place(view.anchor, part)
            for block in view.blocks:
                if block.call is not None:
                    self.call(block.call, part, scope)
            for branch in view.branches:
                self.branch(branch, part, scope)

    def branch(self, branch: BranchView, part: str | None, scope: tuple[str, ...]) -> None:
        name = f"b.{branch.index}"
        inner = f"{'.'.join(scope)}.{name}" if scope else name
        self.nest(inner, part)
        self.items(branch.items, inner, scope)

    def call(self, call: ToolCall, part: str | None, scope: tuple[str, ...]) -> None:
        self.place(f"tool-{call.id}", part)
        body = tool_part(call)
        self.nest(body, part)
        for agent in call.subagents:
            self.agent(agent, body, scope)

    def agent(self, agent: Session, part: str | None, scope: tuple[str, ...]) -> None:
        inner = agent_part(agent)
        if id(agent) in self.seen or inner in scope or len(scope) >= _MAX_DEPTH:
            return
        self.seen.add(id(agent))
        self.nest(inner, part)
        self.session(agent, inner, (*scope, inner))

    def session(self, session: Session, part: str | None, scope: tuple[str, ...]) -> None:
        page = self.context(session)
        if part is None:  # the page itself: its items in chunks
            size = max(1, self.options.chunk_items) if self.options.lazy else len(page.items) or 1
            for number, start in enumerate(range(0, len(page.items), size)):
                chunk = chunk_part(number) if number else None
                self.items(page.items[start : start + size], chunk, scope)
        else:
            self.items(page.items, part, scope)
        for branch in page.trailing_branches:
            self.branch(branch, part, scope)
        for agent in page.orphan_subagents:
            self.agent(agent, part, scope)


def page_map(
    session: Session,
    options: RenderOptions,
    context: Callable[[Session], PageContext] | None = None,
) -> PageMap:
    """The map of ``session``'s page drawn with ``options``; ``context`` gives each session's
    page context (a renderer passes the ones it already made)."""
    walk = _Walk(options, context)
    walk.session(session, None, ())
    return walk.map
