"""Suggested permission rules: each rule once, ordered by the prompts it would have saved, its
paths written with one separator between their parts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.web.server import start
from cclens.web.settings import Settings

from .test_cli_permissions import OTHER, Transcript


def _project(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose sessions ran in its folder and in a folder inside it: ``git status``
    three times in each (an exact rule), ``npm run test`` twice with other arguments (a
    prefix rule), and files edited through paths written with doubled separators."""
    claude = tmp_path / "claude"
    project = tmp_path / "work" / "app"
    (project / "sub").mkdir(parents=True)
    top = Transcript(str(project))
    top.prompt("go")
    for _ in range(3):
        top.call("Bash", {"command": "git status"})
    top.call("Bash", {"command": "npm run test -- -k one"})
    top.call("Bash", {"command": "npm run test -- -k two"})
    top.call("Edit", {"file_path": f"{project}//src//app.py", "old_string": "a", "new_string": "b"})
    top.call("Read", {"file_path": f"/{tmp_path}/elsewhere//notes.txt"})
    path = top.write(claude)
    inner = Transcript(str(project / "sub"), session=OTHER)
    inner.prompt("go")
    for _ in range(3):
        inner.call("Bash", {"command": "git status"})
    # Both sessions are in the project's folder (the inner one ran in a folder inside it).
    inner_path = inner.write(claude)
    inner_path.rename(path.parent / inner_path.name)
    return claude, project


def _json(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _check(suggestions: list[dict[str, Any]]) -> None:
    rules = [s["rule"] for s in suggestions]
    assert len(rules) == len(set(rules)), rules
    saved = [s["prompts_saved"] for s in suggestions]
    assert saved == sorted(saved, reverse=True), list(zip(rules, saved, strict=True))
    for suggestion in suggestions:
        content = suggestion["rule"].partition("(")[2]
        # A rule's own syntax starts an absolute path with //; nothing else repeats a separator.
        assert not re.search(r"(?<!^)//", content), suggestion["rule"]
        for example in suggestion["examples"]:
            assert "//" not in example, example


def test_the_command_orders_suggestions_by_prompts_saved(tmp_path: Path) -> None:
    claude, _ = _project(tmp_path)
    report = _json("permissions", "--json", "--claude-dir", str(claude))
    for project in report["projects"]:
        _check(project["suggestions"])
    first = report["projects"][0]["suggestions"]
    assert first[0]["rule"] == "Bash(git status)" and first[0]["prompts_saved"] == 3


def test_the_pages_suggest_each_rule_once(tmp_path: Path) -> None:
    claude, _ = _project(tmp_path)
    running = start(
        Settings(db_path=tmp_path / "index.db", claude_dirs=[claude], port=0, watch=False)
    )
    try:
        assert running.app.state.cclens.indexer.ready.wait(60)
        with httpx.Client(base_url=running.url, timeout=60) as client:
            (row,) = client.get("/api/permissions").json()["projects"]
            page = client.get("/permissions").text
    finally:
        running.stop()
    _check(row["suggestions"])
    (git,) = [s for s in row["suggestions"] if s["rule"] == "Bash(git status)"]
    assert git["prompts_saved"] == 6
    assert page.count('<code class="rule">Bash(git status)</code>') == 1


@pytest.mark.slow
def test_the_first_visit_finds_the_audit_ready(corpus: Path, tmp_path: Path) -> None:
    # The server audits every project once the first update is done: the first visit to
    # /permissions is drawn with the figures, not behind a placeholder.
    running = start(
        Settings(db_path=tmp_path / "index.db", claude_dirs=[corpus], port=0, watch=False)
    )
    try:
        state = running.app.state.cclens
        assert state.indexer.ready.wait(120)
        deadline = time.monotonic() + 120
        while state.permissions.cached_overview() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        with httpx.Client(base_url=running.url, timeout=60) as client:
            started = time.perf_counter()
            page = client.get("/permissions").text
            seconds = time.perf_counter() - started
    finally:
        running.stop()
    assert ("data-pending" not in page and "data-project" in page) or "suggestion" in page
    assert seconds < 2.0, seconds
