"""A session's header says the same on every surface, and every session the index keeps can be
shown and exported.

``cclens show`` and ``cclens export`` read a transcript on its own, and so once counted what a
resumed session copied from the session it resumed (the list, the API and the page give those
to the earlier session), and missed a title written in another file; an archived session
(its transcript deleted by Claude Code, kept by the index) could not be shown or exported at
all. The header now comes from one computation for every surface, and what a session carries
over from another is shown as a figure of its own.
"""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .test_usage import RESUMED, SESSION, project_dir, resumed_corpus

#: Sessions of the shared corpus whose transcript holds copies another session counts.
SHARING = (
    "daaain__claude-code-log/test/test_data/todowrite_examples.jsonl",
    "iansherr__claude-code-log/test/test_data/edge_cases.jsonl",
    "iansherr__claude-code-log/test/test_data/hook_attachments.jsonl",
    "iansherr__claude-code-log/test/test_data/monitor_tool.jsonl",
    "iansherr__claude-code-log/test/test_data/task_id_linking.jsonl",
    "jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/claude/schema_drift.jsonl",
)
_ACTIVITY = re.compile(r"(\d+) prompts?, (\d+) responses?, (\d+) tool calls? \((\d+) failed\)")


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _json(*args: str) -> Any:
    return json.loads(_run(*args))


def _activity(text: str) -> dict[str, int]:
    found = _ACTIVITY.search(text)
    assert found is not None, text[:2000]
    prompts, responses, calls, failed = map(int, found.groups())
    return {"prompts": prompts, "responses": responses, "calls": calls, "failed": failed}


def _listed(session: dict[str, Any]) -> dict[str, int]:
    return {
        "prompts": session["prompts"],
        "responses": session["responses"],
        "calls": session["tool_calls"],
        "failed": session["errors"],
    }


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.head: dict[str, str] = {}
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "header" and values.get("class") == "session-head" and not self.head:
            self.head = values
        self._in_title = tag == "h1" and values.get("class") == "session-title"

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False


@pytest.fixture(scope="module")
def indexed(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    db = tmp_path_factory.mktemp("header") / "index.db"
    _json("index", "--json", "--claude-dir", str(corpus), "--db", str(db))
    listed = _json("sessions", "--json", "--no-update", "--limit", "0", "--db", str(db))
    return db, listed["sessions"]


@pytest.mark.slow
@pytest.mark.parametrize("relative", SHARING)
def test_show_and_export_give_what_the_list_gives(
    indexed: tuple[Path, list[Any]], corpus: Path, relative: str
) -> None:
    db, listed = indexed
    path = corpus / relative
    (session,) = [s for s in listed if s["path"] == str(path)]
    index = ("--db", str(db), "--no-update")

    shown = _run("show", str(path), "--no-pager", *index)
    assert _activity(shown) == _listed(session)
    assert session["title"][:40] in shown

    markdown = _run("export", str(path), "-f", "md", "-o", "-", *index)
    assert _activity(markdown) == _listed(session)
    assert markdown.startswith(f"# {session['title'][:40]}")

    html = _run("export", str(path), "-o", "-", *index)
    head = _Head()
    head.feed(html)
    assert {
        "prompts": int(head.head["data-prompts"]),
        "responses": int(head.head["data-responses"]),
        "calls": int(head.head["data-tool-calls"]),
        "failed": int(head.head["data-failed"]),
    } == _listed(session)
    assert int(head.head["data-tokens-total"]) == session["tokens"]["total"]
    assert head.title.strip() == session["title"]

    document = _json("export", str(path), "-f", "json", "-o", "-", *index)
    figures = document["counts"]["figures"]
    assert {
        "prompts": figures["prompts"],
        "responses": figures["responses"],
        "calls": figures["tool_calls"]["calls"],
        "failed": figures["tool_calls"]["failed"],
    } == _listed(session)


def test_what_a_resumed_session_carries_over_is_its_own_figure(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    resumed_corpus(claude)
    db = str(tmp_path / "index.db")
    _json("index", "--json", "--claude-dir", str(claude), "--db", db)
    shown = _run("show", RESUMED, "--no-pager", "--claude-dir", str(claude), "--db", db)
    assert _activity(shown) == {"prompts": 1, "responses": 1, "calls": 0, "failed": 0}
    carried = next(line for line in shown.splitlines() if "Carried over" in line)
    assert "1 prompt" in carried and "1 response" in carried and SESSION[:8] in carried
    markdown = _run(
        "export", RESUMED, "-f", "md", "-o", "-", "--claude-dir", str(claude), "--db", db
    )
    assert "Carried over" in markdown and _activity(markdown)["responses"] == 1


def test_show_says_what_its_figures_include(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    resumed_corpus(claude)
    db = str(tmp_path / "index.db")
    shown = _run("show", SESSION, "--no-pager", "--claude-dir", str(claude), "--db", db)
    flat = " ".join(line.strip("│ ") for line in shown.splitlines())
    assert "none of them in subagents" in flat  # how much is subagents': said either way


def test_an_archived_session_can_be_shown_and_exported(corpus: Path, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    source = corpus / SHARING[0]
    folder = project_dir(claude)
    folder.mkdir(parents=True)
    copy = folder / "44ef5cbf-0000-4000-8000-000000000001.jsonl"
    shutil.copyfile(source, copy)
    db = str(tmp_path / "index.db")
    index = ("--claude-dir", str(claude), "--db", db)
    _json("index", "--json", *index)
    copy.unlink()
    _json("index", "--json", *index)
    (archived,) = _json("sessions", "--json", "--archived", *index)["sessions"]
    assert archived["archived"]

    shown = _run("show", "44ef5cbf", "--no-pager", *index)
    assert archived["title"][:30] in shown and _activity(shown) == _listed(archived)
    markdown = _run("export", "44ef5cbf", "-f", "md", "-o", "-", *index)
    assert _activity(markdown) == _listed(archived)
    html = _run("export", "44ef5cbf", "-o", str(tmp_path / "page.html"), *index)
    assert html == "" and (tmp_path / "page.html").stat().st_size > 0


@pytest.mark.slow
def test_the_export_index_lists_what_the_list_gives(
    indexed: tuple[Path, list[Any]], corpus: Path, tmp_path: Path
) -> None:
    db, listed = indexed
    out = tmp_path / "out"
    CliRunner().invoke(
        main,
        [
            "export",
            "--all",
            str(corpus),
            "-o",
            str(out),
            "--jobs",
            "2",
            "--db",
            str(db),
            "--no-update",
        ],
    )
    rows = _Rows()
    rows.feed((out / "index.html").read_text(encoding="utf-8"))
    by_path = {s["path"]: s for s in listed}
    assert len(rows.rows) == len(listed)
    for row in rows.rows:
        session = by_path[row["data-path"]]
        assert {
            "prompts": int(row["data-prompts"]),
            "responses": int(row["data-responses"]),
            "calls": int(row["data-tool-calls"]),
            "failed": int(row["data-failed"]),
        } == _listed(session), row["data-path"]
        assert row["data-title"] == session["title"], row["data-path"]


class _Rows(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "tr" and "data-path" in values:
            self.rows.append(values)
