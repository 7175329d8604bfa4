"""The live 5-hour block on ``/stats``: ``GET /api/blocks``, and the panel's figures.

The panel shows the active block (its tokens and cost so far, the time left, the burn rate and
the projection at its end, see :mod:`cclens.figures.blocks`) and the blocks of the last
week; the page's script asks ``/api/blocks`` again each time the event stream says the index
changed, and counts the time left down in between.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ..figures.aggregate import UsageRow
from ..figures.blocks import active_block
from ..figures.period import Period
from ..index import Index
from ..reports.stats import summarize_index
from .api import JSONResponse
from .filters import FilterError
from .state import app_state

#: How far back the panel lists blocks (and looks for the largest one).
RECENT = timedelta(days=7)
_SHOWN = 6


class LiveBlocks(msgspec.Struct, kw_only=True):
    """What the panel shows: ``active`` (``None`` when no block is active), the last blocks
    of the week (newest first, gaps left out) and the most tokens one of them used."""

    now: datetime
    active: UsageRow | None
    recent: list[UsageRow]
    largest: int | None


def live_blocks(index: Index, now: datetime | None = None) -> LiveBlocks:
    """The active block and last week's blocks, from the index, as they stood at ``now``
    (default: the present): what was recorded later is not in them."""
    now = now or datetime.now(UTC)
    period = Period(since=(now - RECENT).astimezone().date())
    rows = summarize_index(index, by="block", period=period, now=now, at=now).rows
    blocks = [row for row in rows if row.block is not None and not row.block.gap]
    finished = [row.tokens.total for row in blocks if row.block and not row.block.active]
    return LiveBlocks(
        now=now,
        active=active_block(blocks),
        recent=list(reversed(blocks))[:_SHOWN],
        largest=max(finished) if finished else None,
    )


def at_parameter(text: str) -> datetime | None:
    """The moment ``?at=`` names (ISO 8601; UTC when it has no zone), ``None`` when empty;
    :class:`~cclens.web.filters.FilterError` naming the parameter when it is not a time."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise FilterError(f"at: {text!r} is not a time (use ISO 8601, 2025-06-01T09:30)") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def blocks_api(request: Request) -> Response:
    """``GET /api/blocks``: the live block panel's figures (see docs/web.md); ``?at=`` gives
    them as they stood at another moment."""
    try:
        now = at_parameter(request.query_params.get("at", ""))
    except FilterError as problem:
        return JSONResponse({"error": str(problem)}, status_code=400)
    return JSONResponse(live_blocks(app_state(request).index, now))


__all__ = ["RECENT", "LiveBlocks", "blocks_api", "live_blocks"]
