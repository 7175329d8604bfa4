"""Write a user's file all at once: to a temporary file beside it, renamed over it when complete.

Every file cclens writes for a person (an export, a page of a site, a dataset table, a
restored transcript) goes through :func:`replace_file` or :func:`write_file`. A write that
fails half-way (a full disk, a file-size limit, an error while drawing, Ctrl-C) leaves the
file that was there before untouched, and no temporary file behind; a reader never sees half a
file. The temporary file is in the same folder, so the rename is atomic (same file system).

>>> from pathlib import Path
>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with replace_file(folder / "out.md") as handle:
...     _ = handle.write(b"# Title\\n")
>>> (folder / "out.md").read_bytes()
b'# Title\\n'
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

#: What the temporary files are called (``.<name>.<random>.tmp``), so a listing shows them
#: for what they are should the process be killed before it could remove one.
_SUFFIX = ".tmp"


@contextlib.contextmanager
def replace_file(path: Path | str, mode: int = 0o666) -> Iterator[BinaryIO]:
    """A binary handle on a temporary file that becomes ``path`` when the block ends.

    If the block raises (or writing or closing the file fails), the temporary file is removed
    and ``path`` is left as it was. The new file gets ``mode`` less the process's umask (what
    ``open()`` would give), or the mode of the file it replaces.
    """
    target = Path(path)
    descriptor, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=_SUFFIX
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            yield handle
            handle.flush()
            os.fchmod(handle.fileno(), _mode_for(target, mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_file(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` through :func:`replace_file`."""
    with replace_file(path) as handle:
        handle.write(data)


def _mode_for(target: Path, mode: int) -> int:
    """The permissions the new file gets: those of the file it replaces, else ``mode`` less
    the umask (``mkstemp`` makes files readable by their owner only)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return mode & ~_umask()


@functools.cache
def _umask() -> int:
    """The process's umask, read where the system shows it (setting it to read it back, the
    only portable way, would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


__all__ = ["replace_file", "write_file"]
