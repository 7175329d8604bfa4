"""Gemini CLI: find its recordings, read them losslessly, map them onto the session model.

Finding recordings and telling them apart (:mod:`.discover`) is all the agent registry loads;
reading and assembling them (:mod:`.chat`, :mod:`.assemble`, :mod:`.load`) are imported when
first used. A Gemini CLI file's session: :func:`.load.load`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import lazy_names
from .discover import (
    ChatFileInfo,
    Located,
    default_home,
    discover,
    is_home,
    is_recording,
    read_projects,
)

if TYPE_CHECKING:
    from .assemble import assemble_chat, usage_of
    from .chat import ChatFile, ChatRecord, read_chat, read_chat_data, unknown_kinds
    from .load import load_file

__all__ = [
    "ChatFile",
    "ChatFileInfo",
    "ChatRecord",
    "Located",
    "assemble_chat",
    "default_home",
    "discover",
    "is_home",
    "is_recording",
    "load_file",
    "read_chat",
    "read_chat_data",
    "read_projects",
    "unknown_kinds",
    "usage_of",
]

__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(["assemble_chat", "usage_of"], ".assemble"),
        **dict.fromkeys(
            ["ChatFile", "ChatRecord", "read_chat", "read_chat_data", "unknown_kinds"], ".chat"
        ),
        "load_file": ".load",
    },
)
