"""Search by meaning: documents ranked by the similarity of their vectors to the query's, and
fused with the word ranking (reciprocal rank fusion) in a hybrid search.

The vectors (:mod:`cclens.index.write.vectors`) are read into memory once per process and read
again only when the index changed (:class:`VectorStore`): a matrix of unit vectors, one row per
chunk, with the document and session of each row, and each session's centroid (the mean of its
chunks). A document's similarity to a query is its best chunk's; a document is then ranked by
the mean of that and its session's centroid similarity, so that a session about the query as a
whole outranks one stray matching message (measured on the paraphrase set: 60% of queries find
their session in the top 5, against 52% by the best chunk alone). When the index has summary
vectors (:mod:`cclens.index.write.summaries`, one per session from a small transformer), the
similarity of the session's summary to the query is added (77%). A large index's coarse first
pass (:data:`COARSE_ROWS`) keeps chunks by their own similarity, before the summaries count.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..embedding import DIMENSIONS, MODEL_ID, Vectors
from ..summary_model import SUMMARY_DIMENSIONS, SUMMARY_MODEL_ID

Mode = Literal["lexical", "semantic", "hybrid"]
MODES: tuple[Mode, ...] = ("lexical", "semantic", "hybrid")
#: Documents a semantic ranking keeps (the best by similarity; every document has some).
SEMANTIC_MATCHES = 200
#: Reciprocal rank fusion's constant: a document at rank r on one side counts 1 / (K + r).
RRF_K = 60
#: Weight of the session's centroid in a document's semantic score (the rest: the document's).
SESSION_WEIGHT = 0.5
#: Weight of the similarity of the session's summary vector, added to a document's semantic
#: score when the index has summary vectors (``semantic-summaries`` extra; measured on the
#: paraphrase set: 1.0 and 0.5 rank alike, 2.0 worse).
SUMMARY_WEIGHT = 1.0

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class _Loaded:
    #: Per chunk row: its document and session (sorted by document).
    document: Ints
    session: Ints
    #: Per chunk row: its unit vector (float16: half the memory, as exact as ranking needs)
    #: and its signs as bits (a first, coarse pass over a large index).
    matrix: npt.NDArray[np.float16]
    bits: npt.NDArray[np.uint64]
    #: Per chunk row: the position of its session in ``sessions``.
    session_position: Ints
    #: Sessions with vectors (sorted), the sums of their chunks and their unit centroids, row
    #: for row.
    sessions: Ints
    sums: Floats
    centroids: Floats
    #: (highest document, vectors deleted so far) when read: the index changed when either
    #: differs.
    stamp: tuple[int, int]
    #: Per row of ``sessions``: the unit vector of its summary (zeros: none yet), and whether
    #: it has one; ``None`` when the index has none (or the summary model is not installed).
    summaries: Floats | None = None
    summarized: npt.NDArray[np.bool_] | None = None
    #: ``meta.session_vectors_written`` when the summaries were read.
    summaries_stamp: int = -1


def _unit(matrix: Floats) -> Floats:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: Floats = np.zeros_like(matrix)
    np.divide(matrix, norms, out=unit, where=norms > 0)
    return unit


def _rows(connection: sqlite3.Connection, above: int) -> tuple[Ints, Ints, npt.NDArray[np.int8]]:
    """The vectors of documents above ``above``: document and session per chunk, and the
    chunks' int8 vectors."""
    rows = connection.execute(
        "SELECT document, session, data FROM vectors WHERE document > ? ORDER BY document",
        (above,),
    )
    documents: list[int] = []
    sessions: list[int] = []
    blobs: list[bytes] = []
    for document, session, data in rows:
        count = len(data) // DIMENSIONS
        documents.extend([document] * count)
        sessions.extend([session] * count)
        blobs.append(data)
    raw = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(-1, DIMENSIONS)
    return np.asarray(documents, np.int64), np.asarray(sessions, np.int64), raw


def _signs(matrix: npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
    """Each row's signs as bits, 64 to a word."""
    packed = np.packbits(matrix > 0, axis=1)
    bits: npt.NDArray[np.uint64] = np.ascontiguousarray(packed).view(np.uint64)
    return bits


def _session_sums(session: Ints, units: Floats, sessions: Ints) -> Floats:
    """The sum of ``units`` per session of ``sessions`` (sorted). Rows come by document, and a
    session's documents mostly follow each other: each run of one session is summed at once
    (numpy's ``reduceat``, along the transposed rows), then the runs are added per session."""
    sums = np.zeros((len(sessions), DIMENSIONS), dtype=np.float32)
    if not len(session):
        return sums
    starts = np.flatnonzero(np.concatenate(([True], session[1:] != session[:-1])))
    runs = np.add.reduceat(np.ascontiguousarray(units.T), starts, axis=1).T
    np.add.at(sums, np.searchsorted(sessions, session[starts]), runs)
    return sums


def _loaded(
    document: Ints,
    session: Ints,
    raw: npt.NDArray[np.int8],
    stamp: tuple[int, int],
    kept: _Loaded | None = None,
) -> _Loaded:
    """The vectors (``raw``: the int8 rows after ``kept``'s, or all) with their sessions'
    centroids. With ``kept`` (the same rows, then new ones), only the new rows are converted
    and added to the sums it has."""
    units = raw.astype(np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", units, units))
    np.divide(units, norms[:, None], out=units, where=norms[:, None] > 0)
    half = units.astype(np.float16)
    bits = _signs(raw)
    unique, inverse = np.unique(session, return_inverse=True)
    new_sessions = session[len(session) - len(raw) :]
    sums = _session_sums(new_sessions, units, unique)
    if kept is not None:
        sums[np.searchsorted(unique, kept.sessions)] += kept.sums
        half = np.concatenate([kept.matrix, half])
        bits = np.concatenate([kept.bits, bits])
    return _Loaded(
        document,
        session,
        half,
        bits,
        inverse.astype(np.int64),
        unique,
        sums,
        _unit(sums),
        stamp,
    )


def _read(connection: sqlite3.Connection, stamp: tuple[int, int], kept: _Loaded | None) -> _Loaded:
    """The vectors as of ``stamp``: only the new ones read when ``kept`` lost none since."""
    if kept is not None and kept.stamp[1] == stamp[1] and kept.stamp[0] <= stamp[0]:
        above = int(kept.document[-1]) if len(kept.document) else 0
        document, session, raw = _rows(connection, above)
        return _loaded(
            np.concatenate([kept.document, document]),
            np.concatenate([kept.session, session]),
            raw,
            stamp,
            kept,
        )
    document, session, raw = _rows(connection, 0)
    return _loaded(document, session, raw, stamp)


def _with_summaries(connection: sqlite3.Connection, loaded: _Loaded, stamp: int) -> _Loaded:
    """``loaded`` with the summary vectors of its sessions (read as of ``stamp``)."""
    summaries = np.zeros((len(loaded.sessions), SUMMARY_DIMENSIONS), dtype=np.float32)
    summarized = np.zeros(len(loaded.sessions), dtype=np.bool_)
    for session, data in connection.execute("SELECT session, data FROM session_vectors"):
        position = int(np.searchsorted(loaded.sessions, session))
        if position < len(loaded.sessions) and loaded.sessions[position] == session:
            summaries[position] = np.frombuffer(data, dtype="<f2")
            summarized[position] = True
    return dataclasses.replace(
        loaded,
        summaries=_unit(summaries) if summarized.any() else None,
        summarized=summarized if summarized.any() else None,
        summaries_stamp=stamp,
    )


class VectorStore:
    """The index's vectors in memory (one per index file): new ones are read as they come,
    and all again when some were deleted; the sessions' summary vectors, when the index has
    them and the summary model is installed, again whenever some were written."""

    def __init__(self, summaries: Callable[[], bool] | None = None) -> None:
        self._lock = threading.Lock()
        self._loaded: _Loaded | None = None
        #: Whether summary vectors can be used (the summary model is installed): asked once.
        self._summaries_wanted = summaries
        self._summaries_usable: bool | None = None

    def _summaries_installed(self) -> bool:
        if self._summaries_usable is None:
            self._summaries_usable = bool(self._summaries_wanted and self._summaries_wanted())
        return self._summaries_usable

    def current(self, connection: sqlite3.Connection) -> _Loaded | None:
        """The vectors as the index has them now (``None``: none of the current model)."""
        rows = dict(
            connection.execute(
                "SELECT key, value FROM meta WHERE key IN ('vectors_model', 'vectors_deleted', "
                "'session_vectors_model', 'session_vectors_written')"
            ).fetchall()
        )
        if rows.get("vectors_model") != MODEL_ID:
            return None
        # The highest document is found in the table's b-tree at once (count(*) would read
        # every page of the vectors).
        (highest,) = connection.execute("SELECT coalesce(max(document), 0) FROM vectors").fetchone()
        if not highest:
            return None
        stamp = (int(highest), int(rows.get("vectors_deleted") or 0))
        summaries = -1
        if rows.get("session_vectors_model") == SUMMARY_MODEL_ID and self._summaries_installed():
            summaries = int(rows.get("session_vectors_written") or 0)
        with self._lock:
            loaded = self._loaded
            if loaded is None or loaded.stamp != stamp:
                loaded = _read(connection, stamp, loaded)  # without summaries
            if loaded.summaries_stamp != summaries:
                if summaries < 0:
                    loaded = dataclasses.replace(
                        loaded, summaries=None, summarized=None, summaries_stamp=-1
                    )
                else:
                    loaded = _with_summaries(connection, loaded, summaries)
            self._loaded = loaded
            return loaded


@dataclass(frozen=True, slots=True)
class Ranked:
    """Documents best first with their scores (higher is better)."""

    document: Ints
    score: npt.NDArray[np.float64]


#: Above this many rows, a search by meaning first keeps the rows whose signs agree most with
#: the query's (:data:`COARSE_KEPT` of them, by Hamming distance over 32 bytes a row), then
#: computes the similarity of those only: at 1 GB of transcripts (190,000 rows) the full
#: product reads 100 MB per query.
COARSE_ROWS = 65_536
COARSE_KEPT = 8_192


def _times(matrix: npt.NDArray[Any], vector: Floats) -> Floats:
    """``matrix @ vector`` in float32, by einsum rather than BLAS: OpenBLAS wakes its threads
    for a matrix-vector product, which costs more than the product itself on a busy machine
    (20 ms against 0.1 ms for 2,000 rows)."""
    product: Floats = np.einsum("ij,j->i", matrix.astype(np.float32, copy=False), vector)
    return product


def _coarse(loaded: _Loaded, rows: Ints | None, query: Floats) -> Ints | None:
    """The :data:`COARSE_KEPT` rows (of ``rows``, else of all) nearest ``query`` by their
    signs, when there are more than :data:`COARSE_ROWS` (``None``: keep them all)."""
    count = len(loaded.document) if rows is None else len(rows)
    if count <= COARSE_ROWS or not hasattr(np, "bitwise_count"):
        return None
    signs = _signs(query[None, :])[0]
    bits = loaded.bits if rows is None else loaded.bits[rows]
    distance = np.bitwise_count(bits ^ signs).sum(axis=1, dtype=np.int32)
    kept = np.argpartition(distance, COARSE_KEPT - 1)[:COARSE_KEPT]
    return kept if rows is None else rows[kept]


def rank(
    loaded: _Loaded,
    query: Vectors,
    *,
    allowed: Callable[[Ints], npt.NDArray[np.bool_]] | None = None,
    exclude: Ints | None = None,
    within: Ints | None = None,
    limit: int = SEMANTIC_MATCHES,
    summary_query: Vectors | None = None,
) -> Ranked:
    """The ``limit`` documents most similar to ``query`` (a unit vector), best first.

    ``allowed(documents)`` says which documents a filter keeps; ``exclude``: documents left
    out (the message "more like this" starts from); ``within``: only these documents.
    ``summary_query``: the query's vector by the summary model, compared with the sessions'
    summary vectors when the index has them (:data:`SUMMARY_WEIGHT`)."""
    session_similarity = SESSION_WEIGHT * _times(loaded.centroids, query)
    if summary_query is not None and loaded.summaries is not None:
        summary = _times(loaded.summaries, summary_query)
        if loaded.summarized is not None and not loaded.summarized.all():
            # A session without a summary vector scores as an average one.
            summary[~loaded.summarized] = summary[loaded.summarized].mean()
        session_similarity += SUMMARY_WEIGHT * summary
    candidates: Ints | None = None
    if within is not None:
        # Only the rows of these documents (the word matches of a hybrid search).
        first = np.searchsorted(loaded.document, within, side="left")
        counts = np.searchsorted(loaded.document, within, side="right") - first
        starts = np.cumsum(counts) - counts
        candidates = np.repeat(first - starts, counts) + np.arange(int(counts.sum()))
    if allowed is not None:
        rows = np.arange(len(loaded.document)) if candidates is None else candidates
        candidates = rows[allowed(loaded.document[rows])]
    if exclude is not None and len(exclude):
        rows = np.arange(len(loaded.document)) if candidates is None else candidates
        candidates = rows[~np.isin(loaded.document[rows], exclude)]
    coarse = _coarse(loaded, candidates, query)
    if coarse is not None:
        candidates = coarse
    if candidates is None:
        candidates = np.arange(len(loaded.document))
        similarity = _times(loaded.matrix, query)
    else:
        similarity = _times(loaded.matrix[candidates], query)
    if not len(candidates):
        return Ranked(np.zeros(0, np.int64), np.zeros(0, np.float64))
    scores = (1 - SESSION_WEIGHT) * similarity + session_similarity[
        loaded.session_position[candidates]
    ]
    # The best chunk of each document: order by score, keep the first row of each document.
    wanted = min(len(candidates), limit * 8)
    top = np.argpartition(-scores, wanted - 1)[:wanted]
    top = top[np.argsort(-scores[top], kind="stable")]
    _, first = np.unique(loaded.document[candidates[top]], return_index=True)
    best = top[np.sort(first)][:limit]
    return Ranked(loaded.document[candidates[best]], scores[best].astype(np.float64))


def fuse(lexical: Ints, semantic: Ints) -> Ranked:
    """Reciprocal rank fusion of two rankings (documents best first): each document scores
    ``1 / (RRF_K + rank)`` on each side it is on (rank from 1), best total first."""
    documents = np.concatenate([lexical, semantic])
    scores = np.concatenate(
        [
            1.0 / (RRF_K + 1 + np.arange(len(lexical), dtype=np.float64)),
            1.0 / (RRF_K + 1 + np.arange(len(semantic), dtype=np.float64)),
        ]
    )
    unique, inverse = np.unique(documents, return_inverse=True)
    total = np.zeros(len(unique), dtype=np.float64)
    np.add.at(total, inverse, scores)
    order = np.lexsort((-unique, -total))
    return Ranked(unique[order], total[order])


def message_vector(
    connection: sqlite3.Connection, loaded: _Loaded, session_key: str, anchor: str
) -> tuple[Vectors, Ints] | None:
    """The mean vector of a message's documents (every chunk of every text it shows), and
    those documents; ``None`` when the message has no vector."""
    ids = [
        row[0]
        for row in connection.execute(
            "SELECT d.id FROM documents d JOIN sessions s ON s.id = d.session "
            "WHERE s.key = ? AND (d.anchor = ? OR d.target = ?)",
            (session_key, anchor, anchor),
        )
    ]
    if not ids:
        return None
    documents = np.asarray(ids, dtype=np.int64)
    rows = np.isin(loaded.document, documents)
    if not rows.any():
        return None
    mean = loaded.matrix[rows].astype(np.float32).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    if norm == 0:
        return None
    return (mean / norm).astype(np.float32), documents


@dataclass(frozen=True, slots=True)
class Related:
    """A session like another one: its id in the index and the cosine of their centroids."""

    session: int
    similarity: float


def related_sessions(loaded: _Loaded, session: int, limit: int = 5) -> list[Related]:
    """The ``limit`` sessions whose centroids are nearest ``session``'s (itself left out)."""
    position = int(np.searchsorted(loaded.sessions, session))
    if position >= len(loaded.sessions) or loaded.sessions[position] != session:
        return []
    similarity = _times(loaded.centroids, loaded.centroids[position])
    similarity[position] = -np.inf
    count = min(limit, len(similarity) - 1)
    if count <= 0:
        return []
    best = np.argpartition(-similarity, count - 1)[:count]
    best = best[np.argsort(-similarity[best], kind="stable")]
    return [Related(int(loaded.sessions[i]), float(similarity[i])) for i in best]


__all__ = [
    "MODES",
    "RRF_K",
    "SEMANTIC_MATCHES",
    "SESSION_WEIGHT",
    "SUMMARY_WEIGHT",
    "Mode",
    "Ranked",
    "Related",
    "VectorStore",
    "fuse",
    "message_vector",
    "rank",
    "related_sessions",
]
