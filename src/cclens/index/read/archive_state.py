"""How much of each transcript file the index holds: what ``cclens setup --check`` compares
with the files on disk to find sessions Claude Code may delete before they are archived."""

from __future__ import annotations

import sqlite3


def stored_sizes(connection: sqlite3.Connection) -> dict[str, int]:
    """Each stored file's path and how many of its bytes the index holds."""
    return {path: offset for path, offset in connection.execute("SELECT path, offset FROM files")}


__all__ = ["stored_sizes"]
