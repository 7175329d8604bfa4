"""Two updates at once wait for each other; worker processes end with their parent; a killed
worker costs one line, not the update."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from cclens.index import Index
from cclens.index.storage.locking import update_lock
from cclens.index.write.ingest import WORKER_LOST

from .test_index_layout import make_claude_dir

CCLENS = [sys.executable, "-c", "from cclens.cli import main; main(prog_name='cclens')"]


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                if int(handle.read().split(")")[-1].split()[1]) == pid:
                    found.append(int(name))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.slow
def test_two_index_commands_at_once_wait_for_each_other(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    command = [*CCLENS, "index", "--claude-dir", str(claude_dir), "--db", str(db), "--json"]
    with update_lock(db):  # a first update holds the index
        second = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(3)
        assert second.poll() is None  # waiting, not failing
    _, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert b"waiting for it to finish" in err and err.count(b"waiting") == 1
    assert b"Traceback" not in err
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)]
    runs.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert b"IntegrityError" not in err and b"Traceback" not in err
    with Index(db) as index:
        assert index.totals().sessions > 100


@pytest.mark.slow
def test_the_servers_indexer_and_a_command_take_turns(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    results: list[object] = []

    def run(workers: int) -> None:
        try:
            with Index(db) as index:
                results.append(index.update([claude_dir], workers=workers, pool_threshold=0))
        except Exception as error:
            results.append(error)

    Index(db).close()
    threads = [threading.Thread(target=run, args=(n,)) for n in (1, 2, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    assert all(not isinstance(result, Exception) for result in results), results
    added = [key for result in results for key in result.added]  # type: ignore[attr-defined]
    assert len(added) == len(set(added)) > 100  # each session added once, by one of them


_PARENT = textwrap.dedent(
    """
    import os, sys, time
    from cclens.index import Index

    def stall(done: int, total: int) -> None:
        time.sleep(0.5)  # keep the update (and its workers) going

    if __name__ == "__main__":
        with Index(sys.argv[2]) as index:
            index.update([sys.argv[1]], workers=2, pool_threshold=0, progress=stall)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_their_parent(
    claude_dir: Path, tmp_path: Path, how: signal.Signals
) -> None:
    script = tmp_path / "parent.py"
    script.write_text(_PARENT)
    parent = subprocess.Popen([sys.executable, str(script), str(claude_dir), str(tmp_path / "db")])
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline:
        workers = [pid for pid in _children(parent.pid) if _alive(pid)]
        if len(workers) >= 3:  # two workers and the resource tracker
            break
        time.sleep(0.1)
    assert len(workers) >= 3, workers
    time.sleep(1)
    os.kill(parent.pid, how)
    parent.wait(30)
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]


@pytest.mark.slow
def test_a_killed_worker_costs_one_line_and_the_update_goes_on(
    claude_dir: Path, tmp_path: Path
) -> None:
    killed: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        if not killed:
            children = multiprocessing.active_children()
            workers = [c for c in children if c.pid and "ResourceTracker" not in c.name]
            if workers and workers[0].pid:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append(workers[0].pid)
                time.sleep(0.5)

    with Index(tmp_path / "index.db") as index:
        report = index.update([claude_dir], workers=2, pool_threshold=0, progress=kill_a_worker)
        assert killed
        assert [reason for _, reason in report.errors] == [WORKER_LOST]
        with Index(tmp_path / "plain.db") as plain:
            plain.update([claude_dir], workers=1)
            assert index.totals() == plain.totals()
        assert index.update([claude_dir]).changed == []


def test_a_worker_answers_the_pool_in_one_small_write(claude_dir: Path, tmp_path: Path) -> None:
    # A worker's outcomes go through a file: what it writes to the pool's pipe fits in one
    # atomic write (PIPE_BUF, 4,096 bytes on Linux), so a worker killed while answering
    # cannot leave half an answer there for the pool's reader to wait on forever.
    import pickle
    from concurrent.futures.process import _ResultItem  # what the pool sends back

    from cclens.index.write.plan import make_plan
    from cclens.index.write.worker import process_all, process_all_into, read_outcomes

    with Index(tmp_path / "index.db") as index, index.connection() as connection:
        tasks = make_plan(connection, index.path, [claude_dir]).tasks
    assert len(tasks) > 10
    name = process_all_into(tasks, str(tmp_path))
    sent = pickle.dumps(_ResultItem(1, result=name))
    assert len(sent) + 4 < 4096  # the length header and the item, written at once
    assert len(pickle.dumps(process_all(tasks))) > 100_000  # what used to be sent
    outcomes = read_outcomes(name)
    assert outcomes == process_all(tasks)
    assert not Path(name).exists()
