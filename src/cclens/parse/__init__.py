"""Files to model: discover transcripts, read them line by line, assemble sessions."""

from __future__ import annotations

from pathlib import Path

from .assemble import apply_summaries, assemble_entries, attach_subagent, attach_subagents
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
from .titles import sibling_summaries


def load_session(path: Path | str, *, subagents: bool = True, siblings: bool = True) -> Session:
    """Read and assemble the session in ``path``, with its subagent transcripts attached.

    The title follows :mod:`cclens.parse.titles`; a summary Claude Code wrote into another
    transcript of the same folder counts when ``siblings`` is true (the other files are only
    scanned for summary records). Summaries in other folders are not seen: the index, which
    holds every file, sees them all. Malformed lines do not raise: they are listed in
    ``Session.diagnostics``. Raises ``OSError`` when the file cannot be read.
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
    if siblings:
        apply_summaries(session, sibling_summaries(path))
    return session


def load(file: SessionFile, *, subagents: bool = True, siblings: bool = True) -> Session:
    """Read and assemble a discovered session file, with the subagent files found for it.

    ``siblings`` as in :func:`load_session` (each sibling is read once per process while it is
    unchanged, so loading every session of a project stays linear).
    """
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
    if siblings:
        apply_summaries(session, sibling_summaries(file.path))
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
