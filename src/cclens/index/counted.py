"""Each session's figures, with what it shares with other sessions counted once.

A session's digest (:class:`~cclens.index.extract.SessionDigest`) counts everything its files
hold. A resumed session holds copies of an earlier session's prompts, responses and tool calls;
:mod:`cclens.analytics.identity` gives each of them to the first session of the project in
reading order that recorded it, with the largest usage of a response's copies and the status
of the first copy of a call that has a result. Indexing keeps each session's claims (the
``counted`` table); after an update, :func:`settle` works out again the figures of the
sessions that share a claim with a session the update wrote (or, for a first index, of every
session that shares one) and writes them to the session's row. A session that shares nothing
keeps its digest's figures.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from ..analytics.identity import ReadingKey, ResponseMatcher, reading_key
from ..analytics.inventory import is_failed
from .extract import CLAIM_CALL, CLAIM_PROMPT, Claim

_COLUMNS = (
    "session, kind, key, request, status, input, output, cache_write_5m, cache_write_1h, cache_read"
)
_QUALIFIED = ", ".join(f"counted.{name.strip()}" for name in _COLUMNS.split(","))
#: A response's cost (see :mod:`cclens.index.costs`), beside its claim.
_COST = (
    "(SELECT cc.cost FROM claim_costs cc WHERE cc.session = counted.session "
    "AND cc.key = counted.key)"
)
#: The fallback identities of a response without a ``message.id`` (see
#: :func:`cclens.analytics.identity.response_fallback`).
_FALLBACKS = ("request:", "uuid:", "line:")
_CHUNK = 500

#: ``(session row, *claim, cost)`` (the cost of a response's usage in this copy, ``None`` for
#: anything else or a response with no price).
Row = tuple[int, int, str, str | None, str | None, int, int, int, int, int, float | None]


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
    """Replace the claims of ``session``."""
    connection.execute("DELETE FROM counted WHERE session = ?", (session,))
    connection.executemany(
        f"INSERT INTO counted({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(session, *claim) for claim in claims],
    )


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
            "JOIN counted o ON o.key = c.key AND o.session != c.session "
            "JOIN sessions cs ON cs.id = c.session JOIN sessions os ON os.id = o.session "
            f"WHERE c.session IN ({marks}) AND os.project = cs.project",
            chunk,
        )
        for mine, other in rows:
            found.update((int(mine), int(other)))
    return found


def _sharing(connection: sqlite3.Connection) -> set[int]:
    """Every session holding a claim another session of its project holds too."""
    rows = connection.execute(
        "SELECT DISTINCT c.session FROM counted c JOIN sessions s ON s.id = c.session "
        "JOIN (SELECT c2.key, s2.project FROM counted c2 JOIN sessions s2 ON s2.id = c2.session "
        "GROUP BY c2.key, s2.project HAVING count(DISTINCT c2.session) > 1) shared "
        "ON shared.key = c.key AND shared.project = s.project"
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


def _resolve(
    group: list[Row], order: dict[int, ReadingKey]
) -> dict[int, tuple[str | None, list[int], float | None]]:
    """For each row of a group sharing one key (by position): the status, or the tokens and
    their cost, it counts with, for the rows that count (the others are copies)."""
    ranked = sorted(range(len(group)), key=lambda i: (order[group[i][0]], i))
    counts: dict[int, tuple[str | None, list[int], float | None]] = {}
    kind = group[0][1]
    if kind != 1:  # a prompt or a call: the first copy counts, with the first status found
        first = ranked[0]
        status = group[first][4]
        if kind == CLAIM_CALL and status == "pending":
            status = next((group[i][4] for i in ranked if group[i][4] != "pending"), status)
        counts[first] = (status, [], None)
        return counts
    matcher: ResponseMatcher[int] = ResponseMatcher()
    best: dict[int, tuple[tuple[int, int], list[int], float | None]] = {}
    for position in ranked:
        row = group[position]
        key, request = row[2], row[3]
        tokens = list(row[5:10])
        size = (tokens[1], sum(tokens))
        message_id = _message_id(key)
        match = matcher.find(message_id, request, key)
        if match is None:
            matcher.add(message_id, request, key, position)
            best[position] = (size, tokens, row[10])
            continue
        if match.request_id is None and request is not None:
            match.request_id = request
        if size >= best[match.value][0]:
            best[match.value] = (size, tokens, row[10])
    for position, (_, tokens, cost) in best.items():
        counts[position] = (None, tokens, cost)
    return counts


def _owned(connection: sqlite3.Connection, session: int, order: dict[int, ReadingKey]) -> Owned:
    """The figures ``session`` counts, given what it shares."""
    owned = Owned()
    rows: list[Row] = [
        (session, *row)
        for row in connection.execute(
            "SELECT kind, key, request, status, input, output, cache_write_5m, cache_write_1h, "
            f"cache_read, {_COST} FROM counted WHERE session = ?",
            (session,),
        )
    ]
    project = connection.execute("SELECT project FROM sessions WHERE id = ?", (session,))
    project_row = int(project.fetchone()[0])
    shared = {
        str(row[0])
        for row in connection.execute(
            "SELECT DISTINCT c.key FROM counted c WHERE c.session = ? AND EXISTS "
            "(SELECT 1 FROM counted o JOIN sessions s ON s.id = o.session "
            "WHERE o.key = c.key AND o.session != c.session AND s.project = ?)",
            (session, project_row),
        )
    }
    for row in rows:
        if row[2] not in shared:
            owned.add(row[1], row[4], row[5:10], row[10])
    for key in shared:
        group: list[Row] = [
            tuple(row)
            for row in connection.execute(
                f"SELECT {_QUALIFIED}, {_COST} FROM counted "
                "JOIN sessions s ON s.id = counted.session "
                "WHERE counted.key = ? AND s.project = ?",
                (key, project_row),
            )
        ]
        missing = {row[0] for row in group} - set(order)
        if missing:
            order.update(_reading_keys(connection, missing))
        for kind in {row[1] for row in group}:
            members = [row for row in group if row[1] == kind]
            for position, (status, tokens, cost) in _resolve(members, order).items():
                if members[position][0] == session:
                    owned.add(kind, status, tokens, cost)
    return owned


def settle(
    connection: sqlite3.Connection, touched: Collection[int] | None, also: Iterable[int] = ()
) -> None:
    """Work out again the figures of the sessions ``touched`` shares claims with, and of those
    ``also`` names (they shared claims with what ``touched`` held before); ``touched`` ``None``:
    of every session that shares a claim. A written session that shares nothing keeps the
    figures its digest gave. Runs in the caller's transaction; a session whose figures change
    gets a new revision."""
    if touched is None:
        candidates = _sharing(connection)
    else:
        candidates = sharing(connection, touched) | set(also)
    if not candidates:
        return
    order = _reading_keys(connection, candidates)
    for session in sorted(candidates):
        owned = _owned(connection, session, order).columns()
        current = connection.execute(_OWNED_NOW, (session,)).fetchone()
        if current is not None and tuple(current) != owned:
            connection.execute(_SET_OWNED, (*owned, session))


__all__ = ["Owned", "settle", "sharing", "store_claims"]
