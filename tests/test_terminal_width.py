"""Every command's output fits an 80-column terminal, totals included.

Each command runs as a real process whose standard output is a pseudo-terminal 80 columns
wide (its error stream, where diagnostics name long paths, is a pipe), then with its output
piped and ``COLUMNS=80``. Every line it prints must fit in 80 cells (wide characters count
twice; a path longer than a line is printed whole on a line of its own, to be copied), and
the tables keep their totals: ``stats --by model`` once printed 294 columns and lost its total
and cost columns at the edge of the terminal.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from rich.cells import cell_len

from cclens.cli.main import COMMANDS as COMMAND_MODULES

from .test_usage import SESSION

pytestmark = pytest.mark.slow

WIDTH = 80
_ESCAPES = re.compile(
    r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]"
)
#: Every command, as ``cclens --help`` lists them.
COMMANDS = tuple(COMMAND_MODULES)
GROUPINGS = ("day", "week", "month", "project", "session", "model", "tool", "block")


def in_terminal(*args: str, stdin: str | None = None) -> tuple[int, str]:
    """Run ``cclens ARGS`` with its output on an 80-column pseudo-terminal; its exit status and
    what it printed there (escape sequences removed)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, WIDTH, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(WIDTH), "LINES": "24"}
    environment.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "cclens", *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    if stdin is not None:
        assert process.stdin is not None
        process.stdin.write(stdin.encode())
        process.stdin.close()
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            process.kill()
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=120)
    os.close(leader)
    return process.returncode, _ESCAPES.sub("", output.decode("utf-8", "replace")).replace("\r", "")


def piped(*args: str, stdin: str | None = None) -> tuple[int, str]:
    """Run ``cclens ARGS`` with its output piped and ``COLUMNS=80``."""
    done = subprocess.run(
        [sys.executable, "-m", "cclens", *args],
        input=stdin or "",
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": str(WIDTH)},
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout


def too_wide(text: str) -> list[str]:
    """The lines wider than the terminal; a line of one word is not (a path longer than a line
    is printed whole, on its own line, so that it can be copied)."""
    return [line for line in text.splitlines() if cell_len(line) > WIDTH and len(line.split()) > 1]


@pytest.fixture(scope="module")
def db(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("width") / "index.db"
    code, _ = piped("index", "--claude-dir", str(corpus), "--db", str(path))
    assert code == 0
    return path


def _runs(corpus: Path, db: Path) -> list[tuple[str, ...]]:
    index = ("--db", str(db), "--no-update")
    session = "0d3a8e6f"
    path = str(corpus / "daaain__claude-code-log/test/test_data/todowrite_examples.jsonl")
    return [
        (),
        ("--help",),
        *[(command, "--help") for command in COMMANDS],
        ("index", "--claude-dir", str(corpus), "--db", str(db)),
        ("sessions", *index),
        ("sessions", "--limit", "0", *index),
        ("search", "test", *index),
        ("search", '"exit code"', "--per-session", "5", *index),
        ("show", path, "--no-pager", *index),
        ("show", session, "--no-pager", "--subagents", "--details", *index),
        ("restore", session, "--list-versions", "--db", str(db)),
        *[("stats", "--by", by, *index) for by in GROUPINGS],
        ("stats", "--by", "model", "--claude-dir", str(corpus)),
        ("stats", "--by", "block", "--token-limit", "max", *index),
        ("tools", str(corpus)),
        ("check", str(corpus)),
        ("permissions", "--claude-dir", str(corpus)),
        ("limits", "--db", str(db)),
        ("setup", "--check", "--db", str(db)),
    ]


def test_every_command_fits_an_80_column_terminal(corpus: Path, db: Path) -> None:
    wide: dict[str, list[str]] = {}
    for args in _runs(corpus, db):
        for run in (in_terminal, piped):
            code, text = run(*args)
            if code != 0 or not text.strip():
                wide[f"{run.__name__}: cclens {' '.join(args)}"] = [f"exit {code}", text[-300:]]
            elif found := too_wide(text):
                wide[f"{run.__name__}: cclens {' '.join(args)}"] = found[:3]
    assert wide == {}


def test_the_status_line_fits(db: Path) -> None:
    payload = {
        "session_id": SESSION,
        "transcript_path": "/nonexistent/x.jsonl",
        "model": {"id": "claude-sonnet-4-5-20250929", "display_name": "Sonnet 4.5"},
    }
    code, text = in_terminal("statusline", "--db", str(db), stdin=json.dumps(payload))
    assert code == 0 and not too_wide(text)


def test_cclens_alone_prints_its_help() -> None:
    for run in (in_terminal, piped):
        code, text = run()
        assert code == 0
        assert "Commands:" in text and "stats" in text
        assert "Try" not in text  # not a usage mistake


def test_the_tables_keep_their_totals(db: Path) -> None:
    for by in ("model", "session", "day", "project"):
        report = json.loads(piped("stats", "--by", by, "--json", "--db", str(db), "--no-update")[1])
        cost = report["total"]["cost"]
        for run in (in_terminal, piped):
            _, text = run("stats", "--by", by, "--db", str(db), "--no-update")
            (total,) = [line for line in text.splitlines() if re.search(r"\btotal\b", line)][-1:]
            assert f"${cost:,.2f}" in total, (run.__name__, by, total)
            assert f"{report['responses']:,}" in total, (run.__name__, by, total)
