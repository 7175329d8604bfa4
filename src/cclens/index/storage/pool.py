"""A bounded pool of read connections to the index, shared by every thread of a process.

The web app answers requests on up to 40 threads; a connection per thread, kept until the
index is closed, meant 40 page caches of 32 MB each and as many open files. The pool holds at
most :data:`POOL_SIZE` connections: a thread leases one for the few statements it runs and
gives it back, and a thread that finds them all in use waits for one. A lease is re-entrant
within a thread (an index method that calls another gets the same connection), so a thread
never waits on itself.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Read connections at most: SQLite reads in parallel, but the machines cclens runs on have a
#: few cores, and the Python work around each read holds the interpreter lock anyway.
POOL_SIZE = 4


class ConnectionPool:
    """At most ``size`` connections made by ``open_connection``, leased one thread at a time."""

    def __init__(self, open_connection: Callable[[], sqlite3.Connection], size: int) -> None:
        if size < 1:
            raise ValueError("a pool holds at least one connection")
        self._open = open_connection
        self.size = size
        self._available = threading.Semaphore(size)
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        self._local = threading.local()
        #: Connections of an older generation are closed when given back (see close).
        self._generation = 0
        self._born: dict[int, int] = {}

    @property
    def opened(self) -> int:
        """Connections open now (idle or leased)."""
        with self._lock:
            return len(self._all)

    @contextmanager
    def lease(self) -> Iterator[sqlite3.Connection]:
        """A connection for this thread until the block ends (the same one when nested)."""
        held: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if held is not None:
            self._local.depth += 1
            try:
                yield held
            finally:
                self._local.depth -= 1
            return
        self._available.acquire()
        try:
            connection = self._take()
        except BaseException:
            self._available.release()
            raise
        self._local.connection, self._local.depth = connection, 1
        try:
            yield connection
        finally:
            self._local.connection = None
            self._give_back(connection)
            self._available.release()

    def _take(self) -> sqlite3.Connection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            generation = self._generation
        connection = self._open()
        with self._lock:
            self._all.append(connection)
            self._born[id(connection)] = generation
        return connection

    def _give_back(self, connection: sqlite3.Connection) -> None:
        if connection.in_transaction:
            connection.rollback()  # a lease never leaves a read transaction open
        with self._lock:
            if self._born.get(id(connection)) == self._generation:
                self._idle.append(connection)
                return
            self._all.remove(connection)
            self._born.pop(id(connection), None)
        connection.close()

    def close(self) -> None:
        """Close the idle connections now, and those leased when they come back.

        A lease taken afterwards opens a new connection (the pool is never left unusable).
        """
        with self._lock:
            self._generation += 1
            idle, self._idle = self._idle, []
            for connection in idle:
                self._all.remove(connection)
                self._born.pop(id(connection), None)
        for connection in idle:
            connection.close()


class ChangeCounter:
    """A number that grows whenever any connection (of this process or another) commits to the
    index: what results computed from the whole index can be kept for.

    It asks SQLite's ``PRAGMA data_version`` on a connection of its own that never writes (the
    value changes when another connection commits); asking costs a few microseconds.
    """

    def __init__(self, open_connection: Callable[[], sqlite3.Connection]) -> None:
        self._open = open_connection
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._seen: int | None = None
        self._generation = 0

    @property
    def opened(self) -> int:
        """Connections open now (zero or one)."""
        return int(self._connection is not None)

    def current(self) -> int:
        """The generation of the index's contents now."""
        with self._lock:
            if self._connection is None:
                self._connection = self._open()
            version = int(self._connection.execute("PRAGMA data_version").fetchone()[0])
            if version != self._seen:
                self._seen = version
                self._generation += 1
            return self._generation

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
                self._seen = None
                self._generation += 1
