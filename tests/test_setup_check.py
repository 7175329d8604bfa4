"""``cclens setup --check``: what is installed, the hook's last run, the archive's size, and
the transcripts Claude Code will soon delete that the index does not hold."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cclens.setup.check import AT_RISK_DAYS

from .test_hook import SOURCE, SRC
from .test_setup_cli import OWN, Home

DAY = 86400


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    return Home(tmp_path, monkeypatch)


def _transcript(home: Home, name: str, age_days: float) -> Path:
    project = home.claude / "projects" / "-home-me-app"
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{name}.jsonl"
    path.write_bytes(SOURCE.read_bytes())
    moment = time.time() - age_days * DAY
    os.utime(path, (moment, moment))
    return path


def _hook(home: Home, transcript: Path) -> None:
    payload = {
        "session_id": transcript.stem,
        "transcript_path": str(transcript),
        "cwd": "/home/me/app",
        "hook_event_name": "SessionEnd",
        "reason": "clear",
    }
    subprocess.run(
        [sys.executable, "-m", "cclens", "hook", "--wait"],
        input=json.dumps(payload),
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )


@pytest.mark.slow
def test_check_before_and_after_setup(home: Home) -> None:
    home.settings.write_text(OWN)
    archived_old = _transcript(home, "archived-old", 28)
    before = home.setup("--check")
    assert before.exit_code == 0, before.output
    assert "SessionEnd hook:  not installed" in before.output
    assert "Last hook: never ran" in before.output
    assert "no index yet" in before.output

    assert home.setup("--yes", "--no-mcp").exit_code == 0
    # The session ends: the hook archives it (a first hook reads the Claude folder whole).
    _hook(home, archived_old)
    os.utime(archived_old, (time.time() - 28 * DAY, time.time() - 28 * DAY))
    at_risk = _transcript(home, "at-risk", 27)
    _transcript(home, "recent", 1)  # not archived, but 29 days to go
    past = _transcript(home, "past", 31)  # deleted when Claude Code next starts
    after = home.setup("--check")
    assert after.exit_code == 0, after.output
    assert "SessionEnd hook:  installed" in after.output
    assert "PreCompact hook:  installed" in after.output
    assert "status line:  cclens's, after yours (~/.claude/my line.sh)" in after.output
    assert "MCP server:   not installed" in after.output
    assert "Claude Code deletes a transcript 30 days after its last activity" in after.output
    assert re.search(r"^Last hook: \S+ ago: archived$", after.output, re.M)
    assert "Archive:" in after.output and "1 session (0 only in the archive)" in after.output
    assert f"At risk: 2 transcripts Claude Code deletes within {AT_RISK_DAYS} days" in after.output
    assert str(at_risk) in after.output and str(past) in after.output
    assert str(archived_old) not in after.output
    assert "deleted when Claude Code next starts" in after.output

    data = json.loads(home.setup("--check", "--json").output)
    assert data["hooks"] == {"SessionEnd": True, "PreCompact": True}
    assert data["status_line"]["chained"] == "~/.claude/my line.sh"
    assert data["hook_last_run"]["outcome"] == "archived"
    assert data["sessions"] == 1 and data["index_bytes"] > 0
    assert data["transcripts"] == 4
    assert [risk["path"] for risk in data["at_risk"]] == [str(past), str(at_risk)]
    assert all(risk["missing"] == SOURCE.stat().st_size for risk in data["at_risk"])


def test_check_names_a_settings_file_it_cannot_read(home: Home) -> None:
    home.settings.write_text("{not json")
    result = home.setup("--check")
    assert result.exit_code == 0
    assert "cannot be read" in result.output and "not valid JSON" in result.output
