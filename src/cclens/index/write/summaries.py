"""Vectors of session summaries, computed by ``cclens index`` when the ``semantic-summaries``
extra is installed (see :mod:`cclens.index.summary_model`).

A session's summary is its title, the summaries Claude Code wrote when it compacted the
conversation, then its prompts (commands and other markup left out), in that order and cut at
:data:`~cclens.index.summary_model.SUMMARY_CHARS` characters. A session gets its vector again
only when that text changed: after a session's first prompts its summary stays the same, so a
growing session costs nothing more. The sessions looked at are those with documents above the
highest document looked at before (``meta.session_vectors_upto``); the model's id is kept in
``meta.session_vectors_model``, and another model makes every summary vector computed again.

The model runs in a thread of its own (:class:`Summarizing`) while the documents' vectors are
computed: ``onnxruntime`` releases the interpreter, so the two share the machine's cores.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..embedding import text_digest
from ..summary_model import SUMMARY_CHARS, SUMMARY_MODEL_ID
from ..words import shown_text
from .meta_values import begin, commit, meta_value, set_meta_value

if TYPE_CHECKING:
    from ..summary_model import Vectors

#: Sessions whose summaries are read per query.
READ_BATCH = 500


def summaries_of(connection: sqlite3.Connection, sessions: list[int]) -> dict[int, str]:
    """The summary of each of ``sessions`` (an empty text for a session with nothing to say)."""
    marks = ", ".join("?" * len(sessions))
    parts: dict[int, list[str]] = {session: [] for session in sessions}
    sizes = dict.fromkeys(sessions, 0)

    def add(session: int, text: str | None) -> None:
        if text and sizes[session] < SUMMARY_CHARS:
            parts[session].append(text)
            sizes[session] += len(text) + 1

    for session, title in connection.execute(
        f"SELECT id, title FROM sessions WHERE id IN ({marks})", sessions
    ):
        add(session, title)
    for session, summary in connection.execute(
        f"SELECT session, summary FROM session_summaries WHERE session IN ({marks}) "
        "ORDER BY session, line",
        sessions,
    ):
        add(session, summary)
    for session, text in connection.execute(
        "SELECT d.session, t.text FROM documents d JOIN documents_text t ON t.rowid = d.id "
        f"WHERE d.session IN ({marks}) AND d.kind = 'prompt' ORDER BY d.id",
        sessions,
    ):
        if sizes[session] < SUMMARY_CHARS and text and not text.lstrip().startswith("<"):
            add(session, shown_text(text))
    return {session: "\n".join(parts[session])[:SUMMARY_CHARS] for session in sessions}


def _highest_document(connection: sqlite3.Connection) -> int:
    return int(connection.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0])


@dataclass
class Summarizing:
    """The summaries to embed (sessions whose summary changed), embedded in a thread started
    by :meth:`start`; :meth:`finish` waits for it and writes the vectors."""

    highest: int
    anew: bool
    sessions: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    digests: list[bytes] = field(default_factory=list)
    _vectors: Vectors | None = None
    _error: BaseException | None = None
    _skipped: bool = False
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Load the model and embed the summaries, in a thread."""
        if self.texts:
            self._thread = threading.Thread(
                target=self._embed, name="cclens-summaries", daemon=True
            )
            self._thread.start()

    def _embed(self) -> None:
        from ..summary_model import SummaryModelUnavailable, load

        try:
            # Sessions that share their summary (a resumed conversation copies its start)
            # share the vector: each text is embedded once.
            unique = list(dict.fromkeys(self.texts))
            position = {text: i for i, text in enumerate(unique)}
            vectors = load().embed(unique)
            self._vectors = vectors[[position[text] for text in self.texts]]
        except SummaryModelUnavailable:
            # Installed but cannot be run (a damaged install): the documents' vectors are
            # still written, and search by meaning uses them alone.
            self._skipped = True
        except BaseException as error:  # handed to finish(), in the writing thread
            self._error = error

    def wait(self) -> None:
        """Wait for the thread (when the update stops on an error: nothing is written)."""
        if self._thread is not None:
            self._thread.join()

    def finish(self, connection: sqlite3.Connection) -> int:
        """Wait for the vectors and write them (on the writing connection); returns how many
        sessions got one."""
        self.wait()
        if self._error is not None:
            raise self._error
        if self._skipped:
            return 0
        begin(connection)
        if self.anew:
            connection.execute("DELETE FROM session_vectors")
            set_meta_value(connection, "session_vectors_model", SUMMARY_MODEL_ID)
        if self._vectors is not None:
            connection.executemany(
                "INSERT OR REPLACE INTO session_vectors (session, digest, data) VALUES (?, ?, ?)",
                [
                    (session, digest, vector.astype("<f2").tobytes())
                    for session, digest, vector in zip(
                        self.sessions, self.digests, self._vectors, strict=True
                    )
                ],
            )
            connection.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                "WHERE key = 'session_vectors_written'"
            )
        set_meta_value(connection, "session_vectors_upto", str(self.highest))
        commit(connection)
        return len(self.sessions)


def changed_summaries(connection: sqlite3.Connection) -> Summarizing | None:
    """The summaries of the sessions that changed since the last run (``None``: none did, or
    the summary model is not installed)."""
    from ..summary_model import available

    if not available():
        return None
    highest = _highest_document(connection)
    upto = int(meta_value(connection, "session_vectors_upto") or 0)
    anew = meta_value(connection, "session_vectors_model") != SUMMARY_MODEL_ID or upto > highest
    if anew:
        # Another model, or documents made anew (their ids start again): all again.
        upto = 0
    elif upto == highest:
        return None
    sessions = [
        row[0]
        for row in connection.execute(
            "SELECT DISTINCT session FROM documents WHERE id > ? ORDER BY session", (upto,)
        )
    ]
    stored = {} if anew else dict(connection.execute("SELECT session, digest FROM session_vectors"))
    found = Summarizing(highest, anew)
    for first in range(0, len(sessions), READ_BATCH):
        for session, text in summaries_of(connection, sessions[first : first + READ_BATCH]).items():
            digest = text_digest(text)
            if text.strip() and stored.get(session) != digest:
                found.sessions.append(session)
                found.texts.append(text)
                found.digests.append(digest)
    return found


__all__ = ["READ_BATCH", "Summarizing", "changed_summaries", "summaries_of"]
