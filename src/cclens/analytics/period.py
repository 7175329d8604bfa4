"""Date ranges: parsing ``--since``/``--until``, choosing files before reading them, and
placing times in days, weeks and months of the local calendar."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path

from ..parse import SessionFile

_COMPACT_DATE = re.compile(r"^\d{8}$")


class DateError(ValueError):
    """A date that cannot be read; the message says which forms are accepted."""


def parse_date(text: str) -> date:
    """``2025-06-01`` or ``20250601`` as a date."""
    cleaned = text.strip()
    if _COMPACT_DATE.match(cleaned):
        cleaned = f"{cleaned[:4]}-{cleaned[4:6]}-{cleaned[6:]}"
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        raise DateError(f"{text!r} is not a date (use YYYY-MM-DD or YYYYMMDD)") from None


def local_zone_name() -> str:
    """The name of this machine's local time zone now (``CET``, ``UTC``…)."""
    return datetime.now().astimezone().tzname() or "local"


@dataclass(frozen=True, slots=True)
class Period:
    """Whole days from ``since`` to ``until`` (both included); either may be open.

    Days are those of ``zone``, or of the machine's local time (daylight saving included) when
    ``zone`` is ``None``.
    """

    since: date | None = None
    until: date | None = None
    zone: tzinfo | None = None

    def local(self, when: datetime) -> datetime:
        """``when`` in the period's zone."""
        return when.astimezone(self.zone) if self.zone is not None else when.astimezone()

    def midnight(self, day: date) -> datetime:
        """The first instant of ``day``."""
        if self.zone is not None:
            return datetime.combine(day, time.min, self.zone)
        return datetime.combine(day, time.min).astimezone()

    @property
    def zone_name(self) -> str:
        if self.zone is None:
            return local_zone_name()
        return self.zone.tzname(None) or str(self.zone)

    @property
    def start(self) -> datetime | None:
        """The first instant in the period."""
        return None if self.since is None else self.midnight(self.since)

    @property
    def end(self) -> datetime | None:
        """The first instant after the period."""
        return None if self.until is None else self.midnight(self.until + timedelta(days=1))

    @property
    def bounded(self) -> bool:
        return self.since is not None or self.until is not None

    def contains(self, when: datetime | None) -> bool:
        """Whether ``when`` falls in the period; a time that is not known only in an open one."""
        if when is None:
            return not self.bounded
        start, end = self.start, self.end
        return (start is None or when >= start) and (end is None or when < end)

    def may_hold(self, mtime: float) -> bool:
        """Whether a file last written at ``mtime`` can hold records in the period.

        Records are appended, so a file last written before the period starts holds none. A file
        written after the period ends may still hold earlier records: it is read, and its records
        filtered by their own timestamps.
        """
        start = self.start
        return start is None or mtime >= start.timestamp()

    def day(self, when: datetime) -> date:
        """The calendar day of ``when`` in the period's zone."""
        return self.local(when).date()


def newest_mtime(file: SessionFile) -> float:
    """When the session or any of its subagent files was last written."""
    return max([file.mtime, *(file_mtime(agent.path) for agent in file.subagents)])


def file_mtime(path: Path) -> float:
    """When ``path`` was last written (0 when it cannot be read: never newer than a period)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def select_files(files: list[SessionFile], period: Period) -> list[SessionFile]:
    """The session files that may hold records in ``period`` (chosen before any is parsed)."""
    return [file for file in files if period.may_hold(newest_mtime(file))]


def week_start(day: date) -> date:
    """The Monday of ``day``'s ISO week."""
    return day - timedelta(days=day.weekday())


__all__ = [
    "DateError",
    "Period",
    "file_mtime",
    "local_zone_name",
    "newest_mtime",
    "parse_date",
    "select_files",
    "week_start",
]
