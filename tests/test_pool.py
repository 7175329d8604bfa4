"""Connections to the index: one bounded pool for every thread, and a server that keeps to it."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from cclens.index import Index
from cclens.index.storage.pool import ConnectionPool

from .test_index import SMALL
from .test_web import running


def _descriptors_on(path: Path) -> int:
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") == str(path):
                count += 1
        except OSError:
            continue
    return count


@pytest.mark.slow
def test_many_threads_share_a_few_connections(corpus: Path, tmp_path: Path) -> None:
    with Index(tmp_path / "index.db", pool_size=3) as index:
        index.update([corpus], workers=1)
        keys = [s.key for s in index.sessions(limit=40)]
        with ThreadPoolExecutor(40) as threads:
            for _ in range(3):
                loaded = list(threads.map(index.load, keys))
                assert all(session is not None for session in loaded)
                list(threads.map(lambda _: index.search("error"), range(40)))
        # Three readers, the writer, and the connection that notices changes.
        assert index.open_connections <= 5
        assert _descriptors_on(index.path) <= 5
    assert _descriptors_on(tmp_path / "index.db") == 0


def test_a_lease_is_reentrant_and_never_waits_on_itself(tmp_path: Path) -> None:
    opened: list[sqlite3.Connection] = []

    def make() -> sqlite3.Connection:
        connection = sqlite3.connect(tmp_path / "x.db", check_same_thread=False)
        opened.append(connection)
        return connection

    pool = ConnectionPool(make, 1)
    with pool.lease() as outer, pool.lease() as inner:
        assert outer is inner
    waited: list[float] = []

    def other() -> None:
        began = time.perf_counter()
        with pool.lease():
            waited.append(time.perf_counter() - began)

    with pool.lease():
        thread = threading.Thread(target=other)
        thread.start()
        time.sleep(0.2)
        assert not waited  # the only connection is leased: the other thread waits
    thread.join(5)
    assert waited and waited[0] >= 0.15
    assert len(opened) == 1
    pool.close()
    with pool.lease() as again:  # a closed pool opens a new connection when asked
        again.execute("SELECT 1")
    assert len(opened) == 2


def test_readers_cannot_write(tmp_path: Path) -> None:
    with Index(tmp_path / "index.db") as index, index.connection() as connection:
        with pytest.raises(sqlite3.OperationalError):
            connection.execute("DELETE FROM sessions")
        cache = connection.execute("PRAGMA cache_size").fetchone()[0]
        assert -16384 <= cache < 0  # a bounded page cache per reader


@pytest.mark.slow
def test_the_server_keeps_its_connections_and_threads_bounded(corpus: Path, tmp_path: Path) -> None:
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    folder = tmp_path / "claude" / "projects" / "-tmp-demo"
    folder.mkdir(parents=True)
    folder.joinpath(f"{SMALL}.jsonl").write_bytes(source.read_bytes())
    db = tmp_path / "index.db"
    with running([tmp_path / "claude"], db, watch=False) as server:
        paths = ["/", f"/sessions/{SMALL}", f"/api/sessions/{SMALL}", "/api/search?q=error"]
        paths += ["/api/status", "/search?q=test"]

        def burst(number: int) -> int:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                return client.get(paths[number % len(paths)]).status_code

        for _ in range(3):
            with ThreadPoolExecutor(40) as clients:
                assert set(clients.map(burst, range(120))) == {200}
        index = server.app.state.cclens.index
        assert index.open_connections <= 6
        assert _descriptors_on(db) <= 6
        workers = [t for t in threading.enumerate() if t.name.startswith("AnyIO worker")]
        assert 0 < len(workers) <= server.settings.threads


@pytest.mark.slow
def test_lists_of_the_whole_index_follow_every_change(corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    with Index(db) as reader, Index(db) as writer:
        assert reader.totals().sessions == 0 and reader.projects() == []
        writer.update([corpus], workers=1)  # another connection (another process, say)
        assert reader.totals() == writer.totals()
        assert reader.totals().sessions > 100
        assert [p.slug for p in reader.projects()] == [p.slug for p in writer.projects()]
        raw = sqlite3.connect(db, isolation_level=None)
        raw.execute("UPDATE sessions SET archived = 1 WHERE id = (SELECT min(id) FROM sessions)")
        raw.close()
        assert reader.totals().archived == 1
