"""``cclens statusline``: the figures of the current session, today and the active block, from
the index and the lines appended since, and a status line that never fails."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cclens._statusline import _update, status_line
from cclens.cli import main
from cclens.figures.appended import appended_occurrences
from cclens.figures.usage import occurrences
from cclens.index import Index
from cclens.readers.claude.read import read_data
from cclens.reports.live import status_figures
from cclens.reports.stats import index_stats

from .test_usage import PROJECT, SESSION, assistant, prompt, usage


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _append(path: Path, *records: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record) + "\n" for record in records)


def _payload(transcript: Path, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": "/home/me/app",
        "model": {"id": "claude-sonnet-4-5-20250929", "display_name": "Sonnet 4.5"},
        "workspace": {"current_dir": "/home/me/app", "project_dir": "/home/me/app"},
        "version": "2.1.3",
        "cost": {"total_cost_usd": 0.5},
        **extra,
    }


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, datetime]:
    """An index holding one session whose last response was 20 minutes ago, in the configured
    Claude folder (the only one the status line's update reads)."""
    root = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    transcript = root / "projects" / PROJECT / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    now = datetime.now(UTC).replace(microsecond=0)
    _append(
        transcript,
        prompt("u0", "go", time=_when(now - timedelta(minutes=30))),
        assistant(
            "a1",
            "msg_1",
            usage(input=1000, output=500, read=20000),
            parent="u0",
            time=_when(now - timedelta(minutes=20)),
        ),
    )
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([root])
    return db, transcript, now


def test_figures_come_from_the_index_and_the_appended_lines(
    live: tuple[Path, Path, datetime],
) -> None:
    db, transcript, now = live
    first = status_figures(db, transcript, now=now)
    assert first.indexed and first.unread == 0
    assert first.session_responses == 1
    assert first.session_tokens == 21500
    assert first.context == 21000
    assert first.block is not None and first.block.block is not None
    assert first.block.block.active
    assert first.block.tokens.total == 21500
    # The same session cost as cclens stats --by session gives.
    with Index(db) as index:
        (row,) = index_stats(index, by="session").rows
    assert first.session_cost == pytest.approx(row.cost)
    assert first.today_cost == pytest.approx(row.cost) or now.astimezone().hour == 0

    # Claude Code goes on: the streamed response grows, and another one comes.
    _append(
        transcript,
        assistant(
            "a2",
            "msg_1",
            usage(input=1000, output=800, read=20000),
            parent="a1",
            time=_when(now - timedelta(minutes=20)),
        ),
        assistant(
            "a3",
            "msg_2",
            usage(input=3000, output=100, read=30000),
            request_id="req_2",
            parent="a2",
            time=_when(now - timedelta(minutes=1)),
        ),
    )
    second = status_figures(db, transcript, now=now)
    assert second.unread > 0
    assert second.session_responses == 2
    assert second.session_tokens == 21800 + 33100
    assert second.context == 33000
    assert second.block is not None and second.block.tokens.total == 21800 + 33100

    # Once the index has stored the new lines, the figures are the same, read from it.
    _update(db, transcript)
    third = status_figures(db, transcript, now=now)
    assert third.unread == 0
    assert (third.session_tokens, third.session_cost, third.context) == (
        second.session_tokens,
        second.session_cost,
        second.context,
    )
    assert third.today_cost == pytest.approx(second.today_cost)


def test_the_line_names_model_costs_block_and_context(live: tuple[Path, Path, datetime]) -> None:
    db, transcript, now = live
    line = status_line(_payload(transcript), db, now=now)
    assert line.startswith("Sonnet 4.5 · session $")
    assert "(21.5k tok)" in line
    assert "today $" in line
    assert "block $" in line and "left" in line
    assert "ctx 21.0k (10%)" in line
    # The window Claude Code gives wins over the model's default.
    line = status_line(
        _payload(transcript, context_window={"context_window_size": 1_000_000}), db, now=now
    )
    assert "ctx 21.0k (2%)" in line


def test_a_session_not_indexed_yet_is_read_whole(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    transcript = root / "projects" / PROJECT / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    _append(transcript, assistant("a1", "msg_1", usage(input=10, output=5)))
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([tmp_path / "elsewhere"])
    figures = status_figures(db, transcript)
    assert not figures.indexed
    assert figures.session_tokens == 15


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[1, 2]",
        json.dumps({"model": {"display_name": "Opus"}, "transcript_path": "/nowhere.jsonl"}),
    ],
)
def test_the_status_line_never_fails(stdin: str, tmp_path: Path, corpus: Path) -> None:
    db = tmp_path / "index.db"
    with Index(db) as index:
        index.update([corpus / "chiphuyen__sniffly"])
    result = CliRunner().invoke(main, ["statusline", "--db", str(db)], input=stdin)
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and "cclens" in lines[0]


def test_without_an_index_it_says_how_to_make_one(tmp_path: Path, corpus: Path) -> None:
    source = next((corpus / "chiphuyen__sniffly").rglob("*.jsonl"))
    transcript = tmp_path / source.name
    shutil.copy(source, transcript)
    result = CliRunner().invoke(
        main,
        ["statusline", "--db", str(tmp_path / "missing.db")],
        input=json.dumps(_payload(transcript)),
    )
    assert result.exit_code == 0
    assert result.stdout.strip() == "Sonnet 4.5 · cclens: no index yet (run cclens index)"


def test_an_index_without_usage_tables_says_to_update_it(tmp_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    _append(transcript, assistant("a1", "msg_1", usage(input=10, output=5)))
    db = tmp_path / "old.db"
    with Index(db) as index:
        index.update([tmp_path / "none"])
    older = sqlite3.connect(db, isolation_level=None)
    older.execute("ALTER TABLE counted DROP COLUMN counts")  # as before migration 7
    older.close()
    result = CliRunner().invoke(
        main, ["statusline", "--db", str(db)], input=json.dumps(_payload(transcript))
    )
    assert result.exit_code == 0
    assert result.stdout.strip() == "Sonnet 4.5 · cclens: index too old (run cclens index)"


def test_the_light_reader_finds_what_the_full_reading_finds(corpus: Path) -> None:
    # Every transcript of the corpus, whole and from the middle on (as appended lines are).
    files = sorted(corpus.rglob("*.jsonl"))
    assert len(files) > 100
    for path in files:
        data = path.read_bytes()
        for cut in (0, data.rfind(b"\n", 0, len(data) // 2) + 1):
            start_line = data[:cut].count(b"\n")
            expected = list(occurrences(read_data(path, data[cut:], cut, start_line).entries, path))
            assert appended_occurrences(data[cut:], path, cut, start_line) == expected, path


def test_a_half_written_line_is_left_for_later(tmp_path: Path) -> None:
    record = assistant("a1", "msg_1", usage(input=10, output=5))
    line = (json.dumps(record) + "\n").encode()
    found = appended_occurrences(line + line[:40], tmp_path / "t.jsonl")
    assert [occurrence.line for occurrence in found] == [1]


def test_lines_the_light_reader_cannot_read_are_left_to_the_full_reading(tmp_path: Path) -> None:
    record = assistant("a1", "msg_1", usage(input=10, output=5))
    good = (json.dumps(record) + "\n").encode()
    bad = good.replace(b'"msg_1"', b'"msg_\xff"')  # what the reader reports as malformed
    # Nested past the depth of Python's stack: the full model keeps the deep value as raw
    # JSON and counts the response; the status line leaves it to the index's update.
    deep = good.replace(b'"msg_1"', b'"msg_2", "x": ' + b"[" * 5000 + b"]" * 5000)
    data = bad + deep + good
    found = [o.line for o in appended_occurrences(data, tmp_path / "t.jsonl")]
    full = [o.line for o in occurrences(read_data(tmp_path / "t.jsonl", data).entries, tmp_path)]
    assert found == [3] and full == [2, 3]
