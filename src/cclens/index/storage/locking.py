"""One update of an index at a time, across processes; worker processes that end with their parent.

Two ``cclens index`` runs (or ``cclens serve``'s background indexer and a ``cclens index``) each
plan from what the index holds, then write: run together, the second would insert sessions the
first has just inserted. An update therefore holds an exclusive lock on a file beside the index
(``index.db.lock``, through :mod:`filelock`: ``flock`` on POSIX, released by the system when its
holder dies, so a killed run never leaves a stale lock) from its plan to its last commit; an
update that finds it held waits, and says so through its ``waiting`` callback.

Worker processes (see :mod:`cclens.index.write.ingest`) must not outlive the update that started
them:
killed with ``kill -9``, a parent cannot stop them, and they would keep the resource tracker
alive with them. On Linux each worker asks the kernel for ``SIGKILL`` when its parent dies
(``PR_SET_PDEATHSIG``); elsewhere a thread of the worker polls its parent's id.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

try:
    import fcntl
except ImportError:  # Windows: no shared locks; a rebuild only waits for updates there
    fcntl = None  # type: ignore[assignment]

#: How often a waiting update checks whether the lock was released (and whether to give up).
POLL_SECONDS = 0.25
_PR_SET_PDEATHSIG = 1


class UpdateLockError(OSError):
    """The lock file beside the index cannot be created (a folder cclens cannot write)."""


def lock_path(db_path: Path) -> Path:
    """The lock file of the index at ``db_path``."""
    return db_path.with_name(db_path.name + ".lock")


@contextmanager
def update_lock(db_path: Path, waiting: Callable[[float], None] | None = None) -> Iterator[None]:
    """Hold the index's update lock for the block, waiting for another update to end.

    ``waiting(seconds)`` is called while another process (or thread) holds it, every
    :data:`POLL_SECONDS`, with the time waited so far; it may raise to give up.
    """
    lock = FileLock(lock_path(db_path), is_singleton=False, thread_local=False)
    began = time.monotonic()
    while True:
        try:
            lock.acquire(timeout=0 if waiting is not None else POLL_SECONDS)
            break
        except Timeout:
            if waiting is not None:
                waiting(time.monotonic() - began)
                time.sleep(POLL_SECONDS)
        except OSError as error:
            raise UpdateLockError(
                error.errno, f"cannot create the lock file {lock_path(db_path)} ({error.strerror})"
            ) from error
    try:
        yield
    finally:
        lock.release()


def users_path(db_path: Path) -> Path:
    """The file every process that has the index at ``db_path`` open holds a shared lock on."""
    return db_path.with_name(db_path.name + ".users")


class Holder:
    """A shared hold on the index file for as long as this process has it open.

    ``index --rebuild`` moves the file aside: a process that has it open (``serve``, ``mcp``)
    would go on writing to the moved file, and sessions would land in two files. Every
    :class:`~cclens.index.Index` holds a shared ``flock`` on :func:`users_path` until it is
    closed (released by the system when the process dies), and :func:`sole_user` tells a
    rebuild whether anyone else does. Where the lock file cannot be made (a read-only folder:
    nothing can be rebuilt there either) or on a system without ``flock``, nothing is held.
    """

    def __init__(self, db_path: Path) -> None:
        #: The lock file's descriptor (a plain one: an index left for the garbage collector
        #: to close lets go of it without a warning).
        self._descriptor: int | None = None
        if fcntl is None:
            return
        descriptor = _open_users(db_path)
        if descriptor is None:
            return
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH)
        except OSError:
            os.close(descriptor)
            return
        self._descriptor = descriptor

    def release(self) -> None:
        """Let go of the hold (closing the file releases the lock)."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None

    def __del__(self) -> None:
        self.release()


def _open_users(db_path: Path) -> int | None:
    """A descriptor of the index's :func:`users_path` file (made when missing), or ``None``
    when it cannot be made (a read-only folder)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(users_path(db_path), flags, 0o644)
    except OSError:
        return None


@contextmanager
def sole_user(db_path: Path) -> Iterator[bool]:
    """Whether no other process has the index at ``db_path`` open (see :class:`Holder`); when
    none has, none can open it until the block ends."""
    descriptor = _open_users(db_path) if fcntl is not None else None
    if fcntl is None or descriptor is None:
        yield True  # no lock file can be made: nobody holds one either
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)


def end_with_parent(parent: int) -> None:
    """Make this (worker) process end when ``parent`` ends; the pool's initializer."""
    if sys.platform.startswith("linux"):
        name = ctypes.util.find_library("c")
        try:
            libc = ctypes.CDLL(name, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            _watch_parent(parent)
    else:
        _watch_parent(parent)
    # The parent may have died before the request above was made: it then never fires.
    if os.getppid() != parent:
        os._exit(1)


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="cclens-parent-watch", daemon=True).start()
