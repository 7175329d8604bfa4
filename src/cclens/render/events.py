"""Compact views of the records that are not messages: system events, attachments, progress
and session metadata.

Each record becomes an :class:`EventView`: a label, a level, a one-line summary, an optional body
and whether it is *noisy* (drawn only when the reader asks for details). The choice is made by
tables keyed on the record's kind, with one fallback that shows any record as its JSON, so a kind
cclens does not know yet is shown, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from ..formats import compact, duration
from ..model import UNSET, to_builtins
from ..model._base import UNKNOWN_TAG
from ..model.attachments import Attachment
from ..model.progress import ProgressData
from ..model.records import (
    AgentNameRecord,
    AiTitleRecord,
    CustomTitleRecord,
    FrameLinkRecord,
    ModeRecord,
    PermissionModeRecord,
    PrLinkRecord,
    QueueOperationRecord,
    Record,
    RelocatedRecord,
    SummaryRecord,
    SystemRecord,
    TagRecord,
    UnknownRecord,
    WorkflowResultRecord,
    WorkflowStartedRecord,
    WorktreeStateRecord,
)
from ..model.session import AttachmentItem, Item, ProgressItem, SystemItem
from .markdown import is_safe_url
from .runs import SHOWN, FoldedRun

__all__ = ["EventView", "Link", "event_view", "strip_ansi"]

Level = Literal["info", "warn", "error", "muted"]
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def strip_ansi(text: str) -> str:
    """``text`` without terminal colour and cursor escape sequences."""
    return _ANSI.sub("", text) if "\x1b" in text else text


class Link(msgspec.Struct, frozen=True):
    """A link to draw; ``url`` is ``None`` when the URL is not a safe scheme (text only)."""

    text: str
    url: str | None


class EventView(msgspec.Struct, frozen=True):
    """What the ``items/event.html`` template draws for one non-message record.

    ``kind`` names the record (``system:api_error``, ``attachment:hook_success``, ``meta:pr-link``)
    and becomes ``data-kind``; ``text`` is a preformatted body, ``markdown`` a markdown body;
    ``raw`` is the record's JSON, shown behind a toggle.
    """

    kind: str
    label: str
    summary: str = ""
    level: Level = "info"
    noisy: bool = False
    text: str = ""
    markdown: str = ""
    link: Link | None = None
    raw: Any = None
    fields: list[tuple[str, Any]] = msgspec.field(default_factory=list)


def _tag(value: Any) -> str:
    raw = getattr(value, "raw", None)
    tag = str(type(value).__struct_config__.tag)
    if tag == UNKNOWN_TAG:
        return str(raw.get("type", "(none)")) if isinstance(raw, dict) else "(none)"
    return tag


def _one_line(text: Any, limit: int = 160) -> str:
    if not isinstance(text, str):
        return ""
    line = " ".join(strip_ansi(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _text_of(value: Any) -> str:
    """A readable text for a loosely typed ``content``: strings as they are, lists joined."""
    if isinstance(value, str):
        return strip_ansi(value)
    if isinstance(value, list):
        parts = [
            _text_of(v) if not isinstance(v, dict) else _text_of(v.get("text", "")) for v in value
        ]
        return "\n".join(p for p in parts if p)
    return ""


def _error_message(error: Any) -> str:
    """The message inside an API error value, however deeply the API nested it."""
    for _ in range(4):
        if isinstance(error, dict):
            message = error.get("message")
            if isinstance(message, str) and message:
                return message
            error = error.get("error")
        elif isinstance(error, str):
            return error
        else:
            break
    return ""


# --- system records -------------------------------------------------------------------------


def _system_compact(record: SystemRecord) -> EventView:
    meta = record.compact_metadata or None
    trigger = (meta.trigger if meta else None) or record.trigger or ""
    pre = meta.pre_tokens if meta else None
    parts = [f"{trigger} compaction" if trigger else ""]
    if pre:
        parts.append(f"{compact(pre)} tokens before")
    post = meta.post_tokens if meta else None
    if post:
        parts.append(f"{compact(post)} after")
    return EventView(
        "system:compact_boundary",
        "Conversation compacted",
        " · ".join(p for p in parts if p),
        "warn",
        text=_text_of(record.content)
        if record.content and record.content != "Conversation compacted"
        else "",
    )


def _system_api_error(record: SystemRecord) -> EventView:
    message = (
        _error_message(record.error) or _error_message(record.cause) or _text_of(record.content)
    )
    retry = ""
    if record.retry_attempt:
        retry = f"attempt {record.retry_attempt}"
        if record.max_retries:
            retry += f" of {record.max_retries}"
        if record.retry_in_ms:
            retry += f", retrying in {duration(record.retry_in_ms / 1000)}"
    return EventView(
        "system:api_error",
        "API error",
        " · ".join(p for p in (_one_line(message), retry) if p),
        "error",
        text=message if len(message) > 160 else "",
    )


def _system_refusal(record: SystemRecord) -> EventView:
    subtype = record.subtype or "api_refusal"
    if subtype == "model_refusal_fallback":
        summary = f"fell back from {record.original_model or '?'} to {record.fallback_model or '?'}"
        return EventView(
            f"system:{subtype}", "Model refused", summary, "warn", text=_text_of(record.content)
        )
    summary = " · ".join(
        p
        for p in (record.api_refusal_category or "", _one_line(record.api_refusal_explanation))
        if p
    )
    return EventView(
        f"system:{subtype}", "API refusal", summary, "error", text=_text_of(record.content)
    )


def _system_turn(record: SystemRecord) -> EventView:
    summary = duration((record.duration_ms or 0) / 1000)
    if record.message_count:
        summary += f" · {record.message_count} messages"
    return EventView("system:turn_duration", "Turn took", summary, "muted")


def _system_hooks(record: SystemRecord) -> EventView:
    errors = [e for e in (record.hook_errors or []) if e]
    infos = record.hook_infos or []
    commands = ", ".join(_one_line(i.command, 60) for i in infos if i.command)
    summary = f"{record.hook_count or len(infos)} hook(s)"
    if commands:
        summary += f": {commands}"
    if record.prevented_continuation:
        summary += " · stopped the turn"
    failed = bool(errors) or record.prevented_continuation is True
    text = "\n".join(_text_of(e) if not isinstance(e, dict) else _one_line(str(e)) for e in errors)
    return EventView(
        "system:stop_hook_summary",
        "Stop hooks",
        summary,
        "error" if errors else ("warn" if failed else "muted"),
        noisy=not failed,
        text=text,
    )


def _system_local_command(record: SystemRecord) -> EventView:
    text = _text_of(record.content)
    text = re.sub(
        r"</?(local-command-stdout|local-command-stderr|command-name|command-message|command-args)>",
        "",
        text,
    )
    return EventView(
        "system:local_command",
        "Local command",
        _one_line(text, 100),
        "info",
        text=text if "\n" in text.strip() or len(text) > 100 else "",
    )


def _system_markdown(label: str, level: Level = "info") -> Callable[[SystemRecord], EventView]:
    def build(record: SystemRecord) -> EventView:
        text = _text_of(record.content)
        return EventView(f"system:{record.subtype or '(none)'}", label, "", level, markdown=text)

    return build


def _system_default(record: SystemRecord) -> EventView:
    text = _text_of(record.content)
    level: Level = (
        "error" if record.level == "error" else ("warn" if record.level == "warning" else "info")
    )
    subtype = record.subtype or ""
    label = subtype.replace("_", " ").capitalize() if subtype else "System"
    if subtype == "error":
        level = "error"
        text = text or _error_message(record.error)
    one = _one_line(text)
    return EventView(
        f"system:{subtype or '(none)'}",
        label,
        one,
        level,
        # Old untyped system messages are mostly tool-permission and hook notices: short and noisy.
        noisy=not subtype and level == "info" and record.is_meta is True,
        text=text if one != " ".join(text.split()) else "",
    )


_SYSTEM: dict[str, Callable[[SystemRecord], EventView]] = {
    "compact_boundary": _system_compact,
    "microcompact_boundary": lambda r: EventView(
        "system:microcompact_boundary", "Context micro-compacted", "", "muted"
    ),
    "api_error": _system_api_error,
    "api_refusal": _system_refusal,
    "model_refusal_fallback": _system_refusal,
    "model_refusal_no_fallback": _system_refusal,
    "turn_duration": _system_turn,
    "stop_hook_summary": _system_hooks,
    "local_command": _system_local_command,
    "away_summary": _system_markdown("While you were away"),
    "memory_saved": _system_markdown("Memory saved"),
    "session_start": lambda r: EventView(
        "system:session_start",
        "Session started",
        _one_line(_text_of(r.content)),
        "muted",
        noisy=True,
    ),
}


def _system(item: SystemItem) -> EventView:
    record = item.record
    subtype = record.subtype or ""
    if ":" in subtype:
        # Another agent's bookkeeping (Copilot CLI's turn and tool-start events): its reader
        # names it ``<agent>:<kind>``; shown with the details.
        label = subtype.replace(":", ": ", 1)
        text = _one_line(_text_of(record.content))
        return EventView(f"system:{subtype}", label, text, "muted", noisy=True)
    return _SYSTEM.get(subtype, _system_default)(record)


# --- attachments ----------------------------------------------------------------------------

#: Attachment kinds and how to show them: label, level, noisy.
_ATTACHMENTS: dict[str, tuple[str, Level, bool]] = {
    "hook_success": ("Hook ran", "muted", True),
    "hook_non_blocking_error": ("Hook error", "warn", False),
    "hook_blocking_error": ("Hook blocked", "error", False),
    "hook_additional_context": ("Hook added context", "info", False),
    "hook_cancelled": ("Hook cancelled", "warn", False),
    "hook_error_during_execution": ("Hook failed", "error", False),
    "hook_stopped_continuation": ("Hook stopped the turn", "warn", False),
    "hook_system_message": ("Hook message", "info", False),
    "hook_permission_decision": ("Hook permission decision", "info", False),
    "async_hook_response": ("Async hook response", "muted", True),
    "agent_listing_delta": ("Agents listed", "muted", True),
    "command_permissions": ("Command permissions", "muted", True),
    "deferred_tools_delta": ("Deferred tools listed", "muted", True),
    "mcp_instructions_delta": ("MCP instructions", "muted", True),
    "skill_listing": ("Skills listed", "muted", True),
    "edited_text_file": ("File edited outside Claude", "info", False),
    "file": ("File attached", "info", False),
    "compact_file_reference": ("File kept after compaction", "muted", True),
    "pdf_reference": ("PDF attached", "info", False),
    "already_read_file": ("File already read", "muted", True),
    "nested_memory": ("Memory file loaded", "muted", True),
    "memory": ("Memory", "muted", True),
    "opened_file_in_ide": ("Opened in IDE", "muted", True),
    "selected_lines_in_ide": ("Selected in IDE", "info", False),
    "directory": ("Directory attached", "info", False),
    "plan_file_reference": ("Plan file", "info", False),
    "diagnostics": ("Diagnostics", "warn", False),
    "mcp_resource": ("MCP resource", "info", False),
    "queued_command": ("Queued prompt", "info", False),
    "task_reminder": ("Task reminder", "muted", True),
    "todo_reminder": ("Todo reminder", "muted", True),
    "date_change": ("Date changed", "muted", False),
    "read_truncation_notice": ("Read truncated", "muted", True),
    "invoked_skills": ("Skills invoked", "info", False),
    "dynamic_skill": ("Skill discovered", "muted", True),
    "auto_mode": ("Auto mode", "info", False),
    "plan_mode": ("Plan mode", "info", False),
    "plan_mode_exit": ("Plan mode ended", "info", False),
    "plan_mode_reentry": ("Plan mode re-entered", "info", False),
    "task_status": ("Background task", "info", False),
    "ultra_effort_enter": ("Ultra effort on", "info", False),
    "ultra_effort_exit": ("Ultra effort off", "info", False),
    "budget_usd": ("Budget", "muted", False),
    "total_tokens_reminder": ("Token reminder", "muted", True),
    "batching_reminder_sent": ("Batching reminder", "muted", True),
    "silent_turn_reminder": ("Silent turn reminder", "muted", True),
    "critical_system_reminder": ("System reminder", "muted", True),
    "compact_reminder": ("Compaction reminder", "muted", True),
    "output_style": ("Output style", "muted", True),
    "token_usage": ("Token usage", "muted", True),
    "teammate_mailbox": ("Teammate messages", "info", False),
}
#: Fields whose value makes a good one-line summary, in order of preference.
_SUMMARY_FIELDS = (
    "hookEvent",
    "displayPath",
    "filename",
    "path",
    "prompt",
    "newDate",
    "description",
    "style",
    "banner",
    "text",
    "content",
)
#: Fields shown as the body, preformatted, in this order.
_BODY_FIELDS = (
    "stdout",
    "stderr",
    "content",
    "blockingError",
    "text",
    "planContent",
    "snippet",
    "banner",
)


def _attachment(item: AttachmentItem) -> EventView:
    attachment = item.record.attachment
    raw = to_builtins(attachment) if attachment is not UNSET else {}
    tag = _tag(attachment) if isinstance(attachment, Attachment) else "(none)"
    label, level, noisy = _ATTACHMENTS.get(tag, (f"Attachment {tag}", "info", False))
    data = raw if isinstance(raw, dict) else {}
    summary = ""
    if tag.startswith("hook") or tag == "async_hook_response":
        summary = " ".join(str(data.get(k)) for k in ("hookEvent", "hookName") if data.get(k))
        exit_code = data.get("exitCode")
        if isinstance(exit_code, int) and exit_code != 0:
            summary += f" · exit {exit_code}"
    elif tag in (
        "queued_command",
        "task_status",
        "budget_usd",
        "token_usage",
        "auto_mode",
        "plan_mode",
    ):
        summary = _one_line(data.get("prompt") if isinstance(data.get("prompt"), str) else "")
        if tag == "task_status":
            summary = " · ".join(str(data[k]) for k in ("status", "description") if data.get(k))
        elif tag in ("budget_usd", "token_usage"):
            summary = " · ".join(
                f"{k} {data[k]}" for k in ("used", "total", "remaining") if k in data
            )
    if not summary:
        summary = next(
            (
                _one_line(data[k])
                for k in _SUMMARY_FIELDS
                if isinstance(data.get(k), str) and data.get(k)
            ),
            "",
        )
    body = "\n\n".join(
        _text_of(data[k])
        for k in _BODY_FIELDS
        if isinstance(data.get(k), str | list) and _text_of(data[k]).strip()
    )
    if " ".join(body.split()) == summary:
        body = ""
    return EventView(f"attachment:{tag}", label, summary, level, noisy=noisy, text=body)


# --- progress ---------------------------------------------------------------------------------


def _progress(item: ProgressItem) -> EventView:
    data = item.record.data
    tag = _tag(data) if isinstance(data, ProgressData) else "(none)"
    raw = to_builtins(data) if data is not UNSET else {}
    fields = raw if isinstance(raw, dict) else {}
    summary = " · ".join(
        _one_line(str(fields[k]), 80)
        for k in (
            "hookEvent",
            "hookName",
            "statusMessage",
            "serverName",
            "toolName",
            "query",
            "taskDescription",
        )
        if fields.get(k)
    )
    return EventView(
        f"progress:{tag}", f"Progress ({tag.replace('_', ' ')})", summary, "muted", noisy=True
    )


# --- metadata records -------------------------------------------------------------------------


def _link(text: str, url: Any) -> Link:
    return Link(
        text, url if isinstance(url, str) and is_safe_url(url) and not url.startswith("#") else None
    )


def _meta(record: Any) -> EventView:
    kind = record.kind if isinstance(record, Record | UnknownRecord) else "(none)"
    key = f"meta:{kind}"
    if isinstance(record, SummaryRecord):
        return EventView(key, "Summary title", _one_line(record.summary or "", 200), "muted")
    if isinstance(record, AiTitleRecord):
        return EventView(key, "Title", _one_line(record.ai_title or "", 200), "muted")
    if isinstance(record, CustomTitleRecord):
        return EventView(key, "Renamed", _one_line(record.custom_title or "", 200), "info")
    if isinstance(record, TagRecord):
        return EventView(key, "Tag", record.tag or "(cleared)", "info")
    if isinstance(record, PermissionModeRecord):
        return EventView(key, "Permission mode", record.permission_mode or "", "info")
    if isinstance(record, ModeRecord):
        return EventView(key, "Mode", record.mode or "", "info")
    if isinstance(record, AgentNameRecord):
        return EventView(key, "Agent name", record.agent_name or "", "info")
    if isinstance(record, PrLinkRecord):
        text = f"Pull request #{record.pr_number or '?'}"
        if record.pr_repository:
            text += f" in {record.pr_repository}"
        return EventView(key, "Pull request", "", "info", link=_link(text, record.pr_url))
    if isinstance(record, FrameLinkRecord):
        return EventView(
            key,
            "Link",
            record.path or "",
            "info",
            link=_link(record.title or record.frame_url or "link", record.frame_url),
        )
    if isinstance(record, QueueOperationRecord):
        operation = record.operation or ""
        content = _text_of(record.content)
        return EventView(
            key,
            "Queued prompt" if operation == "enqueue" else f"Queue {operation}",
            _one_line(content),
            "info",
            noisy=operation != "enqueue",
            text=content if len(content) > 160 or "\n" in content else "",
        )
    if isinstance(record, WorktreeStateRecord):
        session = record.worktree_session or None
        summary = (
            (session.worktree_path or session.worktree_name or "")
            if session
            else "left the worktree"
        )
        return EventView(key, "Worktree", summary or "", "info")
    if isinstance(record, RelocatedRecord):
        return EventView(key, "Moved to", record.relocated_cwd or "", "info")
    if isinstance(record, WorkflowStartedRecord):
        return EventView(key, "Workflow agent started", record.key or record.agent_id or "", "info")
    if isinstance(record, WorkflowResultRecord):
        return EventView(
            key,
            "Workflow agent returned",
            record.key or record.agent_id or "",
            "info",
            text=_text_of(record.result),
        )
    noisy_kinds = {"file-history-snapshot", "last-prompt", "atis-latch", "bridge-session"}
    labels = {
        "file-history-snapshot": "File backup snapshot",
        "last-prompt": "Last prompt",
        "atis-latch": "Internal state",
        "bridge-session": "Bridged to a remote session",
    }
    if isinstance(record, UnknownRecord):
        return EventView(key, f"Record of unknown type {kind}", "", "warn")
    return EventView(key, labels.get(kind, kind), "", "muted", noisy=kind in noisy_kinds)


_BUILDERS: Mapping[type[Item], Callable[[Any], EventView]] = {
    SystemItem: _system,
    AttachmentItem: _attachment,
    ProgressItem: _progress,
}


def _folded_run(run: FoldedRun) -> EventView:
    """One line for the records of a long run after its first few (:mod:`.runs`)."""
    first, last = run.lines
    label = f"{run.records:,} more {run.what}"
    summary = f"lines {first:,}-{last:,}, folded: the first {SHOWN} of the run are drawn above"
    return EventView("meta:folded-run", label, summary, "warn")


def event_view(item: Item) -> EventView:
    """The compact view of a system, attachment, progress or metadata item."""
    if isinstance(item, FoldedRun):
        return _folded_run(item)
    builder = _BUILDERS.get(type(item))
    view = builder(item) if builder is not None else _meta(item.first.record)
    repeats = sum(entry.repeats for entry in item.entries)
    if repeats:  # lines folded into one (Entry.repeats): drawn once, and said so
        note = f"the same line {repeats + 1:,} times in a row"
        view = replace(view, summary=f"{view.summary} ({note})" if view.summary else note)
    return replace(view, raw=to_builtins(item.first.record))
