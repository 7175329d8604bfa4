"""What ``cclens hook`` does: archive the session a Claude Code hook names, and nothing else.

``cclens setup`` installs it for the ``SessionEnd`` and ``PreCompact`` events. Claude Code runs
it with the hook's JSON on stdin (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``, and ``reason`` or ``trigger``). It stores what was appended to that
transcript (and to its subagents' files) in the index, reading only the folders cclens is
configured for (``$CLAUDE_CONFIG_DIR``, ``~/.claude``, ``~/.config/claude``): a transcript
elsewhere is left alone, and nothing around it is read. A transcript the index has not seen
yet is placed by an update of those folders (so the first hook after ``cclens setup`` on a
machine never indexed reads them whole, as far as its deadline allows, and the next ones go
on from there).

It never blocks or fails Claude Code: it exits 0 whatever happens. When the transcript holds
something the index does not, the work is handed to a process of its own (``cclens hook
--wait``, in a new session, given the same input) and the hook returns at once: Claude Code
waits only for a glance at the index, and its exit after ``SessionEnd``, which ends the hooks
it started, cannot cut the archive short. That process gives up at once when another update
holds the index, and ends itself after :data:`DEADLINE` seconds (SQLite keeps the index whole:
what was committed stays, the rest is read by the next update). Problems go to cclens's log
file (:func:`cclens.places.log_path`), never to Claude Code; the last run is recorded for
``cclens setup --check``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..places import hook_state_path, logger

#: Seconds after which the hook ends itself, done or not.
DEADLINE = 10.0


class IndexBusy(Exception):
    """Another update holds the index: this hook leaves the session to it."""


def _busy(waited: float) -> None:
    raise IndexBusy


def session_files(transcript: Path) -> list[Path]:
    """The transcript and its subagents' files (``<session>/subagents/*.jsonl``)."""
    folder = transcript.with_suffix("") / "subagents"
    try:
        return [transcript, *sorted(p for p in folder.iterdir() if p.suffix == ".jsonl")]
    except OSError:  # no subagents (or a folder that cannot be listed)
        return [transcript]


def configured_root(transcript: Path, roots: Sequence[Path]) -> Path | None:
    """The configured Claude folder whose transcripts include ``transcript``, else ``None``
    (symbolic links resolved: a path that only looks inside does not count)."""
    target = transcript.resolve()
    for root in roots:
        projects = root / "projects"
        folder = (projects if projects.is_dir() else root).resolve()
        if target.is_relative_to(folder):
            return root
    return None


def unchanged(db: Path, files: Sequence[Path]) -> bool:
    """Whether the index holds every one of ``files`` as it is now (same size and time): a
    glance at the index and the files' metadata, before loading what reading lines needs."""
    import sqlite3

    from ..index.read.archive_state import stored_stats
    from ..index.read.live_usage import connect_reader

    try:
        connection = connect_reader(db)
        try:
            stored = stored_stats(connection, [str(path) for path in files])
        finally:
            connection.close()
        for path in files:
            stat = path.stat()
            if stored.get(str(path)) != (stat.st_size, stat.st_mtime_ns):
                return False
    except (sqlite3.Error, OSError):
        return False
    return True


def _record(state: dict[str, Any]) -> None:
    """Keep the last run for ``cclens setup --check`` (a file too small to be torn)."""
    path = hook_state_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(state) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        logger("hook").warning("cannot record the run in %s: %s", path, error)


def glance(payload: dict[str, Any], db: Path) -> tuple[dict[str, Any], list[Path] | None]:
    """What the hook's input says, and the files to archive: ``None`` when there is nothing
    to do (the state's ``outcome`` says why). Only a look at the index and the files'
    metadata."""
    state: dict[str, Any] = {
        "time": time.time(),
        "event": payload.get("hook_event_name"),
        "session": payload.get("session_id"),
        "outcome": "nothing new",
    }
    given = payload.get("transcript_path")
    if not isinstance(given, str) or not given:
        state["outcome"] = "no transcript_path in the hook's input"
        return state, None
    transcript = Path(given).expanduser().absolute()
    state["transcript"] = str(transcript)
    files = session_files(transcript)
    if db.exists() and unchanged(db, files):
        return state, None
    return state, files


def archive(
    state: dict[str, Any],
    files: list[Path],
    db: Path,
    roots: Callable[[], Sequence[Path]],
    started: float,
) -> dict[str, Any]:
    """Store what is new in ``files`` (a transcript and its subagents', as :func:`glance`
    found them, with its ``state``); return what was done (the ``outcome`` and its figures).
    Raises :class:`IndexBusy` when another update holds the index, and whatever the index
    raises."""
    transcript = files[0]
    folders = roots()
    if configured_root(transcript, folders) is None:
        state["outcome"] = "transcript outside the configured Claude folders: left alone"
        return state
    if not transcript.is_file():
        state["outcome"] = "transcript not found"
        return state
    from ..index import Index

    with Index(db) as index:
        # No vectors for search by meaning here (loading the model and numpy would cost more
        # than the rest of the hook): the next `cclens index`, search or server embeds them.
        report = index.update(list(folders), changed=files, workers=1, waiting=_busy, embed=False)
    state["outcome"] = "archived"
    state["bytes_read"] = report.bytes_read
    state["seconds"] = round(time.monotonic() - started, 3)
    return state


def _db_path(given: Path | None) -> Path:
    if given is not None:
        return given.expanduser()
    from ..index.storage.location import default_db_path

    return default_db_path()


def _roots(given: Sequence[Path] | None) -> Sequence[Path]:
    """The Claude folders: those given, else the configured ones (loading the reader, which
    the update needs anyway)."""
    if given is not None:
        return given
    from ..readers.claude.discover import claude_dirs

    return claude_dirs()


def _stdin() -> str:
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    return sys.stdin.buffer.read().decode("utf-8", "replace")


def hand_over(raw: str, db: Path | None) -> bool:
    """Start ``cclens hook --wait`` in a session of its own, given ``raw`` on its stdin, and
    return without waiting for it; ``False`` when it cannot be started."""
    command = [sys.executable, "-m", "cclens", "hook", "--wait"]
    if db is not None:
        command += ["--db", str(db)]
    flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(
        subprocess, "CREATE_NEW_PROCESS_GROUP", 0
    )
    try:
        child = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            creationflags=flags,
        )
        assert child.stdin is not None
        with child.stdin:
            child.stdin.write(raw.encode("utf-8", "surrogatepass"))
    except OSError as error:
        logger("hook").warning("cannot start the archive in the background (%s): done here", error)
        return False
    return True


def run(
    db: Path | None,
    read: Callable[[], str] = _stdin,
    roots: Sequence[Path] | None = None,
    *,
    wait: bool = True,
) -> int:
    """Handle one hook: ``read`` gives what Claude Code wrote on stdin (read within the
    deadline too); ``roots``: the Claude folders (default: the configured ones). Unless
    ``wait``, a transcript with something new is archived by a process of its own
    (:func:`hand_over`) and this returns at once. Always returns 0."""
    started = time.monotonic()
    failed = False

    def give_up() -> None:
        logger("hook").warning("gave up after %.0f s (left to the next update)", DEADLINE)
        _record({"time": time.time(), "outcome": f"gave up after {DEADLINE:.0f} s"})
        os._exit(0)

    timer = threading.Timer(DEADLINE, give_up)
    timer.daemon = True
    timer.start()
    try:
        raw = read()
        found = json.loads(raw) if raw.strip() else None
        if not isinstance(found, dict):
            raise ValueError("the hook's input is not a JSON object")
        path = _db_path(db)
        state, files = glance(found, path)
        if files is not None:
            if not wait and hand_over(raw, db):
                return 0  # the process given the work records the run
            state = archive(state, files, path, lambda: _roots(roots), started)
    except IndexBusy:
        state = {"time": time.time(), "outcome": "index busy: left to the update under way"}
    except Exception as error:  # the hook must never fail Claude Code
        if os.environ.get("CCLENS_DEBUG"):
            raise
        failed = True
        logger("hook").error("%s: %s", type(error).__name__, error)
        state = {"time": time.time(), "outcome": f"failed: {type(error).__name__}: {error}"}
    finally:
        timer.cancel()
    if not failed and state["outcome"] not in ("archived", "nothing new"):
        logger("hook").info("%s", state["outcome"])
    _record(state)
    return 0


def options(arguments: Sequence[str]) -> tuple[Path | None, bool] | None:
    """``--db FILE`` and ``--wait`` from ``arguments``; ``None`` for anything else (``--help``,
    a mistake: the command-line library answers those)."""
    db, wait, rest = None, False, list(arguments)
    while rest:
        word = rest.pop(0)
        if word == "--wait" and not wait:
            wait = True
        elif word == "--db" and db is None and rest and rest[0]:
            db = Path(rest.pop(0))
        else:
            return None
    return db, wait


def main(arguments: Sequence[str]) -> int:
    """``cclens hook [--db FILE] [--wait]``: the short way in from :mod:`cclens.__main__`."""
    found = options(arguments)
    db, wait = found if found is not None else (None, False)
    return run(db, wait=wait)


__all__ = [
    "DEADLINE",
    "IndexBusy",
    "archive",
    "configured_root",
    "glance",
    "hand_over",
    "main",
    "options",
    "run",
    "session_files",
]
