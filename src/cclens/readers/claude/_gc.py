"""Collecting cycles while a transcript is read costs a third of the time for nothing.

Reading and assembling a session allocates millions of small objects that live on (records,
entries, items) and form no reference cycles: Python's cycle collector runs again and again
over all of them as they pile up. :func:`paused` turns it off for the duration, for every
thread at once (it is one switch per process); it is back on when the last reader is done,
and only if it was on when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_readers = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cycle collector off (see the module docstring)."""
    global _readers, _was_enabled
    with _lock:
        if _readers == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _readers += 1
    try:
        yield
    finally:
        with _lock:
            _readers -= 1
            if _readers == 0 and _was_enabled:
                gc.enable()
