"""Every way out of the command line is clean: one line per error, no traceback, and a server
that stops at once and leaves nothing behind.

The server tests run ``cclens serve`` as a real process, with a page's live event stream open,
and stop it the two ways people and service managers do (SIGINT, SIGTERM).
"""

from __future__ import annotations

import contextlib
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .conftest import ROOT

COMMAND = [sys.executable, "-c", "from cclens.cli import main; main()"]
SESSION = (
    "iansherr__claude-code-log/test/test_data/real_projects/"
    "-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl"
)


def _environment(**extra: str) -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(ROOT / "src")
    environment.update(extra)
    return environment


def run(*args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """``cclens ARGS`` as a real process (what a person sees, tracebacks included)."""
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        env=_environment(**environment),
        timeout=120,
        check=False,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2 and one ``cclens: what failed; what to do`` line, no traceback nor usage."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "Usage:" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cclens: "), result.stderr
    assert "Error:" not in lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# Errors -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_writing_the_dataset_under_a_file_says_so(corpus: Path, tmp_path: Path) -> None:
    (tmp_path / "x.html").write_text("a page")
    result = run("dataset", str(tmp_path / "x.html" / "sub"), "--claude-dir", str(corpus))
    assert_one_line_error(result, "x.html", "is a file", "choose another folder")


@pytest.mark.slow
def test_restoring_under_a_file_says_so(corpus: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "index.db")
    indexed = run("index", "--claude-dir", str(corpus / SESSION), "--db", db)
    assert indexed.returncode == 0, indexed.stderr
    (tmp_path / "x.html").write_text("a page")
    result = run("restore", "0d3a8e6f", "-o", str(tmp_path / "x.html" / "sub"), "--db", db)
    assert_one_line_error(result, "x.html", "is a file")
    missing = run("restore", "nothing-like-it", "-o", str(tmp_path / "out"), "--db", db)
    assert_one_line_error(missing, "no indexed session matches")


@pytest.mark.slow
def test_errors_that_are_not_usage_mistakes_have_no_usage_block(tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text("not json")
    assert_one_line_error(run("stats", "--pricing", str(prices)), str(prices))
    db = tmp_path / "not-an-index.db"
    db.write_text("hello")
    assert_one_line_error(run("search", "x", "--db", str(db), "--no-update"), "rebuild")


@pytest.mark.slow
def test_a_usage_mistake_shows_the_usage_and_one_line() -> None:
    result = run("search", "x", "--since", "notadate", "--no-update")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("Usage: ")
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("cclens: ") and "--since" in last and "notadate" in last
    assert "Error:" not in result.stderr


def test_an_unhandled_os_error_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, corpus: Path
) -> None:
    # The last resort: a command that lets an OSError through still gives one line.
    import cclens.reports.check as check_module  # the command imports it when it runs

    def broken(paths: object) -> object:
        raise PermissionError(13, "Permission denied", "/some/where")

    monkeypatch.setattr(check_module, "check", broken)
    result = CliRunner().invoke(main, ["check", str(corpus)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "cclens: /some/where: permission denied; check its permissions, or choose another path"
    )


@pytest.mark.slow
def test_export_takes_claude_dir_and_still_its_old_root(corpus: Path, tmp_path: Path) -> None:
    folder = str(corpus / Path(SESSION).parent)
    for option in ("--claude-dir", "--root"):
        target = tmp_path / f"{option.strip('-')}.md"
        result = CliRunner().invoke(
            main, ["export", "0d3a8e6f", option, folder, "-f", "md", "-o", str(target)]
        )
        assert result.exit_code == 0, result.output
        assert target.read_text(encoding="utf-8").startswith("#")
    help_text = CliRunner().invoke(main, ["export", "--help"]).stdout
    assert "--claude-dir" in help_text and "--root" not in help_text


def _show_in_a_terminal(session: Path, environment: dict[str, str]) -> None:
    """``cclens show SESSION`` with a terminal for stdin and stdout (read as it writes)."""
    leader, follower = pty.openpty()
    drained = threading.Thread(target=_drain, args=(leader,), daemon=True)
    drained.start()
    try:
        finished = subprocess.run(
            [*COMMAND, "show", str(session)],
            stdin=follower,
            stdout=follower,
            stderr=subprocess.PIPE,
            env=environment,
            timeout=120,
            check=False,
        )
    finally:
        os.close(follower)
    drained.join(10)
    os.close(leader)
    assert finished.returncode == 0, finished.stderr


def _drain(descriptor: int) -> None:
    with contextlib.suppress(OSError):
        while os.read(descriptor, 65536):
            pass


@pytest.mark.slow
def test_show_pages_with_colours_through_less(corpus: Path, tmp_path: Path) -> None:
    # The pager is a script that writes down the LESS it was given.
    seen = tmp_path / "less.txt"
    pager = tmp_path / "pager.sh"
    pager.write_text(f'#!/bin/sh\nprintf "%s" "$LESS" > {seen}\ncat > /dev/null\n')
    pager.chmod(0o755)
    environment = _environment(PAGER=str(pager), TERM="xterm")
    environment.pop("LESS", None)
    environment.pop("MANPAGER", None)
    _show_in_a_terminal(corpus / SESSION, environment)
    assert seen.read_text() == "FRX"
    # A person's own choice is kept.
    environment["LESS"] = "-S"
    _show_in_a_terminal(corpus / SESSION, environment)
    assert seen.read_text() == "-S"


# The server ---------------------------------------------------------------------------------


class Served:
    """A ``cclens serve`` process, what it printed, and where it serves."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: list[str] = []
        self.url = ""
        self.db = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            found = re.search(r"serving (\S+) at (http://\S+/)", line)
            if found:
                self.db, self.url = found.group(1), found.group(2)

    def wait_for(self, text: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not any(text in line for line in self.lines):
            assert self.process.poll() is None, "".join(self.lines)
            assert time.monotonic() < deadline, "".join(self.lines)
            time.sleep(0.05)

    @property
    def stderr(self) -> str:
        self._reader.join(10)
        return "".join(self.lines)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Served]:
    process = subprocess.Popen(
        [*COMMAND, "serve", "--demo", "--port", "0", "--open"],
        stderr=subprocess.PIPE,
        text=True,
        # No browser here: --open must say so.
        env=_environment(
            BROWSER=str(tmp_path / "no-such-browser"), DISPLAY="", TMPDIR=str(tmp_path)
        ),
    )
    served = Served(process)
    try:
        served.wait_for("(Ctrl-C to stop)")
        deadline = time.monotonic() + 60
        while httpx.get(served.url + "api/status", timeout=5).json()["sessions"] < 4:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        yield served
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        assert isinstance(served.stderr, str)  # read to the end
        assert process.stderr is not None
        process.stderr.close()


def _listen(url: str, opened: threading.Event, ended: threading.Event) -> None:
    """A page's live event stream, held open until the server ends it."""
    try:
        with httpx.stream("GET", url, timeout=httpx.Timeout(5, read=60)) as response:
            for _ in response.iter_raw():
                opened.set()
    except httpx.HTTPError:
        pass
    ended.set()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_server_stops_at_once_silently_and_cleans_up(
    serve: Served, stop: signal.Signals, tmp_path: Path
) -> None:
    serve.wait_for("no browser could be opened")
    temporary = Path(serve.db).parent
    assert temporary.name.startswith("cclens-demo-") and temporary.is_dir()
    opened, ended = threading.Event(), threading.Event()
    listener = threading.Thread(
        target=_listen, args=(serve.url + "api/events", opened, ended), daemon=True
    )
    listener.start()
    assert opened.wait(10), "the event stream did not open"
    began = time.monotonic()
    serve.process.send_signal(stop)
    code = serve.process.wait(10)
    took = time.monotonic() - began
    assert ended.wait(5), "the event stream was not ended"
    errors = serve.stderr
    assert took < 1.0, f"stopping took {took:.2f} s"
    assert code == 0, errors
    assert "Traceback" not in errors and "CancelledError" not in errors, errors
    assert not temporary.exists(), "the demo index was left behind"
    assert not list(tmp_path.glob("cclens-demo-*"))
    started = [line for line in errors.splitlines() if line.strip()]
    assert all(line.startswith("cclens: ") for line in started), errors


@pytest.mark.slow
def test_a_stop_before_the_server_runs_cleans_up_too(tmp_path: Path) -> None:
    # A SIGTERM while the demo index is being built: the temporary folder still goes.
    process = subprocess.Popen(
        [*COMMAND, "serve", "--demo", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(TMPDIR=str(tmp_path)),
    )
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob("cclens-demo-*")):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    _, errors = process.communicate(timeout=20)
    assert "Traceback" not in errors
    assert not list(tmp_path.glob("cclens-demo-*"))


# Optional parts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "missing", "message"),
    [
        (
            ["dataset", "out"],
            "pyarrow",
            "cclens: dataset needs pyarrow; pip install 'cclens[dataset]'",
        ),
        (
            ["otel", "--endpoint", "http://127.0.0.1:9"],
            "opentelemetry.sdk",
            "cclens: otel needs opentelemetry; pip install 'cclens[otel]'",
        ),
    ],
)
def test_a_missing_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, command: list[str], missing: str, message: str
) -> None:
    # As in a plain install: the optional package is not there (a fresh `pip install .` was
    # measured, see the report; here its absence is simulated).
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> object:
        return None if name == missing else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2
    assert result.stderr.strip() == message
    assert not (tmp_path / "out").exists()
