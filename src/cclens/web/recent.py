"""A small map that forgets its least recently used entries (the web app's caches)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


class Recent(Generic[Key, Value]):
    """A small map that forgets its least recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Key, Value] = OrderedDict()

    def get(self, key: Key) -> Value | None:
        """The value of ``key`` (now the most recently used), or ``None``."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value`` under ``key``, forgetting the oldest entry when full."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)


__all__ = ["Recent"]
