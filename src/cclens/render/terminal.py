"""A session as Rich renderables, for the terminal (``cclens show``).

The same choices as the page, in text: prompts and answers as markdown, thinking folded to its
first line, each tool call as one line (its summary) then what its prepared view shows
(:meth:`~cclens.render.prepared.PreparedView.text_parts`: commands, file contents and diffs
highlighted, outputs, fields, checklists; each cut to ``result_lines`` lines) and the result as
the model saw it when the view shows none, system records as dim lines (noisy ones only with
``details``), subagents summarised or nested. Text from the transcript is stripped of terminal
control sequences before it is drawn, so a transcript cannot move the cursor or retitle the
terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from ..figures.counts import SessionCounts
from ..formats import clock, duration, plural, utc_time
from ..model.blocks import ImageBlock, RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock
from ..model.session import AssistantItem, Item, Session, ToolCall, UserItem
from ..readers import agents
from .commands import parse_command, parse_command_output
from .context import session_header
from .events import event_view, strip_ansi
from .prepared import TextPart, below_summary
from .runs import fold_runs
from .tool_views import prepared_view, tool_summary
from .tool_views.tasks import status_icon

__all__ = ["TerminalOptions", "session_renderables"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """``text`` without terminal escape sequences or control characters (tabs and newlines stay)."""
    return _CONTROL.sub("", strip_ansi(text))


@dataclass(frozen=True)
class TerminalOptions:
    """``details``: show noisy records; ``result_lines``: lines of each part of a tool call
    shown (a file, a diff, an output; 0 for all); ``subagents``: draw subagent conversations
    in full rather than as one line; ``counts``: the session's figures as the index counts them (see
    :func:`cclens.render.context.session_header`)."""

    details: bool = False
    result_lines: int = 12
    subagents: bool = False
    counts: SessionCounts | None = None


_STATUS_STYLE = {
    "error": "bold red",
    "rejected": "yellow",
    "interrupted": "yellow",
    "pending": "dim",
}
_BADGE_STYLE = {"error": "red", "warn": "yellow", "ok": "green", "info": "cyan"}
_STATUS_TEXT = {
    "error": "error",
    "rejected": "rejected by user",
    "interrupted": "interrupted",
    "pending": "no result",
}


def _header(session: Session, counts: SessionCounts | None) -> RenderableType:
    header = session_header(session, counts)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column()

    def row(name: str, value: str) -> None:
        # Text, not str: a plain string would be read as console markup ("[red]" in a title).
        grid.add_row(Text(name), Text(clean(value)))

    row("Project", header.project)
    if header.cwd:
        row("Directory", header.cwd)
    if header.git_branches:
        row("Git branch", ", ".join(header.git_branches))
    if header.started:
        when = utc_time(header.started, seconds=True)
        if header.ended:
            when += f" → {utc_time(header.ended, seconds=True)} ({duration(header.duration)})"
        row("Time", when)
    if header.models:
        row("Models", ", ".join(header.models))
    if header.versions:
        row(header.agent_label, ", ".join(header.versions))
    for label, text in header.facts():
        row(label, text)
    row("Resume", header.resume_command)
    for diagnostic in header.diagnostics:
        label = "Read in part" if diagnostic.partial else "Unreadable"
        grid.add_row(Text(label, style="yellow"), Text(clean(str(diagnostic))))
    return Panel(grid, title=Text(clean(header.title), style="bold"), title_align="left")


def _markdown(text: str) -> RenderableType:
    return Markdown(clean(text), code_theme="ansi_dark", hyperlinks=False)


def _head(label: str, style: str, item: Item, extra: str = "") -> Text:
    text = Text()
    text.append(label, style=style)
    if extra:
        text.append(f"  {clean(extra)}", style="dim")
    if item.timestamp:
        text.append(f"  {clock(item.timestamp)}", style="dim")
    return text


def _lines(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut to ``limit`` lines (0: all), and how many lines were left out."""
    lines = clean(text).rstrip("\n").split("\n")
    shown = lines if limit <= 0 else lines[:limit]
    return "\n".join(shown), len(lines) - len(shown)


def _more(count: int) -> Text:
    return Text(f"… {plural(count, 'more line')}", style="italic dim")


def _result_lines(text: str, limit: int, style: str = "dim") -> RenderableType:
    shown, more = _lines(text, limit)
    out = Text(shown, style=style)
    if more:
        out.append("\n")
        out.append(_more(more))
    return out


def _code(part: TextPart, limit: int) -> RenderableType:
    shown, more = _lines(part.text, limit)
    code = Syntax(shown, part.language or "text", theme="ansi_dark", word_wrap=True)
    return Group(code, _more(more)) if more else code


def _prose(part: TextPart, limit: int) -> RenderableType:
    shown, more = _lines(part.text, limit)
    return Group(_markdown(shown), _more(more)) if more else _markdown(shown)


_ITEM_STYLES = {"completed": "dim", "removed": "dim strike"}

#: How each kind of part of a tool call is drawn (fields are gathered in a table).
_PARTS: dict[str, Callable[[TextPart, int], RenderableType]] = {
    "command": _code,
    "code": _code,
    "diff": _code,
    "markdown": _prose,
    "stdout": lambda part, limit: _result_lines(part.text, limit),
    "result": lambda part, limit: _result_lines(part.text, limit),
    "stderr": lambda part, limit: _result_lines(part.text, limit, "red"),
    "error": lambda part, limit: _result_lines(part.text, limit, "red"),
    "note": lambda part, limit: Text(clean(part.text), style="italic dim"),
    "item": lambda part, limit: Text(
        f"{status_icon(part.label)} {clean(part.text)}", style=_ITEM_STYLES.get(part.label, "")
    ),
}


def _parts(parts: list[TextPart], limit: int) -> Iterator[RenderableType]:
    """What a view shows, each part under its label; consecutive fields as one table."""
    fields: Table | None = None
    for part in parts:
        if part.kind == "field":
            if fields is None:
                fields = Table.grid(padding=(0, 2))
                fields.add_column(style="dim")
                fields.add_column()
            fields.add_row(Text(clean(part.label)), _result_lines(part.text, limit, ""))
            continue
        if fields is not None:
            yield fields
            fields = None
        if part.label and part.kind not in ("item", "note"):
            yield Text(clean(part.label), style="bold dim")
        yield _PARTS[part.kind](part, limit)
    if fields is not None:
        yield fields


def _tool(call: ToolCall, options: TerminalOptions, depth: int) -> Iterator[RenderableType]:
    view = prepared_view(call)
    line = Text("⚙ ", style="cyan")
    line.append(clean(call.name), style="bold cyan")
    summary = tool_summary(call)
    if summary:
        line.append(f"  {clean(summary.line())}")
    if call.status in _STATUS_TEXT:
        line.append(f"  [{_STATUS_TEXT[call.status]}]", style=_STATUS_STYLE[call.status])
    for text, kind in view.badges:
        line.append(f"  [{clean(text)}]", style=_BADGE_STYLE.get(kind, "dim"))
    if call.duration is not None:
        line.append(f"  {duration(call.duration)}", style="dim")
    yield line
    parts = view.text_parts()
    below = below_summary(parts, summary, ("field", "command"))
    for renderable in _parts(below, options.result_lines):
        yield Padding(renderable, (0, 0, 0, 2))
    text = call.result_text
    if text.strip() and not any(part.result for part in parts):
        style = "red" if call.is_error else "dim"
        yield Padding(_result_lines(text, options.result_lines, style), (0, 0, 0, 2))
    for agent in call.subagents:
        yield from _subagent(agent, options, depth)


def _subagent(agent: Session, options: TerminalOptions, depth: int) -> Iterator[RenderableType]:
    title = clean(agent.title or agent.agent_id or agent.session_id)
    label = Text(f"↳ Subagent: {title}", style="magenta")
    label.append(f"  ({len(agent.items)} items)", style="dim")
    yield Padding(label, (0, 0, 0, 2))
    if options.subagents and depth < 6:
        inner = list(_items(agent, options, depth + 1))
        yield Padding(Group(*inner), (0, 0, 0, 4))


def _assistant(
    item: AssistantItem, options: TerminalOptions, depth: int, speaker: str = "Claude"
) -> Iterator[RenderableType]:
    model = item.model if item.model and item.model != "<synthetic>" else ""
    yield _head(f"◆ {speaker}", "bold green", item, model)
    calls = {id(c.block): c for c in item.tool_calls}
    for block in item.blocks:
        if isinstance(block, TextBlock):
            if block.text.strip():
                yield _markdown(block.text)
        elif isinstance(block, ThinkingBlock):
            thought = " ".join(block.thinking.split())
            if thought:
                short = thought if len(thought) <= 160 else thought[:159] + "…"
                yield Text(f"✻ Thinking: {clean(short)}", style="italic dim magenta")
            else:
                yield Text("✻ Thinking: empty (only its signature was kept)", style="italic dim")
        elif isinstance(block, RedactedThinkingBlock):
            yield Text("✻ Redacted thinking", style="italic dim")
        elif isinstance(block, ToolUseBlock):
            call = calls.get(id(block))
            if call is not None:
                yield from _tool(call, options, depth)
        elif isinstance(block, ImageBlock):
            yield Text("[image]", style="dim")


def _user(item: UserItem) -> Iterator[RenderableType]:
    kind = item.kind
    if kind == "prompt":
        yield _head("▶ You", "bold blue", item)
        yield _markdown(item.text) if item.text.strip() else Text("(empty prompt)", style="dim")
        for _ in item.images:
            yield Text("[image]", style="dim")
    elif kind == "command":
        command = parse_command(item.text)
        yield _head("▶ Command", "bold blue", item, command.line if command else item.text)
    elif kind == "command_output":
        output = parse_command_output(item.text)
        if output.stdout:
            yield Padding(Text(clean(output.stdout), style="dim"), (0, 0, 0, 2))
        if output.stderr:
            yield Padding(Text(clean(output.stderr), style="red"), (0, 0, 0, 2))
    elif kind == "interrupt":
        yield Text("⏹ Interrupted by the user", style="yellow")
    elif kind == "compact_summary":
        yield Text("Summary of the earlier conversation (written at compaction)", style="dim")


def _items(session: Session, options: TerminalOptions, depth: int) -> Iterator[RenderableType]:
    speaker = agents.speaker(session.agent)
    for item in fold_runs(session.main_line):
        if isinstance(item, UserItem):
            yield from _user(item)
        elif isinstance(item, AssistantItem):
            yield from _assistant(item, options, depth, speaker)
        else:
            view = event_view(item)
            if view.noisy and not options.details:
                continue
            if view.kind == "system:compact_boundary":
                yield Rule(Text(f"{view.label} {clean(view.summary)}"), style="yellow")
                continue
            style = {"error": "red", "warn": "yellow"}.get(view.level, "dim")
            line = Text(f"· {view.label}", style=style)
            if view.summary:
                line.append(f"  {clean(view.summary)}", style="dim")
            if view.link is not None:
                line.append(f"  {clean(view.link.text)}")
                if view.link.url:
                    line.append(f" <{clean(view.link.url)}>", style="dim")
            yield line


def session_renderables(
    session: Session, options: TerminalOptions = TerminalOptions()
) -> Iterator[RenderableType]:
    """``session`` as Rich renderables, header first, in reading order."""
    yield _header(session, options.counts)
    yield from _items(session, options, 0)
    if session.branches:
        count = len(session.branches)
        yield Text(
            f"{plural(count, 'other branch', 'other branches')} not shown (see the HTML export)",
            style="dim",
        )
