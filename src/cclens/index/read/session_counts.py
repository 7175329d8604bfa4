"""What one session counts, read from the index: the figures of its header on every surface
(see :mod:`cclens.figures.counts`).

A session's rows of the ``counted`` table say it all (:mod:`cclens.index.write.counted`): the
rows that count (``counts > 0``) are its figures, those of responses a subagent recorded its
subagents' part; a copy (``counts = 0``) the session does not count through a merged row of
its own is carried over, counted by the session holding that merged row.
"""

from __future__ import annotations

import sqlite3
from pathlib import PurePath

from ...figures.counts import SessionCounts
from ...figures.figures import Figures
from ...figures.tokens import TokenCounts
from ..extract import CLAIM_CALL, CLAIM_PROMPT
from ..storage.schema import COUNTS_MERGED

_CHUNK = 500


def _add(
    figures: Figures, kind: int, status: str | None, tokens: TokenCounts, cost: float | None
) -> None:
    if kind == CLAIM_PROMPT:
        figures.prompts += 1
    elif kind == CLAIM_CALL:
        figures.tool_calls.add(status or "pending")  # type: ignore[arg-type]
    else:
        figures.count_response(tokens, cost)


def session_counts(connection: sqlite3.Connection, key: str) -> SessionCounts | None:
    """The counts of the session ``key`` (``None`` when the index has no such session)."""
    found = connection.execute(
        "SELECT id, project, path FROM sessions WHERE key = ?", (key,)
    ).fetchone()
    if found is None:
        return None
    row, project, path = found
    name = PurePath(path).stem
    own_agent = name.removeprefix("agent-") if name.startswith("agent-") else None
    rows = connection.execute(
        "SELECT kind, key, status, input, output, cache_write_5m, cache_write_1h, cache_read, "
        "cache_write_unsplit, cost, agent, counts FROM counted WHERE session = ?",
        (row,),
    ).fetchall()
    merged = {(kind, claim) for kind, claim, *_, counts in rows if counts == COUNTS_MERGED}
    counts = SessionCounts(figures=Figures(sessions=1))
    carried_keys: list[str] = []
    carried: set[tuple[int, str]] = set()
    for kind, claim, status, i, o, w5, w1, r, unsplit, cost, agent, how in rows:
        tokens = TokenCounts(
            input=i,
            output=o,
            cache_write_5m=w5,
            cache_write_1h=w1,
            cache_read=r,
            cache_write_unsplit=unsplit or 0,
        )
        if how > 0:
            _add(counts.figures, kind, status, tokens, cost)
            if agent is not None and agent != own_agent and kind not in (CLAIM_PROMPT, CLAIM_CALL):
                counts.subagents.count_response(tokens, cost)
        elif (kind, claim) not in merged and (kind, claim) not in carried:
            carried.add((kind, claim))  # a record its file repeats is carried once
            _add(counts.carried, kind, status, tokens, cost)
            carried_keys.append(claim)
    owners: dict[str, None] = {}
    for start in range(0, len(carried_keys), _CHUNK):
        chunk = carried_keys[start : start + _CHUNK]
        for (owner,) in connection.execute(
            "SELECT DISTINCT s.session_id FROM counted m JOIN sessions s ON s.id = m.session "
            f"WHERE m.counts = ? AND s.project = ? AND m.session != ? "
            f"AND m.key IN ({', '.join('?' * len(chunk))}) ORDER BY s.session_id",
            (COUNTS_MERGED, project, row, *chunk),
        ):
            owners.setdefault(str(owner), None)
    counts.carried_from = tuple(owners)
    return counts


__all__ = ["session_counts"]
