"""The Markdown export: GitHub-flavoured, tool calls as fenced blocks, long output folded.

A tool call is its one-line summary, then what its prepared view shows
(:meth:`~cclens.render.prepared.PreparedView.text_parts`, as the page shows it): commands and
file contents as fenced code, diffs as ``diff``, outputs as text, named fields as a list,
checklists as task lists; then the result as the model saw it when the view shows none, else
the lines of it the view leaves out, folded. Messages keep their own markdown.

Raw HTML tags in transcript text are neutralised (``<`` written
as ``&lt;`` outside code) so a Markdown viewer that does not sanitise cannot be made to run
anything; the only HTML this writer emits is ``<details>``/``<summary>`` with escaped text.
Noisy records (progress, snapshots, successful hooks, listings) are left out, as on the page
before "show details".
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..figures.counts import SessionCounts
from ..formats import duration, plural, utc_time
from ..model import format_json, to_builtins
from ..model.blocks import (
    ImageBlock,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
)
from ..model.session import AssistantItem, Item, Session, ToolCall, UserItem
from ..readers import agents
from ..render.commands import parse_command, parse_command_output
from ..render.context import session_header
from ..render.events import event_view
from ..render.prepared import TextPart, below_summary
from ..render.runs import fold_runs
from ..render.tool_views import prepared_view, tool_summary
from ..render.unshown import unshown_lines
from .transform import JsonTransform, Transform, transform_session

__all__ = ["export_markdown", "fence", "neutralize_html"]

#: Results longer than this (lines or characters) go inside ``<details>``.
_FOLD_LINES = 20
_FOLD_CHARS = 2000
#: Results longer than this many characters are cut, with a note.
_MAX_RESULT = 100_000

_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: The only HTML lines this writer emits (the summary text is escaped, so it holds no "<").
_OWN_HTML = re.compile(r"^(<details><summary>[^<]*</summary>|</details>)$")


def fence(text: str, language: str = "") -> str:
    """``text`` in a fenced code block whose fence is longer than any backtick run inside."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{marks}{language}\n{body}{marks}"


def _escape_inline(line: str) -> str:
    out = []
    last = 0
    for match in _INLINE_CODE.finditer(line):
        out.append(_TAG_START.sub("&lt;", line[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_TAG_START.sub("&lt;", line[last:]))
    return "".join(out)


def neutralize_html(text: str) -> str:
    """``text`` with HTML tags outside code written as text (``&lt;tag``)."""
    if "<" not in text:
        return text
    lines = []
    open_fence: str | None = None
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if open_fence is not None:
            if (
                match
                and match.group(1)[0] == open_fence[0]
                and len(match.group(1)) >= len(open_fence)
            ):
                open_fence = None
            lines.append(line)
        elif match:
            open_fence = match.group(1)
            lines.append(line)
        elif _OWN_HTML.match(line):
            lines.append(line)
        else:
            lines.append(_escape_inline(line))
    return "\n".join(lines)


def _details(summary: str, body: str) -> str:
    return f"<details><summary>{html.escape(summary)}</summary>\n\n{body}\n\n</details>"


def _one_line(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _code_span(text: str) -> str:
    text = " ".join(text.split())
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    marks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{marks}{pad}{text}{pad}{marks}"


def _json(value: Any) -> str:
    return format_json(to_builtins(value)).decode()


_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]~])")


def _plain(text: str) -> str:
    """One line of text with Markdown's marks escaped."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", " ".join(text.split()))


def _folded(label: str, text: str, body: str, *, fold_label: str = "Output") -> str:
    """``body`` under ``label``, in ``<details>`` (named ``label``, else ``fold_label``) when
    ``text`` is long."""
    lines = text.count("\n") + 1
    if lines > _FOLD_LINES or len(text) > _FOLD_CHARS:
        return _details(f"{label or fold_label} ({plural(lines, 'line')})", body)
    return f"{_label(label)}:\n\n{body}" if label else body


def _label(text: str) -> str:
    """A label before a block: a path in code, words as they are."""
    path = any(c in text for c in "/\\.") and not any(c.isspace() for c in text)
    return _code_span(text) if path else _plain(text)


def _cut(text: str) -> tuple[str, str]:
    """``text`` cut to :data:`_MAX_RESULT` characters, and a note of what was left out."""
    if len(text) <= _MAX_RESULT:
        return text, ""
    return text[:_MAX_RESULT], f"\n\n*({len(text) - _MAX_RESULT:,} more characters not shown)*"


#: What a long block is called in its fold when it has no label of its own.
_FOLD_LABELS = {"code": "Content", "markdown": "Text", "stderr": "stderr", "error": "Error"}


def _block(part: TextPart) -> str:
    """A part that is a block of text: code, a diff, an output, prose. Long ones are folded,
    but for commands and diffs: they are what the call did."""
    text, cut = _cut(part.text)
    if part.kind == "markdown":
        body = neutralize_html(text) + cut
    else:
        language = part.language if part.kind in ("command", "code", "diff") else "text"
        body = fence(text, language) + cut
    label = part.label or ("Output" if part.kind in ("stdout", "result") else "")
    if part.kind in ("command", "diff"):
        return f"{_label(label)}:\n\n{body}" if label else body
    return _folded(label, part.text, body, fold_label=_FOLD_LABELS.get(part.kind, "Output"))


def _field(part: TextPart) -> str:
    value = part.text
    if "\n" in value.strip() or len(value) > 160:
        return f"- **{_plain(part.label)}:**\n\n" + "\n".join(
            "  " + line for line in fence(value, "text").split("\n")
        )
    label = f"**{_plain(part.label)}:** " if part.label else ""
    return f"- {label}{_code_span(value)}"


_ITEM_MARKS = {"completed": "[x]", "in_progress": "[ ]", "removed": "[ ]"}


def _item(part: TextPart) -> str:
    text = _plain(part.text)
    if part.label == "removed":
        return f"- [ ] ~~{text}~~ *(removed)*"
    mark = _ITEM_MARKS.get(part.label, "[ ]")
    state = " *(in progress)*" if part.label == "in_progress" else ""
    return f"- {mark} {text}{state}"


def _note(part: TextPart) -> str:
    return f"*{_plain(part.text)}*"


#: How each kind of part that is one line is written (the others are blocks); consecutive
#: fields and items make one list.
_LINES: dict[str, Callable[[TextPart], str]] = {"field": _field, "item": _item, "note": _note}


def _parts_markdown(parts: list[TextPart]) -> list[str]:
    """What a view shows, as Markdown blocks."""
    blocks: list[str] = []
    listed: list[str] = []
    for part in parts:
        line = _LINES.get(part.kind)
        if line is not None and part.kind != "note":
            listed.append(line(part))
            continue
        if listed:
            blocks.append("\n".join(listed))
            listed = []
        blocks.append(line(part) if line is not None else _block(part))
    if listed:
        blocks.append("\n".join(listed))
    return blocks


def _result_text(call: ToolCall) -> tuple[str, list[str]]:
    block = call.result_block
    if block is None:
        return "", []
    notes = []
    content = block.content
    if isinstance(content, list):
        for item in content:
            if isinstance(item, ImageBlock):
                media = item.source.media_type if item.source else ""
                notes.append(f"*(image{': ' + media if media else ''})*")
            elif not isinstance(item, TextBlock):
                notes.append(fence(_json(item), "json"))
    return block.text, notes


class _Writer:
    def __init__(self, speaker: str = "Claude") -> None:
        self.parts: list[str] = []
        #: Who answers in the session (``Claude``, ``Codex``).
        self.speaker = speaker

    def add(self, text: str) -> None:
        # Every part goes through neutralize_html: whatever field a string came from, its tags
        # are written as text. The writer's own <details> lines are recognised and kept.
        self.parts.append(neutralize_html(text))

    def session(self, session: Session, level: int) -> None:
        calls = session.tool_calls
        for item in fold_runs(session.main_line):
            self.item(item, calls, level)
        for index, branch in enumerate(session.branches):
            inner = _Writer(self.speaker)
            for item in fold_runs(branch.items):
                inner.item(item, calls, min(level + 1, 6))
            if inner.parts:
                where = f" (forks after {branch.fork})" if branch.fork else ""
                self.add(_details(f"Other branch {index + 1}{where}", "\n\n".join(inner.parts)))
        claimed = {id(a) for call in calls.values() for a in call.subagents}
        for agent in session.subagents:
            if id(agent) not in claimed:
                self.subagent(agent, level)

    def subagent(self, agent: Session, level: int) -> None:
        inner = _Writer(self.speaker)
        inner.session(agent, min(level + 1, 6))
        title = agent.title or agent.agent_id or agent.session_id
        kind = (agent.agent_meta or {}).get("agentType") if agent.agent_meta else None
        name = f"Subagent {kind}" if kind else "Subagent"
        label = f"{name}: {_one_line(title, 80)} ({len(agent.items)} items)"
        self.add(_details(label, "\n\n".join(inner.parts) or "*(empty)*"))

    def heading(self, level: int, text: str, item: Item) -> None:
        when = item.timestamp
        suffix = f" · {utc_time(when, seconds=True)}" if when else ""
        self.add(f"{'#' * level} {text}{suffix}")

    def item(self, item: Item, calls: Mapping[str, ToolCall], level: int) -> None:
        if isinstance(item, UserItem):
            self.user(item, calls, level)
        elif isinstance(item, AssistantItem):
            self.assistant(item, level)
        else:
            view = event_view(item)
            if view.noisy:
                return
            if view.kind == "system:compact_boundary":
                self.add(
                    f"---\n\n*{view.label}{': ' + view.summary if view.summary else ''}*\n\n---"
                )
                return
            line = f"> **{neutralize_html(view.label)}**"
            if view.summary:
                line += f" {neutralize_html(view.summary)}"
            if view.link is not None:
                label = neutralize_html(view.link.text).replace("[", "\\[").replace("]", "\\]")
                if view.link.url:
                    url = view.link.url
                    for char, code in ((" ", "%20"), ("<", "%3C"), (">", "%3E"), ("\n", "")):
                        url = url.replace(char, code)
                    line += f" [{label}](<{url}>)"
                else:
                    line += f" {label}"
            self.add(line)
            body = view.text or view.markdown
            if body:
                self.add(
                    _details("Details", fence(body, "text"))
                    if len(body) > 300
                    else fence(body, "text")
                )

    def user(self, item: UserItem, calls: Mapping[str, ToolCall], level: int) -> None:
        kind = item.kind
        if kind == "tool_results":
            orphans = [
                b for b in item.tool_results if not b.tool_use_id or b.tool_use_id not in calls
            ]
            for block in orphans:
                self.add(_details("Result of a call not in this file", fence(block.text, "text")))
            return
        if kind == "interrupt":
            self.add("> *Interrupted by the user*")
            return
        if kind == "command":
            command = parse_command(item.text)
            self.heading(level, "Command", item)
            self.add(_code_span(command.line) if command else fence(item.text, "text"))
            if command and command.contents:
                self.add(_details("Expanded prompt", neutralize_html(command.contents)))
            return
        if kind == "command_output":
            output = parse_command_output(item.text)
            if output.stdout:
                self.add(fence(output.stdout, "text"))
            if output.stderr:
                self.add(fence(output.stderr, "text"))
            return
        if kind == "compact_summary":
            self.add(_details("Summary of the earlier conversation", neutralize_html(item.text)))
            return
        if kind == "meta":
            return  # added by Claude Code, not typed by the user: hidden like on the page
        self.heading(level, "User", item)
        if item.text.strip():
            self.add(neutralize_html(item.text))
        for image in item.images:
            media = image.source.media_type if image.source else ""
            self.add(f"*(image{': ' + media if media else ''})*")

    def assistant(self, item: AssistantItem, level: int) -> None:
        model = item.model
        self.heading(
            level,
            f"{self.speaker}{' (' + model + ')' if model and model != '<synthetic>' else ''}",
            item,
        )
        calls = {id(c.block): c for c in item.tool_calls}
        for block in item.blocks:
            if isinstance(block, TextBlock):
                if block.text.strip():
                    self.add(neutralize_html(block.text))
            elif isinstance(block, ThinkingBlock):
                if block.thinking.strip():
                    self.add(_details("Thinking", neutralize_html(block.thinking)))
                else:
                    self.add("*Thinking: empty (only its signature was kept)*")
            elif isinstance(block, RedactedThinkingBlock):
                self.add("*Redacted thinking*")
            elif isinstance(block, ToolUseBlock):
                call = calls.get(id(block))
                if call is not None:
                    self.tool(call, level)
                else:
                    self.add(f"**{block.name}**\n\n" + fence(_json(block.input), "json"))
            elif isinstance(block, ImageBlock):
                self.add("*(image)*")
            else:
                self.add(fence(_json(block), "json"))

    def tool(self, call: ToolCall, level: int) -> None:
        view = prepared_view(call)
        head = f"**{_code_span(call.name)}**"
        summary = tool_summary(call)
        if summary:
            head += f" {_code_span(summary.line())}"
        flags = {
            "error": "error",
            "rejected": "rejected by user",
            "interrupted": "interrupted",
            "pending": "no result",
        }
        extra = [flags[call.status]] if call.status in flags else []
        extra += [_plain(text) for text, _ in view.badges]
        if call.duration is not None:
            extra.append(duration(call.duration))
        if extra:
            head += f" *({', '.join(extra)})*"
        self.add(head)
        shown = view.text_parts()
        for block in _parts_markdown(below_summary(shown, summary)):
            self.add(block)
        text, notes = _result_text(call)
        if any(part.result for part in shown):
            # The view showed the result: only the lines the model read besides, folded (but
            # for a failed call, whose error the view showed cleaned of its tags).
            failed = all(part.kind == "error" for part in shown if part.result)
            besides = "" if failed else unshown_lines([text], "\n".join(p.text for p in shown))
            if besides:
                kept, cut = _cut(besides)
                self.add(_details("What the model read besides", fence(kept, "text") + cut))
        else:
            if text:
                kept, cut = _cut(text)
                label = "Error" if call.is_error else "Output"
                self.add(_folded(label, text, fence(kept, "text") + cut))
            for note in notes:
                self.add(note)
        for agent in call.subagents:
            self.subagent(agent, level)


def _header(session: Session, counts: SessionCounts | None) -> Iterator[str]:
    header = session_header(session, counts)
    yield f"# {neutralize_html(_one_line(header.title, 200))}"
    facts = [
        f"- **Session:** `{header.session_id}` (resume with `{header.resume_command}`)",
        f"- **Project:** {_code_span(header.project)}",
    ]
    if header.cwd:
        facts.append(f"- **Directory:** {_code_span(header.cwd)}")
    if header.git_branches:
        facts.append(f"- **Git branch:** {', '.join(_code_span(b) for b in header.git_branches)}")
    if header.started:
        when = f"- **Started:** {utc_time(header.started, seconds=True)}"
        if header.ended:
            ended = utc_time(header.ended, seconds=True)
            when += f" · **Ended:** {ended} ({duration(header.duration)})"
        facts.append(when)
    if header.models:
        facts.append(f"- **Models:** {', '.join(_code_span(m) for m in header.models)}")
    if header.versions:
        versions = neutralize_html(", ".join(header.versions))
        facts.append(f"- **{header.agent_label}:** {versions}")
    facts += [f"- **{label}:** {neutralize_html(text)}" for label, text in header.facts()]
    yield "\n".join(facts)
    for diagnostic in header.diagnostics:
        said = "was read in part" if diagnostic.partial else "could not be read"
        where = f"Line {diagnostic.line}"
        if diagnostic.repeats:  # a run of lines with the same problem
            where = f"Lines {diagnostic.span} ({diagnostic.count:,} lines)"
            said = "were read in part" if diagnostic.partial else "could not be read"
        yield f"> {where} {said}: {neutralize_html(diagnostic.reason)}"
    yield "---"


def export_markdown(
    session: Session,
    *,
    transform: Transform | None = None,
    json_transform: JsonTransform | None = None,
    counts: SessionCounts | None = None,
) -> str:
    """``session`` as GitHub-flavoured Markdown, after ``transform``/``json_transform``;
    ``counts``: its figures as the index counts them (see
    :func:`cclens.render.context.session_header`)."""
    session = transform_session(session, transform, json_transform=json_transform)
    writer = _Writer(agents.speaker(session.agent))
    writer.parts.extend(_header(session, counts))
    writer.session(session, 2)
    return "\n\n".join(writer.parts) + "\n"
