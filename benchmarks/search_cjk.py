"""Search in scripts written without spaces (Chinese, Japanese, Korean, Thai...): designs compared.

Usage: ``python benchmarks/search_cjk.py [--text PATH ...] [--words 300] [--replicas 10]``

FTS5's ``unicode61`` tokenizer makes a whole run of Chinese characters one token, so a word
inside a longer run is not found. This compares ways of indexing such text, on real text:

* ``today``: ``unicode61`` as it is (the baseline);
* ``chars`` (what cclens does: :func:`cclens.index.words.index_text`, :func:`parse_query`):
  every character of an unspaced script is a token of its own (a separator is put between
  them in the text FTS5 reads); a query's run of such characters is a phrase of them;
* ``bigrams``: each run is indexed as its overlapping pairs of characters (and its last
  character alone); a query is the phrase of its pairs, a one-character query the prefix;
* ``trigram``: the runs of unspaced characters also go into an FTS5 ``trigram`` table beside
  the word index; a query of 3 characters or more matches there, a shorter one is a ``LIKE``
  scan of that table (``trigram`` cannot match fewer than 3 characters; and SQLite 3.40's
  ``LIKE`` on a trigram table finds nothing for 1 or 2 Chinese characters, so the scan is
  forced with ``+text``).

The text (``--text``: files or folders; every ``.md``, ``.txt`` and ``.jsonl`` file's strings)
is cut into paragraphs, one document each; each file is a session, repeated ``--replicas``
times as other sessions to make the index larger. Words of 1 to 6 characters are sampled at
random places of the unspaced runs (so common words are sampled more often, as people type
them), and :data:`NAMED` words are added. The truth is a plain substring scan: the sessions
whose documents hold the word. For each design this prints the recall (sessions found of
those the scan finds, over every word), the precision, how many words were found in every
session that holds them, the index size and its growth over ``today``, the time to index, and
the query time (median and p95 of processor time over the words, each run three times).

Aims (issue 19): recall equal to the scan; index growth <= 25%; query p95 no worse than today's
(on the 1 GB corpus: ``benchmarks/search.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cclens.index import Index, parse_query
from cclens.model.text import input_text

try:  # the end-to-end part runs on a cclens from before these existed as well
    from cclens.index.words import index_text
    from cclens.scripts import BASES

    CHARACTERS = True
except ImportError:  # pragma: no cover - an older cclens
    BASES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3"
    CHARACTERS = False
from machine import load_average

DEFAULT_TEXT = [Path(__file__).resolve().parents[2] / "shared" / "corpus"]
#: Words people searched for in the issue (kept whether or not the text holds them).
NAMED = ("推广产品", "生命周期", "推广", "组件", "状態", "アップデート")
#: A run of characters of scripts written without spaces (the library's definition).
RUN = re.compile(f"[{BASES}]+")
_PIECE = 4000


def _file_text(path: Path) -> str:
    if path.suffix == ".jsonl":
        parts: list[str] = []
        for line in path.read_text(errors="replace").splitlines():
            try:
                parts.append(input_text(json.loads(line)))  # a record's strings, one a line
            except ValueError:
                continue
        return "\n\n".join(parts)
    return path.read_text(errors="replace")


def read_sessions(paths: list[Path], *, only_unspaced: bool = False) -> list[list[str]]:
    """One session per file holding unspaced text: its paragraphs (at most 4,000 characters;
    with ``only_unspaced``, only those holding unspaced text)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(
                p for p in path.rglob("*") if p.suffix in (".md", ".txt", ".jsonl") and p.is_file()
            )
        else:
            files.append(path)
    sessions = []
    for file in files:
        text = _file_text(file)
        if not RUN.search(text):
            continue
        paragraphs = []
        for paragraph in re.split(r"\n\s*\n", text):
            paragraph = paragraph.strip()
            if only_unspaced and not RUN.search(paragraph):
                continue
            while paragraph:
                paragraphs.append(paragraph[:_PIECE])
                paragraph = paragraph[_PIECE:]
        sessions.append(paragraphs)
    return sessions


def sample_words(sessions: list[list[str]], count: int, seed: int = 19) -> list[str]:
    """``count`` different words of 1 to 6 characters, from random places of unspaced runs."""
    chance = random.Random(seed)
    runs = [run for paragraphs in sessions for p in paragraphs for run in RUN.findall(p)]
    found: dict[str, None] = dict.fromkeys(NAMED)
    tries = 0
    while len(found) < count + len(NAMED) and tries < count * 100:
        tries += 1
        size = chance.randint(1, 6)
        run = chance.choice(runs)
        if len(run) < size:
            continue
        start = chance.randint(0, len(run) - size)
        found.setdefault(run[start : start + size].casefold(), None)
    return list(found)


# --- The designs -------------------------------------------------------------------------


def _pairs(run: str) -> str:
    return " ".join([run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]])


def _bigrammed(text: str) -> str:
    return RUN.sub(lambda run: " " + _pairs(run.group()) + " ", text)


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


@dataclass
class Design:
    """How a design indexes a text and what it asks FTS5 for a word."""

    name: str
    #: Statements making the tables in an empty database.
    schema: list[str]
    #: ``(table, text)`` rows to insert for one document's text.
    rows: Callable[[str], list[tuple[str, str]]]
    #: The statement and parameters that find the documents (rowids) holding ``word``.
    query: Callable[[str], tuple[str, tuple[object, ...]]]
    notes: str = ""
    extra: list[str] = field(default_factory=list)


_WORDS = "CREATE VIRTUAL TABLE words USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')"


def _match(expression: str) -> tuple[str, tuple[object, ...]]:
    return "SELECT rowid FROM words WHERE words MATCH ?", (expression,)


def _chars_query(word: str) -> tuple[str, tuple[object, ...]]:
    return _match(parse_query(word).fts)


def _bigram_query(word: str) -> tuple[str, tuple[object, ...]]:
    if len(word) == 1:
        return _match(_quote(word) + "*")
    return _match(_quote(" ".join(word[i : i + 2] for i in range(len(word) - 1))))


def _trigram_rows(text: str) -> list[tuple[str, str]]:
    rows = [("words", text)]
    runs = RUN.findall(text)
    if runs:
        rows.append(("grams", "\n".join(runs)))
    return rows


def _trigram_query(word: str) -> tuple[str, tuple[object, ...]]:
    if len(word) >= 3:
        return "SELECT rowid FROM grams WHERE grams MATCH ?", (_quote(word),)
    # "+text": a scan. Without it SQLite 3.40 counts bytes, not characters, and asks the
    # trigram index for two Chinese characters (6 bytes), which finds nothing.
    return "SELECT rowid FROM grams WHERE +text LIKE ?", (f"%{word}%",)


DESIGNS = [
    Design("today", [_WORDS], lambda text: [("words", text)], lambda w: _match(_quote(w))),
    Design("chars", [_WORDS], lambda text: [("words", index_text(text))], _chars_query),
    Design("bigrams", [_WORDS], lambda text: [("words", _bigrammed(text))], _bigram_query),
    Design(
        "trigram",
        [_WORDS, "CREATE VIRTUAL TABLE grams USING fts5(text, tokenize = 'trigram')"],
        _trigram_rows,
        _trigram_query,
    ),
]


# --- Measuring ---------------------------------------------------------------------------


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Figures:
    name: str
    size: int
    seconds: float
    recall: float
    precision: float
    complete: int
    median: float
    p95: float
    missed: list[str]


def measure(
    design: Design,
    documents: list[tuple[int, str]],
    words: list[str],
    truth: dict[str, set[int]],
    folder: Path,
) -> Figures:
    """Index ``documents`` (``(session, text)``) with ``design`` and run every word."""
    path = folder / f"{design.name}.db"
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in design.schema:
        connection.execute(statement)
    began = time.process_time()
    connection.execute("BEGIN")
    for rowid, (_, text) in enumerate(documents, 1):
        for table, indexed in design.rows(text):
            connection.execute(f"INSERT INTO {table}(rowid, text) VALUES (?, ?)", (rowid, indexed))
    connection.execute("COMMIT")
    seconds = time.process_time() - began
    connection.execute("VACUUM")
    size = path.stat().st_size
    session_of = [0] + [session for session, _ in documents]
    found_total = true_total = wrong = 0
    complete = 0
    times: list[float] = []
    missed: list[str] = []
    for word in words:
        statement, parameters = design.query(word)
        runs = []
        for _ in range(3):
            began = time.process_time()
            rows = connection.execute(statement, parameters).fetchall()
            runs.append(time.process_time() - began)
        times.append(statistics.median(runs))
        sessions = {session_of[row[0]] for row in rows}
        expected = truth[word]
        found_total += len(sessions & expected)
        true_total += len(expected)
        wrong += len(sessions - expected)
        if sessions >= expected:
            complete += 1
        elif len(missed) < 8:
            missed.append(word)
    connection.close()
    return Figures(
        design.name,
        size,
        seconds,
        found_total / max(true_total, 1),
        found_total / max(found_total + wrong, 1),
        complete,
        statistics.median(times),
        _percentile(times, 0.95),
        missed,
    )


# --- End to end: transcripts, Index.update, Index.search_results -------------------------


def _record(session: str, uuid: str, parent: str | None, role: str, text: str) -> str:
    message: dict[str, object]
    if role == "user":
        message = {"role": "user", "content": text}
    else:
        message = {
            "id": "msg_" + uuid[:8],
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5-20250929",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    return json.dumps(
        {
            "type": role,
            "uuid": uuid,
            "parentUuid": parent,
            "sessionId": session,
            "timestamp": "2025-06-01T10:00:00Z",
            "cwd": "/work/zh",
            "isSidechain": False,
            "userType": "external",
            "message": message,
        },
        ensure_ascii=False,
    )


def write_transcripts(sessions: list[list[str]], replicas: int, root: Path) -> list[str]:
    """A Claude folder under ``root``: each session's paragraphs as prompts and answers in
    turn, ``replicas`` times. Returns the session id of each session, in document order."""
    keys = []
    for replica in range(replicas):
        project = root / "projects" / f"-work-zh-r{replica:03d}"
        project.mkdir(parents=True, exist_ok=True)
        for number, paragraphs in enumerate(sessions):
            key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"zh/{replica}/{number}"))
            keys.append(key)
            lines, parent = [], None
            for position, paragraph in enumerate(paragraphs):
                line = f"{key[:24]}{position:012d}"
                role = "user" if position % 2 == 0 else "assistant"
                lines.append(_record(key, line, parent, role, paragraph))
                parent = line
            (project / f"{key}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return keys


def _children() -> float:
    """Processor time of the child processes that ended (the index's workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def end_to_end(
    sessions: list[list[str]],
    words: list[str],
    truth: dict[str, set[int]],
    replicas: int,
    folder: Path,
) -> None:
    """Index transcripts of the text with cclens as it is, and search each word as the web
    app does (ranked, grouped, counted, snippets of the first page)."""
    keys = write_transcripts(sessions, replicas, folder / "claude")
    db = folder / "e2e.db"
    began, used, children = time.perf_counter(), time.process_time(), _children()
    with Index(db) as index:
        index.update([folder / "claude"])
        processor = time.process_time() - used + _children() - children
        with index.connection() as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = sum(path.stat().st_size for path in folder.glob("e2e.db*"))
        print(
            f"end to end: indexed {len(keys):,} sessions in {time.perf_counter() - began:.1f} s "
            f"({processor:.1f} s of processor time, worker processes included), "
            f"index {size / 1e6:.1f} MB; load average {load_average()}"
        )
        index.learn_search_facts()
        times: list[float] = []
        complete = found_total = true_total = 0
        for word in words:
            result = index.search_results(word, limit=1000, per_session=1)
            runs = []
            for _ in range(3):
                index.forget_ranked_searches()
                began = time.thread_time()
                index.search_results(word)
                runs.append(time.thread_time() - began)
            times.append(statistics.median(runs))
            expected = {keys[session] for session in truth[word]}
            shown = {group.session_key for group in result.groups}
            found_total += (
                min(result.total_sessions, len(expected))
                if len(expected) > 1000
                else len(shown & expected)
            )
            true_total += len(expected)
            complete += result.total_sessions >= len(expected) and (
                len(expected) > 1000 or shown >= expected
            )
    print(
        f"  recall {found_total / max(true_total, 1):.1%}, every session for {complete} of "
        f"{len(words)} words; search_results (processor time, ranked afresh) median "
        f"{statistics.median(times) * 1000:.1f} ms, p95 {_percentile(times, 0.95) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", type=Path, nargs="+", default=DEFAULT_TEXT)
    parser.add_argument("--words", type=int, default=300)
    parser.add_argument("--replicas", type=int, default=10)
    parser.add_argument(
        "--only-unspaced", action="store_true", help="only paragraphs holding unspaced text"
    )
    parser.add_argument(
        "--end-to-end", action="store_true", help="index transcripts and search with cclens"
    )
    parser.add_argument("--designs", nargs="+", default=[design.name for design in DESIGNS])
    args = parser.parse_args()
    sessions = read_sessions(args.text, only_unspaced=args.only_unspaced)
    if not sessions:
        sys.exit(f"no text in an unspaced script under {', '.join(map(str, args.text))}")
    words = sample_words(sessions, args.words)
    documents = [
        (replica * len(sessions) + number, paragraph)
        for replica in range(args.replicas)
        for number, paragraphs in enumerate(sessions)
        for paragraph in paragraphs
    ]
    characters = sum(len(text) for _, text in documents)
    unspaced = sum(len(run) for _, text in documents for run in RUN.findall(text))
    print(
        f"{len(sessions)} files x {args.replicas} = {len(sessions) * args.replicas:,} sessions, "
        f"{len(documents):,} documents, {characters / 1e6:.1f} M characters "
        f"({unspaced / characters:.0%} unspaced); {len(words)} words; "
        f"load average {load_average()}"
    )
    folded = [(session, text.casefold()) for session, text in documents]
    began = time.process_time()
    truth: dict[str, set[int]] = {}
    for word in words:
        truth[word] = {session for session, text in folded if word in text}
    scan = (time.process_time() - began) / len(words)
    del folded
    absent = [word for word in words if not truth[word]]
    print(f"substring scan: {scan * 1000:.0f} ms a word; absent from the text: {absent}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="cclens-cjk-") as folder:
        if args.end_to_end:
            end_to_end(sessions, words, truth, args.replicas, Path(folder))
            return
        for design in DESIGNS:
            if design.name in args.designs and (design.name != "chars" or CHARACTERS):
                rows.append(measure(design, documents, words, truth, Path(folder)))
                sys.stdout.flush()
    base = next((row for row in rows if row.name == "today"), rows[0])
    print(
        f"\n{'design':8s} {'recall':>7s} {'precision':>9s} {'all sessions':>12s} "
        f"{'size MB':>8s} {'growth':>7s} {'index s':>8s} {'median ms':>9s} {'p95 ms':>7s} "
        f"{'p95 ratio':>9s}"
    )
    for row in rows:
        print(
            f"{row.name:8s} {row.recall:7.1%} {row.precision:9.1%} "
            f"{row.complete:5d} of {len(words):<4d} {row.size / 1e6:8.1f} "
            f"{row.size / base.size - 1:+7.0%} {row.seconds:8.1f} {row.median * 1000:9.2f} "
            f"{row.p95 * 1000:7.2f} {row.p95 / base.p95:9.2f}   missed e.g. {row.missed[:4]}"
        )
    print(f"\nload average {load_average()}")


if __name__ == "__main__":
    main()
