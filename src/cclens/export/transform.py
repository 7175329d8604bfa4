"""Apply a string transform (secret redaction, for example) to every string of a session.

Exports call :func:`transform_session` first and then write the result as usual, so whatever a
writer shows (text, tool inputs, results, file names, titles) has been through the transform, and
no writer needs to know about it.

Two hooks: ``transform`` (``str -> str``) is applied to every string value; ``json_transform``
(JSON value -> JSON value), when given, replaces that walk and receives each whole record (so a
redactor that looks at key names, like ``Redactor.json``, can be plugged in as it is). Keys are
left alone (they are the records' structure), and so are base64 payloads (image and document
``data``, thinking signatures): they hold no text, and scanning them would only corrupt them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, TypeAlias

import msgspec
from msgspec.structs import replace

from ..model import convert_record, to_builtins
from ..model.entries import Diagnostic, Entry, QuietLines
from ..model.session import Session
from ..readers.claude.assemble import assemble_entries

__all__ = ["JsonTransform", "Transform", "transform_session", "transform_value"]

#: A function applied to every string written out.
Transform: TypeAlias = Callable[[str], str]


#: A function applied to whole JSON values (records).
JsonTransform: TypeAlias = Callable[[Any], Any]


def _is_binary(parent: dict[str, Any], key: str) -> bool:
    kind = parent.get("type")
    if key == "data" and kind in ("base64", "redacted_thinking"):
        return True
    return key == "signature" and kind == "thinking"


def transform_value(value: Any, transform: Transform) -> Any:
    """``value`` (JSON builtins) with ``transform`` applied to every string value.

    Keys and base64 payloads are kept as they are (see the module docstring).
    """
    if isinstance(value, str):
        return transform(value)
    if isinstance(value, dict):
        return {
            k: (v if _is_binary(value, k) else transform_value(v, transform))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [transform_value(v, transform) for v in value]
    if isinstance(value, msgspec.Raw):  # too deep to decode: transformed as its JSON text
        return transform(bytes(value).decode("utf-8", errors="replace"))
    return value


def _entry(entry: Entry, walk: JsonTransform) -> Entry:
    """``entry`` with its record (and its quiet lines) transformed: ``entry`` itself when the
    walk handed its JSON back unchanged (the same object, as ``Redactor.json`` does when
    nothing was removed), so that only records that changed are encoded and decoded again."""
    original = to_builtins(entry.record)
    raw = walk(original)
    quiet = entry.quiet
    walked = _quiet(quiet, walk) if quiet is not None else None
    if raw is original and walked is quiet:
        return entry
    record = entry.record if raw is original else convert_record(raw).value
    return replace(entry, record=record, quiet=walked)


def _quiet(quiet: QuietLines, walk: JsonTransform) -> QuietLines:
    """``quiet`` with each line's JSON transformed (``quiet`` itself when none changed): a line
    that changed is written again, one line at a time."""
    written: bytearray | None = None
    for number, line in enumerate(quiet.lines()):
        value = msgspec.json.decode(line)
        changed = walk(value)
        if written is None:
            if changed is value or changed == value:
                continue
            written = bytearray()
            for before in itertools.islice(quiet.lines(), number):
                written += before + b"\n"
        written += msgspec.json.encode(changed) + b"\n"
    return quiet if written is None else QuietLines(bytes(written), quiet.count)


def transform_session(
    session: Session,
    transform: Transform | None = None,
    *,
    json_transform: JsonTransform | None = None,
) -> Session:
    """A copy of ``session`` rebuilt from its records, every string transformed.

    ``json_transform`` (when given) is applied to each record's JSON instead of walking it with
    ``transform``; ``transform`` still applies to the diagnostics. Subagent sessions are
    transformed too and attached to the same calls as before.
    """
    if transform is None and json_transform is None:
        return session
    text: Transform = transform or (lambda value: value)

    def walk(value: Any) -> Any:
        return json_transform(value) if json_transform else transform_value(value, text)

    return _transform(session, text, walk)


def _transform(session: Session, transform: Transform, walk: JsonTransform) -> Session:
    diagnostics = [_diagnostic(d, transform) for d in session.diagnostics]
    entries = [_entry(entry, walk) for entry in session.entries]
    agent_meta = walk(session.agent_meta) if session.agent_meta is not None else None
    subagents = {id(agent): _transform(agent, transform, walk) for agent in _subagents(session)}
    if (
        all(new is old for new, old in zip(entries, session.entries, strict=True))
        and all(new is old for new, old in zip(diagnostics, session.diagnostics, strict=True))
        and agent_meta is session.agent_meta
        and all(subagents[key] is agent for key, agent in _by_id(session))
    ):
        # Nothing changed (a session without secrets): assembling it again would give the
        # same session, at the cost of reading every record once more.
        return session
    copy = assemble_entries(
        session.path,
        entries,
        diagnostics,
        session_id=session.session_id,
        project=session.project,
        file_size=session.file_size,
        lines=session.lines,
        agent=session.agent,
    )
    copy.mtime = session.mtime
    copy.line_kinds, copy.unknown_kinds = session.line_kinds, session.unknown_kinds
    # Ids made from the records (``sidechain-<uuid>``) are strings of the session too: a
    # transcript can hold anything where a uuid should be, a credential included.
    copy.agent_id = transform(session.agent_id) if session.agent_id else session.agent_id
    copy.parent_tool_use_id = (
        transform(session.parent_tool_use_id)
        if session.parent_tool_use_id
        else session.parent_tool_use_id
    )
    copy.agent_meta = agent_meta
    copy.subagents.extend(subagents[id(agent)] for agent in session.subagents)
    for call_id, call in session.tool_calls.items():
        target = copy.tool_calls.get(call_id)
        if target is None or not call.subagents:
            continue
        target.subagents = [subagents[id(agent)] for agent in call.subagents]
    return copy


def _diagnostic(diagnostic: Diagnostic, transform: Transform) -> Diagnostic:
    reason, excerpt = transform(diagnostic.reason), transform(diagnostic.excerpt)
    if reason is diagnostic.reason and excerpt is diagnostic.excerpt:
        return diagnostic
    return replace(diagnostic, reason=reason, excerpt=excerpt)


def _subagents(session: Session) -> list[Session]:
    """Every subagent session attached to ``session``, once each: those of the session and
    those of its calls (the same objects, normally)."""
    return [agent for _, agent in _by_id(session)]


def _by_id(session: Session) -> list[tuple[int, Session]]:
    found: dict[int, Session] = {id(agent): agent for agent in session.subagents}
    for call in session.tool_calls.values():
        for agent in call.subagents:
            found.setdefault(id(agent), agent)
    return list(found.items())
