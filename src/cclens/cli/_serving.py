"""Where ``cclens serve`` is serving an index, for the other commands to link to its pages.

While it serves, ``cclens serve`` keeps a small file beside the index (``index.db.serve``)
naming its address and process; ``cclens search`` reads it to print each hit as a link to the
page that opens at it (an OSC 8 hyperlink, which terminals show as clickable text). The file is
removed when the server stops; one left by a server that was killed names a process that is
gone, and is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path


def _note(db: Path) -> Path:
    return db.with_name(db.name + ".serve")


@contextlib.contextmanager
def serving(db: Path, url: str) -> Iterator[None]:
    """Say that this process serves ``db`` at ``url`` for as long as the block runs."""
    note = _note(db)
    # In a read-only folder there is no note: the other commands print addresses, not links.
    with contextlib.suppress(OSError):
        note.write_text(json.dumps({"url": url, "pid": os.getpid()}), encoding="utf-8")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            if json.loads(note.read_text(encoding="utf-8")).get("pid") == os.getpid():
                note.unlink()


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


def known_server(db: Path) -> str | None:
    """The address a running ``cclens serve`` serves ``db`` at, if one does."""
    try:
        found = json.loads(_note(db).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("url"), str):
        return None
    return str(found["url"]) if _alive(found.get("pid")) else None


__all__ = ["known_server", "serving"]
