"""An independent recount of the figures, with the ``json`` module and the standard library only.

Nothing of cclens is imported: the definitions of ``docs/stats.md`` are applied to the raw
lines, so that a figure cclens gives and this count agree only if both read the transcripts the
documented way. Totals only (who counts a copy does not change a total):

* **sessions**: transcripts that are not a subagent's (``agent-*.jsonl``, or any file in a
  ``subagents`` folder), and subagent transcripts whose session file is gone (orphans);
* **prompts**: user records a person typed (a prompt or a slash command, not a tool result, a
  compaction summary, a meta record, an interruption, command output or a task notification),
  in a session's own transcript (not a subagent's, not a sidechain kept inline), once per
  ``uuid`` in a project;
* **responses**: assistant records (and the subagent responses ``agent_progress`` records
  mirror) with a usage and a model other than ``<synthetic>``, once per API response in a
  project (records sharing a ``message.id``, or a ``requestId``, are one response), each with
  the usage of its largest record (most output tokens, then most tokens);
* **tool calls**: ``tool_use`` blocks (mirrored ones too), once per id in a project, with the
  status of the first result that names the id: rejected, interrupted, error, ok, or pending;
* **tokens** by kind, cache writes split by ``cache_creation`` (what it does not explain is a
  5-minute write).

Usage: ``python tests/recount.py FOLDER`` prints the figures as JSON.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SYNTHETIC = "<synthetic>"
REJECTED = (
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
)
INTERRUPTED = ("[Request interrupted by user for tool use]", "[Request interrupted by user]")
OUTPUT_MARKS = ("<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>")
COMMAND_MARKS = ("<command-name>", "<command-message>", "<bash-input>")
KINDS = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")


def records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, record)`` for every line of ``path`` that is a JSON object."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict):
                yield number, value


def _session_folder(path: Path) -> Path | None:
    """The ``<session-id>`` folder a subagent transcript sits in (``<id>/subagents/…``)."""
    for parent in path.parents:
        if parent.name == "subagents":
            return parent.parent
    return None


def project_of(path: Path) -> str:
    """The project a transcript counts in: its folder, or the folder of its session's."""
    folder = _session_folder(path) if path.name.startswith("agent-") else None
    return (folder.parent if folder is not None else path.parent).name


def is_orphan(path: Path, lines: list[tuple[int, dict[str, Any]]]) -> bool:
    """Whether a subagent transcript's session file is gone."""
    folder = _session_folder(path)
    if folder is not None:
        return not folder.with_suffix(".jsonl").is_file()
    ids = {r.get("sessionId") for _, r in lines if isinstance(r.get("sessionId"), str)}
    return not any((path.parent / f"{i}.jsonl").is_file() for i in ids)


def _text(content: Any, joiner: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return joiner.join(
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        )
    return ""


def _blocks(record: dict[str, Any]) -> list[dict[str, Any]]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def is_prompt(record: dict[str, Any]) -> bool:
    """A user record a person typed (see the module docstring)."""
    if record.get("type") != "user" or record.get("isCompactSummary"):
        return False
    if any(b.get("type") == "tool_result" for b in _blocks(record)):
        return False
    message = record.get("message")
    text = _text(message.get("content") if isinstance(message, dict) else None, "\n")
    head = text.lstrip()[:400]
    if head.startswith(INTERRUPTED) or any(mark in head[:200] for mark in OUTPUT_MARKS):
        return False
    if any(mark in head for mark in COMMAND_MARKS):
        return True
    if record.get("isMeta"):
        return False
    body = _text(message.get("content") if isinstance(message, dict) else None, "\n\n")
    return not body.lstrip().startswith("<task-notification>")


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def tokens_of(usage: dict[str, Any]) -> dict[str, int]:
    """A usage's tokens by kind: ``cache_creation_input_tokens`` is the cache writes' total
    (the breakdown's sum without it), split by the breakdown, 1-hour writes first."""
    split = usage.get("cache_creation")
    five = hour = 0
    if isinstance(split, dict):
        five = _count(split.get("ephemeral_5m_input_tokens"))
        hour = _count(split.get("ephemeral_1h_input_tokens"))
    given = usage.get("cache_creation_input_tokens")
    written = _count(given) if isinstance(given, int) else five + hour
    hour = min(hour, written)
    return {
        "input": _count(usage.get("input_tokens")),
        "output": _count(usage.get("output_tokens")),
        "cache_write_5m": written - hour,
        "cache_write_1h": hour,
        "cache_read": _count(usage.get("cache_read_input_tokens")),
    }


def _real(value: Any) -> str | None:
    """An id, unless absent, empty or a bracketed fixture placeholder."""
    return value if isinstance(value, str) and value and not value.startswith("[") else None


def status_of(block: dict[str, Any], record: dict[str, Any], first: bool) -> str:
    text = _text(block.get("content"), "\n")
    raw = record.get("toolUseResult") if first else None
    raw_text = raw if isinstance(raw, str) else ""
    if record.get("toolDenialKind") == "user-rejected" or any(
        m in text or m in raw_text for m in REJECTED
    ):
        return "rejected"
    if (isinstance(raw, dict) and raw.get("interrupted") is True) or any(
        m in text for m in INTERRUPTED
    ):
        return "interrupted"
    return "error" if block.get("is_error") is True else "ok"


@dataclass
class Tree:
    """A session's files: its transcript and its subagents' (or an orphan's one file)."""

    calls: dict[str, str] = field(default_factory=dict)
    results: dict[str, str] = field(default_factory=dict)

    def assistant(self, record: dict[str, Any], path: Path, line: int) -> None:
        for block in _blocks(record):
            if block.get("type") == "tool_use":
                raw = block.get("name")
                name = raw if isinstance(raw, str) else ""
                key = _real(block.get("id")) or f"{path}:{line}:{name}"
                self.calls.setdefault(key, name)

    def user(self, record: dict[str, Any]) -> None:
        results = [b for b in _blocks(record) if b.get("type") == "tool_result"]
        for position, block in enumerate(results):
            key = block.get("tool_use_id")
            if isinstance(key, str) and key and key not in self.results:
                self.results[key] = status_of(block, record, position == 0)


@dataclass
class Project:
    """What one project's files hold."""

    prompts: set[str] = field(default_factory=set)
    #: Each response: its largest usage's size (output, total) and tokens.
    responses: list[list[Any]] = field(default_factory=list)
    #: message.id -> [requestId, response] of each response with that id.
    by_message: dict[str, list[list[Any]]] = field(default_factory=dict)
    #: requestId, uuid or place of a record without message.id -> response.
    by_other: dict[str, list[Any]] = field(default_factory=dict)
    trees: dict[str, Tree] = field(default_factory=dict)

    def _find(self, message: str | None, request: str | None, other: str) -> list[Any] | None:
        if message is None:
            return self.by_other.get(other)
        candidates = self.by_message.get(message, [])
        for pair in candidates:
            if pair[0] == request:
                return pair[1]  # type: ignore[no-any-return]
        if candidates and request is None:
            return candidates[0][1]  # type: ignore[no-any-return]
        for pair in candidates:
            if pair[0] is None:
                pair[0] = request  # an earlier copy without requestId: the same response
                return pair[1]  # type: ignore[no-any-return]
        return None

    def response(self, record: dict[str, Any], path: Path, line: int) -> None:
        message = record.get("message")
        if not isinstance(message, dict) or message.get("model") == SYNTHETIC:
            return
        usage = message.get("usage")
        if not isinstance(usage, dict):
            return
        message_id, request = _real(message.get("id")), _real(record.get("requestId"))
        uuid = _real(record.get("uuid"))
        other = (
            f"request:{request}" if request else f"uuid:{uuid}" if uuid else f"line:{path}:{line}"
        )
        found = self._find(message_id, request, other)
        tokens = tokens_of(usage)
        size = (tokens["output"], sum(tokens.values()))
        if found is None:
            found = [size, tokens]
            self.responses.append(found)
            if message_id is None:
                self.by_other[other] = found
            else:
                self.by_message.setdefault(message_id, []).append([request, found])
        elif size >= found[0]:
            found[0], found[1] = size, tokens


@dataclass
class Recount:
    """The figures of a folder of transcripts."""

    sessions: int = 0
    prompts: int = 0
    responses: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    #: Per tool: calls and each status.
    tools: dict[str, Counter[str]] = field(default_factory=dict)

    def statuses(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for row in self.tools.values():
            total.update(row)
        return total


def _mirrored(record: dict[str, Any]) -> dict[str, Any] | None:
    data = record.get("data")
    if record.get("type") != "progress" or not isinstance(data, dict):
        return None
    message = data.get("message")
    if data.get("type") != "agent_progress" or not isinstance(message, dict):
        return None
    return message


def _tree_of(path: Path, lines: list[tuple[int, dict[str, Any]]], orphan: bool) -> str:
    """The session a file belongs to (an orphan is its own)."""
    if not path.name.startswith("agent-") or orphan:
        return str(path)
    folder = _session_folder(path)
    if folder is not None:
        return str(folder.with_suffix(".jsonl"))
    ids = [r["sessionId"] for _, r in lines if isinstance(r.get("sessionId"), str)]
    return str(path.parent / f"{ids[0]}.jsonl")


def recount(folder: Path) -> Recount:
    """Count the figures of every transcript under ``folder``."""
    projects: dict[str, Project] = {}
    found = Recount()
    for path in sorted(folder.rglob("*.jsonl")):
        agent = path.name.startswith("agent-")
        if not agent and _session_folder(path) is not None:
            continue  # a subagents folder's other files (a workflow's journal): no transcript
        lines = list(records(path))
        orphan = agent and is_orphan(path, lines)
        found.sessions += (not agent) or orphan
        project = projects.setdefault(project_of(path), Project())
        tree = project.trees.setdefault(_tree_of(path, lines, orphan), Tree())
        chained = [r for _, r in lines if r.get("type") in ("user", "assistant")]
        all_side = bool(chained) and all(r.get("isSidechain") for r in chained)
        for line, record in lines:
            kind = record.get("type")
            if kind == "assistant":
                project.response(record, path, line)
                tree.assistant(record, path, line)
            elif kind == "user":
                tree.user(record)
                own = not agent and (not record.get("isSidechain") or all_side)
                if own and is_prompt(record):
                    project.prompts.add(_real(record.get("uuid")) or f"{path}:{line}")
            elif (mirrored := _mirrored(record)) is not None:
                if mirrored.get("type") == "assistant":
                    project.response(mirrored, path, line)
                    tree.assistant(mirrored, path, line)
                elif mirrored.get("type") == "user":
                    tree.user(mirrored)
    for project in projects.values():
        found.prompts += len(project.prompts)
        found.responses += len(project.responses)
        for _, tokens in project.responses:
            for kind in KINDS:
                found.tokens[kind] += tokens[kind]
        # A call's status: the first of its copies (a session tree each) that has a result.
        calls: dict[str, str] = {}
        statuses: dict[str, str] = {}
        for tree in project.trees.values():
            for key, name in tree.calls.items():
                calls.setdefault(key, name)
                if key in tree.results:
                    statuses.setdefault(key, tree.results[key])
        for key, name in calls.items():
            status = statuses.get(key, "pending")
            row = found.tools.setdefault(name, Counter())
            row["calls"] += 1
            row[status] += 1
    return found


if __name__ == "__main__":
    counted = recount(Path(sys.argv[1]))
    print(
        json.dumps(
            {
                "sessions": counted.sessions,
                "prompts": counted.prompts,
                "responses": counted.responses,
                "tokens": counted.tokens,
                "tool_calls": dict(counted.statuses()),
                "tools": {name: dict(row) for name, row in sorted(counted.tools.items())},
            },
            indent=2,
        )
    )
