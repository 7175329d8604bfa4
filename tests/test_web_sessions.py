"""The sessions view and project list over HTTP (pages and JSON), and ``cclens sessions``."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import httpx
import msgspec
import pytest

from cclens.web import RunningServer

from . import test_web
from .test_index_cli import run

#: A server over a copy of the corpus, and its client (one per module).
server = test_web.server
client = test_web.client

DEEP_MANIFEST = "-iansherr__claude-code-log-test-test_data-real_projects--src-deep-manifest"
SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"


def _rows(html: str) -> list[str]:
    return re.findall(r'<tr data-session="([^"]+)"', html)


@pytest.mark.slow
def test_the_home_page_leads_with_the_most_recent_sessions(client: httpx.Client) -> None:
    listed = client.get("/api/sessions", params={"limit": 50}).json()
    html = client.get("/").text
    assert "<h1>Sessions</h1>" in html
    assert _rows(html) == [s["id"] for s in listed["sessions"]]
    assert 'href="/projects"' in html  # the projects are one click away
    assert ">State<" not in html
    for heading in (
        "Session",
        "Project",
        "Last activity",
        "Duration",
        "Prompts",
        "Tool calls",
        "Failed",
        "Tokens",
        "Cost",
        "Models",
        "Branch",
        "Version",
        "Archived",
    ):
        assert f">{heading}</a></th>" in html or f">{heading}<span" in html, heading


def test_the_api_filters_sorts_and_pages(client: httpx.Client) -> None:
    everything = client.get("/api/sessions", params={"limit": 500}).json()
    assert everything["total"] == len(everything["sessions"]) > 100
    by_cost = client.get("/api/sessions", params={"sort": "cost", "limit": 5}).json()
    costs = [s["cost"] for s in by_cost["sessions"]]
    assert costs == sorted(costs, reverse=True) and by_cost["order"] == "desc"
    cheap = client.get("/api/sessions", params={"sort": "cost", "order": "asc"}).json()
    assert cheap["sessions"][0]["cost"] <= costs[-1]
    failing = client.get("/api/sessions", params={"errors": "1", "limit": 500}).json()
    assert failing["total"] == sum(1 for s in everything["sessions"] if s["errors"])
    assert failing["filters"]["errors"] is True
    project = client.get("/api/sessions", params={"project": "/src/deep-manifest"}).json()
    assert {s["project"] for s in project["sessions"]} == {DEEP_MANIFEST}
    text = client.get("/api/sessions", params={"q": "music", "model": "sonnet"}).json()
    assert text["total"] > 0
    assert all(any("sonnet" in m for m in s["models"]) for s in text["sessions"])
    dated = client.get("/api/sessions", params={"since": "2025-07-01", "until": "2025-07-31"})
    assert dated.status_code == 200 and 0 < dated.json()["total"] < everything["total"]
    second = client.get("/api/sessions", params={"limit": 10, "offset": 10}).json()
    assert [s["id"] for s in second["sessions"]] == [s["id"] for s in everything["sessions"][10:20]]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"sort": "size"}, "sort: 'size' is not one of"),
        ({"order": "up"}, "order: 'up' is not asc or desc"),
        ({"since": "June"}, "since:"),
        ({"errors": "maybe"}, "errors: 'maybe' is not 1 or 0"),
        ({"limit": "ten"}, "limit: 'ten' is not a number"),
    ],
)
def test_a_bad_parameter_gives_400_naming_it(
    client: httpx.Client, params: dict[str, str], message: str
) -> None:
    answer = client.get("/api/sessions", params=params)
    assert answer.status_code == 400 and message in answer.json()["error"]
    page = client.get("/sessions", params=params)
    assert page.status_code == 400 and message in unescape(page.text)


def test_the_page_keeps_its_filters_in_the_form_and_the_sort_links(client: httpx.Client) -> None:
    html = client.get("/sessions", params={"q": "music", "errors": "1", "sort": "cost"}).text
    assert 'name="q" value="music"' in html
    assert '<option value="1" selected>with failed calls</option>' in html
    assert 'aria-sort="descending"' in html
    # The sorted column's link reverses the order; the others keep the filters.
    assert unescape('href="/sessions?q=music&amp;errors=1&amp;sort=cost&amp;order=asc"') in (
        unescape(html)
    )
    assert "/sessions?q=music&errors=1&sort=prompts" in unescape(html)


def test_a_project_page_is_the_sessions_view_of_that_project(client: httpx.Client) -> None:
    html = client.get(f"/projects/{quote(DEEP_MANIFEST)}", params={"sort": "title"}).text
    listed = client.get("/api/sessions", params={"project": DEEP_MANIFEST, "sort": "title"}).json()
    assert _rows(html) == [s["id"] for s in listed["sessions"]] and listed["total"] >= 1
    assert "<h1>/src/deep-manifest</h1>" in html


def test_the_project_list_filters_and_sorts_the_same_way(client: httpx.Client) -> None:
    projects = client.get("/api/projects", params={"sort": "sessions"}).json()
    counts = [p["sessions"] for p in projects]
    assert counts == sorted(counts, reverse=True)
    failing = client.get("/api/projects", params={"errors": "1"}).json()
    sessions = client.get("/api/sessions", params={"errors": "1", "limit": 500}).json()
    assert sum(p["sessions"] for p in failing) == sessions["total"]
    html = client.get("/projects", params={"errors": "1", "sort": "cost"}).text
    # Each project links to its sessions with the same filters.
    assert f'href="/projects/{quote(DEEP_MANIFEST, safe="")}?errors=1"' in html
    assert client.get("/projects", params={"sort": "duration"}).status_code == 400


def test_resume_commands_for_the_session_and_each_message(client: httpx.Client) -> None:
    found = client.get(f"/api/sessions/{SMALL}/resume").json()
    command = f"cd '/Users/chip/dev/ai-music' && claude --resume {SMALL}"
    assert found["resume"]["command"] == command
    assert len(found["fork"]) >= 4
    for anchor, point in found["fork"].items():
        assert point["command"] == f"{command} --fork-session --resume-session-at={point['at']}"
        assert anchor
    assert client.get("/api/sessions/nope/resume").status_code == 404
    row = client.get("/sessions", params={"q": SMALL}).text
    assert f'data-copy-text="{command}"' in unescape(row)
    page = client.get(f"/sessions/{SMALL}").text
    assert f'data-resume="/api/sessions/{SMALL}/resume"' in page


def test_cclens_sessions_prints_what_the_api_answers(
    server: RunningServer, client: httpx.Client
) -> None:
    db = str(server.app.state.cclens.settings.db_path)
    params = {"model": "sonnet", "errors": "1", "sort": "tokens", "limit": "7"}
    code, out, _ = run(
        "sessions", "--db", db, "--no-update", "--model", "sonnet", "--errors",
        "--sort", "tokens", "--limit", "7", "--json",
    )  # fmt: skip
    assert code == 0
    assert msgspec.json.decode(out) == client.get("/api/sessions", params=params).json()
    code, out, _ = run("sessions", "--db", db, "--no-update", "--limit", "3")
    assert code == 0 and "of 109 sessions" in out.replace(",", "")
    code, _, err = run("sessions", "--db", db, "--no-update", "--since", "June")
    assert code == 2 and "not a date" in err
