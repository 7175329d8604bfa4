"""cclens: see, search, measure and share everything Claude Code did.

The library reads Claude Code's JSONL transcripts into a typed, lossless model::

    import cclens

    for found in cclens.discover().sessions:
        session = cclens.load(found)
        print(session.title, len(session.tool_calls))
"""

from .parse import (
    AssistantItem,
    AttachmentItem,
    Branch,
    Compaction,
    Diagnostic,
    Discovery,
    Item,
    MetaItem,
    ProgressItem,
    Session,
    SessionFile,
    SystemItem,
    ToolCall,
    UserItem,
    claude_dirs,
    discover,
    load,
    load_session,
)

__version__ = "0.1.0"

__all__ = [
    "AssistantItem",
    "AttachmentItem",
    "Branch",
    "Compaction",
    "Diagnostic",
    "Discovery",
    "Item",
    "MetaItem",
    "ProgressItem",
    "Session",
    "SessionFile",
    "SystemItem",
    "ToolCall",
    "UserItem",
    "__version__",
    "claude_dirs",
    "discover",
    "load",
    "load_session",
]
