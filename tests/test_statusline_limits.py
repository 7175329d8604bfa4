"""The status line and plan limits: each new ``rate_limits`` sample Claude Code passes is
stored, the five-hour use and pace are shown; and a status line of the user's own runs first
(``--chain``) without ever breaking cclens's."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cclens.__main__ import statusline_database
from cclens._statusline import combine, status_line

from .test_statusline import _payload, live
from .test_usage import SESSION

SRC = Path(__file__).resolve().parents[1] / "src"

__all__ = ["live"]  # the fixture of test_statusline: one indexed session, now


def _limits(five: float, resets: datetime, week: float = 3.0) -> dict[str, Any]:
    """``rate_limits`` as Claude Code 2.1.80+ passes it to the status line."""
    return {
        "five_hour": {"used_percentage": five, "resets_at": int(resets.timestamp())},
        "seven_day": {"used_percentage": week, "resets_at": int(resets.timestamp()) + 5 * 86400},
    }


def _stored(db: Path) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(
            "SELECT agent, window_name, used, resets, session FROM rate_limits ORDER BY time, "
            "window_name"
        ).fetchall()
    finally:
        connection.close()


def test_new_samples_are_stored_and_the_five_hour_use_shown(
    live: tuple[Path, Path, datetime],
) -> None:
    db, transcript, now = live
    resets = now + timedelta(hours=3)  # two hours into the window
    line = status_line(_payload(transcript, rate_limits=_limits(40, resets)), db, now=now)
    # 40 % in two hours: 100 % at the reset.
    assert line.endswith(" · 5h 40% (pace 100%)")
    assert _stored(db) == [
        ("claude", "five_hour", 40.0, int(resets.timestamp()), SESSION),
        ("claude", "seven_day", 3.0, int(resets.timestamp()) + 5 * 86400, SESSION),
    ]
    # The next redraws with the same figures store nothing; a change is stored.
    later = now + timedelta(minutes=1)
    status_line(_payload(transcript, rate_limits=_limits(40, resets)), db, now=later)
    assert len(_stored(db)) == 2
    status_line(_payload(transcript, rate_limits=_limits(41, resets)), db, now=later)
    assert [row[2] for row in _stored(db)] == [40.0, 3.0, 41.0]


def test_without_rate_limits_nothing_is_stored_or_shown(live: tuple[Path, Path, datetime]) -> None:
    db, transcript, now = live
    line = status_line(_payload(transcript), db, now=now)
    assert "5h" not in line
    assert _stored(db) == []


def test_an_index_without_the_table_still_shows_the_line(
    live: tuple[Path, Path, datetime],
) -> None:
    db, transcript, now = live
    connection = sqlite3.connect(db)
    connection.execute("DROP TABLE rate_limits")
    connection.close()
    resets = now + timedelta(hours=4, minutes=55)  # five minutes in: no pace yet
    line = status_line(_payload(transcript, rate_limits=_limits(2, resets)), db, now=now)
    assert line.endswith(" · 5h 2%")


def _statusline(db: Path, stdin: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cclens", "statusline", "--db", str(db), *options],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=60,
        check=False,
    )


def test_a_chained_status_line_runs_first_with_the_same_input(
    live: tuple[Path, Path, datetime],
) -> None:
    db, transcript, _ = live
    theirs = f"{sys.executable} -c \"import sys, json; print('in ' + json.load(sys.stdin)['cwd'])\""
    done = _statusline(db, json.dumps(_payload(transcript)), "--chain", theirs)
    assert done.returncode == 0
    assert done.stdout.startswith("in /home/me/app · Sonnet 4.5 · session $")
    assert done.stdout.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "theirs",
    [
        "exit 3",
        "nonexistent-command-cclens-test",
        f"{sys.executable} -c 'import time; time.sleep(30)'",
    ],
)
def test_a_failing_or_hanging_chained_command_leaves_cclens_line(
    live: tuple[Path, Path, datetime], theirs: str
) -> None:
    db, transcript, _ = live
    started = time.monotonic()
    done = _statusline(db, json.dumps(_payload(transcript)), "--chain", theirs)
    assert done.returncode == 0
    assert done.stdout.startswith("Sonnet 4.5 · session $")
    assert time.monotonic() - started < 10


def test_lines_are_combined_after_the_users_own() -> None:
    assert combine("", "ours") == "ours"
    assert combine("mine", "ours") == "mine · ours"
    assert combine("one\ntwo", "ours") == "one\ntwo\nours"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["statusline"], (True, None, None)),
        (["statusline", "--db", "x.db"], (True, Path("x.db"), None)),
        (["statusline", "--chain", "my line.sh", "--db=x.db"], (True, Path("x.db"), "my line.sh")),
        (["statusline", "--chain=a b"], (True, None, "a b")),
        (["statusline", "--chain"], (False, None, None)),
        (["statusline", "--db", "a", "--db", "b"], (False, None, None)),
        (["statusline", "--help"], (False, None, None)),
        (["stats"], (False, None, None)),
    ],
)
def test_the_short_way_in_reads_db_and_chain(
    arguments: list[str], expected: tuple[bool, Path | None, str | None]
) -> None:
    assert statusline_database(arguments) == expected
