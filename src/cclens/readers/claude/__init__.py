"""Files to model: discover transcripts, read them line by line, assemble sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import lazy_names
from .discover import (
    Discovery,
    SessionFile,
    SubagentFile,
    claude_dirs,
    discover,
    group,
    orphan_identity,
    subagents_for,
)

if TYPE_CHECKING:
    from ...model.entries import Diagnostic, Entry, ReadResult
    from ...model.session import (
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
    from .assemble import (
        apply_summaries,
        assemble_entries,
        attach_subagent,
        attach_subagents,
        load_subagent,
    )
    from .links import link_files
    from .loader import load, load_orphan, load_session
    from .read import read_data, read_file
    from .sources import assemble_reads, assemble_sources
    from .titles import sibling_summaries

#: Where each name lives: its module is imported when the name is first used, so that finding
#: the transcripts (:mod:`.discover`, imported here) loads no reader, model or assembly.
_PLACES = {
    **dict.fromkeys(["Diagnostic", "Entry", "ReadResult"], "...model.entries"),
    **dict.fromkeys(
        [
            "AssistantItem",
            "AttachmentItem",
            "Branch",
            "Compaction",
            "Item",
            "MetaItem",
            "ProgressItem",
            "Session",
            "SystemItem",
            "ToolCall",
            "UserItem",
        ],
        "...model.session",
    ),
    **dict.fromkeys(
        [
            "apply_summaries",
            "assemble_entries",
            "attach_subagent",
            "attach_subagents",
            "load_subagent",
        ],
        ".assemble",
    ),
    "link_files": ".links",
    **dict.fromkeys(["load", "load_orphan", "load_session"], ".loader"),
    **dict.fromkeys(["read_data", "read_file"], ".read"),
    **dict.fromkeys(["assemble_reads", "assemble_sources"], ".sources"),
    "sibling_summaries": ".titles",
}

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
    "apply_summaries",
    "assemble_entries",
    "assemble_reads",
    "assemble_sources",
    "attach_subagent",
    "attach_subagents",
    "claude_dirs",
    "discover",
    "group",
    "link_files",
    "load",
    "load_orphan",
    "load_session",
    "load_subagent",
    "orphan_identity",
    "read_data",
    "read_file",
    "sibling_summaries",
    "subagents_for",
]

__getattr__ = lazy_names(__name__, _PLACES)
