"""The text of every part of a session page, in page order, for finding within the page.

A session page draws little at first: later chunks, tool bodies, thinking, subagent
conversations and branches are folded parts, not in the document until opened (see
:mod:`cclens.render.parts`). The browser's own find cannot see them, so the page's find
(``/`` or Ctrl-F, ``static/find.js``) searches this index instead and opens what it lands on.

Each entry is ``(target, kind, text)``: the id of the element that shows the text (an item's
anchor, or ``tool-<tool_use_id>`` for a call's input and output), what kind of text it is (the
kinds search uses, :data:`FIND_KINDS`: a hit's ``part``), and the text as the transcript holds
it. The walk is the one the page's templates make (the one :mod:`cclens.render.page_map` makes
too): items in order, a call's input then its output then the subagents it spawned, branches
after their fork item, unclaimed subagents at the end.

The web app serves the entries as JSON (``/sessions/<key>/text``); an exported page carries
them compressed in its data (``text``), like its map, except the texts of tool calls: the page
carries each call's body as a folded part already, so its entry names that part instead
(:func:`texts_by_part`: ``(target, "tool", row, part id)``, ``row`` what its folded row
says) and the page reads the text the body shows from it when it first finds something. The
texts of calls are most of a session's text: carried twice, they made an exported file 40 %
larger.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Mapping
from typing import TYPE_CHECKING, Literal

from ..model.blocks import TextBlock, ThinkingBlock
from ..model.session import AssistantItem, UserItem
from ..model.text import input_text

if TYPE_CHECKING:
    from ..model.session import Session, ToolCall
    from .context import BranchView, ItemView, PageContext

__all__ = ["FIND_KINDS", "FindEntry", "PartEntry", "find_entries", "texts_by_part"]

FindKind = Literal[
    "prompt", "assistant", "thinking", "tool_input", "tool_output", "summary", "event"
]
#: What a found text can be: the kinds search uses, compaction summaries, and events.
FIND_KINDS: tuple[FindKind, ...] = (
    "prompt",
    "assistant",
    "thinking",
    "tool_input",
    "tool_output",
    "summary",
    "event",
)
#: ``(target element id, kind, text)``.
FindEntry = tuple[str, str, str]
#: The longest text kept for one entry (as search keeps: a 1 MB output is still found whole).
MAX_TEXT = 1_000_000
#: Subagents nested deeper than this are not drawn (as ``ViewHelpers.max_depth``).
_MAX_DEPTH = 8
_PROMPT_KINDS = frozenset({"prompt", "command", "command_output", "meta"})


def _entry(target: str, kind: FindKind, text: str) -> Iterator[FindEntry]:
    if text and not text.isspace():
        yield (target, kind, text[:MAX_TEXT])


class _Walk:
    def __init__(self, context: Callable[[Session], PageContext]) -> None:
        self.context = context
        self.seen: set[int] = set()

    def session(self, session: Session, scope: tuple[int, ...]) -> Iterator[FindEntry]:
        page = self.context(session)
        yield from self.items(page.items, scope)
        for branch in page.trailing_branches:
            yield from self.branch(branch, scope)
        for agent in page.orphan_subagents:
            yield from self.agent(agent, scope)

    def items(self, views: list[ItemView], scope: tuple[int, ...]) -> Iterator[FindEntry]:
        for view in views:
            yield from self.item(view, scope)
            for branch in view.branches:
                yield from self.branch(branch, scope)

    def branch(self, branch: BranchView, scope: tuple[int, ...]) -> Iterator[FindEntry]:
        yield from self.items(branch.items, scope)

    def item(self, view: ItemView, scope: tuple[int, ...]) -> Iterator[FindEntry]:
        item = view.item
        anchor = view.anchor
        if isinstance(item, UserItem):
            if item.kind in _PROMPT_KINDS:
                yield from _entry(anchor, "prompt", item.text)
            elif item.kind == "compact_summary":
                yield from _entry(anchor, "summary", item.text)
            elif item.kind == "tool_results":
                for result in view.orphan_results:
                    yield from _entry(anchor, "tool_output", result.text)
            return
        if isinstance(item, AssistantItem):
            for block in view.blocks:
                if isinstance(block.block, TextBlock):
                    yield from _entry(anchor, "assistant", block.block.text)
                elif isinstance(block.block, ThinkingBlock):
                    yield from _entry(anchor, "thinking", block.block.thinking)
                elif block.call is not None:
                    yield from self.call(block.call, scope)
            return
        event = view.event
        if event is not None:
            said = "\n".join(
                text for text in (event.label, event.summary, event.text, event.markdown) if text
            )
            yield from _entry(anchor, "event", said)

    def call(self, call: ToolCall, scope: tuple[int, ...]) -> Iterator[FindEntry]:
        target = f"tool-{call.id}"
        yield from _entry(target, "tool_input", input_text(call.block.input))
        yield from _entry(target, "tool_output", call.result_text)
        for agent in call.subagents:
            yield from self.agent(agent, scope)

    def agent(self, agent: Session, scope: tuple[int, ...]) -> Iterator[FindEntry]:
        key = id(agent)
        if key in self.seen or key in scope or len(scope) >= _MAX_DEPTH:
            return
        self.seen.add(key)
        yield from self.session(agent, (*scope, key))


#: ``(target, kind, text, None)``, or ``(target, "tool", row, part id)`` for a call whose text
#: the page reads from its body's part (``row``: what its folded row says).
PartEntry = tuple[str, str, str, str | None]


def texts_by_part(
    entries: list[FindEntry], parts: Container[str], rows: Mapping[str, str]
) -> list[PartEntry]:
    """``entries`` for a page that carries its parts: a call whose body is one of ``parts``
    (``t.<tool_use_id>``) becomes one entry naming that part, where its input's was, with the
    text of its row (``rows``, by target: a Bash call's description is on its row only)."""
    found: list[PartEntry] = []
    named: set[str] = set()
    for target, kind, text in entries:
        part = f"t.{target.removeprefix('tool-')}" if target.startswith("tool-") else ""
        if part and part in parts:
            if target not in named:
                named.add(target)
                found.append((target, "tool", rows.get(target, ""), part))
            continue
        found.append((target, kind, text, None))
    return found


def find_entries(
    session: Session, context: Callable[[Session], PageContext] | None = None
) -> list[FindEntry]:
    """Every text of ``session``'s page in the order the page shows it (see the module's
    docstring); ``context`` gives each session's page context (a renderer passes its own)."""
    if context is None:
        from .context import page_context

        context = page_context
    return list(_Walk(context).session(session, ()))
