"""Find Copilot CLI's session logs: ``~/.copilot/session-state/<id>/events.jsonl`` (and the
older flat ``session-state/<id>.jsonl``). ``$COPILOT_HOME`` replaces ``~/.copilot``.

Not read: ``history-session-state/`` (an early format no published file shows) and
``session-store.db`` (an index Copilot CLI derives from the logs).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec


def default_home() -> Path:
    """Copilot CLI's folder: ``$COPILOT_HOME``, else ``~/.copilot``."""
    home = os.environ.get("COPILOT_HOME")
    return Path(home) if home else Path.home() / ".copilot"


class EventLog(msgspec.Struct):
    path: Path
    session_id: str
    size: int
    mtime: float


def discover(root: Path) -> list[EventLog]:
    """Every session log under ``root`` (a Copilot folder, its ``session-state`` or any
    folder of session folders), oldest first."""
    base = root / "session-state" if (root / "session-state").is_dir() else root
    found: list[EventLog] = []
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    for name in names:
        path = base / name
        if path.is_dir() and (path / "events.jsonl").is_file():
            path, session_id = path / "events.jsonl", name
        elif name.endswith(".jsonl") and path.is_file():
            session_id = name[: -len(".jsonl")]
        else:
            continue
        try:
            stat = path.stat()
        except OSError:
            continue
        found.append(EventLog(path, session_id, stat.st_size, stat.st_mtime))
    found.sort(key=lambda log: (log.mtime, str(log.path)))
    return found
