"""cclens: see, search, measure and share everything your coding agents did.

The library reads Claude Code's JSONL transcripts into a typed, lossless model (every agent's,
Codex CLI's included, through :mod:`cclens.readers.agents`: ``agents.discover()``,
``agents.load(found)``)::

    import cclens

    for found in cclens.discover().sessions:
        session = cclens.load(found)
        print(session.title, len(session.tool_calls))
"""

from typing import TYPE_CHECKING

from ._lazy import lazy_names

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

# The names are loaded on first use, so that a command that needs none of them (the status line
# runs as a new process each time) does not pay for importing the reader.
__getattr__ = lazy_names(__name__, dict.fromkeys(set(__all__) - {"__version__"}, ".readers.claude"))
