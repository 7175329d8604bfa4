"""The dashboard's activity calendar (days by weeks) and day-by-hour grid, as the template
draws them (``_activity.html``): cells with a count and a shade from 0 (none) to 4 (the most).

Both come from figures every surface gives (:class:`~cclens.web.dashboard_figures.DashboardFigures`:
``days``, the responses and sessions of each day; ``day_hours``, the responses of each hour of
the last days with any); here they are only laid out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta

from ..figures.aggregate import DayHours, UsageRow

__all__ = ["Calendar", "CalendarDay", "HourGrid", "HourRow", "calendar", "hour_grid", "shade"]

#: The longest calendar drawn: a year of weeks (the last ones of the period).
MAX_WEEKS = 53
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _day(key: str) -> date | None:
    """The day a row of days is (``None`` for the row of responses without a time)."""
    try:
        return date.fromisoformat(key)
    except ValueError:
        return None


def shade(count: int, most: int) -> int:
    """0 for nothing, else 1 to 4 by the count's share of the most (square-root scaled, so a
    quiet day still shows)."""
    if count <= 0 or most <= 0:
        return 0
    return max(1, min(4, math.ceil(4 * math.sqrt(count / most))))


@dataclass(frozen=True, slots=True)
class CalendarDay:
    """One day of the calendar: ``day`` (``None`` for the cells before the first day and
    after the last), its responses and sessions, and its shade."""

    day: date | None
    responses: int = 0
    sessions: int = 0
    cost: float | None = None
    level: int = 0


@dataclass(frozen=True, slots=True)
class Calendar:
    """Weeks (Monday first) of seven days each, oldest first; ``months``: the label of each
    week's column (the month's name on the first week of a month, else empty)."""

    weeks: list[list[CalendarDay]]
    months: list[str]
    most: int
    weekdays: tuple[str, ...] = WEEKDAYS


def calendar(days: list[UsageRow]) -> Calendar | None:
    """The calendar of the days with responses (``None`` when there are none)."""
    counted = {day: row for row in days if row.responses and (day := _day(row.key)) is not None}
    if not counted:
        return None
    last = max(counted)
    first = max(min(counted), last - timedelta(weeks=MAX_WEEKS - 1, days=last.weekday()))
    start = first - timedelta(days=first.weekday())
    most = max(row.responses for row in counted.values())
    weeks: list[list[CalendarDay]] = []
    months: list[str] = []
    current = start
    while current <= last:
        week: list[CalendarDay] = []
        for _ in range(7):
            row = counted.get(current)
            if current < first or current > last:
                week.append(CalendarDay(None))
            elif row is None:
                week.append(CalendarDay(current))
            else:
                week.append(
                    CalendarDay(
                        current, row.responses, row.sessions, row.cost, shade(row.responses, most)
                    )
                )
            current += timedelta(days=1)
        opens = next((d.day for d in week if d.day is not None and d.day.day <= 7), None)
        months.append(opens.strftime("%b") if opens is not None else "")
        weeks.append(week)
    return Calendar(weeks, months, most)


@dataclass(frozen=True, slots=True)
class HourRow:
    """One day of the day-by-hour grid: its 24 counts with their shades."""

    day: date
    hours: list[tuple[int, int]]
    total: int


@dataclass(frozen=True, slots=True)
class HourGrid:
    """Days (oldest first) by hours of the day."""

    rows: list[HourRow]
    most: int


def hour_grid(day_hours: list[DayHours]) -> HourGrid | None:
    """The day-by-hour grid (``None`` when no day had responses)."""
    if not day_hours:
        return None
    most = max(max(row.hours) for row in day_hours)
    rows = [
        HourRow(
            date.fromisoformat(row.day),
            [(count, shade(count, most)) for count in row.hours],
            sum(row.hours),
        )
        for row in day_hours
    ]
    return HourGrid(rows, most)
