"""A Claude Code session from its files' bytes (as the index keeps them), not from the disk."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...model.entries import ReadResult
from ...model.session import Session
from ..discovery import SourceFile, SubagentFile
from .assemble import assemble_entries, attach_subagent, attach_subagents
from .links import link_files
from .read import read_data


def _meta(source: SourceFile) -> dict[str, Any] | None:
    """The subagent's parsed ``.meta.json`` sidecar, when there is one and it is an object."""
    if not source.meta:
        return None
    try:
        value = msgspec.json.decode(source.meta)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def subagent_info(source: SourceFile) -> SubagentFile:
    """What discovery would have said about a subagent file."""
    layout = source.layout if source.layout in ("sibling", "nested", "workflow") else "nested"
    return SubagentFile(
        source.path,
        source.agent_id or source.path.stem.removeprefix("agent-"),
        layout,  # type: ignore[arg-type]
        _meta(source),
        source.workflow_run,
        source.parent_session_id,
    )


def assemble_reads(
    session_id: str, project: str, reads: Sequence[tuple[SourceFile, ReadResult]]
) -> Session:
    """Assemble the session and attach its subagents, as :func:`cclens.readers.claude.load`
    would, from what was read of its files (the transcript first).

    The subagent files are attached in the order they were found, after the sidechains kept
    inside the session file itself.
    """
    main, result = next((s, r) for s, r in reads if s.role == "session")
    session = assemble_entries(
        main.path,
        result.entries,
        list(result.diagnostics),
        session_id=session_id,
        project=project,
        file_size=result.end_offset,
        lines=result.lines,
    )
    session.mtime = main.mtime
    if main.agent_id is not None or main.path.name.startswith("agent-"):
        # An orphan subagent transcript, kept as a session of its own (see .discover).
        info = subagent_info(main)
        session.agent_id, session.agent_meta = info.agent_id, info.meta
        session.orphan, session.parent_session_id = True, info.parent_session_id
        link_files(session)
        return session
    attach_subagents(session, [])  # the file's own sidechains
    for source, read in reads:
        if source.role != "subagent":
            continue
        info = subagent_info(source)
        agent = assemble_entries(
            source.path,
            read.entries,
            list(read.diagnostics),
            session_id=info.parent_session_id or info.agent_id,
            project=project,
            file_size=read.end_offset,
            lines=read.lines,
        )
        agent.agent_id = info.agent_id
        agent.agent_meta = info.meta
        attach_subagent(session, agent, info)
        session.subagents.append(agent)
    link_files(session)
    return session


def assemble_sources(session_id: str, project: str, files: Sequence[SourceFile]) -> Session:
    """The session of ``files`` (its transcript, subagent transcripts, journals) from their
    bytes."""
    reads = [
        (source, read_data(source.path, source.data))
        for source in files
        if source.role in ("session", "subagent")
    ]
    return assemble_reads(session_id, project, reads)


__all__ = ["assemble_reads", "assemble_sources", "subagent_info"]
