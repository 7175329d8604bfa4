"""The API responses and tool calls of a session, as the index stores them for usage figures.

What is counted is decided by the analytics, never here: a session's responses are
:func:`cclens.analytics.usage.session_responses` over its files, priced with
:func:`cclens.analytics.pricing.response_cost`, and its calls are the analytics' call facts.
The index only chooses which lines to give them: the assistant records that carry a usage and
the ``agent_progress`` records (the only ones ``session_responses`` reads), decoded in the full
model, so that the figures follow any change to the analytics' definitions.

Rows travel from the worker processes as plain tuples (they pickle fast).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import msgspec

from ..analytics.inventory import CallFact
from ..analytics.pricing import PriceTable, bundled_price_table, response_cost
from ..analytics.tokens import TokenCounts
from ..analytics.usage import SYNTHETIC_MODEL, Response, response_key, session_responses
from ..parse.read import Entry
from .view import ViewRead, full_record

#: Bumped when what is stored per response or call changes: every session's rows are derived
#: again from the stored lines on the next update.
RESPONSES_VERSION = 1

#: ``(key, message_id, request_id, uuid, model, time, agent_id, input, output, cache_write_5m,
#: cache_write_1h, cache_read, speed, inference_geo, path, line, tools, cost, price, reason)``
ResponseRow = tuple[Any, ...]
#: ``(key, name, status, started, seconds)``
CallRow = tuple[str, str, str, float | None, float | None]

_AGENT_PROGRESS = b'"agent_progress"'
_TOOL_CALLS = msgspec.json.Decoder(list[tuple[str, str]])


@lru_cache(maxsize=8192)
def _path(text: str) -> Path:
    # Many responses share a file: one Path each (reading 90,000 rows back, a third faster).
    return Path(text)


@cache
def bundled_prices() -> tuple[PriceTable, str]:
    """The bundled price table and a fingerprint of it (stored costs are priced with it)."""
    table = bundled_price_table()
    fingerprint = hashlib.sha1(msgspec.json.encode(table), usedforsecurity=False).hexdigest()
    return table, f"{table.as_of}:{fingerprint[:16]}"


def key_text(response: Response) -> str:
    """The key a copy of ``response`` in another session is found by, as stored."""
    return "\x1f".join(response_key(response))


def usage_entries(path: Path, read: ViewRead, data: bytes) -> Iterator[Entry]:
    """The records of a file that may carry a response's usage, in the full model.

    Assistant records with a usage and ``agent_progress`` records: the only records
    :func:`cclens.analytics.usage.session_responses` reads.
    """
    for entry in read.entries:
        line, record, start, end = entry
        kind = record.type
        if kind == "assistant":
            message = record.message
            if message is None or message.usage is None or message.model == SYNTHETIC_MODEL:
                continue
        elif kind != "progress" or _AGENT_PROGRESS not in data[start:end]:
            continue
        full = full_record(path, data, entry)
        if full is not None:
            yield Entry(full, line, start, end - start)


def _epoch(moment: datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def response_row(response: Response, table: PriceTable) -> ResponseRow:
    """One response as stored, priced with ``table``."""
    tokens = response.tokens
    priced = response_cost(
        table,
        response.model,
        tokens,
        speed=response.speed,
        inference_geo=response.inference_geo,
    )
    tools = msgspec.json.encode(response.tool_calls).decode() if response.tool_calls else None
    return (
        key_text(response),
        response.message_id,
        response.request_id,
        response.uuid,
        response.model,
        _epoch(response.timestamp),
        response.agent_id,
        tokens.input,
        tokens.output,
        tokens.cache_write_5m,
        tokens.cache_write_1h,
        tokens.cache_read,
        response.speed,
        response.inference_geo,
        str(response.path),
        response.line,
        tools,
        priced.cost,
        priced.price,
        priced.reason,
    )


def response_rows(
    files: Iterable[tuple[Path, Iterable[Entry], str | None]], session_id: str, project: str
) -> list[ResponseRow]:
    """The stored rows of one session tree's responses (see the module docstring)."""
    table, _ = bundled_prices()
    responses = session_responses(files, session_id=session_id, project=project)
    return [response_row(response, table) for response in responses]


def call_rows(facts: Sequence[CallFact]) -> list[CallRow]:
    """The stored rows of a session tree's tool calls."""
    return [
        (fact.key, fact.name, fact.status, _epoch(fact.started), fact.seconds) for fact in facts
    ]


def row_response(
    row: Sequence[Any], *, session_id: str, project: str, title: str, tz: Any
) -> Response:
    """A stored row (``key`` left out: the columns from ``message_id`` to ``tools``) back as
    the analytics' :class:`Response`."""
    (
        message_id,
        request_id,
        uuid,
        model,
        moment,
        agent_id,
        input_tokens,
        output_tokens,
        write_5m,
        write_1h,
        read,
        speed,
        geo,
        path,
        line,
        tools,
    ) = row
    return Response(
        message_id=message_id,
        request_id=request_id,
        model=model,
        timestamp=datetime.fromtimestamp(moment, tz) if moment is not None else None,
        session_id=session_id,
        project=project,
        session_title=title,
        agent_id=agent_id,
        tokens=TokenCounts(
            input=input_tokens,
            output=output_tokens,
            cache_write_5m=write_5m,
            cache_write_1h=write_1h,
            cache_read=read,
        ),
        speed=speed,
        inference_geo=geo,
        path=_path(path),
        line=line,
        tool_calls=_TOOL_CALLS.decode(tools) if tools else [],
        uuid=uuid,
    )


__all__ = [
    "RESPONSES_VERSION",
    "CallRow",
    "ResponseRow",
    "bundled_prices",
    "call_rows",
    "key_text",
    "response_row",
    "response_rows",
    "row_response",
    "usage_entries",
]
