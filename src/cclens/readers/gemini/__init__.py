"""Gemini CLI: find its recordings, read them losslessly, map them onto the session model."""

from .assemble import Located, assemble_chat, usage_of
from .chat import ChatFile, ChatRecord, read_chat, read_chat_data, unknown_kinds
from .discover import ChatFileInfo, default_home, discover, is_home, is_recording, read_projects
from .load import load, load_file

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
    "load",
    "load_file",
    "read_chat",
    "read_chat_data",
    "read_projects",
    "unknown_kinds",
    "usage_of",
]
