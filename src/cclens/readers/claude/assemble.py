"""Turn the records of one transcript into a :class:`~cclens.model.session.Session`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Protocol

import msgspec

from ...model.blocks import ContentBlock, TextBlock, ToolResultBlock, ToolUseBlock
from ...model.entries import Diagnostic, Entry
from ...model.progress import AgentProgress
from ...model.records import (
    AiTitleRecord,
    AssistantRecord,
    AttachmentRecord,
    ChainRecord,
    CustomTitleRecord,
    ProgressRecord,
    SummaryRecord,
    SystemRecord,
    UserRecord,
)
from ...model.session import (
    INTERRUPTION_MARKERS,
    AssistantItem,
    AttachmentItem,
    Branch,
    Compaction,
    Item,
    MetaItem,
    ProgressItem,
    Session,
    SystemItem,
    TitleSource,
    ToolCall,
    UserItem,
    UserKind,
)
from ._gc import paused
from .discover import SubagentFile
from .isolate import each_isolated, failure, isolated
from .read import read_file
from .titles import (
    OWN_SOURCES,
    LeafSummary,
    PromptPicker,
    choose_title,
    pointing_summary,
    tips,
    with_summary,
)
from .tree import ASSISTANT, OTHER, USER, Link, main_line, sidechain_roots

_COMMAND_MARKERS = ("<command-name>", "<command-message>", "<bash-input>")
_OUTPUT_MARKERS = ("<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>")


class HasText(Protocol):
    """A text block: the model's, or the index's view of one."""

    text: str


def _user_kind(record: UserRecord) -> UserKind:
    message = record.message
    if not message:
        return "meta"  # (no message: nothing was typed, nothing is shown)
    return user_content_kind(
        message.content,
        compact_summary=bool(record.is_compact_summary),
        is_meta=bool(record.is_meta),
        result_type=ToolResultBlock,
        text_type=TextBlock,
    )


def user_content_kind(
    content: object,
    *,
    compact_summary: bool,
    is_meta: bool,
    result_type: type,
    text_type: type[HasText],
) -> UserKind:
    """The kind of a user record from its message's ``content`` (a string, or blocks of which
    ``result_type`` are tool results and ``text_type`` texts: the model's, or the index's
    lighter view of them) and its ``isCompactSummary`` and ``isMeta`` flags."""
    if compact_summary:
        return "compact_summary"
    if isinstance(content, list) and any(isinstance(b, result_type) for b in content):
        return "tool_results"
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "\n".join(b.text for b in content if isinstance(b, text_type))
    else:
        text = ""
    return text_kind(text, is_meta)


def text_kind(text: str, is_meta: bool) -> UserKind:
    """The kind of a user record without tool results, from its text (its text blocks joined
    by newlines) and its ``isMeta`` flag; a compact summary is told by its own flag first."""
    # The first 400 characters after any leading whitespace are all that is looked at (a
    # pasted prompt can be megabytes: text.lstrip() would copy it).
    start = 0
    length = len(text)
    while start < length and text[start].isspace():
        start += 1
    stripped = text[start : start + 400]
    if not stripped:  # (no marker to look for: a blank prompt)
        return "meta" if is_meta else "prompt"
    if any(stripped.startswith(marker) for marker in INTERRUPTION_MARKERS):
        return "interrupt"
    if any(marker in stripped[:200] for marker in _OUTPUT_MARKERS):
        return "command_output"
    if any(marker in stripped[:400] for marker in _COMMAND_MARKERS):
        return "command"
    if is_meta:
        return "meta"
    return "prompt"


def _block_key(block: ContentBlock) -> object:
    if isinstance(block, ToolUseBlock) and block.id:
        return ("tool_use", block.id)
    return msgspec.json.encode(block)


def _build_items(entries: Sequence[Entry]) -> list[Item]:
    items: list[Item] = []
    responses: dict[str, AssistantItem] = {}
    # The blocks each response holds so far: a response streamed over many records stays linear.
    known: dict[str, set[object]] = {}
    for entry in entries:
        record = entry.record
        if isinstance(record, AssistantRecord):
            message = record.message
            key = (message.id if message else None) or record.uuid or f"line-{entry.line}"
            blocks = message.blocks if message else []
            existing = responses.get(key)
            if existing is None:
                item = AssistantItem([entry], blocks=list(blocks))
                responses[key] = item
                items.append(item)
            else:
                existing.entries.append(entry)
                seen = known.get(key)
                if seen is None:
                    seen = known[key] = {_block_key(b) for b in existing.blocks}
                added = [(b, k) for b in blocks if (k := _block_key(b)) not in seen]
                existing.blocks.extend(block for block, _ in added)
                seen.update(block_key for _, block_key in added)
        elif isinstance(record, UserRecord):
            items.append(UserItem([entry], kind=_user_kind(record)))
        else:
            items.append(_ITEM_OF.get(type(record), MetaItem)([entry]))
    return items


#: The item of each other record kind (every kind not here is a :class:`MetaItem`).
_ITEM_OF: dict[type, type[Item]] = {
    SystemRecord: SystemItem,
    AttachmentRecord: AttachmentItem,
    ProgressRecord: ProgressItem,
}


def _pair_tool_calls(items: Sequence[Item], agent: str = "claude") -> dict[str, ToolCall]:
    calls: dict[str, ToolCall] = {}
    for item in items:
        if not isinstance(item, AssistantItem):
            continue
        for entry in item.entries:
            record = entry.record
            assert isinstance(record, AssistantRecord)
            for block in record.message.blocks if record.message else []:
                if isinstance(block, ToolUseBlock):
                    call = ToolCall(block, item, entry, agent=agent)
                    if call.id not in calls:
                        calls[call.id] = call
                        item.tool_calls.append(call)
    for item in items:
        if not isinstance(item, UserItem) or item.kind != "tool_results":
            continue
        for index, block in enumerate(item.tool_results):
            paired = calls.get(block.tool_use_id or "")
            if paired is None or paired.result_block is not None:
                continue
            paired.result_block = block
            paired.result_entry = item.first
            if index == 0:
                paired.raw_result = item.record.tool_use_result
    return calls


def _parent(record: ChainRecord) -> str | None:
    parent = record.parent_uuid or None
    if parent is None and record.logical_parent_uuid:
        # Follow compaction boundaries back to the history they summarised: a viewer shows it.
        return record.logical_parent_uuid
    return parent


def _mark_main_line(items: Sequence[Item], calls: dict[str, ToolCall]) -> list[Branch]:
    """Mark the items on the conversation's current line; return the abandoned branches.

    The rules are :func:`cclens.readers.claude.tree.main_line`'s; this feeds them the typed records.
    """
    links: list[Link] = []
    roles: list[int] = []
    results: list[tuple[str, ...] | None] = []
    position = {id(item): index for index, item in enumerate(items)}
    for index, item in enumerate(items):
        if isinstance(item, AssistantItem):
            roles.append(ASSISTANT)
            results.append(None)
        elif isinstance(item, UserItem):
            roles.append(USER)
            results.append(
                tuple(b.tool_use_id or "" for b in item.tool_results)
                if item.kind == "tool_results"
                else None
            )
        else:
            roles.append(OTHER)
            results.append(None)
        for entry in item.entries:
            record = entry.record
            if isinstance(record, ChainRecord):
                links.append(
                    (
                        index,
                        record.uuid or None,
                        _parent(record),
                        entry.line,
                        bool(record.is_sidechain),
                        bool(record.is_meta or record.team_name),
                        isinstance(record, UserRecord | AssistantRecord),
                    )
                )
    marked = main_line(
        links, roles, results, [(call.id, position[id(call.item)]) for call in calls.values()]
    )
    for item, on_main, branch in zip(items, marked.main, marked.branch, strict=True):
        item.main = on_main
        item.branch = branch
    return [Branch(fork, [items[index] for index in members]) for fork, members in marked.branches]


def _compactions(items: Sequence[Item]) -> list[Compaction]:
    found: list[Compaction] = []
    for position, item in enumerate(items):
        if not isinstance(item, SystemItem) or item.subtype != "compact_boundary":
            continue
        summary = next(
            (
                later
                for later in items[position + 1 :]
                if isinstance(later, UserItem) and later.kind == "compact_summary"
            ),
            None,
        )
        record = item.record
        metadata = record.compact_metadata or None
        trigger = (metadata.trigger if metadata else None) or record.trigger or None
        pre_tokens = (metadata.pre_tokens or None) if metadata else None
        found.append(Compaction(item, summary, trigger, pre_tokens))
    return found


def _title(entries: Sequence[Entry], items: Sequence[Item]) -> tuple[str, TitleSource, str]:
    """The title from this file alone, and the first real prompt (see :mod:`.titles`)."""
    custom = [e.record.custom_title for e in entries if isinstance(e.record, CustomTitleRecord)]
    ai = [e.record.ai_title for e in entries if isinstance(e.record, AiTitleRecord)]
    uuids = {e.record.uuid for e in entries if isinstance(e.record, ChainRecord) and e.record.uuid}
    summaries = [
        e.record.summary
        for e in entries
        if isinstance(e.record, SummaryRecord)
        and (not e.record.leaf_uuid or e.record.leaf_uuid in uuids)
    ]
    picker = PromptPicker()
    for item in items:
        if isinstance(item, UserItem) and item.main and item.kind in ("prompt", "command"):
            picker.add(item.kind, item.text)
            if picker.done:
                break
    title, source = choose_title(custom, ai, summaries, picker.title_text)
    return title, source, picker.preview


def session_tips(entries: Sequence[Entry]) -> list[str]:
    """The uuids a summary written in another file can point at (see :func:`.titles.tips`)."""
    return tips(
        (record.uuid or None, record.parent_uuid or None)
        for entry in entries
        if isinstance(record := entry.record, UserRecord | AssistantRecord)
    )


def apply_summaries(session: Session, summaries: Iterable[LeafSummary]) -> None:
    """Title ``session`` by a summary written in another file pointing at one of its tips,
    when its own file gave it no better title (see :mod:`.titles`)."""
    if session.title_source in OWN_SOURCES:
        return
    found = pointing_summary(summaries, session_tips(session.entries))
    session.title, session.title_source = with_summary(session.title, session.title_source, found)


def assemble_entries(
    path: Path,
    entries: list[Entry],
    diagnostics: list[Diagnostic],
    *,
    session_id: str,
    project: str,
    file_size: int = 0,
    lines: int = 0,
    agent: str = "claude",
) -> Session:
    """Assemble a session from records already read (no subagents attached).

    ``agent``: the agent whose records these are (their tool calls are that agent's tools);
    another agent's reader gives records of the session model written for its own lines.

    Never raises for what the records hold: should assembling fail (a defect in cclens met on
    an input nobody foresaw), the session is returned empty, its diagnostics saying why
    (:func:`failed_session`).
    """
    try:
        with paused():
            return _assemble(
                path, entries, diagnostics, session_id, project, file_size, lines, agent
            )
    except Exception as error:  # one session's defect must not fail whoever reads many
        return failed_session(
            path,
            [*diagnostics, failure(path, error)],
            session_id=session_id,
            project=project,
            file_size=file_size,
            lines=lines,
            agent=agent,
        )


def failed_session(
    path: Path,
    diagnostics: list[Diagnostic],
    *,
    session_id: str,
    project: str,
    file_size: int = 0,
    lines: int = 0,
    agent: str = "claude",
) -> Session:
    """An empty session standing for one that could not be assembled (``diagnostics`` say
    why): it is still listed, counted and shown, with nothing in it."""
    return Session(
        path=path,
        session_id=session_id,
        project=project,
        entries=[],
        diagnostics=diagnostics,
        items=[],
        tool_calls={},
        branches=[],
        compactions=[],
        subagents=[],
        title="",
        title_source="none",
        first_prompt="",
        file_size=file_size,
        lines=lines,
        agent=agent,
    )


def _assemble(
    path: Path,
    entries: list[Entry],
    diagnostics: list[Diagnostic],
    session_id: str,
    project: str,
    file_size: int,
    lines: int,
    agent: str = "claude",
) -> Session:
    items = _build_items(entries)
    calls = _pair_tool_calls(items, agent)
    branches = _mark_main_line(items, calls)
    title, source, first_prompt = _title(entries, items)
    return Session(
        path=path,
        session_id=session_id,
        project=project,
        entries=entries,
        diagnostics=diagnostics,
        items=items,
        tool_calls=calls,
        branches=branches,
        compactions=_compactions(items),
        subagents=[],
        title=title,
        title_source=source,
        first_prompt=first_prompt,
        file_size=file_size,
        lines=lines,
        agent=agent,
    )


def _prompt_of(call: ToolCall) -> str:
    raw = call.block.input
    prompt = raw.get("prompt") if isinstance(raw, dict) else None
    return " ".join(prompt.split()) if isinstance(prompt, str) else ""


def _first_user_text(session: Session) -> str:
    for item in session.items:
        if isinstance(item, UserItem) and item.kind in ("prompt", "meta", "command"):
            return " ".join(item.text.split())
    return ""


def attach_subagent(session: Session, agent: Session, info: SubagentFile | None) -> bool:
    """Attach ``agent`` to the call in ``session`` that spawned it; ``False`` if none is found."""
    calls = session.tool_calls
    call: ToolCall | None = None
    tool_use_id = info.tool_use_id if info else agent.parent_tool_use_id
    if tool_use_id:
        call = calls.get(tool_use_id)
    if call is None and agent.agent_id:
        for candidate in calls.values():
            raw = candidate.raw_result
            if isinstance(raw, dict) and raw.get("agentId") == agent.agent_id:
                call = candidate
                break
    if call is None and agent.agent_id:
        for entry in session.entries:
            record = entry.record
            if (
                isinstance(record, ProgressRecord)
                and isinstance(record.data, AgentProgress)
                and record.data.agent_id == agent.agent_id
                and record.parent_tool_use_id
            ):
                call = calls.get(record.parent_tool_use_id)
                if call is not None:
                    break
    if call is None and info is not None and info.workflow_run:
        for candidate in calls.values():
            raw = candidate.raw_result
            if isinstance(raw, dict) and raw.get("runId") == info.workflow_run:
                call = candidate
                break
    if call is None and agent.agent_id:
        marker = f"agentId: {agent.agent_id}"
        call = next((c for c in calls.values() if marker in c.result_text), None)
    if call is None:
        prompt = _first_user_text(agent)
        if prompt:
            call = next(
                (
                    c
                    for c in calls.values()
                    if c.spec.spawns_subagent and not c.subagents and _prompt_of(c) == prompt
                ),
                None,
            )
    if call is None and info is not None:
        call = _nearest_spawner(session, agent)
    if call is None:
        return False
    agent.parent_tool_use_id = call.id
    call.subagents.append(agent)
    return True


def _nearest_spawner(session: Session, agent: Session) -> ToolCall | None:
    """The latest still unmatched subagent call made before the agent started.

    Only used for a file that certainly belongs to this session (by its folder or its
    ``sessionId``) when nothing recorded says which call spawned it.
    """
    free = [c for c in session.tool_calls.values() if c.spec.spawns_subagent and not c.subagents]
    if not free:
        return None
    started = agent.started
    if started is None:
        return free[0] if len(free) == 1 else None
    before = [c for c in free if c.started is not None and c.started <= started]
    return max(before, key=lambda c: c.started or started) if before else None


def _inline_sidechains(session: Session) -> list[Session]:
    """Sidechain records kept inside the session file (Claude Code 1.x), as subagent sessions."""
    side: list[Entry] = []
    chained = 0
    for entry in session.entries:
        if isinstance(entry.record, ChainRecord):
            chained += 1
            if entry.record.is_sidechain:
                side.append(entry)
    if not side or len(side) == chained:
        return []  # no sidechain, or a subagent file (all sidechain)
    links = [
        (record.uuid or None, record.parent_uuid or None, entry.line)
        for entry in side
        if isinstance(record := entry.record, ChainRecord)
    ]
    groups: dict[str, list[Entry]] = {}
    for entry, root in zip(side, sidechain_roots(links), strict=True):
        groups.setdefault(root, []).append(entry)
    agents: list[Session] = []
    for root, entries in groups.items():
        agent = assemble_entries(
            session.path,
            entries,
            [],
            session_id=session.session_id,
            project=session.project,
        )
        agent.agent_id = f"sidechain-{root}"
        first = entries[0].record
        parent = first.parent_uuid if isinstance(first, ChainRecord) else None
        if parent:
            spawning = session.find_item(parent)
            if isinstance(spawning, AssistantItem):
                spawners = [c for c in spawning.tool_calls if c.spec.spawns_subagent]
                if len(spawners) == 1:
                    agent.parent_tool_use_id = spawners[0].id
        agents.append(agent)
    return agents


def load_subagent(info: SubagentFile, project: str) -> Session:
    """Read and assemble one subagent transcript."""
    result = read_file(info.path)
    agent = assemble_entries(
        info.path,
        result.entries,
        result.diagnostics,
        session_id=info.parent_session_id or info.agent_id,
        project=project,
        file_size=result.bytes,
        lines=result.lines,
    )
    agent.agent_id = info.agent_id
    agent.agent_meta = info.meta
    return agent


def attach_subagents(session: Session, files: Iterable[SubagentFile]) -> None:
    """Load ``files`` and the file's own sidechains, and attach each to its spawning call.

    A subagent file that cannot be read, or that cclens fails on, is left out with a
    diagnostic on ``session``.
    """
    problems = session.diagnostics
    inline = isolated(partial(_inline_sidechains, session), session.path, problems) or []
    found: list[tuple[Session, SubagentFile | None]] = [(agent, None) for agent in inline]
    found += each_isolated(
        files,
        lambda info: (load_subagent(info, session.project), info),
        lambda info: info.path,
        problems,
    )
    for agent, info in found:
        isolated(partial(attach_subagent, session, agent, info), agent.path, problems)
        session.subagents.append(agent)


__all__ = [
    "apply_summaries",
    "assemble_entries",
    "attach_subagent",
    "attach_subagents",
    "failed_session",
    "load_subagent",
    "session_tips",
    "text_kind",
]
