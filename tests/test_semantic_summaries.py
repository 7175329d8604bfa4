"""Session summary vectors (the ``semantic-summaries`` extra): one vector per session from
all-MiniLM-L6-v2, kept in the index, computed again only when a session's summary changed,
and what lifts the paraphrase set over the quality aim; without the extra, search by meaning
runs on the static model alone."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cclens.index import Index
from cclens.index.embedding import available
from cclens.index.summary_model import SUMMARY_DIMENSIONS, SUMMARY_MODEL_ID
from cclens.index.summary_model import available as summaries_available

from .test_index import prompt_line

ROOT = Path(__file__).resolve().parents[1]
PARAPHRASES = ROOT / "benchmarks" / "data" / "paraphrases.json"
SHORT = "fed8ce56-bc79-401f-a83e-af084253362f"  # "push to github": a summary of a few words
LONG = "cb2e607c-c758-415a-8b45-c49e4631906a"  # first prompts longer than a summary keeps

pytestmark = pytest.mark.skipif(
    not (available() and summaries_available()),
    reason="the semantic-summaries extra is not installed (pip install '.[semantic-summaries]')",
)


@pytest.fixture(scope="module")
def indexed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    with Index(tmp_path_factory.mktemp("db") / "index.db") as index:
        index.update([corpus], workers=1)
        yield index


def _found(index: Index, mode: str = "semantic") -> int:
    queries = json.loads(PARAPHRASES.read_text())["queries"]
    found = 0
    for query in queries:
        result = index.search_results(query["query"], mode=mode, limit=5, per_session=1)
        found += any(group.session_key in query["sessions"] for group in result.groups)
    return found


def _meta(connection: sqlite3.Connection, key: str) -> str:
    return str(connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])


@pytest.mark.slow
def test_each_session_with_a_title_or_prompt_gets_one_summary_vector(indexed: Index) -> None:
    with indexed.connection() as connection:
        assert _meta(connection, "session_vectors_model") == SUMMARY_MODEL_ID
        rows = connection.execute(
            "SELECT s.key, length(v.data), length(v.digest) FROM session_vectors v "
            "JOIN sessions s ON s.id = v.session"
        ).fetchall()
        with_prompts = {
            key
            for (key,) in connection.execute(
                "SELECT DISTINCT s.key FROM documents d JOIN sessions s ON s.id = d.session "
                "JOIN documents_text t ON t.rowid = d.id "
                "WHERE d.kind = 'prompt' AND substr(ltrim(t.text), 1, 1) != '<'"
            )
        }
    assert {length for _, length, _ in rows} == {SUMMARY_DIMENSIONS * 2}  # float16
    assert {digest for _, _, digest in rows} == {12}
    assert with_prompts <= {key for key, _, _ in rows}


@pytest.mark.slow
def test_summaries_put_three_quarters_of_the_paraphrases_in_the_top_five(
    indexed: Index, tmp_path: Path
) -> None:
    # Measured 37 of 48 (77%) with summary vectors, 29 (60%) without (benchmarks/semantic.py).
    with_summaries = _found(indexed)
    assert with_summaries >= 36, with_summaries
    assert _found(indexed, "hybrid") >= 36
    # The same index without them: the static model alone, as before the extra.
    copy = tmp_path / "index.db"
    source, target = sqlite3.connect(indexed.path), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.execute("DELETE FROM session_vectors")
    target.execute("UPDATE meta SET value = '0' WHERE key = 'session_vectors_written'")
    target.execute("UPDATE meta SET value = 'another-model' WHERE key = 'session_vectors_model'")
    target.commit()
    target.close()
    with Index(copy) as plain:
        assert _found(plain) < with_summaries


def _two_sessions(corpus: Path, folder: Path) -> dict[str, Path]:
    projects = folder / "claude" / "projects" / "-work-app"
    projects.mkdir(parents=True)
    copies = {}
    for session in (SHORT, LONG):
        source = next(corpus.rglob(f"{session}.jsonl"))
        copies[session] = projects / source.name
        shutil.copy(source, copies[session])
    return copies


def _stored(index: Index) -> dict[str, bytes]:
    with index.connection() as connection:
        return dict(
            connection.execute(
                "SELECT s.key, v.digest FROM session_vectors v JOIN sessions s ON s.id = v.session"
            ).fetchall()
        )


def test_a_summary_is_embedded_again_only_when_it_changed(corpus: Path, tmp_path: Path) -> None:
    copies = _two_sessions(corpus, tmp_path)
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / "claude"], workers=1)
        first = _stored(index)
        assert set(first) == {SHORT, LONG}
        with index.connection() as connection:
            written = _meta(connection, "session_vectors_written")
        index.update([tmp_path / "claude"], workers=1)  # nothing new: nothing embedded
        with index.connection() as connection:
            assert _meta(connection, "session_vectors_written") == written
        for session in (SHORT, LONG):
            line, _ = prompt_line(copies[session], "please archive the melodies on tape")
            with copies[session].open("ab") as file:
                file.write(line)
        index.update([tmp_path / "claude"], workers=1)
        second = _stored(index)
        with index.connection() as connection:
            assert int(_meta(connection, "session_vectors_written")) == int(written) + 1
    # The short session's summary grew by the prompt; the long one's was already full.
    assert second[SHORT] != first[SHORT]
    assert second[LONG] == first[LONG]


def test_readers_see_new_summary_vectors(corpus: Path, tmp_path: Path) -> None:
    copies = _two_sessions(corpus, tmp_path)
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / "claude"], workers=1)
        with index.connection() as connection:
            before = index._semantic.store.current(connection)
        assert before is not None and before.summaries is not None
        line, _ = prompt_line(copies[SHORT], "please archive the melodies on tape")
        with copies[SHORT].open("ab") as file:
            file.write(line)
        index.update([tmp_path / "claude"], workers=1)
        with index.connection() as connection:
            after = index._semantic.store.current(connection)
            session = connection.execute(
                "SELECT id FROM sessions WHERE key = ?", (SHORT,)
            ).fetchone()[0]
    assert after is not None and after.summaries is not None
    position = int(list(after.sessions).index(session))
    assert (after.summaries[position] != before.summaries[position]).any()


def test_a_new_summary_model_embeds_every_summary_again(corpus: Path, tmp_path: Path) -> None:
    _two_sessions(corpus, tmp_path)
    with Index(tmp_path / "index.db") as index:
        index.update([tmp_path / "claude"], workers=1)
        first = _stored(index)
        writer = sqlite3.connect(tmp_path / "index.db")
        writer.execute("UPDATE meta SET value = 'older' WHERE key = 'session_vectors_model'")
        writer.execute("UPDATE session_vectors SET digest = zeroblob(12)")
        writer.commit()
        writer.close()
        index.update([tmp_path / "claude"], workers=1)
        assert _stored(index) == first
        with index.connection() as connection:
            assert _meta(connection, "session_vectors_model") == SUMMARY_MODEL_ID


#: Runs cclens with the summary model's runtime made unimportable.
_WITHOUT_SUMMARIES = (
    "import sys; sys.modules['onnxruntime'] = None; "
    "from cclens.__main__ import main; sys.argv = ['cclens', *sys.argv[1:]]; main()"
)


@pytest.mark.slow
def test_without_the_extra_search_by_meaning_uses_the_static_model(
    corpus: Path, tmp_path: Path
) -> None:
    _two_sessions(corpus, tmp_path)
    db = tmp_path / "index.db"
    environment = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}

    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", _WITHOUT_SUMMARIES, *arguments],
            capture_output=True,
            text=True,
            timeout=120,
            env=environment,
            check=False,
        )

    done = run("index", "--dir", str(tmp_path / "claude"), "--db", str(db))
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM session_vectors").fetchone()[0] == 0
        assert connection.execute("SELECT count(*) FROM vectors").fetchone()[0] > 0
    found = run(
        "search", "upload and sync to hosting", "--mode", "semantic", "--db", str(db), "--json"
    )
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["groups"]
    # An index with summary vectors, searched where the extra is missing: the static model.
    with Index(db) as index:
        index.update([tmp_path / "claude"], workers=1)
        assert _stored(index)
    again = run(
        "search", "upload and sync to hosting", "--mode", "semantic", "--db", str(db), "--json"
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["groups"]
