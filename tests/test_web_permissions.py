"""The permissions pages show what ``cclens permissions`` shows, from settings only ever read.

A real uvicorn server over a copy of the corpus, driven with httpx; the expected audit comes
from :mod:`cclens.reports.permission_audit` over the same folder.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import msgspec
import pytest

from cclens.figures.period import Period
from cclens.permissions import AddRules, parse_permission_update
from cclens.readers.claude import discover
from cclens.render.parts import element_ids
from cclens.reports.permission_audit import audit_transcripts, permission_audit
from cclens.reports.stats import load_period
from cclens.web import RunningServer

from .test_index_layout import make_claude_dir, snapshot
from .test_usage import (
    PROJECT,
    SESSION,
    assistant,
    project_dir,
    prompt,
    tool_result,
    tool_use,
    usage,
    write,
)
from .test_web import running

DEEP_MANIFEST = "-iansherr__claude-code-log-test-test_data-real_projects--src-deep-manifest"
#: A project with several sessions.
SAMPLE = (
    "-iansherr__claude-code-log-test-test_data-real_projects--Users-dain-workspace-"
    "claude-code-log-sample"
)


@pytest.fixture(scope="module")
def claude_dir(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))


@pytest.fixture(scope="module")
def server(claude_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running([claude_dir], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as opened:
        yield opened


def plain(value: object) -> Any:
    return json.loads(msgspec.json.encode(value))


def expected_audit(claude_dir: Path, project: str) -> dict[str, Any]:
    """The audit of ``project``'s sessions read from the files, oldest session first."""
    sessions = load_period(discover(claude_dir), Period(), project).sessions
    sessions.sort(key=lambda s: (s.started is None, s.started or datetime.min, str(s.path)))
    found: dict[str, Any] = plain(permission_audit(sessions, claude_dir=str(claude_dir)))
    return found


def without_ids(audit: dict[str, Any]) -> dict[str, Any]:
    """An audit without its session ids: the index names a subagent file found without its
    session by the file (``agent-…``), the analytics by the session id its records carry."""
    found = {key: value for key, value in audit.items() if key != "sessions"}
    for key in ("calls", "rejected"):
        found[key] = sorted(
            ({**call, "session_id": None} for call in audit[key]),
            key=lambda call: (call["timestamp"] or "", call["tool_use_id"]),
        )
    found["suggestions"] = sorted(audit["suggestions"], key=lambda s: s["rule"])
    return found


def without_examples(audit: dict[str, Any]) -> dict[str, Any]:
    """:func:`without_ids`, and suggestions without their examples (the first calls met, which
    depend on the order the sessions were read in)."""
    found = without_ids(audit)
    found["suggestions"] = [
        {key: value for key, value in suggestion.items() if key != "examples"}
        for suggestion in found["suggestions"]
    ]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("project", [DEEP_MANIFEST, SAMPLE])
def test_the_project_api_is_the_audit(client: httpx.Client, claude_dir: Path, project: str) -> None:
    answer = client.get(f"/api/projects/{quote(project)}/permissions").json()
    assert answer["claude_dir"] == str(claude_dir)
    expected = expected_audit(claude_dir, project)["projects"]
    assert [without_ids(a) for a in answer["projects"]] == [without_ids(a) for a in expected]
    mine_calls = [call for audit in answer["projects"] for call in audit["calls"]]
    theirs = [call for audit in expected for call in audit["calls"]]
    # The same calls in the same order: oldest session first.
    assert [c["tool_use_id"] for c in mine_calls] == [c["tool_use_id"] for c in theirs]
    assert [len(a["sessions"]) for a in answer["projects"]] == [
        len(a["sessions"]) for a in expected
    ]
    # And what `cclens permissions PROJECT --json` prints, but for the order of its sessions.
    cli = plain(audit_transcripts([claude_dir], claude_dir=str(claude_dir), project=project))
    assert answer["diagnostics"] == cli["diagnostics"]
    assert [without_examples(a) for a in answer["projects"]] == [
        without_examples(a) for a in cli["projects"]
    ]


def test_the_overview_counts_each_projects_audit(client: httpx.Client) -> None:
    rows = client.get("/api/permissions").json()["projects"]
    assert len(rows) > 10 and all(row["calls"] > 0 for row in rows)
    asks = [row["ask"] for row in rows]
    assert asks == sorted(asks, reverse=True)  # the projects with most prompts first
    row = next(row for row in rows if row["project"] == DEEP_MANIFEST)
    (audit,) = client.get(f"/api/projects/{quote(DEEP_MANIFEST)}/permissions").json()["projects"]
    assert row["calls"] == len(audit["calls"]) > 50
    for behavior in ("allow", "ask", "deny"):
        assert row[behavior] == sum(1 for call in audit["calls"] if call["behavior"] == behavior)
    assert row["rejected"] == len(audit["rejected"]) >= 1
    assert row["suggestions"] == audit["suggestions"][:5]
    assert row["url"] == f"/projects/{DEEP_MANIFEST}/permissions"
    page = client.get("/permissions").text
    assert 'href="/permissions"' in client.get("/").text  # linked from the navigation
    assert f'<tr data-project="{DEEP_MANIFEST}">' in page
    assert "Suggested rules that would save the most prompts" in page


def copied_updates(page: str, kind: str = "update-json") -> list[Any]:
    """The JSON a person copies from the page, as it would be pasted."""
    blocks = re.findall(rf'<pre class="{kind}"><code>(.*?)</code></pre>', page, re.S)
    return [json.loads(html.unescape(block)) for block in blocks]


def test_the_project_page(client: httpx.Client, claude_dir: Path) -> None:
    response = client.get(f"/projects/{quote(DEEP_MANIFEST)}/permissions")
    assert response.status_code == 200
    page = response.text
    (audit,) = expected_audit(claude_dir, DEEP_MANIFEST)["projects"]
    # The suggestions, ranked, each with the file it goes in, a button that copies its rule as
    # that file's permissions.allow holds it (what the page says to paste), and its
    # PermissionUpdate as JSON.
    updates = copied_updates(page)
    rules = copied_updates(page, "rule-line")
    suggestions = audit["suggestions"]
    assert rules == [s["rule"] for s in suggestions]
    assert updates[: len(suggestions)] == [s["update"] for s in suggestions]
    assert page.count("data-copy") == len(updates) + len(rules)
    assert "Paste into <code>permissions.allow</code> of" in page
    for suggestion in suggestions:
        assert html.escape(suggestion["settings_path"]) in page
    for update in updates:
        parsed = parse_permission_update(update)
        assert isinstance(parsed, AddRules) and parsed.behavior == "allow"
        assert plain(parsed) == update  # the seed's shape, field for field
    positions = [page.index(html.escape(s["rule"], quote=False)) for s in suggestions[:5]]
    assert positions == sorted(positions)
    # The rejected calls, and every call with its decision, linking to the call in its session.
    for call in audit["rejected"]:
        assert f"#tool-{call['tool_use_id']}" in page
    rows = re.findall(r'<tr data-behavior="(allow|ask|deny)">', page)
    assert rows == [call["behavior"] for call in audit["calls"]][:200]
    link = re.search(r'href="(/sessions/[^"#]+)#tool-([^"]+)"', page)
    assert link is not None
    session = client.get(link.group(1)).text
    assert f"tool-{link.group(2)}" in element_ids(session)  # drawn, or in a folded part
    asked = client.get(f"/projects/{quote(DEEP_MANIFEST)}/permissions?decision=ask").text
    assert set(re.findall(r'<tr data-behavior="(\w+)">', asked)) == {"ask"}
    assert "<script>" not in page and " style=" not in page


def test_unknown_projects_are_404(client: httpx.Client) -> None:
    assert client.get("/projects/no-such-project/permissions").status_code == 404
    missing = client.get("/api/projects/no-such-project/permissions")
    assert missing.status_code == 404 and missing.json() == {"error": "no project no-such-project"}


def _pytest_calls(client: httpx.Client) -> list[dict[str, Any]]:
    (audit,) = client.get(f"/api/projects/{quote(DEEP_MANIFEST)}/permissions").json()["projects"]
    return [c for c in audit["calls"] if c["tool"] == "Bash" and c["subject"].startswith("pytest")]


@pytest.mark.slow
def test_settings_are_read_never_written_and_changes_show(corpus: Path, tmp_path: Path) -> None:
    root = make_claude_dir(corpus, tmp_path / "claude")
    settings = root / "settings.json"
    with (
        running([root], tmp_path / "index.db", watch=False) as started,
        httpx.Client(base_url=started.url, timeout=60) as client,
    ):
        before = _pytest_calls(client)
        assert before and all(call["behavior"] == "ask" for call in before)
        suggested = client.get(f"/projects/{quote(DEEP_MANIFEST)}/permissions").text
        assert "Bash(pytest:*)" in suggested
        settings.write_text(json.dumps({"permissions": {"allow": ["Bash(pytest:*)"]}}))
        files = snapshot(root)
        after = _pytest_calls(client)
        page = client.get(f"/projects/{quote(DEEP_MANIFEST)}/permissions").text
        client.get("/permissions")
        assert snapshot(root) == files  # read, never written
    assert len(after) == len(before)
    assert all(call["behavior"] == "allow" for call in after)
    assert {call["rule"] for call in after} == {"Bash(pytest:*)"}
    assert {call["destination"] for call in after} == {"userSettings"}
    assert {call["settings_path"] for call in after} == {str(settings)}
    assert "Bash(pytest:*)</code>" in page  # now a rule that decided, no longer a suggestion
    assert '"ruleContent":"pytest:*"' not in html.unescape(page)


def test_untrusted_text_is_escaped_on_the_permissions_pages(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    folder = project_dir(tmp_path / "claude")
    write(
        folder / f"{SESSION}.jsonl",
        [
            prompt("u0", "go", time="2025-06-01T09:00:00.000Z"),
            assistant(
                "a1",
                "msg_1",
                usage(output=1),
                parent="u0",
                time="2025-06-01T09:00:05.000Z",
                content=[tool_use("toolu_1", "Bash", {"command": f"echo '{hostile}'"})],
            ),
            tool_result(
                "r1",
                "toolu_1",
                "The user doesn't want to proceed with this tool use.",
                parent="a1",
                time="2025-06-01T09:00:09.000Z",
                is_error=True,
            ),
        ],
    )
    with (
        running([tmp_path / "claude"], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        pages = [client.get("/permissions").text]
        pages.append(client.get(f"/projects/{quote(PROJECT)}/permissions").text)
        (audit,) = client.get(f"/api/projects/{quote(PROJECT)}/permissions").json()["projects"]
    assert [call["status"] for call in audit["rejected"]] == ["rejected"]
    for page in pages[1:]:
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page


@pytest.mark.slow
def test_an_empty_index_has_nothing_to_audit(tmp_path: Path) -> None:
    with (
        running([], tmp_path / "i.db", watch=False) as started,
        httpx.Client(base_url=started.url) as client,
    ):
        assert client.get("/api/permissions").json() == {"projects": []}
        page = client.get("/permissions")
    assert page.status_code == 200 and "No recorded tool calls yet" in page.text
