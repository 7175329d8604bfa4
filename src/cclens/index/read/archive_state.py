"""How much of each transcript file the index holds: what ``cclens setup --check`` compares
with the files on disk to find sessions Claude Code may delete before they are archived, and
what ``cclens hook`` looks at to see that a session has nothing new."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence


def stored_sizes(connection: sqlite3.Connection) -> dict[str, int]:
    """Each stored file's path and how many of its bytes the index holds."""
    return {path: offset for path, offset in connection.execute("SELECT path, offset FROM files")}


def stored_stats(
    connection: sqlite3.Connection, paths: Sequence[str]
) -> dict[str, tuple[int, int]]:
    """The size and modification time (ns) the index last saw of each of ``paths`` it holds
    (a file whose size and time are the same has nothing new)."""
    found: dict[str, tuple[int, int]] = {}
    for start in range(0, len(paths), 500):
        chunk = list(paths[start : start + 500])
        marks = ", ".join("?" * len(chunk))
        for path, size, mtime in connection.execute(
            f"SELECT path, size, mtime_ns FROM files WHERE path IN ({marks})", chunk
        ):
            found[path] = (size, mtime)
    return found


__all__ = ["stored_sizes", "stored_stats"]
