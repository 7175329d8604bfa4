"""The plan-limit reports of a rollout file: the ``rate_limits`` of its ``token_count``
events, as Codex wrote them (what they say is read by :mod:`cclens.figures.limits`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ...model import UNSET
from ...model.codex import EventMsgLine, TokenCountEvent
from .read import CodexEntry


def rate_limit_events(entries: Iterable[CodexEntry]) -> Iterator[tuple[int, str | None, Any]]:
    """``(line number, the line's timestamp, rate_limits)`` of each ``token_count`` event of
    ``entries`` that carries ``rate_limits``, in file order."""
    for entry in entries:
        line = entry.record
        if not isinstance(line, EventMsgLine):
            continue
        payload = line.payload
        if not isinstance(payload, TokenCountEvent):
            continue
        limits = payload.rate_limits
        if limits is UNSET or limits is None:
            continue
        stamp = line.timestamp
        yield entry.line, stamp if isinstance(stamp, str) else None, limits


__all__ = ["rate_limit_events"]
