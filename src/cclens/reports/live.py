"""What the status line shows: the current session's cost and tokens, today's cost, the active
5-hour block and how full the context window is, as of the last line written.

Everything already in the index is read from it: the responses the session counts (its claims,
:mod:`cclens.index.write.counted`, with their stored costs) and every other session's since the
active block could have started. What Claude Code appended to the current transcript since the
index last read it is read from the file (only those bytes, by the light reader of
:mod:`.appended`) and put together with the stored responses by the analytics' own collector
(:class:`~cclens.figures.usage.ResponseCollector`); a response the new lines changed is
priced again with the bundled table. The status line is a new process each time: nothing here
loads the model or the parser.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

from ..figures.aggregate import UsagePart, UsageRow, minute_of
from ..figures.appended import appended_occurrences
from ..figures.blocks import BLOCK_LENGTH, active_block, five_hour_blocks
from ..figures.pricing import bundled_price_table
from ..figures.tokens import TokenCounts
from ..figures.usage import Occurrence, Owner, Response, ResponseCollector
from ..files import open_regular
from ..index.read.live_usage import (
    COPY,
    MERGED,
    StoredFile,
    connect_reader,
    others_since,
    session_responses,
    stored_file,
)

#: How far back blocks are followed to find where the active one started (a block starts at
#: the first response after the previous one ended: a day of history settles it unless the
#: activity never paused for five hours in that day).
BLOCK_HISTORY = timedelta(hours=24)
#: Context window sizes by model, when Claude Code does not give it.
DEFAULT_CONTEXT_WINDOW = 200_000
LONG_CONTEXT_WINDOW = 1_000_000


@dataclass(slots=True)
class StatusFigures:
    """The figures of one status line.

    ``session_cost`` is ``None`` when no response of the session had a price; ``context``
    is the prompt of the session's last response (input, cache writes and reads), ``None``
    before the first response. ``unread`` counts bytes of the transcript the index has not
    stored yet (they were read here, and an update will store them).
    """

    session_id: str
    session_cost: float | None
    session_tokens: int
    session_responses: int
    today_cost: float
    block: UsageRow | None
    context: int | None
    context_window: int
    unread: int
    indexed: bool


def context_window_of(model: str | None, given: int | None = None) -> int:
    """The context window of ``model``: the size Claude Code gives, else 1M for a ``[1m]``
    model, else 200K."""
    if given:
        return given
    if model and "[1m]" in model.lower():
        return LONG_CONTEXT_WINDOW
    return DEFAULT_CONTEXT_WINDOW


def _tail(path: Path, stored: StoredFile | None) -> tuple[bytes, int, int]:
    """The bytes of ``path`` after the last complete line the index stored (all of it when the
    file was rewritten or never indexed), where they start, and the line number they start
    after. (The index stores an incomplete last line too: it is read again, whole.)"""
    with open_regular(path) as handle:
        if stored is not None and stored.offset:
            head = handle.read(len(stored.head))
            size = os.fstat(handle.fileno()).st_size
            if head == stored.head and size >= stored.offset:
                start = _line_start(handle, stored.offset)
                handle.seek(start)
                return handle.read(), start, stored.lines
            handle.seek(0)
        return handle.read(), 0, 0


def _line_start(handle: BinaryIO, offset: int, step: int = 64 * 1024) -> int:
    """Where the line that ``offset`` is in (or just after) starts."""
    end = offset
    while end > 0:
        start = max(0, end - step)
        handle.seek(start)
        found = handle.read(end - start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0


def _others(rows: list[tuple[Any, ...]]) -> list[UsagePart]:
    parts = []
    for minute, count, *tokens, cost, price, model in rows:
        parts.append(
            UsagePart(
                day=None,
                session_id="",
                project="",
                title="",
                model=model,
                price=price,
                reason=None,
                responses=count,
                tokens=TokenCounts.from_columns(tokens),
                cost=cost,
                minute=datetime.fromtimestamp(minute, UTC),
            )
        )
    return parts


_FALLBACKS = ("request:", "uuid:", "line:")


def _stored(row: tuple[Any, ...], path: Path) -> Occurrence:
    """A stored response as an occurrence of it (what the collector folds fresh lines into)."""
    _, key, request, model, moment, agent, *counts = row
    tokens = TokenCounts(
        input=counts[0],
        output=counts[1],
        cache_write_5m=counts[2],
        cache_write_1h=counts[3],
        cache_read=counts[4],
        cache_write_unsplit=counts[5],
    )
    speed, geo, tools = counts[6], counts[7], counts[11]
    line = 0
    if key.startswith("line:"):  # a response known only by its place (see response_fallback)
        place, _, number = key.removeprefix("line:").rpartition(":")
        path, line = Path(place), int(number)
    return Occurrence(
        message_id=None if key.startswith(_FALLBACKS) else key,
        request_id=request,
        uuid=key.removeprefix("uuid:") if key.startswith("uuid:") else None,
        model=model,
        timestamp=datetime.fromtimestamp(moment, UTC).isoformat() if moment is not None else None,
        tokens=tokens,
        size=(tokens.output, tokens.total),
        speed=speed,
        inference_geo=geo,
        path=path,
        line=line,
        agent_id=agent,
        tool_uses=[(None, name) for name in tools.split("\n")] if tools else [],
    )


@dataclass(frozen=True, slots=True)
class _Counted:
    """One response the session counts, as the status line needs it."""

    moment: datetime | None
    agent: str | None
    tokens: TokenCounts
    model: str | None
    cost: float | None
    price: str | None


def _counted(responses: list[Response], stored: dict[str, tuple[Any, ...]]) -> list[_Counted]:
    """The collector's responses with their cost: the stored one when the response is as the
    index stored it, else priced with the bundled table."""
    table = None
    found = []
    for response in responses:
        row = stored.get(response.identity)
        if row is not None and TokenCounts.from_columns(row[6:12]) == response.tokens:
            cost, price = row[14], row[15]
        else:
            table = table or bundled_price_table()
            priced = response.priced(table)
            cost, price = priced.cost, priced.price
        found.append(
            _Counted(
                response.timestamp, response.agent_id, response.tokens, response.model, cost, price
            )
        )
    return found


def _stored_counted(rows: list[tuple[Any, ...]]) -> list[_Counted]:
    return [
        _Counted(
            datetime.fromtimestamp(row[4], UTC) if row[4] is not None else None,
            row[5],
            TokenCounts.from_columns(row[6:12]),
            row[3],
            row[14],
            row[15],
        )
        for row in rows
    ]


def _part(item: _Counted, session_id: str) -> UsagePart:
    assert item.moment is not None
    return UsagePart(
        day=None,
        session_id=session_id,
        project="",
        title="",
        model=item.model,
        price=item.price,
        reason=None,
        responses=1,
        tokens=item.tokens,
        cost=item.cost,
        minute=minute_of(item.moment),
    )


def status_figures(
    db_path: Path,
    transcript: Path,
    *,
    session_id: str = "",
    model: str | None = None,
    context_window: int | None = None,
    now: datetime | None = None,
) -> StatusFigures:
    """The status line's figures for the session in ``transcript``, from the index at
    ``db_path`` and the lines appended since it was last updated. Raises ``OSError`` or
    ``sqlite3.Error`` when the index or the transcript cannot be read."""
    now = now or datetime.now(UTC)
    transcript = transcript.expanduser().absolute()
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    window = min(midnight, now - BLOCK_HISTORY)
    connection = connect_reader(db_path)
    try:
        stored = stored_file(connection, str(transcript))
        identity = stored.session_id if stored is not None else (session_id or transcript.stem)
        rows = session_responses(connection, stored.session_row) if stored is not None else []
        others = _others(
            others_since(
                connection,
                window.timestamp(),
                stored.session_row if stored is not None else None,
            )
        )
    finally:
        connection.close()
    # What the session counts: each response it holds as it is, or merged where several
    # sessions hold it and it counts it; a copy another session counts is left out.
    merged = {row[1] for row in rows if row[0] == MERGED}
    copies = {row[1] for row in rows if row[0] == COPY} - merged
    kept = [row for row in rows if row[0] != COPY or row[1] in copies]
    data, start, line = _tail(transcript, stored)
    fresh = appended_occurrences(data, transcript, start, line) if data else []
    if fresh:
        owner = Owner(identity, "", "", transcript)
        collector = ResponseCollector()
        for row in kept:
            collector.add(_stored(row, transcript), owner)
        for found in fresh:
            collector.add(found, owner)
        responses = [r for r in collector.responses() if r.identity not in copies]
        own = _counted(responses, {row[1]: row for row in kept if row[1] not in copies})
    else:
        own = _stored_counted([row for row in kept if row[1] not in copies])
    mine = [_part(item, identity) for item in own if item.moment and item.moment >= window]
    today = sum(p.cost or 0.0 for p in [*others, *mine] if p.minute and p.minute >= midnight)
    block = active_block(five_hour_blocks([*others, *mine], now=now, gaps=False))
    costs = [item.cost for item in own if item.cost is not None]
    main = [item for item in own if item.agent is None and item.moment is not None]
    last = max(main, key=lambda item: item.moment or now) if main else None
    return StatusFigures(
        session_id=identity,
        session_cost=sum(costs) if costs else None,
        session_tokens=sum(item.tokens.total for item in own),
        session_responses=len(own),
        today_cost=today,
        block=block,
        context=last.tokens.context if last is not None else None,
        context_window=context_window_of(model, context_window),
        unread=len(data),
        indexed=stored is not None,
    )


__all__ = [
    "BLOCK_HISTORY",
    "BLOCK_LENGTH",
    "StatusFigures",
    "context_window_of",
    "status_figures",
]
