"""cclens's figures equal an independent recount (``tests/recount.py``: the ``json`` module and
the documented definitions, nothing of cclens), on the shared corpus and on the made-up
transcripts that show how Claude Code spreads a session over its files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .recount import KINDS, Recount, recount
from .test_truth_counts import compacted_session, mirrored_session, orphan_agent


def _json(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def assert_recounted(folder: Path, tmp_path: Path) -> Recount:
    """``stats`` and ``tools``, read directly and from an index, give the recount's figures."""
    expected = recount(folder)
    db = str(tmp_path / "recount.db")
    _json("index", "--json", "--claude-dir", str(folder), "--db", db)
    for source in (("--claude-dir", str(folder)), ("--no-update", "--db", db)):
        stats = _json("stats", "--json", *source)
        assert stats["sessions_read"] == expected.sessions, source
        assert stats["prompts"] == expected.prompts, source
        assert stats["responses"] == expected.responses, source
        assert {k: stats["total"]["tokens"][k] for k in KINDS} == expected.tokens, source
        statuses = expected.statuses()
        assert {k: v for k, v in stats["tool_calls"].items() if k != "failed" and v} == {
            k: v for k, v in statuses.items() if v
        }, source
    tools = {
        row["name"]: {
            "calls": row["calls"],
            "failed": row["errors"],
            "rejected": row["rejected"],
            "interrupted": row["interrupted"],
            "pending": row["unpaired"],
        }
        for row in _json("tools", "--json", str(folder))
    }
    assert tools == {
        name: {
            "calls": row["calls"],
            "failed": row["error"] + row["rejected"] + row["interrupted"],
            "rejected": row["rejected"],
            "interrupted": row["interrupted"],
            "pending": row["pending"],
        }
        for name, row in expected.tools.items()
    }
    return expected


@pytest.mark.slow
def test_the_corpus_is_recounted(corpus: Path, tmp_path: Path) -> None:
    found = assert_recounted(corpus, tmp_path)
    assert found.sessions == 109 and found.responses > 900


CASES: dict[str, Callable[[Path], object]] = {
    "mirrored subagent": lambda root: mirrored_session(root, with_agent_file=False),
    "mirrored and its own file": lambda root: mirrored_session(root, with_agent_file=True),
    "orphan": lambda root: orphan_agent(root, "Warmup"),
    "result in another file": compacted_session,
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_ways_a_session_is_spread_are_recounted(case: str, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    CASES[case](claude)
    assert_recounted(claude, tmp_path)
