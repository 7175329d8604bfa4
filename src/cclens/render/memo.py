"""A small per-process memo of drawn text: highlighted code blocks and rendered markdown.

Sessions show the same text many times: a file read twice, an Edit result carrying the whole
original file, a plan written and then read back, a prompt quoted again by a subagent, the same
command run again. Lexing and markdown parsing are most of what a page costs, so what was drawn
once is kept (least recently used first out) and reused.

Keys hold the SHA-1 of the text, not the text: a long-running server keeps no session's text
alive through its memo, and the digest names the content exactly (for a cache, not security).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock

from markupsafe import Markup

__all__ = ["MarkupMemo"]


class MarkupMemo:
    """Drawn markup by text digest and drawing options, bounded in entries and characters."""

    def __init__(self, max_entries: int = 512, max_chars: int = 32_000_000) -> None:
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._blocks: OrderedDict[tuple[Hashable, ...], Markup] = OrderedDict()
        self._chars = 0
        # The web app renders in threads; OrderedDict moves are not atomic.
        self._lock = Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(code: str, *options: Hashable) -> tuple[Hashable, ...]:
        """The key of ``code`` drawn with ``options`` (lexer, start line, …)."""
        digest = hashlib.sha1(code.encode("utf-8", "surrogatepass"), usedforsecurity=False)
        return (digest.digest(), len(code), *options)

    def get(self, key: tuple[Hashable, ...]) -> Markup | None:
        """The markup stored under ``key``, or ``None``."""
        with self._lock:
            found = self._blocks.get(key)
            if found is None:
                self.misses += 1
                return None
            self._blocks.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: tuple[Hashable, ...], block: Markup) -> None:
        """Store ``block``; the least recently used entries go when a bound is passed."""
        if len(block) > self.max_chars:
            return
        with self._lock:
            previous = self._blocks.pop(key, None)
            if previous is not None:
                self._chars -= len(previous)
            self._blocks[key] = block
            self._chars += len(block)
            while len(self._blocks) > self.max_entries or self._chars > self.max_chars:
                _, dropped = self._blocks.popitem(last=False)
                self._chars -= len(dropped)

    def clear(self) -> None:
        """Forget everything (and the hit counts)."""
        with self._lock:
            self._blocks.clear()
            self._chars = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._blocks)
