"""What ``cclens statusline`` does: one line for Claude Code's status bar, from the index.

Claude Code runs the status line command as a new process each time it redraws it, passing
the session as JSON on stdin. This module imports only what that line needs (not even the
command-line library: the program's entry point, :mod:`cclens.__main__`, comes straight here),
and never fails the status line: any problem prints a short line and exits 0.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .figures.limits import FIVE_HOUR, LimitSample, claude_samples, pace
from .formats import compact, duration, usd

#: Seconds between two background updates of the index started by the status line.
UPDATE_EVERY = 5.0
#: Seconds a chained status line command (the user's own, run first) may take.
CHAIN_SECONDS = 2.0
#: How long storing a plan-limit sample may wait for another writer of the index.
RECORD_WAIT = 0.05


def _model_name(payload: dict[str, Any]) -> str:
    model = payload.get("model")
    if isinstance(model, dict):
        return str(model.get("display_name") or model.get("id") or "Claude")
    return "Claude"


def _model_id(payload: dict[str, Any]) -> str | None:
    model = payload.get("model")
    found = model.get("id") if isinstance(model, dict) else None
    return str(found) if found else None


def _window(payload: dict[str, Any]) -> int | None:
    context = payload.get("context_window")
    size = context.get("context_window_size") if isinstance(context, dict) else None
    return size if isinstance(size, int) and size > 0 else None


def _db_path(given: Path | None) -> Path:
    if given is not None:
        return given.expanduser()
    from .index.storage.location import default_db_path

    return default_db_path()


def _spawn_update(db: Path, transcript: Path) -> None:
    """Start a detached ``cclens`` process that stores the transcript's new lines in the
    index (at most one every :data:`UPDATE_EVERY` seconds), so the next call reads less."""
    stamp = db.with_name(db.name + ".statusline")
    try:
        if time.time() - stamp.stat().st_mtime < UPDATE_EVERY:
            return
    except OSError:
        pass
    try:
        stamp.touch()
        subprocess.Popen(
            [sys.executable, "-m", "cclens._statusline", "--db", str(db), str(transcript)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        pass  # the next status line tries again


def record_limits(db: Path, samples: list[LimitSample]) -> None:
    """Store the plan-limit samples Claude Code passed that are new (see
    :mod:`cclens.index.write.rate_limits`); an index busy for more than :data:`RECORD_WAIT`
    or older than the table leaves them to the next redraw."""
    from .index.write.rate_limits import record

    try:
        connection = sqlite3.connect(db, timeout=RECORD_WAIT, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        record(connection, samples)
    except sqlite3.Error:
        pass
    finally:
        connection.close()


def limits_text(samples: list[LimitSample], now: datetime) -> str | None:
    """``5h 42% (pace 85%)``: the five-hour window's use and where it heads by its reset
    (:func:`cclens.figures.limits.pace`), when Claude Code gave it."""
    five = next((sample for sample in samples if sample.window == FIVE_HOUR), None)
    if five is None:
        return None
    text = f"5h {five.used_percent:.0f}%"
    found = pace(five, now)
    if found is not None:
        text += f" (pace {found.projected_percent:.0f}%)"
    return text


def status_line(payload: dict[str, Any], db: Path, *, now: datetime | None = None) -> str:
    """The status line for ``payload`` (what Claude Code gives on stdin); the plan limits it
    holds are stored in the index."""
    from .reports.live import status_figures

    now = now or datetime.now(UTC)
    name = _model_name(payload)
    session = payload.get("session_id")
    samples = claude_samples(
        payload.get("rate_limits"), now, session=session if isinstance(session, str) else None
    )
    if samples and db.exists():
        record_limits(db, samples)
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript:
        return f"{name} · cclens: no transcript yet"
    if not db.exists():
        return f"{name} · cclens: no index yet (run cclens index)"
    figures = status_figures(
        db,
        Path(transcript),
        session_id=str(payload.get("session_id") or ""),
        model=_model_id(payload),
        context_window=_window(payload),
        now=now,
    )
    if figures.unread and _configured_root(Path(transcript)) is not None:
        _spawn_update(db, Path(transcript))
    parts = [
        name,
        f"session {usd(figures.session_cost)} ({compact(figures.session_tokens)} tok)",
        f"today {usd(figures.today_cost)}",
    ]
    block = figures.block
    if block is not None and block.block is not None:
        info = block.block
        text = f"block {usd(block.cost)}, {duration((info.minutes_left or 0) * 60)} left"
        if info.cost_per_hour is not None:
            text += f", {usd(info.cost_per_hour)}/h"
        elif info.tokens_per_hour is not None:
            text += f", {compact(round(info.tokens_per_hour))} tok/h"
        parts.append(text)
    else:
        parts.append("no active block")
    if figures.context is not None:
        share = 100 * figures.context / figures.context_window
        parts.append(f"ctx {compact(figures.context)} ({share:.0f}%)")
    limits = limits_text(samples, now)
    if limits is not None:
        parts.append(limits)
    return " · ".join(parts)


def _problem(error: Exception) -> str:
    """A few words for the status bar saying what went wrong and what to do."""
    if isinstance(error, sqlite3.OperationalError) and "no such" in str(error):
        return "index too old (run cclens index)"
    if isinstance(error, sqlite3.Error):
        return "index busy or damaged"
    if isinstance(error, FileNotFoundError):
        return "transcript not found"
    if isinstance(error, OSError):
        return "cannot read the transcript"
    return type(error).__name__


def _configured_root(transcript: Path) -> Path | None:
    """The configured Claude folder ``transcript`` lies in (``$CLAUDE_CONFIG_DIR``,
    ``~/.claude``, ``~/.config/claude``), or ``None``: the status line reads a transcript
    elsewhere where it is, and indexes nothing around it."""
    from .readers.claude import claude_dirs

    real = Path(os.path.realpath(transcript))
    for root in claude_dirs():
        if real.is_relative_to(os.path.realpath(root)):
            return root
    return None


def _update(db: Path, transcript: Path) -> None:
    """Store what is new in ``transcript`` (the background update), when it lies in a
    configured Claude folder; the update reads those folders only."""
    from .index import Index
    from .readers.claude import claude_dirs

    if _configured_root(transcript) is None:
        return
    with Index(db) as index:
        index.update(claude_dirs(), changed=[transcript], workers=1)


def _start_chained(command: str, raw: str) -> tuple[threading.Thread, list[str]] | None:
    """Start the user's own status line command with Claude Code's JSON on its stdin; a
    thread gathers its output (within :data:`CHAIN_SECONDS`) while cclens works out its own."""
    try:
        process = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError:
        return None
    output: list[str] = []

    def gather() -> None:
        try:
            found, _ = process.communicate(raw, timeout=CHAIN_SECONDS)
            output.append(found)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            process.kill()
            process.wait()

    thread = threading.Thread(target=gather, daemon=True)
    thread.start()
    return thread, output


def _chained_output(started: tuple[threading.Thread, list[str]] | None) -> str:
    """What the user's own status line printed (nothing when it failed or took too long)."""
    if started is None:
        return ""
    thread, output = started
    thread.join(CHAIN_SECONDS + 0.5)
    return output[0].rstrip("\n") if output else ""


def combine(theirs: str, ours: str) -> str:
    """The user's status line, then cclens's: on one line after theirs when theirs is one
    line, else on a line of its own."""
    if not theirs.strip():
        return ours
    return f"{theirs} · {ours}" if "\n" not in theirs else f"{theirs}\n{ours}"


def run(db: Path | None, chain: str | None = None) -> None:
    """Read Claude Code's JSON on stdin and print the status line (see the command's help),
    after the output of the user's own command ``chain`` when given; never raises (with
    ``CCLENS_DEBUG`` set, a problem is raised instead)."""
    raw = "" if sys.stdin.isatty() else sys.stdin.read()
    started = _start_chained(chain, raw) if chain else None
    payload: dict[str, Any] = {}
    try:
        found = json.loads(raw) if raw.strip() else {}
        payload = found if isinstance(found, dict) else {}
        line = status_line(payload, _db_path(db), now=datetime.now(UTC))
    except Exception as error:  # the status line must never fail
        if os.environ.get("CCLENS_DEBUG"):
            raise
        line = f"{_model_name(payload)} · cclens: {_problem(error)}"
        print(f"cclens statusline: {error}", file=sys.stderr)
    print(combine(_chained_output(started), line), flush=True)


if __name__ == "__main__":  # the background update: python -m cclens._statusline
    arguments = sys.argv[1:]
    database = Path(arguments[arguments.index("--db") + 1])
    _update(database, Path(arguments[-1]))
