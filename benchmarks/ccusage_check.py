"""Run ccusage beside cclens on the same transcripts and say where and why they differ.

Usage: ``python benchmarks/ccusage_check.py [CORPUS] [--ccusage CMD] [--examples N]``

Not part of CI: it needs ccusage (``npm install -g ccusage``, or ``--ccusage "npx
ccusage@latest"``). ``CORPUS`` is a Claude folder (with ``projects/``) or any folder of
transcripts (default ``../shared/corpus``, copied into a temporary ``projects/`` folder so
ccusage finds it); it is only read.

Printed: each tool's totals and run time; per UTC day, the tokens each counted; and, response
by response, why they differ. ccusage prints no per-response data, so its count is
reconstructed from the raw records by the rules it follows (an assistant record with a usage
is counted unless an earlier record had the same ``message.id`` *and* ``requestId``; the first
such record is kept; ``agent_progress`` records are not read) and checked against the totals
ccusage printed: when the reconstruction matches them, the per-response reasons are those of
the real difference. cclens counts each API response once, with its last, largest usage
(docs/stats.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cclens.figures.usage import Response, collect_responses
from cclens.readers.claude import discover, load

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
KINDS = ("input", "output", "cache_write", "cache_read")


@dataclass(slots=True)
class Counted:
    """Tokens of one counted record or response, and where it was read."""

    day: str
    tokens: dict[str, int]
    path: str
    line: int
    model: str | None


@dataclass(slots=True)
class Reasons:
    """Token differences (cclens minus ccusage) by reason, with examples."""

    tokens: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    responses: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, reason: str, delta: dict[str, int], example: str, keep: int) -> None:
        self.responses[reason] += 1
        self.tokens[reason].update(delta)
        if len(self.examples[reason]) < keep:
            self.examples[reason].append(example)


def _claude_dir(corpus: Path, scratch: Path) -> Path:
    """A Claude folder holding the corpus (a copy under ``projects/`` when it has none)."""
    if (corpus / "projects").is_dir():
        return corpus
    target = scratch / "projects"
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
        shutil.copytree(folder, target / folder.name)
    return scratch


def _day(timestamp: object) -> str:
    if not isinstance(timestamp, str):
        return "unknown"
    try:
        return datetime.fromisoformat(timestamp).astimezone(UTC).date().isoformat()
    except ValueError:
        return "unknown"


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$")
_VERSION = re.compile(r"^\d+\.\d+\.\d+")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def rejection(record: dict[str, Any]) -> str | None:
    """Why ccusage's schema (``usageDataSchema``) refuses the record, or ``None``: it wants an
    ISO timestamp in UTC, a usage with numeric input and output tokens, no ``null`` where a
    field is optional, a version like ``1.2.3`` and non-empty ids when present."""
    timestamp = record.get("timestamp")
    if not isinstance(timestamp, str) or not _ISO.match(timestamp):
        return f"timestamp {timestamp!r} is not YYYY-MM-DDTHH:MM:SS[.mmm]Z"
    message = record.get("message")
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict):
        return "no usage"
    assert isinstance(message, dict)
    for name in ("input_tokens", "output_tokens"):
        if not _number(usage.get(name)):
            return f"usage.{name} is {usage.get(name)!r}"
    for name in ("cache_creation_input_tokens", "cache_read_input_tokens"):
        if name in usage and not _number(usage[name]):
            return f"usage.{name} is {usage[name]!r}"
    if "speed" in usage and usage["speed"] not in ("standard", "fast"):
        return f"usage.speed is {usage['speed']!r}"
    for name in ("model", "id"):
        if name in message and not (isinstance(message[name], str) and message[name]):
            return f"message.{name} is {message[name]!r}"
    for name in ("sessionId", "requestId", "cwd"):
        if name in record and not (
            isinstance(record[name], str) and (record[name] or name == "cwd")
        ):
            return f"{name} is {record[name]!r}"
    version = record.get("version")
    if "version" in record and not (isinstance(version, str) and _VERSION.match(version)):
        return f"version {version!r} is not like 1.2.3"
    if "costUSD" in record and not _number(record["costUSD"]):
        return f"costUSD is {record['costUSD']!r}"
    return None


def _ids(record: dict[str, Any]) -> tuple[str, str] | None:
    message = record.get("message")
    message_id = message.get("id") if isinstance(message, dict) else None
    request_id = record.get("requestId")
    return (message_id, request_id) if message_id and request_id else None


def _record_at(path: Path, line: int) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if number == line:
                    found = json.loads(raw)
                    return found if isinstance(found, dict) else None
    except (OSError, ValueError):
        return None
    return None


def _earliest(path: Path) -> float:
    """The file's earliest timestamp (ccusage reads files in that order)."""
    earliest: float | None = None
    with path.open("rb") as handle:
        for raw in handle:
            try:
                record = json.loads(raw)
                moment = datetime.fromisoformat(record["timestamp"]).timestamp()
            except (ValueError, TypeError, KeyError):
                continue
            earliest = moment if earliest is None else min(earliest, moment)
    return earliest if earliest is not None else float("inf")


def _ccusage_like(root: Path) -> Iterator[tuple[tuple[str, str] | None, Counted, dict[str, Any]]]:
    """Every record ccusage counts, as its rules read them (see the module docstring)."""
    seen: set[tuple[str, str]] = set()
    files = sorted((root / "projects").rglob("*.jsonl"), key=lambda p: (_earliest(p), str(p)))
    for path in files:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(record, dict) or rejection(record) is not None:
                    continue
                message = record["message"]
                usage = message["usage"]
                message_id = message.get("id")
                request_id = record.get("requestId")
                key = (message_id, request_id) if message_id and request_id else None
                if key is not None:
                    if key in seen:
                        continue
                    seen.add(key)
                tokens = {
                    "input": int(usage.get("input_tokens") or 0),
                    "output": int(usage.get("output_tokens") or 0),
                    "cache_write": int(usage.get("cache_creation_input_tokens") or 0),
                    "cache_read": int(usage.get("cache_read_input_tokens") or 0),
                }
                counted = Counted(
                    _day(record.get("timestamp")), tokens, str(path), number, message.get("model")
                )
                yield key, counted, record


def _cclens(root: Path) -> tuple[list[Response], float]:
    started = time.perf_counter()
    found = discover(root)
    sessions = [load(file) for file in found.sessions]  # orphan subagent files included
    return collect_responses(sessions), time.perf_counter() - started


def _tokens(response: Response) -> dict[str, int]:
    tokens = response.tokens
    return {
        "input": tokens.input,
        "output": tokens.output,
        "cache_write": tokens.cache_write,
        "cache_read": tokens.cache_read,
    }


def _run_ccusage(command: list[str], root: Path) -> tuple[dict[str, Any], float]:
    environment = {**os.environ, "CLAUDE_CONFIG_DIR": str(root), "TZ": "UTC"}
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "daily", "--offline", "--json"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"ccusage failed ({done.returncode}): {done.stderr.strip()[:500]}")
    report = json.loads(done.stdout)
    assert isinstance(report, dict)
    return report, elapsed


def _row(label: str, tokens: dict[str, int], extra: str = "") -> str:
    cells = "".join(f"{tokens.get(kind, 0):>15,}" for kind in KINDS)
    return f"{label:24s}{cells}  {extra}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--ccusage", default="ccusage", help='e.g. "npx ccusage@latest"')
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    command = shlex.split(args.ccusage)
    if shutil.which(command[0]) is None:
        raise SystemExit(f"{command[0]} not found: npm install -g ccusage, or --ccusage CMD")
    with tempfile.TemporaryDirectory() as scratch:
        root = _claude_dir(args.corpus.resolve(), Path(scratch))
        report, ccusage_seconds = _run_ccusage(command, root)
        responses, cclens_seconds = _cclens(root)
        counted = list(_ccusage_like(root))
        _compare(report, responses, counted, ccusage_seconds, cclens_seconds, args.examples)


def _compare(
    report: dict[str, Any],
    responses: list[Response],
    counted: list[tuple[tuple[str, str] | None, Counted, dict[str, Any]]],
    ccusage_seconds: float,
    cclens_seconds: float,
    examples: int,
) -> None:
    """Print the totals, the days and the reasons (the copied files are still there)."""

    # 1. The totals, and whether the reconstruction of ccusage's count is faithful.
    printed = {
        day["date"]: {
            "input": day["inputTokens"],
            "output": day["outputTokens"],
            "cache_write": day["cacheCreationTokens"],
            "cache_read": day["cacheReadTokens"],
        }
        for day in report.get("daily", [])
    }
    rebuilt: dict[str, Counter[str]] = defaultdict(Counter)
    for _, entry, _ in counted:
        rebuilt[entry.day].update(entry.tokens)
    ours: dict[str, Counter[str]] = defaultdict(Counter)
    for response in responses:
        day = (
            response.timestamp.astimezone(UTC).date().isoformat()
            if response.timestamp
            else "unknown"
        )
        ours[day].update(_tokens(response))
    header = f"{'':24s}" + "".join(f"{kind:>15s}" for kind in KINDS)
    print(header)
    total_printed: Counter[str] = Counter()
    for tokens in printed.values():
        total_printed.update(tokens)
    total_rebuilt: Counter[str] = sum(rebuilt.values(), Counter())
    total_ours: Counter[str] = sum(ours.values(), Counter())
    print(_row("ccusage (printed)", dict(total_printed), f"{ccusage_seconds:.2f} s"))
    print(_row("ccusage (reconstructed)", total_rebuilt, f"{len(counted):,} records"))
    print(_row("cclens", total_ours, f"{len(responses):,} responses, {cclens_seconds:.2f} s"))
    faithful = all(
        dict(rebuilt.get(day, Counter())) == {k: v for k, v in tokens.items() if v}
        or all(rebuilt.get(day, Counter())[k] == v for k, v in tokens.items())
        for day, tokens in printed.items()
    )
    print(
        "The reconstruction matches what ccusage printed, day by day."
        if faithful
        else "The reconstruction differs from what ccusage printed on some days: the reasons "
        "below may be incomplete."
    )

    # 2. Day by day.
    print("\nPer UTC day (cclens - ccusage):")
    for day in sorted(set(printed) | set(ours)):
        difference = Counter(ours.get(day, Counter()))
        difference.subtract(printed.get(day, {}))
        if any(difference.values()):
            print(_row(day, difference))

    # 3. Response by response: match ccusage's counted records to cclens's responses.
    reasons = Reasons()
    by_ids: dict[tuple[str, str], Response] = {}
    by_message: dict[str, list[Response]] = defaultdict(list)
    for response in responses:
        if response.message_id:
            by_message[response.message_id].append(response)
            if response.request_id:
                by_ids[(response.message_id, response.request_id)] = response
    matched: set[int] = set()
    kept = {key for key, _, _ in counted if key is not None}
    for key, entry, record in counted:
        message = record.get("message") or {}
        message_id = message.get("id")
        found = by_ids.get(key) if key else None
        if found is None and message_id:
            candidates = by_message.get(message_id, [])
            found = candidates[0] if candidates else None
        where = f"{entry.path}:{entry.line}"
        if found is None:
            if entry.model == "<synthetic>":
                reason = "Claude Code's own <synthetic> message (not an API response)"
            elif record.get("type") != "assistant":
                kind = record.get("type")
                reason = f"usage on a record of type {kind!r} (cclens reads assistant records)"
            else:
                reason = "a record cclens did not count"
            reasons.add(reason, {k: -v for k, v in entry.tokens.items()}, where, examples)
            continue
        ours_tokens = _tokens(found)
        if id(found) in matched:
            reasons.add(
                "a copy counted again (no requestId to match it)",
                {k: -v for k, v in entry.tokens.items()},
                where,
                examples,
            )
            continue
        matched.add(id(found))
        delta = {k: ours_tokens[k] - entry.tokens[k] for k in KINDS}
        if any(delta.values()):
            reason = (
                "streamed: ccusage kept an earlier snapshot, cclens the final usage"
                if delta["output"] > 0
                else "another record of the response carried other counts"
            )
            reasons.add(reason, delta, f"{where} ({delta})", examples)
    for response in responses:
        if id(response) not in matched:
            raw = _record_at(response.path, response.line)
            refused = rejection(raw) if raw is not None else None
            where = f"{response.path}:{response.line}"
            if refused is not None:
                reason = f"ccusage's schema refuses the record ({refused.split()[0]})"
                where += f" ({refused})"
            elif raw is not None and raw.get("type") == "progress":
                reason = "a subagent response from its agent_progress mirror (ccusage skips those)"
            elif raw is not None and _ids(raw) in kept:
                reason = (
                    "ccusage took it for a copy: an earlier record had the same message.id and "
                    "requestId (cclens reads fixture placeholders such as [trimmed] as no id)"
                )
            else:
                reason = "a response ccusage did not count"
            reasons.add(reason, _tokens(response), where, examples)
    print("\nWhy they differ, response by response (cclens - ccusage tokens):")
    print(header)
    for reason, count in reasons.responses.most_common():
        print(_row(f"{count:,} responses", reasons.tokens[reason], reason))
        for example in reasons.examples[reason]:
            print(f"{'':24s}e.g. {example}")
    if not reasons.responses:
        print("No difference.")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
