"""GitHub Copilot CLI: find its session logs, read them losslessly, map them onto the session
model."""

from .assemble import (
    EventFile,
    assemble_events,
    read_events,
    shutdown_usage,
    unknown_kinds,
)
from .discover import EventLog, default_home, discover

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
