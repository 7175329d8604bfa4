"""Codex's plan limits read from its transcripts when a session is indexed: ``cclens index``
then ``cclens limits --json`` gives what an independent reading of the files gives, on the
real files and on synthetic ones of every form Codex wrote; appended lines add their own
samples only; ``/api/limits`` and a Codex session page say the same."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.figures.limits import codex_file_samples
from cclens.index import Index, SessionFilters
from cclens.readers.codex import read as codex_read
from cclens.readers.lines import read_lines

from .codex_limits_count import history
from .test_web import running

DATA = Path(__file__).parent / "data" / "agents" / "codex"
T1 = "019a9776-0000-7000-8000-000000000001"
T2 = "019a9776-0000-7000-8000-000000000002"
T3 = "019a9776-0000-7000-8000-000000000003"
T4 = "019a9776-0000-7000-8000-000000000004"
FIVE_RESET = 1763490000  # 2025-11-18T18:20:00Z
WEEK_RESET = 1763900000


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _meta(thread: str, moment: datetime, version: str = "0.58.0") -> dict[str, Any]:
    return {
        "timestamp": _stamp(moment),
        "type": "session_meta",
        "payload": {
            "id": thread,
            "timestamp": _stamp(moment),
            "cwd": "/home/dev/limits",
            "originator": "codex_cli_rs",
            "cli_version": version,
            "source": "cli",
            "model_provider": "openai",
        },
    }


def _prompt(moment: datetime, text: str) -> list[dict[str, Any]]:
    return [
        {
            "timestamp": _stamp(moment),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text}],
            },
        },
        {
            "timestamp": _stamp(moment),
            "type": "event_msg",
            "payload": {"type": "user_message", "message": text, "kind": "plain"},
        },
    ]


def _count(moment: datetime, rate_limits: dict[str, Any], total: int = 0) -> dict[str, Any]:
    usage = {
        "input_tokens": total,
        "cached_input_tokens": 0,
        "output_tokens": 10,
        "reasoning_output_tokens": 0,
        "total_tokens": total + 10,
    }
    info = {"total_token_usage": usage, "last_token_usage": usage} if total else None
    return {
        "timestamp": _stamp(moment),
        "type": "event_msg",
        "payload": {"type": "token_count", "info": info, "rate_limits": rate_limits},
    }


def _windows(five: float, week: float, five_reset: int = FIVE_RESET) -> dict[str, Any]:
    return {
        "primary": {"used_percent": five, "window_minutes": 300, "resets_at": five_reset},
        "secondary": {"used_percent": week, "window_minutes": 10080, "resets_at": WEEK_RESET},
    }


def _rollout(home: Path, thread: str, moment: datetime, lines: list[dict[str, Any]]) -> Path:
    folder = home / "sessions" / moment.strftime("%Y/%m/%d")
    folder.mkdir(parents=True, exist_ok=True)
    name = f"rollout-{moment.strftime('%Y-%m-%dT%H-%M-%S')}-{thread}.jsonl"
    path = folder / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _main_thread(start: datetime) -> list[dict[str, Any]]:
    """Codex 0.58: the five-hour window climbs 10 -> 25 -> 40 over the session, each count
    followed 300 ms later by its repeat with the figures of that moment (the first of each
    pair is superseded), then the window resets and a new one starts."""
    lines = [_meta(T1, start), *_prompt(start, "make it faster")]
    total = 0
    for minutes, five, week in ((5, 10.0, 3.0), (30, 25.0, 4.0), (55, 40.0, 5.0)):
        at = start + timedelta(minutes=minutes)
        total += 1000
        lines.append(_count(at, _windows(five - 1, week), total))
        lines.append(_count(at + timedelta(milliseconds=300), _windows(five, week), total))
    after = datetime.fromtimestamp(FIVE_RESET, UTC) + timedelta(minutes=10)
    lines.append(_count(after, _windows(2.0, 6.0, FIVE_RESET + 5 * 3600), total + 1000))
    return lines


def synthetic_home(home: Path) -> dict[str, Path]:
    """Rollout files of every form Codex wrote ``rate_limits`` in."""
    start = datetime(2025, 11, 18, 14, 0, tzinfo=UTC)
    paths = {T1: _rollout(home, T1, start, _main_thread(start))}
    # Codex 0.46: resets_in_seconds and 299/10079-minute windows, a day earlier.
    old = start - timedelta(days=1)
    paths[T2] = _rollout(
        home,
        T2,
        old,
        [
            _meta(T2, old, "0.46.0"),
            *_prompt(old, "fix the build"),
            _count(
                old + timedelta(minutes=1),
                {
                    "primary": {
                        "used_percent": 0.0,
                        "window_minutes": 299,
                        "resets_in_seconds": 17388,
                    },
                    "secondary": {
                        "used_percent": 7.0,
                        "window_minutes": 10079,
                        "resets_in_seconds": 491245,
                    },
                },
            ),
            # The first versions' flat keys, and a limit of another model apart.
            _count(
                old + timedelta(minutes=20),
                {"primary_used_percent": 12.0, "secondary_used_percent": 8.0},
            ),
            _count(
                old + timedelta(minutes=21),
                {
                    "limit_id": "codex_bengalfox",
                    "primary": {"used_percent": 40, "window_minutes": 300, "resets_at": 1763400000},
                    "secondary": None,
                },
            ),
        ],
    )
    # A thread forked from T1 two days later: T1's history copied in one burst (each line
    # stamped at the copy, milliseconds apart), then its own counts.
    fork = start + timedelta(days=2)
    copied = [_meta(T1, start)]
    for step, (five, week) in enumerate(((10.0, 3.0), (25.0, 4.0), (40.0, 5.0))):
        copied.append(_count(fork + timedelta(milliseconds=2 + step), _windows(five, week)))
    later = datetime.fromtimestamp(FIVE_RESET, UTC) + timedelta(days=2)
    own = [
        _count(fork + timedelta(minutes=3), _windows(60.0, 30.0, int(later.timestamp()))),
        _count(fork + timedelta(minutes=9), _windows(61.0, 30.0, int(later.timestamp()))),
    ]
    paths[T3] = _rollout(home, T3, fork, [_meta(T3, fork), *copied, *own])
    return paths


def _cli(*arguments: str) -> Any:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def _index(db: Path, *homes: Path) -> None:
    _cli("index", "--db", str(db), *(part for home in homes for part in ("--dir", str(home))))


def _limits(db: Path) -> dict[str, list[tuple[datetime, float, datetime | None, str]]]:
    """``cclens limits --json``'s history, by window (Codex's only)."""
    report = json.loads(_cli("limits", "--db", str(db), "--no-update", "--json"))
    found = {}
    for window in report["windows"]:
        if window["agent"] != "codex":
            continue
        found[window["window"]] = [
            (
                _time(sample["at"]),
                sample["used_percent"],
                _time(sample["resets_at"]) if sample["resets_at"] else None,
                sample["session"],
            )
            for sample in window["history"]
        ]
    return found


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _sessions_of(db: Path) -> dict[Path, str]:
    """Each indexed file with the id of the session it belongs to."""
    connection = sqlite3.connect(db)
    try:
        rows = connection.execute(
            "SELECT f.path, s.session_id FROM files f JOIN sessions s ON f.session = s.id"
        ).fetchall()
    finally:
        connection.close()
    return {Path(path): session for path, session in rows}


def test_the_real_files_plan_limits_are_what_the_files_say(tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    _index(db, DATA / "real", DATA / "synthetic")
    sessions = _sessions_of(db)
    expected = history(sessions)
    found = _limits(db)
    assert found == expected
    # The real files of Codex 0.40 (flat keys), 0.42, 0.57 and 0.119 hold samples.
    real = {path for path in sessions if "real" in path.parts}
    assert {s for w in found.values() for _, _, _, s in w} & {sessions[p] for p in real}
    assert sum(len(w) for w in found.values()) >= 15
    assert set(found) == {"five_hour", "seven_day"}


def test_every_form_codex_wrote_in_the_index(tmp_path: Path) -> None:
    home = tmp_path / "codex"
    paths = synthetic_home(home)
    db = tmp_path / "index.db"
    _index(db, home)
    found = _limits(db)
    assert found == history({path: thread for thread, path in paths.items()})
    five = [(at, used, session) for at, used, _, session in found["five_hour"]]
    start = datetime(2025, 11, 18, 14, 0, tzinfo=UTC)
    # The first of each pair written 300 ms apart is superseded by the second; the copied
    # history of the fork (T3) is superseded by its own last copied sample.
    t1 = [(at - start, used) for at, used, session in five if session == T1]
    assert t1 == [
        (timedelta(minutes=5, milliseconds=300), 10.0),
        (timedelta(minutes=30, milliseconds=300), 25.0),
        (timedelta(minutes=55, milliseconds=300), 40.0),
        (datetime.fromtimestamp(FIVE_RESET, UTC) + timedelta(minutes=10) - start, 2.0),
    ]
    t3 = [used for _, used, session in five if session == T3]
    assert t3 == [40.0, 60.0, 61.0]
    assert "codex_bengalfox.five_hour" in found
    old = [s for s in found["five_hour"] if s[3] == T2]
    assert [s[1] for s in old] == [0.0, 12.0]
    assert old[0][2] == old[0][0] + timedelta(seconds=17388)


def test_appended_lines_add_their_own_samples_only(tmp_path: Path) -> None:
    """Indexed as it is written (cut between the two counts of a pair, 300 ms apart, so the
    sample stored first is superseded by a line read later), the history equals the whole
    file's."""
    home = tmp_path / "codex"
    start = datetime(2025, 11, 18, 14, 0, tzinfo=UTC)
    whole = _main_thread(start)
    path = _rollout(home, T1, start, [])
    db = tmp_path / "index.db"
    cuts = [4, 6, 8, len(whole)]
    done = 0
    for cut in cuts:
        with path.open("a") as handle:
            handle.write("".join(json.dumps(line) + "\n" for line in whole[done:cut]))
        done = cut
        _index(db, home)
    assert _limits(db) == history({path: T1})
    fresh = tmp_path / "fresh.db"
    _index(fresh, home)
    assert _limits(db) == _limits(fresh)
    # Indexing again adds nothing.
    _index(db, home)
    assert _limits(db) == _limits(fresh)


def _figures(db: Path) -> list[tuple[Any, ...]]:
    with Index(db) as index:
        return [
            (row.session_id, row.messages, row.tool_calls, row.input_tokens, row.output_tokens)
            for row in index.sessions(SessionFilters(agent="codex"), limit=10)
        ]


def test_a_file_being_written_is_read_once_per_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rollout file whose last line is half written (Codex is writing it) is read once by an
    update: its plan limits and its session come from that read, and are those of its complete
    lines."""
    start = datetime(2025, 11, 18, 14, 0, tzinfo=UTC)
    whole = _main_thread(start)
    complete = _rollout(tmp_path / "complete", T1, start, whole)
    path = _rollout(tmp_path / "codex", T1, start, whole)
    with path.open("a") as handle:
        handle.write(json.dumps(whole[-1])[:40])
    reads: list[Path] = []

    def counted(at: Path, *rest: Any, **named: Any) -> Any:
        reads.append(at)
        return read_lines(at, *rest, **named)

    monkeypatch.setattr(codex_read, "read_lines", counted)
    db = tmp_path / "index.db"
    _index(db, tmp_path / "codex")
    assert reads == [path]
    monkeypatch.undo()
    fresh = tmp_path / "fresh.db"
    _index(fresh, complete.parents[3])
    assert _limits(db) == _limits(fresh) == history({complete: T1})
    assert _figures(db) == _figures(fresh) != []


def test_a_codex_session_page_and_the_api_show_codex_windows(tmp_path: Path) -> None:
    home = tmp_path / "codex"
    synthetic_home(home)
    db = tmp_path / "index.db"
    with Index(db) as index:
        assert not index.update([home], workers=1).errors
    cli = json.loads(_cli("limits", "--db", str(db), "--no-update", "--json"))
    with running([home], db, watch=False) as server:
        api = httpx.get(f"{server.url}api/limits?days=3650", timeout=30).json()
        page = httpx.get(f"{server.url}sessions/{T1}", timeout=30).text
    assert [w["history"] for w in api["windows"]] == [w["history"] for w in cli["windows"]]
    assert {w["agent"] for w in api["windows"]} == {"codex"}
    line = re.search(r"<p [^>]*data-session-limits[^>]*>(.*?)</p>", page, re.S)
    assert line is not None
    points = dict(re.findall(r'data-window="([^"]+)" data-points="([^"]+)"', line.group(1)))
    # While T1 ran (14:00 to 18:30): 10 in a new period (the day before ended at 12% without
    # a reset time), then 10 -> 25 -> 40, and 2 after the reset: 42; weekly 3 (after the day
    # before's 8%), 3 -> 4 -> 5 -> 6: 6.
    assert points == {"five_hour": "42.0", "seven_day": "6.0"}
    assert "codex 5-hour" in line.group(1)


def test_a_burst_keeps_its_last_sample_of_each_window() -> None:
    at = "2026-04-15T17:58:35.550Z"
    events = [
        (1, at, _windows(1.0, 90.0)),
        (2, "2026-04-15T17:58:35.551Z", _windows(2.0, 91.0)),
        (3, "2026-04-15T17:58:36.551Z", _windows(3.0, 91.0)),
        (4, None, _windows(4.0, 91.0)),
    ]
    found = codex_file_samples(events, session="s")
    assert [(line, s.window, s.used_percent) for line, s in found] == [
        (2, "five_hour", 2.0),
        (2, "seven_day", 91.0),
        (3, "five_hour", 3.0),
        (3, "seven_day", 91.0),
    ]
    assert {s.session for _, s in found} == {"s"}


@pytest.mark.slow
def test_a_copy_of_the_real_files_gives_the_same_history(tmp_path: Path) -> None:
    """The same files found under a home of their own: the history is what the files say,
    whatever the folder."""
    home = tmp_path / "codex"
    for path in (DATA / "real").rglob("*.jsonl"):
        target = home / Path(*path.relative_to(DATA / "real").parts[1:])
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    db = tmp_path / "index.db"
    _index(db, home)
    assert _limits(db) == history(_sessions_of(db))
