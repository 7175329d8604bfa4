"""``cclens check``: read every transcript under some paths and report what was in them.

The report says how much was read, what kinds of records it held, which lines were malformed,
what cclens did not know (record types, content blocks, tools), how tool calls paired with their
results, and how subagent transcripts were attached to the calls that spawned them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import msgspec

from ..figures.inventory import SessionFacts, calls_usage, facts_of_sessions, session_facts
from ..model.blocks import ToolResultBlock, UnknownBlock
from ..model.entries import Diagnostic, Entry
from ..model.records import AssistantRecord, UnknownRecord, UserRecord
from ..model.session import Session
from ..model.tools import is_known_tool
from ..readers import agents
from ..readers.claude import read_file
from ..readers.claude.isolate import each_isolated, isolated, unreadable_reasons
from ..readers.discovery import Discovery


class MalformedLine(msgspec.Struct, omit_defaults=True):
    """A line (``line`` 0: a whole file) and what was wrong with it. A run of consecutive
    lines with the same problem is one: ``line`` its first, ``last_line`` its last and
    ``repeats`` the lines after the first (both left out for a single line)."""

    file: str
    line: int
    reason: str
    repeats: int = 0
    last_line: int = 0


class UnknownKinds(msgspec.Struct):
    """What cclens read but has no type for, with counts."""

    record_types: dict[str, int]
    content_blocks: dict[str, int]
    tools: dict[str, int]


class ToolCounts(msgspec.Struct):
    """Calls of one tool: ``errors`` are the calls that failed (errors, rejections and
    interruptions; ``rejected`` and ``interrupted`` are part of them), ``unpaired`` those
    without a result."""

    calls: int
    results: int
    errors: int
    unpaired: int
    rejected: int = 0
    interrupted: int = 0


class SubagentCounts(msgspec.Struct):
    """Subagent transcripts: all of them, those tied to the call that spawned them, and the
    orphans (their session file is gone: each is counted as a session of its own)."""

    files: int
    attached: int
    orphans: int = 0


class CheckReport(msgspec.Struct):
    """The result of ``cclens check`` (``--json`` prints exactly this)."""

    files: int
    bytes: int
    lines: int
    records: int
    record_types: dict[str, int]
    malformed: list[MalformedLine]
    #: Lines that were read, with a part of an unexpected shape kept as it is (a value of
    #: another type than Claude Code writes, nesting deeper than the model decodes).
    partial: list[MalformedLine]
    unknown: UnknownKinds
    tools: dict[str, ToolCounts]
    #: Sessions, orphan subagent transcripts (a session of their own) included.
    sessions: int
    subagents: SubagentCounts
    #: Paths given that could not be read (missing or unreadable).
    unreadable: list[str]


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


class _Tally:
    """Running totals over the files read."""

    def __init__(self) -> None:
        self.files = self.bytes = self.lines = self.records = 0
        self.kinds: Counter[str] = Counter()
        self.unknown_records: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()
        self.malformed: list[MalformedLine] = []
        self.partial: list[MalformedLine] = []
        #: Whole files that could not be read or assembled (``path: reason``).
        self.unreadable: list[str] = []

    def add(
        self, entries: Iterable[Entry], diagnostics: Iterable[Diagnostic], size: int, lines: int
    ) -> None:
        self.files += 1
        self.bytes += size
        self.lines += lines
        for diagnostic in diagnostics:
            if not diagnostic.line and not diagnostic.partial:
                reason = diagnostic.reason.removeprefix("cannot read: ")
                self.unreadable.append(f"{diagnostic.path}: {reason}")
                continue
            repeats = diagnostic.repeats
            found = MalformedLine(
                str(diagnostic.path),
                diagnostic.line,
                diagnostic.reason,
                repeats,
                diagnostic.line + repeats if repeats else 0,
            )
            (self.partial if diagnostic.partial else self.malformed).append(found)
        for entry in entries:
            count = entry.records
            self.records += count
            record = entry.record
            self.kinds[record.kind] += count
            if isinstance(record, UnknownRecord):
                self.unknown_records[record.kind] += count
            elif isinstance(record, UserRecord | AssistantRecord) and record.message:
                self._blocks(record.message.blocks)

    def _blocks(self, blocks: Iterable[object]) -> None:
        for block in blocks:
            if isinstance(block, UnknownBlock):
                self.unknown_blocks[block.kind] += 1
            elif isinstance(block, ToolResultBlock) and isinstance(block.content, list):
                self._blocks(block.content)

    def add_session(self, session: Session) -> None:
        if session.line_kinds is None:
            self.add(session.entries, session.diagnostics, session.file_size, session.lines)
            return
        # An agent whose reader counts its own lines' kinds (its records are not the entries).
        self.add([], session.diagnostics, session.file_size, session.lines)
        self.records += sum(session.line_kinds.values())
        self.kinds.update(session.line_kinds)
        self.unknown_records.update(session.unknown_kinds or {})
        for entry in session.entries:
            record = entry.record
            if isinstance(record, UserRecord | AssistantRecord) and record.message:
                self._blocks(record.message.blocks)

    def add_file(self, path: Path) -> None:
        result = read_file(path)
        self.add(result.entries, result.diagnostics, result.bytes, result.lines)


def check(paths: Iterable[Path | str]) -> CheckReport:
    """Read and assemble every transcript under ``paths`` and count what was found.

    Paths that cannot be read are listed in ``unreadable`` (so is a file cclens failed on:
    the others are still read); malformed lines never stop the run.
    """
    found: Discovery = agents.discover(*paths)
    tally = _Tally()
    # What the tool figures need of each session (its calls as facts): a history of many
    # sessions is read one at a time, never held whole.
    calls: list[SessionFacts] = []
    unknown_tools: Counter[str] = Counter()
    sessions = 0
    problems: list[Diagnostic] = []
    subagent_files = attached = 0
    for file, session in each_isolated(
        found.sessions, lambda file: (file, agents.load(file)), lambda file: file.path, problems
    ):
        sessions += 1
        calls.append(session_facts(session))
        unknown_tools.update(
            call.name
            for agent in session.all_sessions()
            for call in agent.tool_calls.values()
            if not is_known_tool(call.name, call.agent)
        )
        tally.add_session(session)
        if session.orphan:
            subagent_files += 1
            continue
        for agent in session.subagents:
            if agent.path == session.path:
                continue  # sidechains inside the session file were counted with it
            tally.add_session(agent)
            subagent_files += 1
            attached += agent.parent_tool_use_id is not None
        for journal in file.journals:
            isolated(partial(tally.add_file, journal), journal, problems)
    for path in found.orphan_journals:
        isolated(partial(tally.add_file, path), path, problems)
    unreadable = [f"{path}: {reason}" for path, reason in found.errors]
    unreadable += unreadable_reasons(problems)
    unreadable += tally.unreadable

    usage = calls_usage(facts_of_sessions(calls))
    return CheckReport(
        files=tally.files,
        bytes=tally.bytes,
        lines=tally.lines,
        records=tally.records,
        record_types=_sorted(tally.kinds),
        malformed=tally.malformed,
        partial=tally.partial,
        unknown=UnknownKinds(
            record_types=_sorted(tally.unknown_records),
            content_blocks=_sorted(tally.unknown_blocks),
            tools=_sorted(unknown_tools),
        ),
        tools={
            name: ToolCounts(
                row.calls, row.results, row.errors, row.unpaired, row.rejected, row.interrupted
            )
            for name, row in sorted(usage.items(), key=lambda kv: (-kv[1].calls, kv[0]))
        },
        sessions=sessions,
        subagents=SubagentCounts(
            files=subagent_files, attached=attached, orphans=len(found.orphans)
        ),
        unreadable=unreadable,
    )
