"""Open transcripts and the files beside them: regular files only.

A FIFO named like a transcript blocks whoever opens it until a writer comes, ``/dev/zero``
never ends, a socket cannot be opened at all. Every reader of an agent's files opens them
through :func:`open_regular` (or :func:`read_regular`), which refuses anything but a regular
file with :class:`NotRegularFile` (an ``OSError``, so callers that report unreadable files
report it too, as ``cannot read PATH: not a regular file (a FIFO)``), without ever blocking:
the file is opened non-blocking and its type checked on the open descriptor, so a file swapped
for a FIFO between a listing and the read is refused as well.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> os.mkfifo(os.path.join(folder, "s.jsonl"))
>>> try:
...     open_regular(os.path.join(folder, "s.jsonl"))
... except NotRegularFile as error:
...     print(error.strerror)
not a regular file (a FIFO)
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class NotRegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a folder), or a link to
    one: never opened for reading."""


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse(path: Path | str, mode: int) -> NotRegularFile:
    kind = _kind(mode)
    reason = "not a regular file" + (f" ({kind})" if kind != "not a regular file" else "")
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return NotRegularFile(code, reason, os.fspath(path))


def regular_stat(path: Path | str) -> os.stat_result:
    """``os.stat(path)`` (links followed) of a regular file; :class:`NotRegularFile` for
    anything else (``OSError`` as ``os.stat`` raises it for a missing file)."""
    found = os.stat(path)
    if not stat.S_ISREG(found.st_mode):
        raise _refuse(path, found.st_mode)
    return found


def open_regular(path: Path | str) -> BinaryIO:
    """``open(path, "rb")`` for a regular file (links followed); :class:`NotRegularFile`
    without blocking for anything else."""
    regular_stat(path)  # a socket cannot even be opened: say what it is
    descriptor = os.open(path, _FLAGS)
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise _refuse(path, found.st_mode)
        if _FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: Path | str, limit: int = -1) -> bytes:
    """The bytes of the regular file ``path`` (its first ``limit`` bytes when ``limit`` is
    not negative); :class:`NotRegularFile` for anything else."""
    with open_regular(path) as handle:
        return handle.read(limit)


__all__ = ["NotRegularFile", "open_regular", "read_regular", "regular_stat"]
