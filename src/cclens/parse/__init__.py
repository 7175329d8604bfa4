"""Files to model: discover transcripts, read them line by line, assemble sessions."""

from __future__ import annotations

from pathlib import Path

from .assemble import assemble_entries, attach_subagent, attach_subagents
from .discover import (
    Discovery,
    SessionFile,
    SubagentFile,
    claude_dirs,
    discover,
    subagents_for,
)
from .read import Diagnostic, Entry, ReadResult, read_data, read_file
from .session import (
    AssistantItem,
    AttachmentItem,
    Branch,
    Compaction,
    Item,
    MetaItem,
    ProgressItem,
    Session,
    SystemItem,
    ToolCall,
    UserItem,
)


def load_session(path: Path | str, *, subagents: bool = True) -> Session:
    """Read and assemble the session in ``path``, with its subagent transcripts attached.

    Malformed lines do not raise: they are listed in ``Session.diagnostics``. Raises ``OSError``
    when the file cannot be read.
    """
    path = Path(path)
    result = read_file(path)
    session = assemble_entries(
        path,
        result.entries,
        result.diagnostics,
        session_id=path.stem,
        project=path.parent.name,
        file_size=result.bytes,
        lines=result.lines,
    )
    if subagents:
        attach_subagents(session, subagents_for(path))
    return session


def load(file: SessionFile, *, subagents: bool = True) -> Session:
    """Read and assemble a discovered session file, with the subagent files found for it."""
    result = read_file(file.path)
    session = assemble_entries(
        file.path,
        result.entries,
        result.diagnostics,
        session_id=file.session_id,
        project=file.project,
        file_size=result.bytes,
        lines=result.lines,
    )
    if subagents:
        attach_subagents(session, file.subagents)
    return session


__all__ = [
    "AssistantItem",
    "AttachmentItem",
    "Branch",
    "Compaction",
    "Diagnostic",
    "Discovery",
    "Entry",
    "Item",
    "MetaItem",
    "ProgressItem",
    "ReadResult",
    "Session",
    "SessionFile",
    "SubagentFile",
    "SystemItem",
    "ToolCall",
    "UserItem",
    "assemble_entries",
    "attach_subagent",
    "attach_subagents",
    "claude_dirs",
    "discover",
    "load",
    "load_session",
    "read_data",
    "read_file",
    "subagents_for",
]
