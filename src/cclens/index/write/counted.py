"""Each session's figures, with what it shares with other sessions counted once.

A session's digest (:class:`~cclens.index.extract.SessionDigest`) counts everything its files
hold, and lists it as claims (:class:`~cclens.index.extract.Claim`): a row of the ``counted``
table per prompt, response and tool call, with its time, tokens, model and cost. A resumed
session holds copies of an earlier session's prompts, responses and tool calls;
:mod:`cclens.figures.identity` gives each of them to the first session of the project in
reading order that recorded it, with the largest usage of a response's copies (its earliest
time, its first model) and the status of the first copy of a call that has a result.

``counted.counts`` says how each row counts, so that every figure read from the index (a
session's row, the usage figures by day, model, block or tool) sums the same rows:

* 1 (:data:`AS_IS`): a claim no other session of its project holds; it counts as it is;
* 0 (:data:`COPY`): a claim several sessions hold; it does not count itself...
* 2 (:data:`MERGED`): ...but one row per response, call or prompt they share, made from the
  copies by the rules above, counts for the session that counts it (not a claim itself).

After an update, :func:`settle` works this out again for what the sessions the update wrote
share (or, after a first index, for everything shared), and writes the figures of the sessions
concerned to their rows. A session that shares nothing keeps its digest's figures, which are
the sum of its claims.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...figures.identity import ReadingKey, ResponseMatcher, reading_key
from ...figures.inventory import is_failed
from ..extract import CLAIM_CALL, CLAIM_COLUMNS, CLAIM_PROMPT, Claim
from ..storage.schema import COUNTS_AS_IS, COUNTS_COPY, COUNTS_MERGED

#: How a row counts (see the module docstring).
COPY, AS_IS, MERGED = COUNTS_COPY, COUNTS_AS_IS, COUNTS_MERGED
_COLUMNS = ", ".join(("session", *CLAIM_COLUMNS))
_INSERT = (
    f"INSERT INTO counted({_COLUMNS}, counts) VALUES ({', '.join('?' * (len(CLAIM_COLUMNS) + 2))})"
)
#: The fallback identities of a response without a ``message.id`` (see
#: :func:`cclens.figures.identity.response_fallback`).
_FALLBACKS = ("request:", "uuid:", "line:")
_CHUNK = 500


@dataclass(slots=True)
class Owned:
    """A session's figures as it counts them (the session row's columns)."""

    prompts: int = 0
    responses: int = 0
    tool_calls: int = 0
    errors: int = 0
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    costs: list[float] = field(default_factory=list)
    unpriced: int = 0

    def add(
        self, kind: int, status: str | None, tokens: Sequence[int], cost: float | None = None
    ) -> None:
        if kind == CLAIM_PROMPT:
            self.prompts += 1
        elif kind == CLAIM_CALL:
            self.tool_calls += 1
            self.errors += is_failed(status)  # type: ignore[arg-type]
        else:
            self.responses += 1
            for position, count in enumerate(tokens):
                self.tokens[position] += count
            if cost is None:
                self.unpriced += 1
            else:
                self.costs.append(cost)

    def columns(self) -> tuple[int | float | None, ...]:
        """``prompts, responses, tool_calls, errors, input_tokens, output_tokens,
        cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, cost, unpriced`` (the
        cost of the responses it counts, summed as :class:`cclens.index.costs.CostTally`
        does)."""
        i, o, five, hour, read = self.tokens
        return (
            self.prompts,
            self.responses,
            self.tool_calls,
            self.errors,
            i,
            o,
            read,
            five + hour,
            hour,
            math.fsum(self.costs) if self.costs else None,
            self.unpriced,
        )


_SET_OWNED = (
    "UPDATE sessions SET prompts = ?, responses = ?, tool_calls = ?, errors = ?, "
    "input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?, "
    "cache_write_1h_tokens = ?, cost = ?, unpriced = ?, revision = revision + 1 WHERE id = ?"
)
_OWNED_NOW = (
    "SELECT prompts, responses, tool_calls, errors, input_tokens, output_tokens, "
    "cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, cost, unpriced "
    "FROM sessions WHERE id = ?"
)


def store_claims(connection: sqlite3.Connection, session: int, claims: Iterable[Claim]) -> None:
    """Replace the claims of ``session`` (and the merged rows it counted: :func:`settle`
    makes them again)."""
    connection.execute("DELETE FROM counted WHERE session = ?", (session,))
    connection.executemany(_INSERT, [(session, *claim, AS_IS) for claim in claims])


def sharing(connection: sqlite3.Connection, sessions: Collection[int]) -> set[int]:
    """Those of ``sessions`` that share a claim with another session of their project, and
    those other sessions."""
    found: set[int] = set()
    wanted = list(sessions)
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        rows = connection.execute(
            "SELECT DISTINCT c.session, o.session FROM counted c "
            "JOIN counted o ON o.key = c.key AND o.session != c.session AND o.counts < 2 "
            "JOIN sessions cs ON cs.id = c.session JOIN sessions os ON os.id = o.session "
            f"WHERE c.session IN ({marks}) AND c.counts < 2 AND os.project = cs.project",
            chunk,
        )
        for mine, other in rows:
            found.update((int(mine), int(other)))
    return found


def _sharing(connection: sqlite3.Connection) -> set[int]:
    """Every session holding a claim another session of its project holds too, or rows made
    when it did."""
    rows = connection.execute(
        "SELECT DISTINCT c.session FROM counted c JOIN sessions s ON s.id = c.session "
        "JOIN (SELECT c2.key, s2.project FROM counted c2 JOIN sessions s2 ON s2.id = c2.session "
        "WHERE c2.counts < 2 "
        "GROUP BY c2.key, s2.project HAVING count(DISTINCT c2.session) > 1) shared "
        "ON shared.key = c.key AND shared.project = s.project "
        "UNION SELECT DISTINCT session FROM counted WHERE counts != 1"
    )
    return {int(row[0]) for row in rows}


def _reading_keys(connection: sqlite3.Connection, sessions: Iterable[int]) -> dict[int, ReadingKey]:
    wanted = list(sessions)
    found: dict[int, ReadingKey] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        rows = connection.execute(
            "SELECT s.id, p.slug, f.mtime_ns, s.session_id, s.path FROM sessions s "
            "JOIN projects p ON p.id = s.project "
            "LEFT JOIN files f ON f.session = s.id AND f.role = 'session' "
            f"WHERE s.id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        for row, slug, mtime_ns, session_id, path in rows:
            found[int(row)] = reading_key(slug, (mtime_ns or 0) / 1e9, session_id, path)
    return found


def _message_id(key: str) -> str | None:
    return None if key.startswith(_FALLBACKS) else key


#: A row of a shared group: ``(session, *claim)``.
_Row = tuple[Any, ...]


def _merged_response(rows: list[_Row]) -> _Row:
    """One response from its copies in reading order (as
    :class:`cclens.figures.usage.ResponseCollector` puts it together): counted for the first
    copy's session, with the usage (and so the cost) of the largest copy, the earliest time,
    the first request id, model and agent known."""
    merged = list(rows[0])
    best = rows[0]
    for row in rows:
        if (row[6], sum(row[5:10])) >= (best[6], sum(best[5:10])):
            best = row
        for column in (3, 11, 12):
            merged[column] = merged[column] or row[column]
        if row[10] is not None and (merged[10] is None or row[10] < merged[10]):
            merged[10] = row[10]
        if len((row[20] or "").split()) > len((merged[20] or "").split()):
            merged[20] = row[20]  # copies name the same calls, or fewer (a stream cut short)
    # tokens, speed, geo, cost, price, reason, unsplit cache writes
    for column in (*range(5, 10), 15, 16, 17, 18, 19, 21):
        merged[column] = best[column]
    return tuple(merged)


def _resolve(group: list[_Row], order: dict[int, ReadingKey]) -> list[_Row]:
    """The rows that count for a group of claims of one kind sharing one key, held by several
    sessions (each ``(session, *claim)``): who counts each, with what."""
    ranked = sorted(group, key=lambda row: order[row[0]])
    kind = ranked[0][1]
    if kind == CLAIM_PROMPT:
        return [ranked[0]]
    if kind == CLAIM_CALL:
        kept = next((row for row in ranked if row[4] != "pending"), ranked[0])
        return [(ranked[0][0], *kept[1:])]
    matcher: ResponseMatcher[list[_Row]] = ResponseMatcher()
    responses: list[list[_Row]] = []
    for row in ranked:
        key, request = row[2], row[3]
        message_id = _message_id(key)
        match = matcher.find(message_id, request, key)
        if match is None:
            copies = [row]
            responses.append(copies)
            matcher.add(message_id, request, key, copies)
            continue
        if match.request_id is None and request is not None:
            match.request_id = request
        match.value.append(row)
    return [_merged_response(copies) for copies in responses]


def _groups(connection: sqlite3.Connection, candidates: Collection[int]) -> list[list[_Row]]:
    """Every group of rows, by project and key, that a claim of ``candidates`` belongs to and
    that is shared or was (each row ``(rowid, session, *claim, counts)``)."""
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS settle_sessions (id INTEGER PRIMARY KEY)")
    connection.execute(
        "CREATE TEMP TABLE IF NOT EXISTS settle_keys "
        "(project INTEGER, key TEXT, PRIMARY KEY (project, key)) WITHOUT ROWID"
    )
    connection.execute("DELETE FROM temp.settle_sessions")
    connection.execute("DELETE FROM temp.settle_keys")
    connection.executemany(
        "INSERT INTO temp.settle_sessions VALUES (?)", [(row,) for row in candidates]
    )
    connection.execute(
        "INSERT OR IGNORE INTO temp.settle_keys "
        "SELECT s.project, c.key FROM counted c JOIN sessions s ON s.id = c.session "
        "WHERE c.session IN (SELECT id FROM temp.settle_sessions) AND (c.counts != 1 OR EXISTS "
        "(SELECT 1 FROM counted o JOIN sessions os ON os.id = o.session "
        "WHERE o.key = c.key AND o.session != c.session AND os.project = s.project))"
    )
    columns = ", ".join("c." + name for name in ("session", *CLAIM_COLUMNS))
    rows = connection.execute(
        f"SELECT k.project, c.rowid, {columns}, c.counts "
        "FROM temp.settle_keys k JOIN counted c ON c.key = k.key "
        "JOIN sessions s ON s.id = c.session AND s.project = k.project "
        "ORDER BY k.project, k.key"
    )
    groups: list[list[_Row]] = []
    last: tuple[int, str] | None = None
    for project, *row in rows:
        here = (project, row[3])
        if here != last:
            groups.append([])
            last = here
        groups[-1].append(tuple(row))
    return groups


def _settle_groups(connection: sqlite3.Connection, groups: list[list[_Row]]) -> None:
    """Mark each group's rows and make its merged rows again (see the module docstring)."""
    stale: list[tuple[int]] = []
    as_is: list[tuple[int]] = []
    copies: list[tuple[int]] = []
    merged: list[tuple[Any, ...]] = []
    order: dict[int, ReadingKey] = {}
    for group in groups:
        held = [row for row in group if row[-1] != MERGED]
        stale += [(row[0],) for row in group if row[-1] == MERGED]
        if len({row[1] for row in held}) < 2:
            as_is += [(row[0],) for row in held if row[-1] != AS_IS]
            continue
        copies += [(row[0],) for row in held if row[-1] != COPY]
        missing = {row[1] for row in held} - order.keys()
        if missing:
            order.update(_reading_keys(connection, missing))
        for kind in dict.fromkeys(row[2] for row in held):
            claims = [row[1:-1] for row in held if row[2] == kind]
            merged += [(*row, MERGED) for row in _resolve(claims, order)]
    connection.executemany("DELETE FROM counted WHERE rowid = ?", stale)
    connection.executemany(f"UPDATE counted SET counts = {AS_IS} WHERE rowid = ?", as_is)
    connection.executemany(f"UPDATE counted SET counts = {COPY} WHERE rowid = ?", copies)
    connection.executemany(_INSERT, merged)


def _owned(connection: sqlite3.Connection, sessions: Collection[int]) -> dict[int, Owned]:
    """The figures each of ``sessions`` counts (its rows that count)."""
    found = {session: Owned() for session in sessions}
    rows = connection.execute(
        "SELECT session, kind, status, input, output, cache_write_5m, cache_write_1h, "
        "cache_read, cost FROM counted "
        "WHERE session IN (SELECT id FROM temp.settle_sessions) AND counts > 0"
    )
    for session, kind, status, *rest in rows:
        found[session].add(kind, status, rest[:5], rest[5])
    return found


def settle(
    connection: sqlite3.Connection, touched: Collection[int] | None, also: Iterable[int] = ()
) -> None:
    """Work out again how the claims the sessions ``touched`` share count, and the figures of
    the sessions they share with and of those ``also`` names (they shared claims with what
    ``touched`` held before); ``touched`` ``None``: of every session that shares a claim. A
    written session that shares nothing keeps the figures its digest gave. Runs in the
    caller's transaction; a session whose figures change gets a new revision."""
    if touched is None:
        candidates = _sharing(connection)
    else:
        candidates = sharing(connection, touched) | set(also)
    if not candidates:
        return
    _settle_groups(connection, _groups(connection, candidates))
    for session, owned in sorted(_owned(connection, candidates).items()):
        figures = owned.columns()
        current = connection.execute(_OWNED_NOW, (session,)).fetchone()
        if current is not None and tuple(current) != figures:
            connection.execute(_SET_OWNED, (*figures, session))


__all__ = ["AS_IS", "COPY", "MERGED", "Owned", "settle", "sharing", "store_claims"]
