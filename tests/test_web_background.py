"""The web app's background worker: a page's slow first computation, run once, off the
request threads; after the server has closed it (it is stopping), a late caller (the
permissions audit thread started at launch) is told nothing, never a traceback."""

from __future__ import annotations

import threading

from cclens.web.background import Background


def test_a_result_in_time_and_none_when_late() -> None:
    worker = Background()
    try:
        assert worker.within(5, lambda: 42) == 42
        release = threading.Event()
        assert worker.within(0.05, lambda: release.wait(5)) is None  # still going on
        release.set()
    finally:
        worker.close(wait=True)


def test_after_close_nothing_is_started() -> None:
    worker = Background()
    worker.close()
    started: list[int] = []
    assert worker.within(1, lambda: started.append(1)) is None
    assert started == []
