"""The index over real transcripts: incremental updates, archiving, restoring, migrations."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import msgspec
import pytest

from cclens.index import (
    EXTRACT_VERSION,
    SCHEMA_VERSION,
    Index,
    IndexUnusable,
    WriteRefused,
    default_db_path,
    move_aside,
    refuse_inside,
)
from cclens.index.storage.schema import APPLICATION_ID, MIGRATIONS
from cclens.readers.claude import Session, discover, load, load_session, read_data, read_file

from .test_index_layout import make_claude_dir, snapshot

SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"  # a genuine 18 KB session
WITH_SUBAGENTS = "ef958aa1-0e93-49f0-bb71-150f63befcd1"  # genuine, three nested subagents


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    with Index(tmp_path / "data" / "index.db") as opened:
        yield opened


def transcript(claude_dir: Path, session_id: str) -> Path:
    return next(claude_dir.joinpath("projects").rglob(f"{session_id}.jsonl"))


def prompt_line(path: Path, text: str) -> tuple[bytes, str]:
    """A user prompt record continuing the session in ``path`` (as Claude Code writes one)."""
    last: dict[str, object] = {}
    for line in path.read_bytes().splitlines():
        try:
            record = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("uuid"), str):
            last = record
    uuid = str(uuid4())
    record = {
        "parentUuid": last.get("uuid"),
        "isSidechain": False,
        "userType": "external",
        "cwd": last.get("cwd", "/"),
        "sessionId": last.get("sessionId"),
        "version": last.get("version", "2.0.0"),
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": uuid,
        "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
    }
    return msgspec.json.encode(record) + b"\n", uuid


def append(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def shape(session: Session) -> object:
    """What must be the same whether a session is read from its files or from the index."""
    return (
        session.title,
        session.title_source,
        [(item.anchor, type(item).__name__, item.main) for item in session.items],
        [(call.id, call.status, len(call.subagents)) for call in session.tool_calls.values()],
        [shape(agent) for agent in session.subagents],
        [(d.line, d.reason) for d in session.diagnostics],
        session.file_size,
        session.lines,
    )


@pytest.mark.slow
def test_every_corpus_session_loads_back_the_same(corpus: Path, index: Index) -> None:
    report = index.update([corpus])
    assert report.files_read == report.files_seen > 100
    found = discover(corpus)
    assert len(report.added) == len(found.sessions)  # orphan subagent files included
    for session_file in found.sessions:
        (summary,) = index.find(str(session_file.path))
        stored = index.load(summary.key)
        assert stored is not None
        assert shape(stored) == shape(load(session_file)), session_file.path


@pytest.mark.slow
def test_malformed_lines_are_reported_with_file_and_line(corpus: Path, index: Index) -> None:
    report = index.update([corpus])
    problems = [str(d) for d in report.diagnostics]
    assert any("edge_cases.jsonl:13: not a JSON object" in problem for problem in problems)
    # ...and the rest of that file is still indexed
    assert index.search("edge", None)
    # Two files hold session id edge_cases: keys edge_cases and edge_cases-<hash> (a key names
    # its own session alone: index.find("edge_cases") is the first).
    edge = [s for s in index.sessions() if s.session_id == "edge_cases"]
    assert len(edge) == 2 and all(s.messages > 0 for s in edge)
    assert [s.key for s in index.find("edge_cases")] == ["edge_cases"]


def test_a_shared_id_takes_the_same_key_wherever_the_folder_lies(tmp_path: Path) -> None:
    """Two files with one session id: the second's key is made from its path inside the folder
    given, so a copy of the folder elsewhere (another machine, CI) gives the same keys."""
    line = b'{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}\n'
    keys = []
    for place in ("one", "two/deeper"):
        root = tmp_path / place
        for project in ("a", "b"):
            (root / project).mkdir(parents=True)
            (root / project / "same.jsonl").write_bytes(line)
        with Index(tmp_path / place.replace("/", "-") / "index.db") as index:
            index.update([root], workers=1)
            with index.connection() as connection:
                keys.append(
                    sorted(key for (key,) in connection.execute("SELECT key FROM sessions"))
                )
    assert keys[0] == keys[1] and keys[0][0] == "same" and keys[0][1].startswith("same-")


@pytest.mark.slow
def test_nothing_is_written_under_the_claude_dir(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    before = snapshot(claude_dir)
    index.update([claude_dir])
    key = index.find(SMALL)[0].key
    index.search("music")
    index.load(key)
    index.restore(key, tmp_path / "restored")
    index.update([claude_dir])
    assert snapshot(claude_dir) == before


def test_the_index_refuses_to_live_inside_a_claude_dir(claude_dir: Path) -> None:
    with pytest.raises(WriteRefused, match="belongs to Claude Code"):
        refuse_inside(claude_dir / "projects" / "index.db", [claude_dir], "index")
    with pytest.raises(WriteRefused):
        refuse_inside(Path.home() / ".claude" / "x.db", [], "index")
    refuse_inside(claude_dir.parent / "elsewhere.db", [claude_dir], "index")


def test_default_location_and_override() -> None:
    assert default_db_path({"CCLENS_DB": "/tmp/x/index.db"}) == Path("/tmp/x/index.db")
    default = default_db_path({})
    assert default.name == "index.db" and default.parent.name == "cclens"


@pytest.mark.slow
def test_a_second_run_reads_nothing(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    again = index.update([claude_dir])
    assert again.files_read == 0 and again.bytes_read == 0
    assert again.added == again.updated == again.archived == []


@pytest.mark.slow
def test_appended_lines_are_read_from_where_the_last_run_stopped(
    claude_dir: Path, index: Index
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    before = index.find(SMALL)[0]
    line, uuid = prompt_line(path, "please tune the zebracorn oscillator")
    append(path, line)
    report = index.update([claude_dir])
    assert report.files_read == 1
    assert report.bytes_read == len(line)  # only the new line was read
    assert report.updated == [before.key]
    after = index.session(before.key)
    assert after is not None and after.messages == before.messages + 1
    assert after.revision > before.revision
    (hit,) = index.search("zebracorn")
    assert (hit.session_key, hit.anchor, hit.kind) == (before.key, uuid, "prompt")
    loaded = index.load(before.key)
    assert loaded is not None and loaded.items[-1].anchor == uuid


@pytest.mark.slow
def test_a_half_written_line_waits_for_its_end(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    original = path.read_bytes()
    line, uuid = prompt_line(path, "quokka lanterns")
    append(path, line[:40])
    report = index.update([claude_dir])
    assert any("incomplete last line" in d.reason for d in report.diagnostics)
    assert index.file_lines(SMALL)[str(path)] == original.count(b"\n")
    assert not index.search("quokka")
    append(path, line[40:])
    index.update([claude_dir])
    assert [hit.anchor for hit in index.search("quokka")] == [uuid]
    written = index.restore(SMALL, claude_dir.parent / "out")
    assert written[0].read_bytes() == original + line


@pytest.mark.slow
def test_a_rewritten_file_is_read_again_from_the_start(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    other = transcript(claude_dir, "1af7fc5e-8455-4414-9ccd-011d40f70b2a")
    replacement = other.read_bytes() + prompt_line(other, "wombat harmonics")[0]
    assert len(replacement) > path.stat().st_size  # grown, but its head differs
    path.write_bytes(replacement)
    report = index.update([claude_dir])
    assert report.bytes_read == len(replacement)
    assert index.search("wombat")[0].session_key == SMALL
    assert not [h for h in index.search("music") if h.session_key == SMALL]
    assert index.restore(SMALL, claude_dir.parent / "out")[0].read_bytes() == replacement


@pytest.mark.slow
def test_a_shrunk_file_is_read_again_from_the_start(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3]))
    report = index.update([claude_dir])
    assert report.bytes_read == path.stat().st_size
    stored = index.load(SMALL)
    assert stored is not None and stored.entries[-1].line <= 3


@pytest.mark.slow
def test_a_deleted_transcript_stays_archived_viewable_searchable_and_restorable(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, WITH_SUBAGENTS)
    folder = path.with_suffix("")
    files = [path, *(p for p in folder.rglob("*") if p.is_file())]
    originals = {p.relative_to(path.parent): p.read_bytes() for p in files}
    from_files = shape(load_session(path))
    hits_before = [(h.session_key, h.anchor) for h in index.search("worktree")]
    path.unlink()
    shutil.rmtree(folder)
    report = index.update([claude_dir])
    assert report.archived == [WITH_SUBAGENTS]
    summary = index.session(WITH_SUBAGENTS)
    assert summary is not None and summary.archived
    stored = index.load(WITH_SUBAGENTS)
    assert stored is not None and shape(stored) == from_files
    assert [(h.session_key, h.anchor) for h in index.search("worktree")] == hits_before
    assert all(h.archived for h in index.search("worktree") if h.session_key == WITH_SUBAGENTS)
    written = index.restore(WITH_SUBAGENTS, tmp_path / "restored")
    restored = {p.relative_to(tmp_path / "restored"): p.read_bytes() for p in written}
    assert restored == originals
    # Later updates leave it alone; a new index of the same folder would not have it.
    assert index.update([claude_dir]).archived == []


@pytest.mark.slow
def test_a_transcript_that_comes_back_is_no_longer_archived(
    claude_dir: Path, index: Index, tmp_path: Path
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    kept = tmp_path / "kept.jsonl"
    shutil.move(path, kept)
    index.update([claude_dir])
    assert index.session(SMALL) is not None and index.session(SMALL).archived  # type: ignore[union-attr]
    shutil.move(kept, path)
    report = index.update([claude_dir])
    assert report.updated == [SMALL] and report.bytes_read == 0
    assert not index.session(SMALL).archived  # type: ignore[union-attr]


@pytest.mark.slow
def test_subagent_files_are_stored_and_attached_again(claude_dir: Path, index: Index) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, WITH_SUBAGENTS)
    agent_file = sorted(path.with_suffix("").rglob("agent-*.jsonl"))[0]
    line, uuid = prompt_line(agent_file, "subagent capybara check")
    append(agent_file, line)
    report = index.update([claude_dir])
    assert report.updated == [WITH_SUBAGENTS] and report.bytes_read == len(line)
    (hit,) = index.search("capybara")
    assert hit.in_subagent and hit.anchor == uuid and hit.session_key == WITH_SUBAGENTS
    stored = index.load(WITH_SUBAGENTS)
    assert stored is not None
    assert len(stored.subagents) == 3
    assert all(agent.parent_tool_use_id for agent in stored.subagents)


@pytest.mark.slow
def test_a_new_session_and_a_new_subagent_file_in_one_update(
    claude_dir: Path, index: Index
) -> None:
    # A known session gains a subagent file while a larger session appears: both are written
    # in one transaction (the new session first, as the larger), and neither loses its rows.
    path = transcript(claude_dir, WITH_SUBAGENTS)
    agent_file = sorted(path.with_suffix("").rglob("agent-*.jsonl"))[0]
    kept = agent_file.read_bytes()
    agent_file.unlink()
    index.update([claude_dir])
    assert index.session(WITH_SUBAGENTS) is not None
    agent_file.write_bytes(kept)
    largest = max(claude_dir.rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    copy = largest.with_name("00000000-0000-4000-8000-0000000000bb.jsonl")
    copy.write_bytes(largest.read_bytes())
    report = index.update([claude_dir])
    assert report.added == [copy.stem] and report.updated == [WITH_SUBAGENTS]
    files = index.file_lines(WITH_SUBAGENTS)
    assert files[str(agent_file)] == kept.count(b"\n")
    restored = index.restore(WITH_SUBAGENTS, claude_dir.parent / "restored")
    assert kept in [written.read_bytes() for written in restored]
    assert any(hit.session_key == copy.stem for hit in index.search("the", limit=500))


@pytest.mark.slow
def test_orphan_subagent_files_are_kept_as_sessions(corpus: Path, corpus_index: Index) -> None:
    index = corpus_index
    orphan = discover(corpus).orphans[0]
    (summary,) = index.find(str(orphan.path))
    assert summary.session_id == orphan.path.stem


def test_restore_writes_sibling_subagents_and_sidecars_back(
    corpus: Path, corpus_index: Index, tmp_path: Path
) -> None:
    index = corpus_index
    for session_file in discover(corpus).sessions:
        if not session_file.subagents:
            continue
        (summary,) = index.find(str(session_file.path))
        out = tmp_path / summary.key
        written = index.restore(summary.key, out)
        folder = session_file.path.parent
        expected = [session_file.path, *(a.path for a in session_file.subagents)]
        expected += session_file.journals
        for original in expected:
            assert (out / original.relative_to(folder)).read_bytes() == original.read_bytes()
            sidecar = original.with_name(original.name.removesuffix(".jsonl") + ".meta.json")
            if sidecar.exists():
                assert (out / sidecar.relative_to(folder)).read_bytes() == sidecar.read_bytes()
        assert len(written) >= len(expected)
    with pytest.raises(FileExistsError):
        index.restore(summary.key, out)


def _same_reading(path: Path, start: int = 0, line: int = 0) -> None:
    from_file = read_file(path, start, line)
    from_bytes = read_data(path, path.read_bytes()[start:], start, line)
    assert [(e.line, e.offset, e.length) for e in from_bytes.entries] == [
        (e.line, e.offset, e.length) for e in from_file.entries
    ]
    assert [str(d) for d in from_bytes.diagnostics] == [str(d) for d in from_file.diagnostics]
    assert (from_bytes.end_offset, from_bytes.lines) == (from_file.end_offset, from_file.lines)


def test_stored_bytes_decode_like_the_files(corpus: Path, tmp_path: Path) -> None:
    for path in sorted(corpus.rglob("*.jsonl")):
        _same_reading(path)
        data = path.read_bytes()
        middle = data.find(b"\n", len(data) // 2) + 1
        if middle > 0:
            _same_reading(path, middle, data[:middle].count(b"\n"))
    record = b'{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}'
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(b"\xef\xbb\xbf" + record + b"\r\n\n  \n" + record + b'\r\r\n{"type": "us')
    _same_reading(odd)


def _contents(index: Index) -> tuple[list[Any], list[Any]]:
    sessions = "SELECT key, title, messages, tool_calls, input_tokens, models FROM sessions"
    documents = (
        "SELECT s.key, d.anchor, d.kind, d.tool, d.error, d.time, t.text FROM documents d "
        "JOIN documents_text t ON t.rowid = d.id JOIN sessions s ON s.id = d.session"
    )
    with index.connection() as connection:
        return (
            sorted(connection.execute(sessions).fetchall()),
            sorted(connection.execute(documents).fetchall()),
        )


@pytest.mark.slow
def test_worker_processes_give_the_same_index(corpus: Path, tmp_path: Path) -> None:
    contents = []
    for name, workers in (("one", 1), ("two", 2)):
        with Index(tmp_path / f"{name}.db") as opened:
            opened.update([corpus], workers=workers, pool_threshold=0)
            contents.append(_contents(opened))
            with opened.connection() as connection:
                journal = connection.execute("PRAGMA journal_mode").fetchone()[0]
            assert journal == "wal"  # a large update may leave it for a while, and comes back
    assert contents[0] == contents[1]


@pytest.mark.slow
@pytest.mark.parametrize("early", [True, False], ids=["reader-first", "reader-during"])
def test_a_large_update_with_readers_connected(corpus: Path, tmp_path: Path, early: bool) -> None:
    # The web app's readers are connected before the update (it keeps write-ahead logging),
    # or one connects while it runs (it reads in the update's journal mode, or switches the
    # file back to write-ahead logging between two commits).
    with Index(tmp_path / "plain.db") as plain:
        plain.update([corpus], workers=1)
        expected = _contents(plain)
    path = tmp_path / "index.db"
    seen: list[int] = []

    def read() -> None:
        with Index(path) as opened:
            seen.append(opened.totals().sessions)

    reader = threading.Thread(target=read)

    def progress(done: int, total: int) -> None:
        del total
        if not early and done and not seen and not reader.is_alive():
            reader.start()

    with Index(path) as index, Index(path) as held:
        if early:
            seen.append(held.totals().sessions)  # its connection stays open all along
        else:
            held.close()
        began = time.perf_counter()
        index.update([corpus], workers=2, pool_threshold=0, progress=progress)
        if not early:
            reader.join()
        assert time.perf_counter() - began < 20  # nobody waited for a lock to time out
        assert seen and _contents(index) == expected
        assert held.totals().sessions == len(expected[0])
        with index.connection() as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_schema_migrations_are_numbered_and_recorded(index: Index) -> None:
    with index.connection() as connection:
        recorded = connection.execute("SELECT number, name FROM migrations ORDER BY number")
        numbers = [row[0] for row in recorded]
        # Numbers belong to lines of work: unique, not always applied in their order.
        assert numbers == sorted(m.number for m in MIGRATIONS)
        assert len(set(numbers)) == len(numbers) and numbers[-1] == SCHEMA_VERSION
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_migration_numbered_below_one_applied_is_applied_too(tmp_path: Path) -> None:
    # Lines of work number their migrations apart: an index can have 8 before 4 exists.
    path = tmp_path / "gap.db"
    with Index(path):
        pass
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DELETE FROM migrations WHERE number = 3")
    connection.close()
    with Index(path) as reopened, reopened.connection() as connection:
        rows = connection.execute("SELECT number FROM migrations ORDER BY number")
        assert [row[0] for row in rows] == sorted(m.number for m in MIGRATIONS)


@pytest.mark.slow
def test_an_index_from_an_older_cclens_is_migrated_not_dropped(
    claude_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "old.db"
    with Index(path) as opened:
        opened.update([claude_dir])
        expected = sorted((h.session_key, h.anchor) for h in opened.search("music", limit=1000))
        sessions = opened.totals().sessions
    # Take the file back to schema 1 (before search existed), as an older cclens wrote it.
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DROP TABLE documents_text")
    connection.execute("DROP TABLE documents")
    connection.execute("DROP TABLE IF EXISTS vectors")
    connection.execute("DROP TABLE counted")
    connection.execute("DROP TABLE session_tips")
    connection.execute("DROP TABLE session_summaries")
    connection.execute("DROP INDEX sessions_by_activity")
    connection.execute("DROP INDEX sessions_by_agent")
    for column in (
        *("prompts", "responses", "cache_write_1h_tokens", "cost", "unpriced"),
        *("own_title", "own_title_source", "version", "version_key", "agent"),
    ):
        connection.execute(f"ALTER TABLE sessions DROP COLUMN {column}")
    connection.execute("DROP TABLE version_chunks")
    connection.execute("DROP TABLE file_versions")
    connection.execute("ALTER TABLE files DROP COLUMN digest")
    connection.execute("DROP TABLE rate_limits")
    connection.execute("DELETE FROM migrations WHERE number > 1")
    connection.close()
    transcript(claude_dir, SMALL).unlink()  # archived sessions must become searchable too
    with Index(path) as migrated:
        with migrated.connection() as connection:
            latest = connection.execute("SELECT max(number) FROM migrations").fetchone()[0]
        assert latest == SCHEMA_VERSION
        assert migrated.totals().sessions == sessions
        report = migrated.update([claude_dir])
        assert report.bytes_read == 0  # documents come from the stored bytes
        found = migrated.search("music", limit=1000)
        assert sorted((h.session_key, h.anchor) for h in found) == expected
        with migrated.connection() as connection:
            versions = connection.execute("SELECT DISTINCT doc_version FROM sessions").fetchall()
        assert versions == [(EXTRACT_VERSION,)]
        # The usage rows come from the stored bytes too, archived sessions' included.
        with migrated.connection() as connection:
            timed = connection.execute(
                "SELECT count(*) FROM counted WHERE kind = 1 AND time IS NOT NULL"
            ).fetchone()[0]
            assert timed > 0


def test_a_damaged_file_gives_a_clear_error_and_a_way_out(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    path.write_bytes(b"this is not a database at all, just some bytes" * 200)
    with pytest.raises(IndexUnusable) as raised:
        Index(path)
    assert "not a readable SQLite database" in str(raised.value)
    assert "cclens index --rebuild" in str(raised.value)
    moved = move_aside(path)
    assert moved is not None and moved.read_bytes().startswith(b"this is not")
    assert not path.exists()
    with Index(path) as fresh:
        assert fresh.totals().sessions == 0


def test_a_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    with pytest.raises(IndexUnusable, match="not a cclens index"):
        Index(path)
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT text FROM notes").fetchall() == [("mine",)]
    connection.close()


def test_an_index_from_a_newer_cclens_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    Index(path).close()
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("INSERT INTO migrations VALUES (99, 'future', 0)")
    connection.close()
    with pytest.raises(IndexUnusable, match="newer cclens") as raised:
        Index(path)
    assert "upgrade cclens" in str(raised.value)


@pytest.mark.slow
def test_documents_are_derived_again_when_extraction_changes(
    claude_dir: Path, index: Index
) -> None:
    index.update([claude_dir])
    expected = sorted((h.session_key, h.anchor, h.kind) for h in index.search("commit", limit=999))
    assert expected
    connection = sqlite3.connect(index.path, isolation_level=None)
    connection.execute("DELETE FROM documents_text")
    connection.execute("DELETE FROM documents")
    connection.execute("UPDATE sessions SET doc_version = 0")
    connection.close()
    report = index.update([claude_dir])
    assert report.bytes_read == 0
    found = index.search("commit", limit=999)
    assert sorted((h.session_key, h.anchor, h.kind) for h in found) == expected


@pytest.mark.slow
def test_an_update_can_be_narrowed_to_the_paths_a_watcher_saw(
    claude_dir: Path, index: Index
) -> None:
    index.update([claude_dir])
    path = transcript(claude_dir, SMALL)
    line, uuid = prompt_line(path, "narrowed aardvark")
    append(path, line)
    report = index.update([claude_dir], changed=[path])
    assert report.files_seen == 1 and report.bytes_read == len(line)
    assert [hit.anchor for hit in index.search("aardvark")] == [uuid]
    # A path the index does not know yet: discovery places it.
    copy = path.with_name("00000000-0000-4000-8000-0000000000aa.jsonl")
    copy.write_bytes(path.read_bytes())
    report = index.update([claude_dir], changed=[copy])
    assert report.added == [copy.stem]
    # A path that went away: its session is archived.
    copy.unlink()
    assert index.update([claude_dir], changed=[copy]).archived == [copy.stem]
    # Paths outside the folders being indexed are ignored.
    assert index.update([claude_dir], changed=["/elsewhere/x.jsonl"]).changed == []


@pytest.mark.parametrize("name", ["cclens.index", "cclens.web", "cclens.demo"])
def test_public_names_are_exported_and_sorted(name: str) -> None:
    import importlib

    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    assert all(hasattr(module, item) for item in exported)
