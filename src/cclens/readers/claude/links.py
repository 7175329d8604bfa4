"""What only a session's files together tell, once each is assembled.

Two things:

* a subagent known only from the ``agent_progress`` records that mirror its messages into the
  transcript that spawned it (its own file is gone, or was never kept): its mirrored messages
  are assembled into a subagent session of their own (``mirrored``), attached to the call that
  spawned it, as its file would have been. Its responses were counted from the mirror already;
  now its tool calls are too, and it is drawn under its call;
* a call whose result was written to another file of the session (the compaction agent's
  ``agent-acompact-*.jsonl`` holds the result of the call that was running when the
  conversation was compacted): it is paired with that result, the first one found, the
  session's own file first and its subagents' in order.

:func:`link_files` does both; every reader of a session's files (:func:`cclens.readers.claude.load`,
and the index assembling a session from its stored files) calls it once every file is attached.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ...model import convert_record
from ...model.blocks import ToolResultBlock
from ...model.entries import Entry
from ...model.progress import AgentProgress
from ...model.records import AssistantRecord, ProgressRecord, UserRecord
from ...model.session import Session, ToolCall, UserItem
from .assemble import assemble_entries, attach_subagent
from .isolate import isolated

#: The kinds of records a subagent's mirror carries that make up its conversation.
_MIRRORED_KINDS = ("assistant", "user")


def mirrored_entries(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    """The subagent records the ``agent_progress`` records among ``entries`` mirror, by agent
    id, in file order; each is an entry at the line of the progress record holding it."""
    found: dict[str, list[Entry]] = {}
    for entry in entries:
        record = entry.record
        if not isinstance(record, ProgressRecord):
            continue
        data = record.data
        if not isinstance(data, AgentProgress) or not data.agent_id:
            continue
        message = data.message
        if not isinstance(message, dict) or message.get("type") not in _MIRRORED_KINDS:
            continue
        mirrored = convert_record(message).value
        if not isinstance(mirrored, AssistantRecord | UserRecord):
            continue
        found.setdefault(data.agent_id, []).append(
            Entry(mirrored, entry.line, entry.offset, entry.length)
        )
    return found


def _spawning_call(entries: Iterable[Entry], agent_id: str) -> str | None:
    """The call the ``agent_progress`` records of ``agent_id`` name as their parent."""
    for entry in entries:
        record = entry.record
        if (
            isinstance(record, ProgressRecord)
            and isinstance(record.data, AgentProgress)
            and record.data.agent_id == agent_id
            and record.parent_tool_use_id
        ):
            return record.parent_tool_use_id
    return None


def attach_mirrored(session: Session) -> list[Session]:
    """Assemble the subagents ``session``'s files mirror but hold no file of, attach each to
    the call that spawned it, and return them."""
    known = {agent.agent_id for agent in session.all_sessions() if agent.agent_id}
    added: list[Session] = []
    for holder in [each for each in session.all_sessions() if not each.mirrored]:
        for agent_id, entries in mirrored_entries(holder.entries).items():
            if agent_id in known:
                continue
            known.add(agent_id)
            agent = assemble_entries(
                holder.path,
                entries,
                [],
                session_id=holder.session_id,
                project=holder.project,
            )
            agent.agent_id = agent_id
            agent.mirrored = True
            agent.parent_tool_use_id = _spawning_call(holder.entries, agent_id)
            attach_subagent(holder, agent, None)
            holder.subagents.append(agent)
            added.append(agent)
    return added


class _Result(msgspec.Struct, frozen=True):
    block: ToolResultBlock
    item: UserItem
    first: bool
    holder: Session


def _sources(session: Session) -> list[Session]:
    """The sessions of ``session``'s tree that hold records of their own: its file, each
    subagent file and each mirrored subagent (a subagent kept inline shares its file's)."""
    found: list[Session] = []
    paths: set[object] = set()
    for each in session.all_sessions():
        if each.mirrored:
            found.append(each)
        elif each.path not in paths:
            paths.add(each.path)
            found.append(each)
    return found


def pair_across_files(session: Session) -> int:
    """Pair each call of ``session``'s tree left without a result in its own file with the
    first result naming it in another file of the tree; the number of calls paired."""
    sources = _sources(session)
    results: dict[str, _Result] = {}
    for holder in sources:
        for item in holder.items:
            if not isinstance(item, UserItem) or item.kind != "tool_results":
                continue
            for index, block in enumerate(item.tool_results):
                if block.tool_use_id and block.tool_use_id not in results:
                    results[block.tool_use_id] = _Result(block, item, index == 0, holder)
    if not results:
        return 0
    paired = 0
    for holder in session.all_sessions():
        for call in holder.tool_calls.values():
            if call.result_block is not None or not call.block.id:
                continue
            found = results.get(call.block.id)
            if found is None or _same_file(found.holder, holder):
                continue
            _pair(call, found)
            paired += 1
    return paired


def _same_file(one: Session, other: Session) -> bool:
    if one.mirrored or other.mirrored:
        return one is other
    return one.path == other.path


def _pair(call: ToolCall, found: _Result) -> None:
    call.result_block = found.block
    call.result_entry = found.item.first
    if found.first:
        call.raw_result = found.item.record.tool_use_result


def link_files(session: Session) -> None:
    """Attach the subagents only mirrored in ``session``'s files, then pair calls with results
    written to another of its files (see the module docstring). Never raises for what the
    files hold: should it fail, a diagnostic on ``session`` says so."""

    def link() -> None:
        attach_mirrored(session)
        pair_across_files(session)

    isolated(link, session.path, session.diagnostics)


__all__ = ["attach_mirrored", "link_files", "mirrored_entries", "pair_across_files"]
