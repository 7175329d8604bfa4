"""What search counts and groups by, for each document, kept in memory as arrays by document id.

Ranking every match of a broad query gives tens of thousands of documents; grouping them by
text and by session and counting them by project, kind, tool, errors, subagents and month is
then a handful of array operations, provided each document's facts are at hand without one
SQL row per document. A document's row never changes and its id is never handed out again
(``documents.id`` is ``AUTOINCREMENT``), so facts read once stay true: :class:`DocumentFacts`
reads those of the documents a search meets for the first time, and keeps them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..names import DOCUMENT_KINDS

Ints = npt.NDArray[np.int64]
#: The month code of a document without a time.
NO_MONTH = np.iinfo(np.int32).min
#: The columns facts are read from; a kind as its index in DOCUMENT_KINDS, a time as its month
#: counted from 1970-01 (1970 * 12 + 1 = 23641).
_COLUMNS = (
    "id, part, session, project, CASE kind "
    + " ".join(f"WHEN '{kind}' THEN {code}" for code, kind in enumerate(DOCUMENT_KINDS))
    + " ELSE 0 END, tool, error, subagent, "
    "CAST(strftime('%Y', time, 'unixepoch') AS INTEGER) * 12 "
    "+ CAST(strftime('%m', time, 'unixepoch') AS INTEGER) - 23641, "
    "(SELECT s.agent FROM sessions s WHERE s.id = documents.session)"
)


@dataclass(frozen=True, slots=True)
class Gathered:
    """The facts of some documents, each array in the order the documents were asked for."""

    part: Ints
    session: Ints
    project: Ints
    #: Index into :data:`~cclens.index.extract.DOCUMENT_KINDS`.
    kind: npt.NDArray[np.int8]
    #: Index into :attr:`DocumentFacts.tools` (0: no tool).
    tool: npt.NDArray[np.int32]
    error: npt.NDArray[np.bool_]
    subagent: npt.NDArray[np.bool_]
    #: Months since 1970-01 (UTC) of the document's time, :data:`NO_MONTH` without one.
    month: npt.NDArray[np.int32]
    #: Index into :attr:`DocumentFacts.agents`: the agent that wrote the session.
    agent: npt.NDArray[np.int8]

    def take(self, positions: Ints) -> Gathered:
        """The facts at ``positions``, in that order."""
        return Gathered(
            part=self.part[positions],
            session=self.session[positions],
            project=self.project[positions],
            kind=self.kind[positions],
            tool=self.tool[positions],
            error=self.error[positions],
            subagent=self.subagent[positions],
            month=self.month[positions],
            agent=self.agent[positions],
        )


def _grown(array: npt.NDArray[Any], size: int, fill: Any = 0) -> npt.NDArray[Any]:
    if len(array) >= size:
        return array
    bigger = np.full(max(size, len(array) * 2, 1024), fill, dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger


class DocumentFacts:
    """Facts of documents by id, read from the index the first time a search meets them.

    One object serves every thread of a process (a lock guards it); it must only be used with
    one index file.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known = np.zeros(0, dtype=np.bool_)
        self._part = np.zeros(0, dtype=np.int64)
        self._session = np.zeros(0, dtype=np.int64)
        self._project = np.zeros(0, dtype=np.int64)
        self._kind = np.zeros(0, dtype=np.int8)
        self._tool = np.zeros(0, dtype=np.int32)
        self._error = np.zeros(0, dtype=np.bool_)
        self._subagent = np.zeros(0, dtype=np.bool_)
        self._month = np.zeros(0, dtype=np.int32)
        self._agent = np.zeros(0, dtype=np.int8)
        #: Agent names by code.
        self.agents: list[str] = []
        self._agent_codes: dict[str, int] = {}
        #: Tool names by code; code 0 is "no tool".
        self.tools: list[str | None] = [None]
        self._tool_codes: dict[str | None, int] = {None: 0}

    @property
    def known(self) -> int:
        """How many documents' facts are kept."""
        return int(self._known.sum())

    def _grow(self, size: int) -> None:
        self._known = _grown(self._known, size, False)
        self._part = _grown(self._part, size)
        self._session = _grown(self._session, size)
        self._project = _grown(self._project, size)
        self._kind = _grown(self._kind, size)
        self._tool = _grown(self._tool, size)
        self._error = _grown(self._error, size, False)
        self._subagent = _grown(self._subagent, size, False)
        self._month = _grown(self._month, size, NO_MONTH)
        self._agent = _grown(self._agent, size)

    def _read(self, connection: sqlite3.Connection, ids: Ints) -> None:
        """Read the facts of ``ids`` (documents not yet known) from the index."""
        rows = connection.execute(
            f"SELECT {_COLUMNS} FROM documents WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(ids.tolist()),),
        ).fetchall()
        self._store(rows)

    def _store(self, rows: list[Any]) -> None:
        """Keep the facts of ``rows`` (of :data:`_COLUMNS`)."""
        if not rows:
            return
        columns = list(zip(*rows, strict=True))
        found = np.array(columns[0], dtype=np.int64)
        self._grow(int(found.max()) + 1)
        codes = self._tool_codes
        for name in set(columns[5]):
            if name not in codes:
                codes[name] = len(self.tools)
                self.tools.append(name)
        self._part[found] = columns[1]
        self._session[found] = columns[2]
        self._project[found] = columns[3]
        self._kind[found] = columns[4]
        self._tool[found] = [codes[name] for name in columns[5]]
        self._error[found] = columns[6]
        self._subagent[found] = columns[7]
        self._month[found] = [NO_MONTH if month is None else month for month in columns[8]]
        agents = self._agent_codes
        for name in set(columns[9]):
            key = name or "claude"
            if key not in agents:
                agents[key] = len(self.agents)
                self.agents.append(key)
        self._agent[found] = [agents[name or "claude"] for name in columns[9]]
        self._known[found] = True

    def learn_all(self, connection: sqlite3.Connection, batch: int = 50_000) -> None:
        """Read the facts of every document (a server does it once at start, so that its first
        searches do not); a batch at a time, so that searches meanwhile wait little."""
        last = 0
        while True:
            rows = connection.execute(
                f"SELECT {_COLUMNS} FROM documents WHERE id > ? ORDER BY id LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            last = int(rows[-1][0])
            with self._lock:
                self._store(rows)

    def gather(self, connection: sqlite3.Connection, ids: Ints) -> Gathered:
        """The facts of the documents ``ids`` (read from ``connection`` when first met)."""
        with self._lock:
            self._grow(int(ids.max()) + 1 if len(ids) else 0)
            missing = ids[~self._known[ids]] if len(ids) else ids
            if len(missing):
                self._read(connection, np.unique(missing))
            every = Gathered(
                self._part,
                self._session,
                self._project,
                self._kind,
                self._tool,
                self._error,
                self._subagent,
                self._month,
                self._agent,
            )
            return every.take(ids)


def month_label(code: int) -> str:
    """``2025-07`` for a month code of :class:`Gathered`."""
    year, month = divmod(int(code), 12)
    return f"{1970 + year:04d}-{month + 1:02d}"


__all__ = ["NO_MONTH", "DocumentFacts", "Gathered", "Ints", "month_label"]
