"""Files cclens reads and writes: regular files only in, whole files only out.

Reading. A FIFO named like a transcript blocks whoever opens it until a writer comes,
``/dev/zero`` never ends, a socket cannot be opened at all. Every reader of an agent's files
(transcripts, sidecars, settings, price tables) opens them through :func:`open_regular` (or
:func:`read_regular`, :func:`regular_stat`), which refuses anything but a regular file with
:class:`NotRegularFile` (an ``OSError``, so callers that report unreadable files report it
too, as ``cannot read PATH: not a regular file (a FIFO)``), without ever blocking: the file
is opened non-blocking and its type checked on the open descriptor, so a file swapped for a
FIFO between a listing and the read is refused as well.

Writing. Every file cclens writes for a person (an export, a page of a site, a dataset table,
a restored transcript) goes through :func:`replace_file` or :func:`write_file`: to a temporary
file in the same folder, renamed over its name once complete. A write that fails half-way (a
full disk, a file-size limit, an error while drawing, Ctrl-C) leaves the file that was there
before untouched and no temporary file behind; a reader never sees half a file.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> os.mkfifo(os.path.join(folder, "s.jsonl"))
>>> try:
...     open_regular(os.path.join(folder, "s.jsonl"))
... except NotRegularFile as error:
...     print(error.strerror)
not a regular file (a FIFO)
>>> with replace_file(os.path.join(folder, "out.md")) as handle:
...     _ = handle.write(b"# Title\\n")
>>> read_regular(os.path.join(folder, "out.md"))
b'# Title\\n'
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import tempfile
from collections.abc import Iterator
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


# Writing -------------------------------------------------------------------------------------

#: What the temporary files are called (``.<name>.<random>.tmp``), so a listing shows them
#: for what they are should the process be killed before it could remove one.
_SUFFIX = ".tmp"


@contextlib.contextmanager
def replace_file(
    path: Path | str, mode: int = 0o666, *, durable: bool = False
) -> Iterator[BinaryIO]:
    """A binary handle on a temporary file that becomes ``path`` when the block ends.

    If the block raises (or writing or closing the file fails), the temporary file is removed
    and ``path`` is left as it was. The new file gets ``mode`` less the process's umask (what
    ``open()`` would give), or the mode of the file it replaces. ``durable``: the bytes reach
    the disk before the rename (``fsync``), for a file a crash must not leave empty (a
    settings file); exports, rewritten at will, skip that cost.
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
            if durable:
                os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_file(path: Path | str, data: bytes, *, durable: bool = False) -> None:
    """Write ``data`` to ``path`` through :func:`replace_file`."""
    with replace_file(path, durable=durable) as handle:
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


__all__ = [
    "NotRegularFile",
    "open_regular",
    "read_regular",
    "regular_stat",
    "replace_file",
    "write_file",
]
