"""An exported page's folded parts drawn by several processes: the page is the one a single
process draws, byte for byte, whatever happens to the workers."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cclens.readers.claude import Session, ToolCall, discover, load, load_session
from cclens.render import RenderOptions, SessionRenderer, part_workers
from cclens.render.parts import expand_page
from cclens.render.prepared import PreparedView
from cclens.render.tool_views import view_for
from cclens.render.views import ToolView, ViewHelpers

from .conftest import CORPUS

#: The corpus session with the most tool calls (167): enough parts to fork for on its own.
LARGEST = (
    CORPUS / "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project"
    "/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
)
#: Two of its records share one uuid, so one record's part is registered from two places.
TWICE = CORPUS / "jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/claude/small.jsonl"


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Forking for any page with two parts or more; yields the list of children forked."""
    monkeypatch.setattr(part_workers, "MIN_PARTS", 2)
    monkeypatch.setattr(part_workers, "MIN_BYTES", 0)
    yield from counted_forks(monkeypatch)


@pytest.fixture(name="counted")
def counted_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The children forked, with the default thresholds."""
    yield from counted_forks(monkeypatch)


def counted_forks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    children: list[int] = []
    fork = part_workers._fork_share

    def counted(*args: Any) -> tuple[int, int]:
        pid, read = fork(*args)
        children.append(pid)
        return pid, read

    monkeypatch.setattr(part_workers, "_fork_share", counted)
    yield children


def page(session: Session, workers: int, views: Callable[[ToolCall], ToolView] = view_for) -> str:
    return SessionRenderer(RenderOptions(workers=workers), views=views).page(session)


def corpus_sessions() -> list[Session]:
    return [load(file) for file in discover(CORPUS).sessions]


@pytest.mark.slow
def test_every_corpus_page_drawn_by_two_or_three_processes_is_the_same(forks: list[int]) -> None:
    sessions = corpus_sessions()
    assert len(sessions) > 100
    for session in sessions:
        alone = page(session, 1)
        assert page(session, 2) == alone, session.path
        assert page(session, 3) == alone, session.path
    assert len(forks) > 100  # most pages were drawn apart, not quietly in one process


def test_a_small_session_is_drawn_in_this_process(counted: list[int]) -> None:
    # 27 kB and 12 parts: forking would cost more than it saves.
    small = LARGEST.with_name("1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    session = load_session(small)
    assert sum(agent.file_size for agent in session.all_sessions()) < part_workers.MIN_BYTES
    renderer = SessionRenderer(RenderOptions(workers=2))
    assert page(session, 2) == page(session, 1)
    renderer.page(session)
    assert len(renderer.parts.pending) >= part_workers.MIN_PARTS
    assert counted == []


@pytest.mark.slow
def test_a_large_session_is_drawn_apart_by_default_thresholds(counted: list[int]) -> None:
    session = load_session(LARGEST)
    assert session.file_size >= part_workers.MIN_BYTES
    SessionRenderer(RenderOptions(workers=2)).page(session)
    assert len(counted) == 1


@pytest.mark.slow
def test_a_large_session_is_drawn_apart_as_one_process_draws_it() -> None:
    session = load_session(LARGEST)
    renderer = SessionRenderer(RenderOptions(workers=2))
    renderer.body(session)
    waiting = [p for p in renderer.parts.pending if p not in renderer.parts.drawn]
    assert len(waiting) >= part_workers.MIN_PARTS
    drawn = part_workers.draw_in_workers(renderer.parts, 2, renderer.view_failures)
    assert drawn is not None
    alone = SessionRenderer(RenderOptions())
    alone.body(session)
    assert list(drawn.items()) == list(alone.parts.draw_all().items())  # same parts, same order


def test_a_part_registered_twice_is_drawn_in_one_process(forks: list[int]) -> None:
    session = load_session(TWICE)
    renderer = SessionRenderer(RenderOptions(workers=2))
    renderer.body(session)
    with pytest.raises(part_workers.OrderMatters):
        part_workers.draw_in_workers(renderer.parts, 2, renderer.view_failures)
    assert forks  # it was drawn apart, then found out
    assert page(session, 2) == page(session, 1)


@pytest.mark.slow
def test_a_worker_that_dies_leaves_its_parts_to_the_parent(forks: list[int]) -> None:
    parent = os.getpid()

    def dying(call: ToolCall) -> ToolView:
        if os.getpid() != parent:
            os._exit(9)  # killed mid-drawing: no answer, no clean-up
        return view_for(call)

    session = load_session(LARGEST)
    assert page(session, 2, dying) == page(session, 1)
    assert forks
    for child in forks:  # every child was waited for
        with pytest.raises(ChildProcessError):
            os.waitpid(child, os.WNOHANG)


def test_an_error_drawing_is_raised_as_in_one_process_and_leaves_no_child(
    forks: list[int],
) -> None:
    session = load_session(LARGEST)
    skeleton = SessionRenderer(RenderOptions())
    skeleton.body(session)
    # A call of a later chunk: drawn once the parts are dealt out.
    later = [c for c in session.tool_calls if f"t.{c}" not in skeleton.parts.pending][-1]

    def views(call: ToolCall) -> ToolView:
        if call.id == later:
            raise RuntimeError("broken registry")
        return view_for(call)

    with pytest.raises(RuntimeError, match="broken registry"):
        page(session, 1, views)
    with pytest.raises(RuntimeError, match="broken registry"):
        page(session, 2, views)
    assert forks
    for child in forks:
        with pytest.raises(ChildProcessError):
            os.waitpid(child, os.WNOHANG)


@pytest.mark.slow
def test_view_failures_in_workers_are_reported_as_in_one_process(forks: list[int]) -> None:
    def failing(call: ToolCall, h: ViewHelpers) -> PreparedView:
        raise RuntimeError(f"no view for {call.id}")

    broken = ToolView("broken", "tools/generic.html", failing)

    def views(call: ToolCall) -> ToolView:
        return broken if call.name == "Bash" else view_for(call)

    session = load_session(LARGEST)
    apart = SessionRenderer(RenderOptions(workers=2), views=views)
    alone = SessionRenderer(RenderOptions(), views=views)
    assert apart.page(session) == alone.page(session)
    assert alone.view_failures and sorted(apart.view_failures) == sorted(alone.view_failures)
    assert forks


def test_no_fork_while_another_thread_runs(forks: list[int]) -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not part_workers.can_fork()
        session = load_session(LARGEST)
        assert page(session, 2) == page(session, 1)
    finally:
        stop.set()
        thread.join()
    assert forks == []


@pytest.mark.slow
def test_export_jobs_give_the_same_file(tmp_path: Path) -> None:
    written = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs-{jobs}.html"
        command = [sys.executable, "-m", "cclens", "export", str(LARGEST), "-o", str(out)]
        done = subprocess.run([*command, "--jobs", jobs], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        written.append(out.read_bytes())
    assert written[0] == written[1]
    assert 'data-tool="Bash"' in expand_page(written[0].decode("utf-8"))


def test_a_queue_the_pipe_cannot_hold_is_refused_not_waited_on() -> None:
    fits = part_workers._Queue.open([f"t.{n}" for n in range(1_000)])
    assert fits is not None
    taken = []
    while (part := fits.next()) is not None:
        taken.append(part)
    fits.close()
    assert taken == [f"t.{n}" for n in range(1_000)]
    # 80 kB of part numbers: more than a pipe holds, and nobody reads it yet.
    assert part_workers._Queue.open([f"t.{n}" for n in range(20_000)]) is None


def test_set_up_runs_once_before_forking_and_cannot_fail_the_page(forks: list[int]) -> None:
    session = load_session(LARGEST)
    renderer = SessionRenderer(RenderOptions(workers=2))
    renderer.body(session)
    calls: list[int] = []

    def prepare() -> None:
        calls.append(os.getpid())
        raise RuntimeError("a set-up that fails")

    drawn = part_workers.draw_in_workers(renderer.parts, 2, [], prepare=prepare)
    assert drawn is not None and forks
    assert calls == [os.getpid()]
    alone = SessionRenderer(RenderOptions())
    alone.body(session)
    assert list(drawn.items()) == list(alone.parts.draw_all().items())
