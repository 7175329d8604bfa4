"""GitHub Copilot CLI: find its session logs, read them losslessly, map them onto the session
model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import lazy_names
from .discover import EventLog, default_home, discover

if TYPE_CHECKING:
    from .assemble import (
        EventFile,
        assemble_events,
        read_events,
        shutdown_usage,
        unknown_kinds,
    )

__all__ = [
    "EventFile",
    "EventLog",
    "assemble_events",
    "default_home",
    "discover",
    "read_events",
    "shutdown_usage",
    "unknown_kinds",
]

# Reading and assembling (and the model of Copilot's events) load when first used: finding
# out that a folder holds no Copilot CLI session needs none of it.
__getattr__ = lazy_names(
    __name__,
    dict.fromkeys(
        ["EventFile", "assemble_events", "read_events", "shutdown_usage", "unknown_kinds"],
        ".assemble",
    ),
)
