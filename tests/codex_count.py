"""An independent count of Codex rollout files, with the ``json`` module alone.

Written from Codex's own rules, not from cclens: a response's tokens are the ``last_token_usage``
of a ``token_count`` event whose ``total_token_usage`` differs from the one before it in the
file (Codex writes the same count again when nothing new was used); a tool call is a
``function_call``, ``custom_tool_call``, ``local_shell_call``, ``web_search_call``,
``tool_search_call`` or ``image_generation_call``. A forked thread copies its parent's lines
after the parent's ``session_meta``: what is copied is counted once, for the thread whose
lines were read first, by the id of the ``session_meta`` it follows and its counts (a response)
or its call id (a call).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

CALL_TYPES = {
    "function_call",
    "custom_tool_call",
    "local_shell_call",
    "web_search_call",
    "tool_search_call",
    "image_generation_call",
}
KINDS = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")


@dataclass
class FileCount:
    """What one file holds, before copies are set aside."""

    thread: str | None = None
    #: ``(governing thread, total, last)`` of each response, and its ``last`` counts.
    responses: list[tuple[tuple[object, ...], dict[str, int]]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)


def count_file(path: Path) -> FileCount:
    found = FileCount()
    governing: str | None = None
    previous: tuple[int, ...] | None = None
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict):
            continue
        payload = line.get("payload") if "payload" in line else line
        if not isinstance(payload, dict):
            continue
        kind = line.get("type")
        if kind == "session_meta":
            governing = payload.get("session_id") or payload.get("id")
            found.thread = found.thread or governing
            continue
        if "payload" not in line and "instructions" in line and "type" not in line:
            governing = found.thread = found.thread or line.get("id")
            continue
        if payload.get("type") in CALL_TYPES:
            call_id = payload.get("call_id") or payload.get("id")
            found.calls.append(str(call_id))
        if kind == "event_msg" and payload.get("type") == "token_count":
            info = payload.get("info")
            if not info or not isinstance(info.get("last_token_usage"), dict):
                continue
            total = info.get("total_token_usage") or {}
            key = tuple(
                total.get(name, 0) for name in (*KINDS, "cache_write_input_tokens", "total_tokens")
            )
            if key == previous:
                continue
            previous = key
            last = info["last_token_usage"]
            identity = (governing, key, tuple(sorted(last.items())))
            found.responses.append((identity, {name: last.get(name, 0) for name in KINDS}))
    return found


@dataclass
class Counted:
    """Calls and tokens counted once across files."""

    responses: int = 0
    calls: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))


def count(paths: Iterable[Path]) -> dict[Path, Counted]:
    """Each file's own count, ``paths`` read in order (a copy counts for the first file)."""
    seen_responses: set[tuple[object, ...]] = set()
    seen_calls: set[str] = set()
    result: dict[Path, Counted] = {}
    for path in paths:
        found = count_file(path)
        own = result[path] = Counted()
        for identity, tokens in found.responses:
            if identity in seen_responses:
                continue
            seen_responses.add(identity)
            own.responses += 1
            for name in KINDS:
                own.tokens[name] += tokens[name]
        for call in found.calls:
            if call in seen_calls:
                continue
            seen_calls.add(call)
            own.calls += 1
    return result
