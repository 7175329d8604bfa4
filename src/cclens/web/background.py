"""One worker thread for the slow first computation of a page, which the page waits on a little.

Adding up a large index the first time takes seconds (every session is loaded once). A page
asks for its figures through :meth:`Background.within`: when they are ready in time it is drawn
with them, otherwise it is drawn at once saying they are on their way, and its script asks the
JSON API, which waits for the same computation (the stores' locks make sure it runs once).

One long-lived thread rather than a thread per request: the index gives each thread its own
SQLite connection and keeps it until the index is closed.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

Result = TypeVar("Result")


class Background:
    """Runs computations one at a time, off the request threads."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cclens-figures")

    def within(self, seconds: float, compute: Callable[[], Result]) -> Result | None:
        """``compute()``'s result if it is done within ``seconds``, else ``None`` (it goes on;
        after :meth:`close`, as the server stops, nothing is started and this is ``None``)."""
        try:
            future = self._executor.submit(compute)
        except RuntimeError:  # closed: "cannot schedule new futures after shutdown"
            return None
        try:
            return future.result(timeout=seconds)
        except FutureTimeout:
            return None

    def close(self, *, wait: bool = False) -> None:
        """Drop what has not started; a computation under way ends on its own (``wait``: and
        is waited for, when it stops itself soon: see :class:`~cclens.web.permission_store.
        PermissionsStore`)."""
        self._executor.shutdown(wait=wait, cancel_futures=True)


__all__ = ["Background"]
