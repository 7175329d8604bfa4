"""Date ranges: parsing ``--since``/``--until``, choosing files before reading them, and
placing times in days, weeks and months of the local calendar."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from ..readers.discovery import SessionFile

_COMPACT_DATE = re.compile(r"^\d{8}$")
#: Longer text is not a date: refused before any parsing.
_LONGEST = 64
#: The days cclens computes with. A date outside them is moved to the nearest of them: a day
#: and a time zone's offset either side of these stay within what ``datetime`` holds (a bare
#: ``--until 9999-12-31`` means "until its end", a day past the last one Python knows), and
#: no transcript predates 1970.
FIRST_DAY = date(1970, 1, 2)
LAST_DAY = date(9999, 12, 30)
_FORMS = "use YYYY-MM-DD, YYYYMMDD or YYYY-MM-DDTHH:MM[:SS][+HH:MM]"


class DateError(ValueError):
    """A date that cannot be read; the message says which forms are accepted."""


def _clamped_day(day: date) -> date:
    return min(max(day, FIRST_DAY), LAST_DAY)


def read_date(text: str) -> date | datetime:
    """The date or time a person gave (a CLI option, a web query parameter), within range.

    The one reader of dates for every command and page: ``2025-06-01``, ``20250601``, or an
    ISO 8601 date and time (``2025-06-01T14:30``, seconds, a ``Z`` or ``+02:00`` offset
    optional). A date alone gives a :class:`date`, a time a :class:`datetime` (naive when it
    names no offset). Days before :data:`FIRST_DAY` or after :data:`LAST_DAY` are moved to
    those days. Raises :class:`DateError` (one line naming the forms) for anything else.
    """
    cleaned = text.strip()
    if len(cleaned) > _LONGEST:
        raise DateError(f"{text[:_LONGEST]!r}… is not a date ({_FORMS})")
    if _COMPACT_DATE.match(cleaned):
        cleaned = f"{cleaned[:4]}-{cleaned[4:6]}-{cleaned[6:]}"
    try:
        if len(cleaned) == len("2025-06-01"):
            return _clamped_day(date.fromisoformat(cleaned))
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        raise DateError(f"{text!r} is not a date ({_FORMS})") from None
    day = _clamped_day(moment.date())
    if day != moment.date():
        moment = datetime.combine(day, time.min if day == FIRST_DAY else time.max, moment.tzinfo)
    return moment


def parse_date(text: str) -> date:
    """A day: ``2025-06-01`` or ``20250601`` (a date and time gives its day, in its own zone,
    or in the local one when converted). See :func:`read_date`."""
    found = read_date(text)
    if isinstance(found, datetime):
        return _clamped_day((found.astimezone() if found.tzinfo else found).date())
    return found


def parse_moment(text: str, *, end: bool = False, zone: tzinfo | None = None) -> datetime:
    """An instant: a date means its first instant (with ``end``, the first instant after it, so
    that a bare last day is included); a time without an offset is in ``zone`` (the local zone
    when ``None``). See :func:`read_date`."""
    found = read_date(text)
    if isinstance(found, datetime):
        if found.tzinfo is not None:
            return found
        return found.replace(tzinfo=zone) if zone is not None else found.astimezone()
    day = found + timedelta(days=1) if end else found
    if zone is not None:
        return datetime.combine(day, time.min, zone)
    return datetime.combine(day, time.min).astimezone()


def local_zone_name() -> str:
    """The name of this machine's local time zone now (``CET``, ``UTC``…)."""
    return datetime.now().astimezone().tzname() or "local"


class Period(msgspec.Struct, frozen=True):
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
    "FIRST_DAY",
    "LAST_DAY",
    "DateError",
    "Period",
    "file_mtime",
    "local_zone_name",
    "newest_mtime",
    "parse_date",
    "parse_moment",
    "read_date",
    "select_files",
    "week_start",
]
