"""What the status line shows: the current session's cost and tokens, today's cost, the active
5-hour block and how full the context window is, as of the last line written.

Everything already in the index is read from it; what Claude Code appended to the current
transcript since is read from the file (only those bytes) and counted by the same functions
(:func:`~cclens.analytics.usage.session_responses`, folded into the session's stored responses
by :func:`~cclens.analytics.usage.merge_responses`), priced with the bundled table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..index.live_usage import StoredFile, connect_reader, others_since, session_rows, stored_file
from ..index.responses import bundled_prices, key_text, row_response
from ..parse.read import read_data
from .aggregate import PricedResponse, UsagePart, UsageRow, part_of, price_responses
from .blocks import BLOCK_LENGTH, active_block, five_hour_blocks
from .period import Period
from .tokens import TokenCounts
from .usage import Response, merge_responses, session_responses

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
    """The bytes of ``path`` after what the index stored (all of it when the file was rewritten
    or never indexed), where they start, and the line number they start after."""
    with path.open("rb") as handle:
        if stored is not None and stored.offset:
            head = handle.read(len(stored.head))
            size = path.stat().st_size
            if head == stored.head and size >= stored.offset:
                handle.seek(stored.offset)
                return handle.read(), stored.offset, stored.lines
            handle.seek(0)
        return handle.read(), 0, 0


def _others(rows: list[tuple[object, ...]]) -> list[UsagePart]:
    parts = []
    for minute, count, i, o, w5, w1, r, cost, price, model in rows:
        parts.append(
            UsagePart(
                day=None,
                session_id="",
                project="",
                title="",
                model=model,  # type: ignore[arg-type]
                price=price,  # type: ignore[arg-type]
                reason=None,
                responses=count,  # type: ignore[arg-type]
                tokens=TokenCounts(
                    input=i,  # type: ignore[arg-type]
                    output=o,  # type: ignore[arg-type]
                    cache_write_5m=w5,  # type: ignore[arg-type]
                    cache_write_1h=w1,  # type: ignore[arg-type]
                    cache_read=r,  # type: ignore[arg-type]
                ),
                cost=cost,  # type: ignore[arg-type]
                minute=datetime.fromtimestamp(minute, UTC),  # type: ignore[arg-type]
            )
        )
    return parts


def _last_context(responses: list[Response]) -> int | None:
    main = [r for r in responses if r.agent_id is None and r.timestamp is not None]
    if not main:
        return None
    last = max(main, key=lambda response: response.timestamp or datetime.min.replace(tzinfo=UTC))
    return last.tokens.context


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
    connection = connect_reader(db_path)
    try:
        stored = stored_file(connection, str(transcript))
        table, _ = bundled_prices()
        kept: list[Response] = []
        uncounted: set[str] = set()
        if stored is not None:
            for counted, _stored_cost, key, *fields in session_rows(connection, stored.session_row):
                if not counted:
                    uncounted.add(key)  # a copy, counted for the session that made it
                kept.append(
                    row_response(
                        fields,
                        session_id=stored.session_id,
                        project=stored.project,
                        title="",
                        tz=UTC,
                    )
                )
        data, start, line = _tail(transcript, stored)
        identity = stored.session_id if stored is not None else (session_id or transcript.stem)
        project = stored.project if stored is not None else transcript.parent.name
        responses = kept
        if data:
            entries = read_data(transcript, data, start, line).entries
            fresh = session_responses(
                [(transcript, entries, None)], session_id=identity, project=project
            )
            responses = merge_responses([kept, fresh]) if kept else fresh
        own = [r for r in responses if key_text(r) not in uncounted]
        priced = price_responses(own, table)
        midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        window = min(midnight, now - BLOCK_HISTORY)
        others = _others(
            others_since(
                connection,
                window.timestamp(),
                stored.session_row if stored is not None else None,
            )
        )
    finally:
        connection.close()
    period = Period()
    mine = [
        part_of(item, period)
        for item in priced
        if item.response.timestamp is not None and item.response.timestamp >= window
    ]
    today = sum(p.cost or 0.0 for p in others if p.minute and p.minute >= midnight)
    today += sum(p.cost or 0.0 for p in mine if p.minute and p.minute >= midnight)
    block = active_block(five_hour_blocks([*others, *mine], now=now, gaps=False))
    return StatusFigures(
        session_id=identity,
        session_cost=_cost(priced),
        session_tokens=sum(item.response.tokens.total for item in priced),
        session_responses=len(priced),
        today_cost=today,
        block=block,
        context=_last_context(responses),
        context_window=context_window_of(model, context_window),
        unread=len(data),
        indexed=stored is not None,
    )


def _cost(priced: list[PricedResponse]) -> float | None:
    costs = [item.priced.cost for item in priced if item.priced.cost is not None]
    return sum(costs) if costs else None


__all__ = [
    "BLOCK_HISTORY",
    "BLOCK_LENGTH",
    "StatusFigures",
    "context_window_of",
    "status_figures",
]
