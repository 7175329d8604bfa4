"""Vectors of search documents, computed by ``cclens index`` for the documents that have none.

Each document of an embedded kind (prompts, answers, thinking, tool calls' inputs: see
:data:`~cclens.index.embedding.EMBEDDED_KINDS`) gets one int8 vector per chunk of its text, kept
in ``vectors`` by document id: a semantic hit is a document, so it opens the session at the
same element a word hit does. Document ids are never handed out twice and a document's text
never changes, so the documents still to embed are those above the highest id embedded
(``meta.vectors_upto``); a trigger drops the vectors of a deleted document. The model's id is
kept in ``meta.vectors_model``: another model (a newer cclens) makes every vector computed
again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..embedding import EMBEDDED_KINDS, MODEL_ID, chunks, quantize, text_digest
from .meta_values import begin, commit, meta_value, set_meta_value

if TYPE_CHECKING:
    from ..embedding import Embedder

#: Documents read, embedded and written per transaction.
BATCH = 2048


def stored_model(connection: sqlite3.Connection) -> str | None:
    """The id of the model the index's vectors come from (``None``: no vectors yet)."""
    return meta_value(connection, "vectors_model")


def has_vectors(connection: sqlite3.Connection) -> bool:
    """Whether the index has vectors of the current model."""
    if stored_model(connection) != MODEL_ID:
        return False
    return connection.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is not None


def _documents_renumbered(connection: sqlite3.Connection) -> bool:
    """Whether the documents were made anew since the vectors were (a migration that rebuilds
    the documents table starts its ids again): the mark is then above every document."""
    upto = int(meta_value(connection, "vectors_upto") or 0)
    highest = connection.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0]
    return upto > int(highest)


def pending(connection: sqlite3.Connection) -> int:
    """Documents of embedded kinds not embedded yet (for a progress bar)."""
    upto = 0
    if stored_model(connection) == MODEL_ID and not _documents_renumbered(connection):
        upto = int(meta_value(connection, "vectors_upto") or 0)
    marks = ", ".join("?" * len(EMBEDDED_KINDS))
    row = connection.execute(
        f"SELECT count(*) FROM documents WHERE id > ? AND kind IN ({marks})",
        (upto, *EMBEDDED_KINDS),
    ).fetchone()
    return int(row[0])


def update_vectors(
    connection: sqlite3.Connection,
    embedder: Embedder,
    *,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Embed every document of an embedded kind that has no vector yet; return how many were
    embedded. Runs on the writing connection, a batch per transaction (an interrupted run keeps
    what it committed). ``progress(documents)`` is called after each batch."""
    begin(connection)
    if stored_model(connection) != MODEL_ID or _documents_renumbered(connection):
        connection.execute("DELETE FROM vectors")
        set_meta_value(connection, "vectors_model", MODEL_ID)
        set_meta_value(connection, "vectors_upto", "0")
    upto = int(meta_value(connection, "vectors_upto") or 0)
    commit(connection)
    marks = ", ".join("?" * len(EMBEDDED_KINDS))
    done = 0
    known: dict[bytes, npt.NDArray[np.int8]] = {}
    while True:
        rows = connection.execute(
            "SELECT d.id, d.session, d.kind, t.text FROM documents d "
            "JOIN documents_text t ON t.rowid = d.id "
            f"WHERE d.id > ? AND d.kind IN ({marks}) ORDER BY d.id LIMIT ?",
            (upto, *EMBEDDED_KINDS, BATCH),
        ).fetchall()
        if not rows:
            break
        pieces: list[list[bytes]] = []
        new_texts: dict[bytes, str] = {}
        for _, _, kind, text in rows:
            digests = []
            for piece in chunks(text or "", kind):
                digest = text_digest(piece)
                digests.append(digest)
                if digest not in known:
                    new_texts.setdefault(digest, piece)
            pieces.append(digests)
        if new_texts:
            vectors = quantize(embedder.embed(list(new_texts.values())))
            known.update(zip(new_texts, vectors, strict=True))
        records = [
            (document, session, b"".join(known[digest].tobytes() for digest in digests))
            for (document, session, _, _), digests in zip(rows, pieces, strict=True)
            if digests
        ]
        upto = int(rows[-1][0])
        begin(connection)
        connection.executemany(
            "INSERT OR REPLACE INTO vectors (document, session, data) VALUES (?, ?, ?)", records
        )
        set_meta_value(connection, "vectors_upto", str(upto))
        commit(connection)
        done += len(rows)
        if len(known) > 200_000:
            known.clear()
        if progress is not None:
            progress(len(rows))
    return done


def embed_documents(connection: sqlite3.Connection) -> int:
    """What ``cclens index`` runs after reading: the new documents' vectors, when the model is
    installed and something is left to embed (the model is loaded only then); meanwhile, in a
    thread, the summary vectors of the sessions that changed, when the ``semantic-summaries``
    extra is installed too (:mod:`cclens.index.write.summaries`). Returns the documents
    embedded."""
    from ..embedding import available, load
    from .summaries import changed_summaries

    if not available():
        return 0
    summarizing = changed_summaries(connection)
    if summarizing is not None:
        summarizing.start()
    done = 0
    try:
        if (
            stored_model(connection) != MODEL_ID
            or _documents_renumbered(connection)
            or pending(connection)
        ):
            done = update_vectors(connection, load())
    except BaseException:
        if summarizing is not None:
            summarizing.wait()
        raise
    if summarizing is not None:
        summarizing.finish(connection)
    return done


__all__ = [
    "BATCH",
    "embed_documents",
    "has_vectors",
    "pending",
    "stored_model",
    "update_vectors",
]
