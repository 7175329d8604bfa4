"""Drawing an exported page's folded parts in several processes, with the one-process result.

An exported file carries every folded part of its session drawn (:mod:`cclens.render.parts`):
for a session of several MB that is most of the export's time, all of it pure Python. With
``RenderOptions.workers`` above 1, :func:`draw_in_workers` forks that many processes minus one
once the page's skeleton is drawn (so each starts with the session, the templates and the
memos already in memory). Every process, this one included, takes the next part waiting from a
shared queue and draws it together with every part registered while drawing it (a chunk's tool
calls, a call's subagent), until none is left. The drawn HTML comes back through a pipe.

The page is byte for byte the one a single process draws: each process also reports which part
ids every part it drew registered, in order, so the parts are put back in the order one process
would have drawn them (the order that decides how they are packed). Drawing one part never
depends on another, with one exception: a part registered from two places (the same subagent
drawn by a view and listed by its call, two records with one uuid), whose first registration
decides its nesting. When that happens :class:`OrderMatters` is raised and the caller draws the
page again in one process.

Forking is used only on Linux and only when this process runs no other thread (forking a
threaded process can leave a lock held forever in the child); otherwise, and for pages with
few parts or of small transcripts (:data:`MIN_BYTES`), :func:`draw_in_workers` answers ``None``
and the caller draws in this process.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable

import msgspec

from .page_map import CHUNK_PREFIX
from .parts import PartStore

__all__ = ["MIN_BYTES", "MIN_PARTS", "OrderMatters", "can_fork", "draw_in_workers"]

#: With fewer parts waiting than this there is little to share. (Forking is cheap: drawing every
#: corpus session apart, most of them a few parts, costs what drawing them alone does. What a
#: page holds is not known before its chunks are drawn: a session of 167 calls waits with 12.)
MIN_PARTS = 4
#: Pages of smaller transcripts (the session's files and its subagents', in bytes) are drawn in
#: this process. A worker costs about 10 ms to fork and collect, and pays again what a process
#: does the first time it draws a language or a kind of view (imports, set-up): 15-25 ms of CPU
#: for a session of 180-460 kB whose parts take 40-70 ms to draw alone. Below this size the
#: gain on an idle core is a few milliseconds, and on a busy machine it is a loss.
MIN_BYTES = 300_000
#: The queue of parts is one pipe, written whole before forking: at most its 64 kB.
MAX_PARTS = 16_000


class OrderMatters(Exception):
    """A part was registered from two places: only one process drawing in order is exact."""


class _Share(msgspec.Struct, array_like=True):
    """What one process drew: HTML by part id (in drawing order), the part ids each drawn part
    registered (in order), and the view failures it recorded."""

    html: dict[str, str]
    registered: dict[str, list[str]]
    failures: list[str]


def can_fork() -> bool:
    """Whether this process may fork drawing workers: Linux, and no other thread running."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


class _Queue:
    """The parts waiting to be drawn, dealt one at a time to whichever process asks first.

    Their numbers are written to a pipe before forking, four bytes each, and every process reads
    the next one when it is free (a pipe hands each read to one reader whole), so a process that
    drew cheap parts takes more of them. :meth:`open` gives ``None`` when the pipe cannot hold
    them all (Linux gives a user over its pipe allowance pipes of one page).
    """

    def __init__(self, parts: list[str], read: int) -> None:
        self.parts = parts
        self._read = read

    @classmethod
    def open(cls, parts: list[str]) -> _Queue | None:
        read, write = os.pipe()
        data = b"".join(number.to_bytes(4, "little") for number in range(len(parts)))
        try:
            os.set_blocking(write, False)
            written = os.write(write, data)
        except BlockingIOError:
            written = 0
        finally:
            os.close(write)
        if written == len(data):
            return cls(parts, read)
        os.close(read)
        return None

    def next(self) -> str | None:
        """The next part to draw, ``None`` when every part has been taken."""
        data = os.read(self._read, 4)
        return self.parts[int.from_bytes(data, "little")] if len(data) == 4 else None

    def close(self) -> None:
        os.close(self._read)


def _draw_share(
    store: PartStore, take: Callable[[], str | None], known: set[str], failures: list[str]
) -> _Share:
    """Draw the parts ``take`` gives until it gives ``None``, each with every part registered
    while drawing it (``known``: the parts registered before drawing began, which ``take``
    deals out)."""
    before = len(failures)
    html: dict[str, str] = {}
    while (taken := take()) is not None:
        waiting, queued = [taken], {taken}
        for part_id in waiting:  # grows while it is walked: the parts each drawn part registers
            html[part_id] = store.draw(part_id)
            for child in store.registered_by.get(part_id, ()):
                if child not in known and child not in html and child not in queued:
                    waiting.append(child)
                    queued.add(child)
    registered = {part_id: store.registered_by.get(part_id, []) for part_id in html}
    return _Share(html, registered, failures[before:])


def _fork_share(
    store: PartStore, queue: _Queue, known: set[str], failures: list[str]
) -> tuple[int, int]:
    """A child process drawing from ``queue``: its pid and the pipe its answer comes through."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: draw, answer, and leave without running the parent's clean-up
        os.close(read)
        status = 0
        try:
            payload = msgspec.msgpack.encode(_draw_share(store, queue.next, known, failures))
        except BaseException:  # the parent meets the same error drawing these parts itself
            payload, status = b"", 1
        try:
            with os.fdopen(write, "wb") as out:
                out.write(payload)
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def _collect(pid: int, read: int) -> _Share | None:
    """The child's answer, or ``None`` when it failed or died."""
    with os.fdopen(read, "rb") as source:
        payload = source.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not payload:
        return None
    try:
        return msgspec.msgpack.decode(payload, type=_Share)
    except msgspec.DecodeError:
        return None


def _stop(pid: int, read: int) -> None:
    """End a child whose answer is no longer wanted, and wait for it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.close(read)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _in_order(start: list[str], known: set[str], shares: list[_Share]) -> dict[str, str]:
    """Every drawn part in the order one process draws them (:meth:`PartStore.draw_all`)."""
    html: dict[str, str] = {}
    registered: dict[str, list[str]] = {}
    for share in shares:
        for part_id, drawn in share.html.items():
            if part_id in html:
                raise OrderMatters(part_id)
            html[part_id] = drawn
        registered.update(share.registered)
    times = Counter(child for children in registered.values() for child in children)
    twice = [child for child, count in times.items() if count > 1 or child in known]
    if twice:
        raise OrderMatters(twice[0])
    order = list(start)
    for part_id in order:  # grows while it is walked, as the one-process drawing does
        order.extend(registered.get(part_id, ()))
    return {part_id: html[part_id] for part_id in order}


def draw_in_workers(
    store: PartStore,
    workers: int,
    failures: list[str],
    *,
    size: int | None = None,
    prepare: Callable[[], None] | None = None,
) -> dict[str, str] | None:
    """Every part of ``store`` drawn by ``workers`` processes, in :meth:`PartStore.draw_all`'s
    order; ``None`` (nothing drawn) when forking is not possible or not worth it.

    ``failures`` is the renderer's list of view failures: the children's are added to it.
    ``size``: the bytes of the page's transcripts, when known (see :data:`MIN_BYTES`).
    ``prepare`` is called once before forking: set-up each process would otherwise repeat.
    Raises :class:`OrderMatters` (some parts drawn) when only drawing in one process is exact.
    """
    if size is not None and size < MIN_BYTES:
        return None
    start = list(store.pending)
    waiting = [part_id for part_id in start if part_id not in store.drawn]
    workers = min(workers, len(waiting))  # on a machine of many cores, no idle children
    if workers < 2 or len(waiting) < MIN_PARTS or len(waiting) > MAX_PARTS or not can_fork():
        return None
    known = set(start)
    # Parts drawn before (their own parts are registered already, so they add none).
    already = {part_id: store.drawn[part_id] for part_id in start if part_id in store.drawn}
    # Later chunks first: each holds many calls, and the last parts dealt should be small.
    waiting.sort(key=lambda part_id: not part_id.startswith(CHUNK_PREFIX))
    if prepare is not None:
        # Set-up only: what fails here fails again, and is reported, where it is used.
        with contextlib.suppress(Exception):
            prepare()
    queue = _Queue.open(waiting)
    if queue is None:
        return None
    # What every process holds already (the session, modules, templates) is left out of the
    # garbage collector's scans, which would otherwise copy it into each child page by page.
    gc.freeze()
    children: list[tuple[int, int]] = []
    try:
        for _ in range(workers - 1):
            children.append(_fork_share(store, queue, known, failures))
        drawn = [_draw_share(store, queue.next, known, failures), _Share(already, {}, [])]
    except BaseException:  # a view's error here, or Ctrl-C: no child is left behind
        for pid, read in children:
            _stop(pid, read)
        raise
    finally:
        gc.unfreeze()
        queue.close()
    lost = False
    for pid, read in children:
        answer = _collect(pid, read)
        if answer is None:  # it failed or died: its parts are drawn here (an error is raised here)
            lost = True
            continue
        failures.extend(answer.failures)
        drawn.append(answer)
    if lost:
        done = {part_id for share in drawn for part_id in share.html}
        rest = iter([part_id for part_id in waiting if part_id not in done])
        drawn.append(_draw_share(store, lambda: next(rest, None), known | done, failures))
    return _in_order(start, known, drawn)
