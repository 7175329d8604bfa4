"""Plan limits from the index: for each agent and window, the use now, the time to the reset,
the pace and the history; and how much of each window a session's time took.

Every surface (``cclens limits``, ``/api/limits`` and the dashboard's chart, the session page)
reads these; the definitions are in :mod:`cclens.figures.limits`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..figures.limits import (
    CLAUDE,
    LimitSample,
    WindowNow,
    periods,
    used_between,
    window_label,
    window_now,
)
from ..index import Index
from ..index.read import rate_limits as stored


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a window (between two resets): when it ended or ends, and the highest
    use seen in it."""

    resets_at: datetime | None
    peak_percent: float
    samples: int


@dataclass(frozen=True, slots=True)
class WindowReport:
    """One agent's window: where it stands now, its samples (oldest first) and periods."""

    now: WindowNow
    history: list[LimitSample]
    periods: list[Period]

    @property
    def agent(self) -> str:
        return self.now.agent

    @property
    def window(self) -> str:
        return self.now.window

    @property
    def label(self) -> str:
        """What people call the window (``5-hour``, ``weekly``)."""
        return window_label(self.now.window)


@dataclass(frozen=True, slots=True)
class WindowUse:
    """How many points of a window's use a span of time took (see :func:`session_use`)."""

    agent: str
    window: str
    points: float

    @property
    def label(self) -> str:
        return window_label(self.window)


@dataclass(frozen=True, slots=True)
class LimitsReport:
    """Every window the index has samples of, by agent then window, at ``now``."""

    now: datetime
    windows: list[WindowReport]


def _window_order(window: str) -> tuple[int, str]:
    return ({"five_hour": 0, "seven_day": 1}.get(window, 2), window)


def build_report(found: Sequence[LimitSample], now: datetime) -> LimitsReport:
    """The report of the samples ``found`` at ``now``."""
    grouped: dict[tuple[str, str], list[LimitSample]] = {}
    for sample in found:
        grouped.setdefault((sample.agent, sample.window), []).append(sample)
    windows = []
    for key in sorted(grouped, key=lambda key: (key[0], *_window_order(key[1]))):
        history = sorted(grouped[key], key=lambda s: s.at)
        current = window_now(history, now)
        assert current is not None
        cut = [
            Period(part[-1].resets_at, max(s.used_percent for s in part), len(part))
            for part in periods(history)
        ]
        windows.append(WindowReport(current, history, cut))
    return LimitsReport(now, windows)


def limits_report(
    index: Index, now: datetime, *, agent: str | None = None, since: datetime | None = None
) -> LimitsReport:
    """Every window's figures from the samples the index holds (of ``agent``). With ``since``,
    the history starts there; a window with no sample since keeps its latest one (where its
    use now comes from), however old."""
    with index.connection() as connection:
        if since is None:
            found = stored.samples(connection, agent=agent)
        else:
            found = stored.around(connection, since, now)
    found = [s for s in found if agent is None or s.agent == agent]
    if since is not None:
        recent = {(s.agent, s.window) for s in found if s.at >= since}
        found = [s for s in found if s.at >= since or (s.agent, s.window) not in recent]
    return build_report(found, now)


def session_use(
    index: Index,
    start: datetime | None,
    end: datetime | None,
    session_id: str = "",
    agent: str = CLAUDE,
) -> list[WindowUse]:
    """How many points each window's use rose while a session ran (from ``start`` to
    ``end``), for its agent's windows with samples in that time
    (the agent whose samples came with ``session_id``; ``agent``'s, the session's own agent,
    when none did). Other sessions of the same plan at the same time count too: a window is
    the plan's, not the session's."""
    if start is None or end is None:
        return []
    with index.connection() as connection:
        found = stored.around(connection, start, end)
    agents = {sample.agent for sample in found if session_id and sample.session == session_id}
    grouped: dict[tuple[str, str], list[LimitSample]] = {}
    for sample in found:
        if sample.agent in (agents or {agent}):
            grouped.setdefault((sample.agent, sample.window), []).append(sample)
    used = []
    for (agent, window), history in sorted(
        grouped.items(), key=lambda item: (item[0][0], *_window_order(item[0][1]))
    ):
        points = used_between(history, start, end)
        if points is not None:
            used.append(WindowUse(agent, window, points))
    return used


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def report_json(report: LimitsReport) -> dict[str, Any]:
    """The report as ``cclens limits --json`` and ``/api/limits`` give it."""
    windows = []
    for entry in report.windows:
        state = entry.now
        pace = state.pace
        windows.append(
            {
                "agent": entry.agent,
                "window": entry.window,
                "label": entry.label,
                "used_percent": state.used_percent,
                "reset_since_sample": state.reset_since,
                "sampled_at": _iso(state.latest.at),
                "resets_at": _iso(state.latest.resets_at),
                "resets_in_seconds": state.resets_in.total_seconds()
                if state.resets_in is not None
                else None,
                "window_minutes": state.latest.window_minutes,
                "pace": None
                if pace is None
                else {
                    "started": _iso(pace.started),
                    "projected_percent": pace.projected_percent,
                    "full_at": _iso(pace.full_at),
                },
                "periods": [
                    {
                        "resets_at": _iso(period.resets_at),
                        "peak_percent": period.peak_percent,
                        "samples": period.samples,
                    }
                    for period in entry.periods
                ],
                "history": [
                    {
                        "at": _iso(sample.at),
                        "used_percent": sample.used_percent,
                        "resets_at": _iso(sample.resets_at),
                        "session": sample.session,
                    }
                    for sample in entry.history
                ],
            }
        )
    return {"now": _iso(report.now), "windows": windows}


__all__ = [
    "LimitsReport",
    "Period",
    "WindowReport",
    "WindowUse",
    "build_report",
    "limits_report",
    "report_json",
    "session_use",
]
