"""Live updates: index in the background, watch the Claude folders, tell open pages.

The :class:`Indexer` thread runs a first update when the app starts (so the server answers at
once), then waits on ``watchfiles`` for changes to transcripts and reads them incrementally.
Each update that changed something is published on the :class:`Broker`, which hands it to the
server-sent event streams of open pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from watchfiles import Change, watch

from ..readers import agents
from . import Index, UpdateReport

_CLOSED: dict[str, object] = {"type": "closed"}


class _Stopped(Exception):
    """Raised from the progress callback to end an update early."""


class Broker:
    """Fan events out from any thread to the asyncio queues of open event streams."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: set[asyncio.Queue[dict[str, object]]] = set()
        self._closed = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver events on ``loop`` (the server's)."""
        self._loop = loop

    def publish(self, event: dict[str, object]) -> None:
        """Send ``event`` to every subscriber; safe to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        # The loop may stop between the check and the call: then nobody is listening.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._deliver, event)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self._closed = True
        self.publish(_CLOSED)

    def _deliver(self, event: dict[str, object]) -> None:
        for queue in list(self._queues):
            queue.put_nowait(event)

    async def stream(
        self, wanted: Callable[[dict[str, object]], bool], heartbeat: float = 15.0
    ) -> AsyncIterator[bytes]:
        """Server-sent events for the events ``wanted`` accepts, with keep-alive comments."""
        queue: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        self._queues.add(queue)
        try:
            yield b"retry: 1000\n: connected\n\n"
            while not self._closed:
                try:
                    event = await asyncio.wait_for(queue.get(), heartbeat)
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                if event is _CLOSED:
                    return
                if wanted(event):
                    yield b"event: update\ndata: " + msgspec.json.encode(event) + b"\n\n"
        finally:
            self._queues.discard(queue)


@dataclass(slots=True)
class Status:
    """What the indexer is doing, for the pages and ``/api/status``."""

    indexing: bool = False
    updates: int = 0
    last_update: float | None = None
    last_seconds: float | None = None
    error: str | None = None
    watching: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _relevant(change: Change, path: str) -> bool:
    del change
    return path.endswith((*agents.suffixes(), ".meta.json"))


class Indexer(threading.Thread):
    """Keeps the index in step with the agents' folders while the server runs."""

    def __init__(
        self,
        index: Index,
        roots: list[Path],
        broker: Broker,
        *,
        watch_files: bool,
        workers: int = 2,
        rescan_seconds: float = 30.0,
    ) -> None:
        super().__init__(name="cclens-indexer", daemon=True)
        self.index = index
        self.roots = roots
        self.broker = broker
        self.watch_files = watch_files
        self.workers = workers
        self.rescan_seconds = rescan_seconds
        self.status = Status()
        self.ready = threading.Event()
        self._stopping = threading.Event()

    def stop(self) -> None:
        """Ask the thread to finish (it does within a fraction of a second)."""
        self._stopping.set()

    def _check_stop(self, done: int, total: int) -> None:
        del done, total
        if self._stopping.is_set():
            raise _Stopped

    def update(self, changed: set[str] | None = None) -> UpdateReport | None:
        """Run one update now (of the ``changed`` paths only, when given); publish the changes."""
        self.status.indexing = True
        try:
            # While a `cclens index` updates the same file, this waits for it (and can stop).
            report = self.index.update(
                self.roots,
                workers=self.workers,
                progress=self._check_stop,
                changed=changed,
                waiting=lambda seconds: self._check_stop(0, 0),
            )
        except _Stopped:
            return None  # the server is stopping; what was committed stays
        except Exception as error:  # the server keeps serving what is already indexed
            self.status.error = f"{type(error).__name__}: {error}"
            return None
        finally:
            self.status.indexing = False
        self.status.error = None
        self.status.updates += 1
        self.status.last_update = time.time()
        self.status.last_seconds = report.seconds
        self.status.problems = (
            [str(d) for d in report.diagnostics] + [f"{p}: {r}" for p, r in report.errors]
        )[:50]
        if report.changed:
            self.broker.publish(
                {
                    "type": "update",
                    "added": report.added,
                    "updated": report.updated,
                    "archived": report.archived,
                }
            )
        return report

    def run(self) -> None:
        if self.index.read_only:
            # Served as it is: nothing can be written to it, so nothing is indexed or watched.
            self.status.error = f"{self.index.path} is read-only: shown as it is, not updated"
            self.ready.set()
            return
        self.update()
        self.ready.set()
        if not self.watch_files:
            return
        while not self._stopping.is_set():
            existing = [str(root.absolute()) for root in self.roots if root.exists()]
            self.status.watching = existing
            if not existing:
                # Nothing to watch yet (no ~/.claude): look again now and then.
                if self._stopping.wait(self.rescan_seconds):
                    return
                self.update()
                continue
            for changes in watch(
                *existing,
                watch_filter=_relevant,
                debounce=150,
                step=50,
                stop_event=self._stopping,
                rust_timeout=int(self.rescan_seconds * 1000),
                yield_on_timeout=True,
                raise_interrupt=False,
            ):
                # Changes: read just those files. A timeout (no changes): a full look, in case
                # an event was missed.
                self.update({path for _, path in changes} if changes else None)
                if any(not Path(path).exists() for path in existing):
                    break  # a watched folder went away: start watching afresh
