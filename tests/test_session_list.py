"""The sessions view's one listing: every filter and sort key, pages, projects added up."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cclens.figures.figures import figures_by_session, session_figures, tally
from cclens.index import (
    PROJECT_SORTS,
    SESSION_SORTS,
    Index,
    ListError,
    SessionFilters,
    SessionSummary,
)
from cclens.readers.claude import discover, load, load_session

from .test_index_layout import make_claude_dir


@pytest.fixture(scope="module")
def root(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_claude_dir(corpus, tmp_path_factory.mktemp("claude"))


@pytest.fixture(scope="module")
def index(root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    with Index(tmp_path_factory.mktemp("db") / "index.db") as opened:
        opened.update([root])
        yield opened


@pytest.fixture(scope="module")
def everything(index: Index) -> list[SessionSummary]:
    return index.sessions().sessions


def _version(text: str) -> tuple[tuple[int, int | str], ...]:
    """``2.1.9`` before ``2.1.114``; a version that is not numbers after those that are."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in text.split("."))


#: How Python would sort by each key: the value (``None`` for an empty one).
SORT_VALUES: dict[str, Callable[[SessionSummary], Any]] = {
    "last_activity": lambda s: s.last_activity,
    "started": lambda s: s.started,
    "title": lambda s: s.title.casefold() or None,
    "project": lambda s: s.project_path.casefold(),
    "duration": lambda s: s.duration_seconds,
    "prompts": lambda s: s.prompts,
    "tool_calls": lambda s: s.tool_calls,
    "failures": lambda s: s.errors,
    "tokens": lambda s: s.tokens,
    "cost": lambda s: s.cost,
    "models": lambda s: s.models or None,
    "branch": lambda s: s.git_branch.casefold() if s.git_branch else None,
    "version": lambda s: _version(s.version) if s.version else None,
    "archived": lambda s: s.archived_at,
    "agent": lambda s: s.agent,
}


def test_every_sort_key_is_tested() -> None:
    assert set(SORT_VALUES) == set(SESSION_SORTS)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SESSION_SORTS))
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_each_sort_orders_every_session(index: Index, key: str, order: str) -> None:
    page = index.sessions(sort=key, order=order)
    assert (page.sort, page.order) == (key, order)
    values = [SORT_VALUES[key](session) for session in page]
    present = [value for value in values if value is not None]
    # Empty values come last whichever the order.
    assert values == present + [None] * (len(values) - len(present))
    if key == "models":  # the JSON array, as text
        present = [json.dumps(value, separators=(",", ":")) for value in present]
    assert present == sorted(present, reverse=order == "desc")


def test_the_natural_order_of_each_key(index: Index) -> None:
    assert index.sessions().order == "desc"  # the most recent first
    assert index.sessions(sort="title").order == "asc"
    assert index.sessions(sort="cost").order == "desc"


def test_pages(index: Index, everything: list[SessionSummary]) -> None:
    first = index.sessions(limit=10)
    second = index.sessions(limit=10, offset=10)
    assert first.total == second.total == len(everything) > 100
    assert [s.key for s in first] + [s.key for s in second] == [s.key for s in everything[:20]]
    assert first.more and len(first) == 10
    last = index.sessions(limit=10, offset=len(everything) - 3)
    assert len(last) == 3 and not last.more


def _kept(everything: list[SessionSummary], keep: Callable[[SessionSummary], bool]) -> set[str]:
    return {s.key for s in everything if keep(s)}


def _keys(index: Index, filters: SessionFilters) -> set[str]:
    page = index.sessions(filters)
    assert page.total == len(page)
    return {s.key for s in page}


def test_each_filter(index: Index, everything: list[SessionSummary]) -> None:
    project = next(s for s in everything if s.project_path == "/src/deep-manifest")
    assert _keys(index, SessionFilters(project=project.project)) == _kept(
        everything, lambda s: s.project == project.project
    )
    assert _keys(index, SessionFilters(project="/src/deep-manifest")) == _kept(
        everything, lambda s: s.project == project.project
    )
    part = _keys(index, SessionFilters(project="real_projects"))
    assert part == _kept(everything, lambda s: "real_projects" in s.project) and part
    assert _keys(index, SessionFilters(project="no such project")) == set()

    assert _keys(index, SessionFilters(errors=True)) == _kept(everything, lambda s: s.errors > 0)
    assert _keys(index, SessionFilters(errors=False)) == _kept(everything, lambda s: not s.errors)
    assert _keys(index, SessionFilters(archived=False)) == {s.key for s in everything}
    assert _keys(index, SessionFilters(archived=True)) == set()

    opus = _keys(index, SessionFilters(model="opus"))
    assert opus == _kept(everything, lambda s: any("opus" in m for m in s.models)) and opus
    branch = next(s.git_branch for s in everything if s.git_branch)
    assert _keys(index, SessionFilters(branch=branch)) == _kept(
        everything, lambda s: s.git_branch == branch
    )

    music = _keys(index, SessionFilters(text="MUSIC"))
    assert music == _kept(
        everything,
        lambda s: any(
            "music" in field.casefold()
            for field in (s.title, s.first_prompt, s.cwd or "", s.project_path, s.project, s.key)
        ),
    )
    assert music and _keys(index, SessionFilters(text="music zzzzqx")) == set()
    assert _keys(index, SessionFilters(text="100%_")) == set()  # wildcards are literal


def test_dates_keep_sessions_active_in_the_span(
    index: Index, everything: list[SessionSummary]
) -> None:
    middle = sorted(s.last_activity for s in everything if s.last_activity)[60]
    since, until = middle - timedelta(days=30), middle
    kept = _keys(index, SessionFilters(since=since, until=until))

    def active(session: SessionSummary) -> bool:
        first, last = session.started or session.ended, session.last_activity
        return first is not None and last is not None and last >= since and first < until

    assert kept == _kept(everything, active)
    assert kept and _keys(index, SessionFilters(since=datetime(2100, 1, 1, tzinfo=UTC))) == set()


def test_filters_combine(index: Index, everything: list[SessionSummary]) -> None:
    both = _keys(index, SessionFilters(model="sonnet", errors=True))
    assert both == _kept(
        everything, lambda s: s.errors > 0 and any("sonnet" in m for m in s.models)
    )


def test_unknown_sort_keys_and_orders_are_refused(index: Index) -> None:
    with pytest.raises(ListError, match="sort: 'size' is not one of last_activity"):
        index.sessions(sort="size")
    with pytest.raises(ListError, match="order"):
        index.sessions(order="sideways")
    with pytest.raises(ListError):
        index.projects(sort="duration")


def test_projects_add_up_the_sessions_the_filters_keep(
    index: Index, everything: list[SessionSummary]
) -> None:
    filters = SessionFilters(errors=True)
    kept = [s for s in everything if s.errors]
    projects = index.projects(filters)
    assert {p.slug for p in projects} == {s.project for s in kept}
    for project in projects:
        mine = [s for s in kept if s.project == project.slug]
        assert project.sessions == len(mine)
        assert project.prompts == sum(s.prompts for s in mine)
        assert project.errors == sum(s.errors for s in mine)
        assert project.tokens == sum(s.tokens for s in mine)
        assert project.cost == pytest.approx(
            math.fsum(s.cost for s in mine if s.cost is not None)
            if any(s.cost is not None for s in mine)
            else None
        )
    every = index.projects()
    assert sum(p.sessions for p in every) == len(everything)
    for key in PROJECT_SORTS:
        ordered = index.projects(sort=key)
        assert len(ordered) == len(every), key
    by_sessions = [p.sessions for p in index.projects(sort="sessions")]
    assert by_sessions == sorted(by_sessions, reverse=True)
    names = [p.name.casefold() for p in index.projects(sort="project")]
    assert names == sorted(names)


@pytest.mark.slow
def test_cost_and_tokens_are_the_analytics_figures(
    index: Index, everything: list[SessionSummary], root: Path
) -> None:
    # Each response counted once across a project's sessions (a resumed session's copies go to
    # the earlier one), tokens and cost alike: what cclens.figures.figures gives per session.
    figures = figures_by_session(tally([load(file) for file in discover(root).sessions]))
    priced_sessions = shared = 0
    for summary in everything:
        expected = figures[Path(summary.path)]
        on_its_own = session_figures(load_session(summary.path))
        shared += expected.tokens.total != on_its_own.tokens.total
        assert summary.tokens == expected.tokens.total, summary.key
        assert summary.unpriced == expected.unpriced_responses, summary.key
        if expected.cost is None:
            assert summary.cost is None, summary.key
        else:
            priced_sessions += 1
            assert summary.cost == pytest.approx(expected.cost, rel=1e-12), summary.key
    assert priced_sessions > 20
    assert shared  # the corpus has sessions that hold copies of others' responses


def test_versions(index: Index, everything: list[SessionSummary]) -> None:
    for summary in everything:
        loaded = index.load(summary.key)
        assert loaded is not None
        if loaded.versions:
            assert summary.version == max(loaded.versions, key=_version)
        else:
            assert summary.version is None


def test_the_json_of_a_page(index: Index) -> None:
    page = index.sessions(SessionFilters(model="opus"), sort="cost", limit=2)
    found = page.as_json()
    assert found["total"] == page.total and found["sort"] == "cost" and found["order"] == "desc"
    assert found["filters"]["model"] == "opus"
    first = found["sessions"][0]
    assert first["cost"] >= found["sessions"][1]["cost"]
    assert first["resume"]["command"].startswith("cd '")
    assert first["resume"]["argv"] == ["claude", "--resume", first["session_id"]]
    assert first["url"] == f"/sessions/{first['id']}"
