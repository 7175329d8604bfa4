"""Five-hour blocks: the windows Claude's subscription usage limits are counted in.

A block starts at the hour (UTC) of the first response after the previous block ended, and
lasts five hours; a response at or after a block's end starts a new block, so a quiet spell
leaves a gap between two blocks. The block holding the present moment, when its last response
is less than five hours old, is *active*: it has a burn rate (tokens and cost per hour of its
activity so far, from its first response to its last) and a projection of its tokens and cost
at its end if that rate went on.

A block's figures are the sum of its responses (:class:`~cclens.figures.aggregate.UsagePart`
at minute precision: a minute never spans two hours, so it falls whole in one block).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from .aggregate import BlockInfo, UsagePart, UsageRow, total_parts

#: How long a block lasts.
BLOCK_LENGTH = timedelta(hours=5)


def hour_floor(when: datetime) -> datetime:
    """The start of the UTC hour ``when`` falls in."""
    return datetime.fromtimestamp(int(when.timestamp()) // 3600 * 3600, UTC)


def _block_row(parts: Sequence[UsagePart], start: datetime, now: datetime) -> UsageRow:
    row = total_parts(parts)
    row.key = start.isoformat().replace("+00:00", "Z")
    first = min(part.minute for part in parts if part.minute is not None)
    last = max(part.minute for part in parts if part.minute is not None)
    info = BlockInfo(start=start, end=start + BLOCK_LENGTH, first=first, last=last)
    if now < info.end and now - last < BLOCK_LENGTH:
        info.active = True
        info.minutes_left = (info.end - now).total_seconds() / 60
        # The rate over the block's activity: from its first response to its last (at least
        # a minute, so a block of one response does not divide by zero).
        hours = max((last - first).total_seconds(), 60.0) / 3600
        info.tokens_per_hour = row.tokens.total / hours
        left = (info.end - now).total_seconds() / 3600
        info.projected_tokens = round(row.tokens.total + info.tokens_per_hour * left)
        if row.cost is not None:
            info.cost_per_hour = row.cost / hours
            info.projected_cost = row.cost + info.cost_per_hour * left
    row.block = info
    return row


def _gap_row(start: datetime, end: datetime) -> UsageRow:
    row = UsageRow(key=start.isoformat().replace("+00:00", "Z"), cost=0.0)
    row.block = BlockInfo(start=start, end=end, gap=True)
    return row


def five_hour_blocks(
    parts: Iterable[UsagePart], *, now: datetime | None = None, gaps: bool = True
) -> list[UsageRow]:
    """The blocks of ``parts`` (responses without a time are left out), oldest first, with a
    gap row between two blocks that do not touch when ``gaps``."""
    now = now or datetime.now(UTC)
    timed = sorted((p for p in parts if p.minute is not None), key=lambda p: p.minute or now)
    rows: list[UsageRow] = []
    current: list[UsagePart] = []
    start: datetime | None = None
    for part in timed:
        assert part.minute is not None
        if start is None or part.minute >= start + BLOCK_LENGTH:
            if current and start is not None:
                rows.append(_block_row(current, start, now))
            previous_end = start + BLOCK_LENGTH if start is not None else None
            start = hour_floor(part.minute)
            if gaps and previous_end is not None and start > previous_end:
                rows.append(_gap_row(previous_end, start))
            current = []
        current.append(part)
    if current and start is not None:
        rows.append(_block_row(current, start, now))
    return rows


def apply_token_limit(rows: list[UsageRow], limit: int | str | None) -> int | None:
    """Mark the blocks over ``limit`` (a number of tokens, or ``"max"``: the most tokens any
    finished block used) and return the limit as a number (``None``: no limit)."""
    if limit is None:
        return None
    if limit == "max":
        finished = [
            row.tokens.total
            for row in rows
            if row.block is not None and not row.block.gap and not row.block.active
        ]
        if not finished:
            return None
        limit = max(finished)
    assert isinstance(limit, int)
    for row in rows:
        info = row.block
        if info is None or info.gap:
            continue
        used = info.projected_tokens if info.active and info.projected_tokens else row.tokens.total
        info.over_limit = used > limit
    return limit


def active_block(rows: Sequence[UsageRow]) -> UsageRow | None:
    """The active block among ``rows``, if any."""
    return next((row for row in rows if row.block is not None and row.block.active), None)


__all__ = [
    "BLOCK_LENGTH",
    "BlockInfo",
    "active_block",
    "apply_token_limit",
    "five_hour_blocks",
    "hour_floor",
]
