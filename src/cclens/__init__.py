"""cclens: see, search, measure and share everything Claude Code did.

The library reads Claude Code's JSONL transcripts into a typed, lossless model::

    import cclens

    for found in cclens.discover().sessions:
        session = cclens.load(found)
        print(session.title, len(session.tool_calls))
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .readers.claude import (
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


def __getattr__(name: str) -> Any:
    # The names are loaded on first use, so that a command that needs none of them (the
    # status line runs as a new process each time) does not pay for importing the parser.
    if name in __all__ and name != "__version__":
        from .readers import claude

        return getattr(claude, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
