"""The Markdown export: GitHub-flavoured, tool calls as fenced blocks, long output folded.

Messages keep their own markdown. Raw HTML tags in transcript text are neutralised (``<`` written
as ``&lt;`` outside code) so a Markdown viewer that does not sanitise cannot be made to run
anything; the only HTML this writer emits is ``<details>``/``<summary>`` with escaped text.
Noisy records (progress, snapshots, successful hooks, listings) are left out, as on the page
before "show details".
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..figures.counts import SessionCounts
from ..formats import duration, utc_time
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
from ..render.diff import build_hunks
from ..render.events import event_view
from ..render.lexers import lexer_for
from ..render.tool_views import tool_summary
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


def _language(path: Any) -> str:
    if not isinstance(path, str):
        return ""
    lexer = lexer_for(filename=path)
    return (lexer.aliases[0] if lexer is not None and lexer.aliases else "") if lexer else ""


def _unified(hunks: list[Any]) -> str:
    lines = []
    for hunk in hunks:
        numbered = hunk.old_start is not None and hunk.new_start is not None
        lines.append(f"@@ -{hunk.old_start} +{hunk.new_start} @@" if numbered else "@@")
        marks = {"add": "+", "del": "-", "ctx": " ", "note": ""}
        lines.extend(marks[line.kind] + line.text for line in hunk.lines)
    return "\n".join(lines)


def _todo_list(todos: list[Any]) -> str:
    marks = {"completed": "[x]", "in_progress": "[ ] *(in progress)*"}
    lines = []
    for todo in todos:
        if isinstance(todo, Mapping):
            mark = marks.get(str(todo.get("status")), "[ ]")
            text = neutralize_html(_one_line(str(todo.get("content", ""))))
            lines.append(f"- {mark} {text}")
    return "\n".join(lines) or "*(empty list)*"


def _tool_input(call: ToolCall) -> str:
    raw = call.block.input
    data: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    result = call.raw_result if isinstance(call.raw_result, Mapping) else {}
    patch = result.get("structuredPatch") if result else None
    path = data.get("file_path") or data.get("notebook_path")
    if isinstance(data.get("command"), str):
        return fence(data["command"], "bash")
    spec = call.spec
    if spec.family == "shell" and spec.summary is not None:
        # Another agent's command (an argument list, ``cmd``...) as its tool words it.
        worded = spec.summary(call.input)
        if worded:
            return fence(worded, "bash")
    if spec.family == "files" and isinstance(data.get("input"), str):
        return fence(data["input"], "diff")  # a patch given as the tool's raw text
    if patch or isinstance(data.get("old_string"), str) or isinstance(data.get("edits"), list):
        if patch:
            hunks = build_hunks(patch)
        elif isinstance(data.get("edits"), list):
            hunks = []
            for edit in data["edits"]:
                if isinstance(edit, Mapping):
                    hunks.extend(
                        build_hunks(
                            None,
                            old=str(edit.get("old_string", "")),
                            new=str(edit.get("new_string", "")),
                        )
                    )
        else:
            hunks = build_hunks(
                None, old=str(data.get("old_string", "")), new=str(data.get("new_string", ""))
            )
        head = f"`{path}`\n\n" if isinstance(path, str) else ""
        return head + fence(_unified(hunks), "diff")
    if isinstance(data.get("todos"), list):
        return _todo_list(data["todos"])
    if isinstance(data.get("prompt"), str) and call.spec.spawns_subagent:
        kind = data.get("subagent_type")
        head = f"Agent type: `{kind}`\n\n" if isinstance(kind, str) else ""
        return head + _details("Prompt", neutralize_html(data["prompt"]))
    if isinstance(data.get("content"), str) and isinstance(path, str):
        return f"`{path}`\n\n" + fence(data["content"], _language(path))
    return fence(_json(raw), "json")


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
        for item in session.main_line:
            self.item(item, calls, level)
        for index, branch in enumerate(session.branches):
            inner = _Writer(self.speaker)
            for item in branch.items:
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
        head = f"**{_code_span(call.name)}**"
        summary = tool_summary(call).line()
        if summary:
            head += f" {_code_span(summary)}"
        flags = {
            "error": "error",
            "rejected": "rejected by user",
            "interrupted": "interrupted",
            "pending": "no result",
        }
        extra = [flags[call.status]] if call.status in flags else []
        if call.duration is not None:
            extra.append(duration(call.duration))
        if extra:
            head += f" *({', '.join(extra)})*"
        self.add(head)
        self.add(_tool_input(call))
        text, notes = _result_text(call)
        if text:
            shown = text if len(text) <= _MAX_RESULT else text[:_MAX_RESULT]
            body = fence(shown, "text")
            if len(shown) < len(text):
                body += f"\n\n*({len(text) - len(shown):,} more characters not shown)*"
            lines = text.count("\n") + 1
            label = "Error" if call.is_error else "Output"
            if lines > _FOLD_LINES or len(text) > _FOLD_CHARS:
                self.add(_details(f"{label} ({lines} lines)", body))
            else:
                self.add(f"{label}:\n\n{body}")
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
        yield f"> Line {diagnostic.line} {said}: {neutralize_html(diagnostic.reason)}"
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
