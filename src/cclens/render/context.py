"""The documented context a session page is drawn from.

:func:`page_context` turns a :class:`~cclens.model.session.Session` into plain dataclasses:
the header (:class:`SessionHeader`), the items of the main line (:class:`ItemView`, each with
its blocks and the branches that fork from it) and what is left over (branches whose fork is
unknown, subagents no call spawned). Templates only draw what is here; deciding what to show is
done in Python, where it can be tested.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

import msgspec

from ..figures.counts import SessionCounts, counts_alone
from ..figures.figures import Figures, own_items
from ..figures.tokens import TokenCounts
from ..figures.usage import collect_responses
from ..formats import compact, plural
from ..model import ContentBlock
from ..model.blocks import (
    BashCodeExecutionToolResultBlock,
    CodeExecutionToolResultBlock,
    ContainerUploadBlock,
    DocumentBlock,
    FallbackBlock,
    ImageBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    RedactedThinkingBlock,
    SearchResultBlock,
    ServerToolUseBlock,
    TextBlock,
    TextEditorCodeExecutionToolResultBlock,
    ThinkingBlock,
    ToolReferenceBlock,
    ToolResultBlock,
    ToolSearchToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
    WebFetchToolResultBlock,
    WebSearchToolResultBlock,
)
from ..model.entries import Diagnostic
from ..model.session import (
    AssistantItem,
    Item,
    Session,
    ToolCall,
    UserItem,
)
from ..readers import agents as registry
from ..readers.resume import resume_command
from .commands import CommandOutput, CommandView, parse_command, parse_command_output
from .events import EventView, event_view
from .runs import fold_runs

__all__ = [
    "BLOCK_TEMPLATES",
    "BlockView",
    "BranchView",
    "ItemView",
    "PageContext",
    "SessionHeader",
    "TokenTotals",
    "item_views",
    "own_items",
    "page_context",
    "response_totals",
    "session_header",
]


class TokenTotals(msgspec.Struct, frozen=True):
    """Tokens of a set of responses, each response counted once (see
    :mod:`cclens.figures.usage`); ``cache_write`` is both cache lifetimes."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    responses: int = 0

    @classmethod
    def of(cls, tokens: TokenCounts, responses: int) -> TokenTotals:
        """The totals of ``responses`` responses that used ``tokens``."""
        return cls(tokens.input, tokens.output, tokens.cache_read, tokens.cache_write, responses)

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    def __add__(self, other: TokenTotals) -> TokenTotals:
        return TokenTotals(
            self.input + other.input,
            self.output + other.output,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.responses + other.responses,
        )


def response_totals(session: Session) -> tuple[TokenTotals, TokenTotals]:
    """The tokens of ``session``'s own responses, and of its subagents' responses."""
    own: list[TokenCounts] = []
    agents: list[TokenCounts] = []
    for response in collect_responses([session]):
        (own if response.agent_id == session.agent_id else agents).append(response.tokens)
    return (
        TokenTotals.of(sum(own, TokenCounts()), len(own)),
        TokenTotals.of(sum(agents, TokenCounts()), len(agents)),
    )


class SessionHeader(msgspec.Struct, frozen=True):
    """The facts at the top of a session, the same on every surface (the web page, ``cclens
    show``, Markdown and HTML exports, the export's index).

    The figures are what the session counts, its subagents' included
    (:mod:`cclens.figures.counts`): ``tokens`` are its responses' tokens, of which
    ``subagent_tokens`` its subagents'; ``carried`` is what its files hold that other sessions
    count (``carried_from`` names them), shown apart and never added in; ``alone``: the
    session was read on its own, compared with no other. ``resume_command`` is what resumes the
    session in Claude Code, in the directory it ran in
    (:func:`cclens.readers.resume.resume_command`). ``diagnostics`` are the file's malformed
    lines.
    """

    title: str
    session_id: str
    project: str
    cwd: str | None
    git_branch: str | None
    git_branches: list[str]
    started: datetime | None
    ended: datetime | None
    duration: timedelta | None
    models: list[str]
    versions: list[str]
    #: The agent that wrote the session, as people read it (``Codex CLI``).
    agent_label: str
    tokens: TokenTotals
    subagent_tokens: TokenTotals
    resume_command: str
    path: str
    prompts: int
    responses: int
    tool_calls: int
    tool_errors: int
    subagents: int
    branches: int
    compactions: int
    diagnostics: list[Diagnostic]
    #: Every figure the session counts (subagents included), as every surface counts them.
    figures: Figures = msgspec.field(default_factory=Figures)
    #: What its files hold that other sessions count (a resumed session's copied history).
    carried: Figures = msgspec.field(default_factory=Figures)
    carried_from: tuple[str, ...] = ()
    alone: bool = False

    @property
    def tokens_text(self) -> str:
        """The tokens line, saying what it includes: ``5.6M (in 1.2k, out 40.1k, cache read
        5.3M, cache write 230.4k), 1.2M of them in subagents`` (or ``none of them in
        subagents``)."""
        tokens = self.tokens
        if not tokens.responses:
            return "not recorded"
        kinds = (
            f"in {compact(tokens.input)}, out {compact(tokens.output)}, "
            f"cache read {compact(tokens.cache_read)}, "
            f"cache write {compact(tokens.cache_write)}"
        )
        text = f"{compact(tokens.total)} ({kinds})"
        sub = self.subagent_tokens
        if sub.responses:
            return f"{text}, {compact(sub.total)} of them in subagents"
        return f"{text}, none of them in subagents"

    @property
    def activity_text(self) -> str:
        """``3 prompts, 12 responses, 8 tool calls (1 failed), 1 subagent``."""
        text = (
            f"{plural(self.prompts, 'prompt')}, {plural(self.responses, 'response')}, "
            f"{plural(self.tool_calls, 'tool call')} ({self.tool_errors:,} failed), "
            f"{plural(self.subagents, 'subagent')}"
        )
        if self.branches:
            text += f", {plural(self.branches, 'branch', 'branches')}"
        if self.compactions:
            text += f", {plural(self.compactions, 'compaction')}"
        return text

    @property
    def carried_text(self) -> str:
        """What the session carries over from other sessions, or ``""`` when nothing:
        ``1 prompt, 2 responses, 1 tool call (253 tokens), counted in session 0d3a8e6f``."""
        carried = self.carried
        parts = [
            plural(count, noun)
            for count, noun in (
                (carried.prompts, "prompt"),
                (carried.responses, "response"),
                (carried.tool_calls.calls, "tool call"),
            )
            if count
        ]
        if not parts:
            return ""
        text = ", ".join(parts)
        if carried.responses:
            text += f" ({compact(carried.tokens.total)} tokens)"
        if self.carried_from:
            owners = ", ".join(owner[:8] for owner in self.carried_from)
            noun = "session" if len(self.carried_from) == 1 else "sessions"
            text += f", counted in {noun} {owners}"
        return text

    def facts(self) -> list[tuple[str, str]]:
        """The figures as ``(label, text)`` lines (the terminal and Markdown draw these; the web
        page draws the same fields with links and hover titles)."""
        found = [("Tokens", self.tokens_text), ("Activity", self.activity_text)]
        if carried := self.carried_text:
            found.append(("Carried over", carried))
        if self.alone:
            found.append(
                ("Counted", "on its own: what it copied from other sessions counts here too")
            )
        return found


def session_header(session: Session, counts: SessionCounts | None = None) -> SessionHeader:
    """The header facts of ``session``.

    ``counts`` are the session's figures as the index counts them (each response, call and
    prompt once across the sessions of its project, see :mod:`cclens.figures.counts`); without
    them, the session is counted on its own (:func:`cclens.figures.counts.counts_alone`) and
    the header says so.
    """
    counts = counts or counts_alone(session)
    figures = counts.figures
    agents = [agent for top in session.subagents for agent in top.all_sessions()]
    return SessionHeader(
        title=session.title or session.session_id,
        session_id=session.session_id,
        project=session.project,
        cwd=session.cwd,
        git_branch=session.git_branch,
        git_branches=session.git_branches,
        started=session.started,
        ended=session.ended,
        duration=session.duration,
        models=session.models,
        versions=session.versions,
        agent_label=registry.label(session.agent),
        tokens=TokenTotals.of(figures.tokens, figures.responses),
        subagent_tokens=TokenTotals.of(counts.subagents.tokens, counts.subagents.responses),
        resume_command=resume_command(session.session_id, session.cwd, agent=session.agent).shell,
        path=str(session.path),
        prompts=figures.prompts,
        responses=figures.responses,
        tool_calls=figures.tool_calls.calls,
        tool_errors=figures.tool_calls.failed,
        subagents=len(agents),
        branches=len(session.branches),
        compactions=len(session.compactions),
        diagnostics=list(session.diagnostics),
        figures=figures,
        carried=counts.carried,
        carried_from=counts.carried_from,
        alone=counts.alone,
    )


#: The partial that draws each content block kind (``blocks/unknown.html`` for anything else).
BLOCK_TEMPLATES: dict[type[Any], str] = {
    TextBlock: "blocks/text.html",
    ThinkingBlock: "blocks/thinking.html",
    RedactedThinkingBlock: "blocks/redacted_thinking.html",
    ToolUseBlock: "blocks/tool_use.html",
    ImageBlock: "blocks/image.html",
    DocumentBlock: "blocks/document.html",
    ToolReferenceBlock: "blocks/tool_reference.html",
    ServerToolUseBlock: "blocks/server_tool.html",
    ToolResultBlock: "blocks/tool_result.html",
    WebSearchToolResultBlock: "blocks/server_tool.html",
    WebFetchToolResultBlock: "blocks/server_tool.html",
    CodeExecutionToolResultBlock: "blocks/server_tool.html",
    BashCodeExecutionToolResultBlock: "blocks/server_tool.html",
    TextEditorCodeExecutionToolResultBlock: "blocks/server_tool.html",
    ToolSearchToolResultBlock: "blocks/server_tool.html",
    McpToolUseBlock: "blocks/server_tool.html",
    McpToolResultBlock: "blocks/server_tool.html",
    SearchResultBlock: "blocks/search_result.html",
    ContainerUploadBlock: "blocks/other.html",
    FallbackBlock: "blocks/fallback.html",
    UnknownBlock: "blocks/unknown.html",
}


def _block_template(block: ContentBlock) -> str:
    # A block type added to the model later is still shown, as its JSON.
    return BLOCK_TEMPLATES.get(type(block), "blocks/other.html")


class BlockView(msgspec.Struct, frozen=True):
    """One content block to draw with ``template``; ``call`` is its tool call for ``tool_use``;
    ``index`` its place among the message's blocks (names its folded part, for thinking)."""

    template: str
    block: ContentBlock
    call: ToolCall | None = None
    index: int = 0


class BranchView(msgspec.Struct):
    """An abandoned branch drawn at its fork point, folded: its items and a label."""

    index: int
    fork: str | None
    items: list[ItemView]
    label: str


class ItemView(msgspec.Struct):
    """One item of the page.

    ``template`` draws it (``items/<kind>.html``); ``anchor`` is its element id (the record's
    uuid); ``role`` is ``user``, ``assistant`` or ``event``; ``noisy`` items are hidden until
    the reader asks for details; ``blocks`` are the content blocks of a message; ``event`` the
    compact view of a non-message record; ``command``/``output`` a slash command and its output;
    ``orphan_results`` tool results whose call is not in this file; ``branches`` the branches
    that fork right after this item. Repeated events (see :func:`quiet_repeats`): ``repeats``
    on the first of them counts them all, ``repeat_of`` on the others names the first's anchor
    (they are drawn folded, like noisy items).
    """

    template: str
    item: Item
    anchor: str
    role: str
    noisy: bool = False
    blocks: list[BlockView] = msgspec.field(default_factory=list)
    event: EventView | None = None
    command: CommandView | None = None
    output: CommandOutput | None = None
    orphan_results: list[ToolResultBlock] = msgspec.field(default_factory=list)
    branches: list[BranchView] = msgspec.field(default_factory=list)
    repeats: int = 0
    repeat_of: str = ""
    #: Who answers in the session (``Claude``, ``Codex``: its agent's speaker) and who wrote
    #: its records (``Claude Code``, ``Codex CLI``).
    speaker: str = "Claude"
    agent_label: str = "Claude Code"

    @property
    def timestamp(self) -> datetime | None:
        return self.item.timestamp

    @property
    def block_groups(self) -> list[list[BlockView]]:
        """The blocks in order, calls made together (two or more tool calls in a row of one
        response: Claude Code sent them at once) in one group, every other block alone."""
        groups: list[list[BlockView]] = []
        for block in self.blocks:
            if block.call is not None and groups and groups[-1][-1].call is not None:
                groups[-1].append(block)
            else:
                groups.append([block])
        return groups


_USER_TEMPLATES = {
    "prompt": "items/prompt.html",
    "command": "items/command.html",
    "command_output": "items/command_output.html",
    "tool_results": "items/tool_results.html",
    "compact_summary": "items/compact_summary.html",
    "meta": "items/meta_prompt.html",
    "interrupt": "items/interrupt.html",
}


def _user_view(item: UserItem, calls: dict[str, ToolCall]) -> ItemView | None:
    kind = item.kind
    view = ItemView(_USER_TEMPLATES[kind], item, item.anchor, "user", noisy=kind == "meta")
    if kind == "tool_results":
        view.orphan_results = [
            b for b in item.tool_results if not b.tool_use_id or b.tool_use_id not in calls
        ]
        extra = [b for b in item.blocks if not isinstance(b, ToolResultBlock)]
        view.blocks = [BlockView(_block_template(b), b) for b in extra]
        if not view.orphan_results and not view.blocks:
            return None  # every result is drawn inside its call
        return view
    if kind == "command":
        view.command = parse_command(item.text)
    elif kind == "command_output":
        view.output = parse_command_output(item.text)
    else:
        # Text blocks are drawn from ``item.text`` (string content or joined blocks); the rest
        # (images, documents, unknown blocks) one by one.
        view.blocks = [
            BlockView(_block_template(b), b) for b in item.blocks if not isinstance(b, TextBlock)
        ]
    return view


def _assistant_view(item: AssistantItem) -> ItemView:
    calls = {c.block.id: c for c in item.tool_calls if c.block.id}
    by_block = {id(c.block): c for c in item.tool_calls}
    blocks = []
    for index, block in enumerate(item.blocks):
        call = None
        if isinstance(block, ToolUseBlock):
            call = by_block.get(id(block)) or (calls.get(block.id) if block.id else None)
        blocks.append(BlockView(_block_template(block), block, call, index))
    return ItemView("items/assistant.html", item, item.anchor, "assistant", blocks=blocks)


def _item_view(item: Item, calls: dict[str, ToolCall]) -> ItemView | None:
    if isinstance(item, UserItem):
        return _user_view(item, calls)
    if isinstance(item, AssistantItem):
        return _assistant_view(item)
    event = event_view(item)
    template = (
        "items/compact_boundary.html"
        if event.kind == "system:compact_boundary"
        else "items/event.html"
    )
    return ItemView(template, item, item.anchor, "event", noisy=event.noisy, event=event)


def item_views(items: Sequence[Item], calls: dict[str, ToolCall]) -> list[ItemView]:
    """The views of ``items`` in order, repeated events quieted (:func:`quiet_repeats`).

    Tool-result messages whose results are all drawn inside their calls are left out.
    """
    views = []
    for item in items:
        view = _item_view(item, calls)
        if view is not None:
            views.append(view)
    return quiet_repeats(views)


def _repeat_key(event: EventView) -> tuple[str, str, str, str]:
    return (event.kind, event.label, event.summary, event.text)


def quiet_repeats(views: list[ItemView]) -> list[ItemView]:
    """Repeated events shown as one line with a count (in place, ``views`` returned).

    An event shown (not noisy, not an error) that says exactly what an earlier one said (a
    session renamed to the same title again and again), or that follows another of its kind
    with nothing shown between them but other events (queued prompts, hook lines), is folded
    into the first: that one counts them (``repeats``), each of the others names it
    (``repeat_of``) and is drawn folded, in its place; the count opens them, and "Show
    details" shows every one.
    """
    first_of: dict[tuple[str, str, str, str], ItemView] = {}
    run: ItemView | None = None
    for view in views:
        event = view.event
        if view.noisy:
            continue
        if event is None or event.level == "error" or view.template != "items/event.html":
            run = None
            continue
        key = _repeat_key(event)
        head = first_of.get(key)
        if (
            head is None
            and run is not None
            and run.event is not None
            and run.event.kind == event.kind
        ):
            head = run
        if head is None:
            first_of[key] = view
            run = view
            continue
        head.repeats = max(head.repeats, 1) + 1
        view.repeat_of = head.anchor
        view.noisy = True
    return views


class PageContext(msgspec.Struct, dict=True):
    """Everything a session page draws.

    ``items``: the main line; ``trailing_branches``: branches whose fork point is not on the
    main line; ``orphan_subagents``: subagent sessions no tool call claimed (drawn at the end);
    ``header``: the session's facts, worked out when first asked for (a subagent's items are
    drawn without them, and its figures cost as much as its drawing).
    """

    items: list[ItemView]
    trailing_branches: list[BranchView]
    orphan_subagents: list[Session]
    session: Session
    counts: SessionCounts | None = None

    @cached_property
    def header(self) -> SessionHeader:
        """The header facts (:func:`session_header`, with ``counts`` when given)."""
        return session_header(self.session, self.counts)


def _branch_label(items: Sequence[ItemView]) -> str:
    prompts = [v for v in items if isinstance(v.item, UserItem) and v.item.kind == "prompt"]
    count = sum(1 for v in items if v.role != "event")
    label = plural(count, "message")
    if prompts:
        assert isinstance(prompts[0].item, UserItem)
        first = " ".join(prompts[0].item.text.split())
        label += f", starting with “{first[:80]}{'…' if len(first) > 80 else ''}”"
    return label


def page_context(
    session: Session,
    *,
    show_branches: bool = True,
    views: Callable[[Sequence[Item], dict[str, ToolCall]], list[ItemView]] = item_views,
    counts: SessionCounts | None = None,
) -> PageContext:
    """The context of ``session``'s page (see :class:`PageContext`); ``counts`` as in
    :func:`session_header`."""
    calls = session.tool_calls
    main = views(fold_runs(session.main_line), calls)
    trailing: list[BranchView] = []
    if show_branches and session.branches:
        by_uuid: dict[str, ItemView] = {}
        for view in main:
            for entry in view.item.entries:
                uuid = getattr(entry.record, "uuid", None)
                if isinstance(uuid, str) and uuid:
                    by_uuid[uuid] = view
        for index, branch in enumerate(session.branches):
            branch_items = views(fold_runs(branch.items), calls)
            if not branch_items:
                continue
            branch_view = BranchView(index, branch.fork, branch_items, _branch_label(branch_items))
            host = by_uuid.get(branch.fork or "")
            if host is None:
                trailing.append(branch_view)
            else:
                host.branches.append(branch_view)
    if session.agent != "claude":
        named = (registry.speaker(session.agent), registry.label(session.agent))
        for each in [*main, *(v for b in trailing for v in b.items)]:
            each.speaker, each.agent_label = named
            for fork in each.branches:
                for inner in fork.items:
                    inner.speaker, inner.agent_label = named
    claimed = {id(agent) for call in calls.values() for agent in call.subagents}
    orphans = [agent for agent in session.subagents if id(agent) not in claimed]
    return PageContext(main, trailing, orphans, session, counts)
