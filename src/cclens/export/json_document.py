"""The normalized session as one JSON document (``cclens export -f json``).

Shape (``format`` ``"cclens.session"``, ``version`` 1)::

    {
      "format": "cclens.session", "version": 1,
      "counts": {figures, subagents, carried, carried_from, alone},
      # what the session counts, subagents included, as every surface shows it (figures:
      # sessions, prompts, responses, tool_calls {calls, ok, error, rejected, interrupted,
      # pending, failed}, tokens, cost, unpriced_responses); the part its subagents hold; what
      # it carries over from the sessions carried_from names (see cclens.figures.counts)
      "session": {id, project, path, title, title_source, first_prompt, cwd, git_branch,
                  git_branches, started, ended, duration_seconds, models, versions, agent_id,
                  agent_meta, parent_tool_use_id, lines, file_size,
                  tokens: {input, output, cache_read, cache_write, total, responses}},
      # tokens: the session's own responses, each counted once (subagents count in theirs)
      "items": [{anchor, uuid, line, kind, subkind, timestamp, main, branch, sidechain,
                 ...per kind: user: text, blocks · assistant: message_id, model, stop_reason,
                 usage, blocks, tool_call_ids · others: record, and repeats when the
                 line was followed by identical lines folded into it}],
      # one item per record: the lines of a long run of records with nothing to show that
      # the reader keeps as written (Entry.quiet) are an item each, made as they are written
      "tool_calls": [{id, name, canonical_name, item, input, result, result_content, status,
                      is_error, started, finished, duration_seconds, subagents: [<session>]}],
      "branches": [{fork, items: [anchor]}],
      "compactions": [{boundary, summary, trigger, pre_tokens}],
      "subagents": [<session>],          # subagents no tool call claimed
      "diagnostics": [{path, line, reason, repeats}]  # repeats: only when not 0
    }

``<session>`` is this same document without ``format`` and ``version``. ``blocks``, ``input``,
``result`` and ``record`` are the JSON Claude Code wrote (through :func:`cclens.model.to_builtins`),
so nothing is lost; timestamps are ISO 8601 strings.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import msgspec

from ..figures.counts import SessionCounts, counts_alone
from ..model import UNSET, JsonStream, iter_json, stream_hook, to_builtins
from ..model.session import (
    AssistantItem,
    AttachmentItem,
    Item,
    ProgressItem,
    Session,
    SystemItem,
    ToolCall,
    UserItem,
)
from ..render.context import response_totals
from .transform import JsonTransform, Transform, transform_session

__all__ = ["FORMAT", "VERSION", "export_json", "json_pieces", "session_document"]

FORMAT = "cclens.session"
VERSION = 1


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _seconds(value: timedelta | None) -> float | None:
    return value.total_seconds() if value is not None else None


_KINDS: dict[type[Item], str] = {
    UserItem: "user",
    AssistantItem: "assistant",
    SystemItem: "system",
    AttachmentItem: "attachment",
    ProgressItem: "progress",
}


def _item(item: Item) -> dict[str, Any]:
    record = item.first.record
    out: dict[str, Any] = {
        "anchor": item.anchor,
        "uuid": item.uuid,
        "line": item.first.line,
        "kind": _KINDS.get(type(item), "meta"),
        "subkind": None,
        "timestamp": _time(item.timestamp),
        "main": item.main,
        "branch": item.branch,
        "sidechain": item.is_sidechain,
    }
    if isinstance(item, UserItem):
        message = item.record.message
        content = message.content if message else UNSET
        out["subkind"] = item.kind
        out["text"] = item.text
        out["blocks"] = to_builtins(content) if isinstance(content, list) else []
    elif isinstance(item, AssistantItem):
        usage = item.usage
        out["message_id"] = item.message_id
        out["request_id"] = item.request_id
        out["model"] = item.model
        out["stop_reason"] = item.stop_reason
        out["usage"] = to_builtins(usage) if usage is not None else None
        out["blocks"] = to_builtins(item.blocks)
        out["tool_call_ids"] = [call.id for call in item.tool_calls]
        out["api_error"] = item.is_api_error
    else:
        if isinstance(item, SystemItem):
            out["subkind"] = item.subtype
        else:
            out["subkind"] = getattr(record, "kind", None)
        out["record"] = to_builtins(record)
        repeats = sum(entry.repeats for entry in item.entries)
        if repeats:  # identical lines folded into this one (Entry.repeats)
            out["repeats"] = repeats
    return out


def _items(session: Session) -> Iterator[dict[str, Any]]:
    """Each item of ``session`` as JSON, and after an item whose record is followed by quiet
    lines (:class:`~cclens.model.entries.QuietLines`), one item per line as the record's own
    would be (its line, anchor and record are its own; a line the same as the one before is
    counted in its ``repeats``, as the reader folds such lines)."""
    for item in session.items:
        out = _item(item)
        yield out
        for entry in item.entries:
            for line, count, written in entry.quiet_records():
                each = out | {"anchor": f"line-{line}", "line": line}
                each.pop("repeats", None)
                if "record" in out:
                    each["record"] = msgspec.json.decode(written)
                    if count > 1:
                        each["repeats"] = count - 1
                yield each


def _call(call: ToolCall) -> dict[str, Any]:
    block = call.result_block
    return {
        "id": call.id,
        "name": call.name,
        "canonical_name": call.spec.name,
        "item": call.item.anchor,
        "input": to_builtins(call.block.input),
        "result": None if call.raw_result is UNSET else to_builtins(call.raw_result),
        "result_content": (
            None if block is None or block.content is UNSET else to_builtins(block.content)
        ),
        "status": call.status,
        "is_error": call.is_error,
        "started": _time(call.started),
        "finished": _time(call.finished),
        "duration_seconds": _seconds(call.duration),
        "subagents": [_session(agent) for agent in call.subagents],
    }


def _session(session: Session, streamed: bool = False) -> dict[str, Any]:
    """``streamed``: its items as a :class:`~cclens.model.JsonStream` (made as written)."""
    tokens = response_totals(session)[0]
    claimed = {id(a) for call in session.tool_calls.values() for a in call.subagents}
    return {
        "session": {
            "id": session.session_id,
            "project": session.project,
            "path": str(session.path),
            "title": session.title,
            "title_source": session.title_source,
            "first_prompt": session.first_prompt,
            "cwd": session.cwd,
            "git_branch": session.git_branch,
            "git_branches": session.git_branches,
            "started": _time(session.started),
            "ended": _time(session.ended),
            "duration_seconds": _seconds(session.duration),
            "models": session.models,
            "versions": session.versions,
            "agent_id": session.agent_id,
            "agent_meta": session.agent_meta,
            "parent_tool_use_id": session.parent_tool_use_id,
            "lines": session.lines,
            "file_size": session.file_size,
            "tokens": {
                "input": tokens.input,
                "output": tokens.output,
                "cache_read": tokens.cache_read,
                "cache_write": tokens.cache_write,
                "total": tokens.total,
                "responses": tokens.responses,
            },
        },
        "items": JsonStream(lambda: _items(session)) if streamed else list(_items(session)),
        "tool_calls": [_call(call) for call in session.tool_calls.values()],
        "branches": [
            {"fork": branch.fork, "items": [item.anchor for item in branch.items]}
            for branch in session.branches
        ],
        "compactions": [
            {
                "boundary": c.boundary.anchor,
                "summary": c.summary.anchor if c.summary else None,
                "trigger": c.trigger,
                "pre_tokens": c.pre_tokens,
            }
            for c in session.compactions
        ],
        "subagents": [_session(a) for a in session.subagents if id(a) not in claimed],
        "diagnostics": [
            {"path": str(d.path), "line": d.line, "reason": d.reason}
            | ({"repeats": d.repeats} if d.repeats else {})
            for d in session.diagnostics
        ],
    }


def session_document(
    session: Session, counts: SessionCounts | None = None, *, streamed: bool = False
) -> dict[str, Any]:
    """The normalized session as JSON builtins (see the module docstring for the shape);
    ``counts`` as the index counts the session (default: counted on its own); ``streamed``:
    its items made as :func:`cclens.model.iter_json` writes them."""
    counted = counts or counts_alone(session)
    return {
        "format": FORMAT,
        "version": VERSION,
        "counts": msgspec.to_builtins(counted),
        **_session(session, streamed),
    }


def export_json(
    session: Session,
    *,
    transform: Transform | None = None,
    json_transform: JsonTransform | None = None,
    indent: int = 2,
) -> str:
    """``session`` as a JSON document, after ``transform``/``json_transform``."""
    pieces = json_pieces(session, transform=transform, json_transform=json_transform, indent=indent)
    return b"".join(pieces).decode("utf-8")


def json_pieces(
    session: Session,
    *,
    transform: Transform | None = None,
    json_transform: JsonTransform | None = None,
    indent: int = 2,
    counts: SessionCounts | None = None,
) -> Iterator[bytes]:
    """:func:`export_json` as UTF-8 pieces to write one after the other: a session with a huge
    line is never held as one string (see :func:`cclens.model.iter_json`); ``counts`` as in
    :func:`session_document`."""
    session = transform_session(session, transform, json_transform=json_transform)
    document = session_document(session, counts, streamed=True)
    if indent:
        yield from iter_json(document, indent)
    else:
        yield msgspec.json.encode(document, enc_hook=stream_hook)
    yield b"\n"
