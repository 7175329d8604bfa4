"""Plan limits: how much of each usage window an agent's plan has used, and the pace.

Claude's and Codex's subscription plans count use in windows: a five-hour one and a weekly one.
Each agent reports where a window stands as a *sample*: the share used (0 to 100 %) and when the
window resets. Claude Code passes them to the status line (``rate_limits.five_hour`` and
``rate_limits.seven_day``, each ``{used_percentage, resets_at}``); Codex writes them into every
``token_count`` event of its transcripts (``rate_limits.primary`` and ``.secondary``, each
``{used_percent, window_minutes, resets_at}``; ``resets_in_seconds`` before 0.50; flat
``primary_used_percent`` keys before that). This module turns both into :class:`LimitSample`
values and defines, once for every surface, what is shown of them:

- a window's *period*: the samples that share one reset time (a reset time that moves by more
  than :data:`RESET_JITTER` starts a new period);
- its *pace* (:func:`pace`): the use projected at the reset if it goes on at the average rate
  since the window started (its reset time less its length), and when it would reach 100 %;
- the use *during* a span of time (:func:`used_between`): how many points the window's use rose
  between two moments, resets included.

Pure functions only: no I/O, no clock (``now`` is always given).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

#: The agents that report limits.
CLAUDE = "claude"
CODEX = "codex"
#: Window names (Claude's own; Codex's windows get the name of their length).
FIVE_HOUR = "five_hour"
SEVEN_DAY = "seven_day"
#: Window lengths by name.
WINDOW_LENGTHS: dict[str, timedelta] = {
    FIVE_HOUR: timedelta(hours=5),
    SEVEN_DAY: timedelta(days=7),
}
#: How far two reset times of one period may differ (agents round them, Codex's older
#: ``resets_in_seconds`` moves with the moment of the sample).
RESET_JITTER = timedelta(minutes=2)
#: How much of a window must have gone by before a pace is given (a few minutes in, one
#: request would project far past 100 %).
MIN_ELAPSED = timedelta(minutes=10)
#: Codex names its windows by slot; their lengths say what they are (Codex writes 299 and
#: 10079 minutes in some versions).
_CODEX_SLOTS = ("primary", "secondary")


@dataclass(frozen=True, slots=True)
class LimitSample:
    """Where one usage window of an agent's plan stood at a moment.

    ``used_percent`` is 0 to 100 (more when the agent says so); ``resets_at`` is when the
    window starts again (``None`` when the agent did not say); ``window_minutes`` is the
    window's length as the agent gave it; ``session`` the session the sample came with.
    """

    agent: str
    window: str
    at: datetime
    used_percent: float
    resets_at: datetime | None = None
    window_minutes: int | None = None
    session: str | None = None

    @property
    def length(self) -> timedelta | None:
        """How long the window lasts: as the agent gave it, else by its name."""
        if self.window_minutes:
            return timedelta(minutes=self.window_minutes)
        return WINDOW_LENGTHS.get(self.window.rpartition(".")[2])


def window_name(minutes: int | None, slot: str) -> str:
    """The name of a window of ``minutes`` (Codex's ``primary``/``secondary`` ``slot`` when the
    length is not given): ``five_hour``, ``seven_day``, else ``<n>_minutes``."""
    if minutes is None:
        return FIVE_HOUR if slot == "primary" else SEVEN_DAY
    if abs(minutes - 300) <= 1:
        return FIVE_HOUR
    if abs(minutes - 10080) <= 1:
        return SEVEN_DAY
    return f"{minutes}_minutes"


_LABELS = {FIVE_HOUR: "5-hour", SEVEN_DAY: "weekly"}


def window_label(window: str) -> str:
    """What people call a window: ``5-hour``, ``weekly``, ``codex_bengalfox 5-hour``, else
    its name with spaces (``43200 minutes``)."""
    prefix, _, name = window.rpartition(".")
    label = _LABELS.get(name, name.replace("_", " "))
    return f"{prefix} {label}" if prefix else label


def _number(value: object) -> float | None:
    """A finite number (``bool`` is not one), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _moment(value: object) -> datetime | None:
    """Epoch seconds (or an ISO 8601 text) as an aware datetime."""
    number = _number(value)
    if number is not None:
        try:
            return datetime.fromtimestamp(number, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            found = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return found if found.tzinfo else found.replace(tzinfo=UTC)
    return None


def claude_samples(
    rate_limits: object, at: datetime, *, session: str | None = None
) -> list[LimitSample]:
    """The samples in the ``rate_limits`` of Claude Code's status line input, taken at ``at``.

    Each window (``five_hour``, ``seven_day``, and any other Claude Code adds) is
    ``{"used_percentage": 0-100, "resets_at": epoch seconds}``; a window without a number is
    left out, as is anything that is not such an object.
    """
    if not isinstance(rate_limits, Mapping):
        return []
    found = []
    for name, window in rate_limits.items():
        if not isinstance(name, str) or not isinstance(window, Mapping):
            continue
        used = _number(window.get("used_percentage"))
        if used is None:
            continue
        length = WINDOW_LENGTHS.get(name)
        found.append(
            LimitSample(
                agent=CLAUDE,
                window=name,
                at=at,
                used_percent=used,
                resets_at=_moment(window.get("resets_at")),
                window_minutes=int(length.total_seconds() // 60) if length else None,
                session=session,
            )
        )
    return found


def _codex_window(
    slot: str, window: Mapping[str, Any], at: datetime, limit: str | None, session: str | None
) -> LimitSample | None:
    used = _number(window.get("used_percent"))
    if used is None:
        return None
    minutes = _number(window.get("window_minutes"))
    resets_at = _moment(window.get("resets_at"))
    if resets_at is None:
        in_seconds = _number(window.get("resets_in_seconds"))
        if in_seconds is not None:
            resets_at = at + timedelta(seconds=in_seconds)
    whole = round(minutes) if minutes is not None and minutes > 0 else None
    name = window_name(whole, slot)
    return LimitSample(
        agent=CODEX,
        window=name if limit in (None, "", CODEX) else f"{limit}.{name}",
        at=at,
        used_percent=used,
        resets_at=resets_at,
        window_minutes=whole,
        session=session,
    )


def codex_rate_limits(
    rate_limits: object, at: datetime, *, session: str | None = None
) -> list[LimitSample]:
    """The samples in the ``rate_limits`` of a Codex ``token_count`` event written at ``at``
    (the line's ``timestamp``).

    Reads every version Codex wrote: ``primary``/``secondary`` windows with ``used_percent``,
    ``window_minutes`` and ``resets_at`` (epoch seconds) or ``resets_in_seconds`` (counted from
    ``at``), and the older flat ``primary_used_percent``/``secondary_used_percent`` keys. A
    window is named by its length (``five_hour``, ``seven_day``, ``<n>_minutes``; by its slot
    when the length is missing), prefixed by the limit's id when it is not ``codex``
    (``codex_bengalfox.five_hour``). ``null``, a ``null`` window or one without a number gives
    nothing.
    """
    if not isinstance(rate_limits, Mapping):
        return []
    limit = rate_limits.get("limit_id")
    limit_id = limit if isinstance(limit, str) else None
    found = []
    for slot in _CODEX_SLOTS:
        window = rate_limits.get(slot)
        if not isinstance(window, Mapping) and f"{slot}_used_percent" in rate_limits:
            window = {
                "used_percent": rate_limits.get(f"{slot}_used_percent"),
                "window_minutes": rate_limits.get(f"{slot}_window_minutes"),
                "resets_in_seconds": rate_limits.get(f"{slot}_reset_after_seconds"),
            }
        if isinstance(window, Mapping):
            sample = _codex_window(slot, window, at, limit_id, session)
            if sample is not None:
                found.append(sample)
    return found


def codex_samples(
    payload: object, at: datetime, *, session: str | None = None
) -> list[LimitSample]:
    """The samples of a Codex ``event_msg`` payload (``{"type": "token_count", "rate_limits":
    ...}``) written at ``at``: see :func:`codex_rate_limits`; a payload of another type gives
    nothing."""
    if not isinstance(payload, Mapping) or payload.get("type") != "token_count":
        return []
    return codex_rate_limits(payload.get("rate_limits"), at, session=session)


#: Codex writes a thread's copied history (a fork, a thread resumed into a new file) in one
#: burst when the copy is made, each line stamped with that moment: the parent's samples come
#: again, oldest first, milliseconds apart. A sample followed this soon by another of its window
#: in the same file says nothing the later one does not (and a copied one is stale).
SUPERSEDED_WITHIN = timedelta(seconds=1)


def codex_file_samples(
    events: Iterable[tuple[int, str | None, object]], *, session: str | None = None
) -> list[tuple[int, LimitSample]]:
    """The samples of one Codex rollout file, each with its line number: ``events`` are the
    ``(line, timestamp, rate_limits)`` of its ``token_count`` events in file order (see
    :func:`cclens.readers.codex.rate_limit_events`), read by :func:`codex_rate_limits` at
    the line's time. A sample followed less than :data:`SUPERSEDED_WITHIN` later by another
    of its window in the file is left out; so is an event whose line has no time."""
    found: list[tuple[int, LimitSample] | None] = []
    latest: dict[str, int] = {}
    for line, stamp, rate_limits in events:
        at = _moment(stamp) if stamp else None
        if at is None:
            continue
        for sample in codex_rate_limits(rate_limits, at, session=session):
            before = latest.get(sample.window)
            if before is not None:
                earlier = found[before]
                assert earlier is not None
                if timedelta(0) <= sample.at - earlier[1].at < SUPERSEDED_WITHIN:
                    found[before] = None
            latest[sample.window] = len(found)
            found.append((line, sample))
    return [pair for pair in found if pair is not None]


def same_period(earlier: LimitSample, later: LimitSample) -> bool:
    """Whether two samples of one window fall in the same period (between the same resets)."""
    if earlier.resets_at is None or later.resets_at is None:
        # Without reset times, a fall of the use is the only sign of a reset.
        return later.used_percent >= earlier.used_percent
    if later.resets_at - earlier.resets_at > RESET_JITTER:
        return False
    # The earlier period's reset passed between the two samples.
    return not (later.at >= earlier.resets_at + RESET_JITTER)


def periods(samples: Iterable[LimitSample]) -> list[list[LimitSample]]:
    """The samples of one window (in time order) cut into periods, oldest first."""
    found: list[list[LimitSample]] = []
    for sample in sorted(samples, key=lambda s: s.at):
        if found and same_period(found[-1][-1], sample):
            found[-1].append(sample)
        else:
            found.append([sample])
    return found


@dataclass(frozen=True, slots=True)
class Pace:
    """Where a window is heading at the average rate of its use since it started.

    ``projected_percent``: the use at the reset if that rate goes on; ``full_at``: when it
    would reach 100 % (``None`` when not before the reset, or when nothing is used).
    """

    started: datetime
    projected_percent: float
    full_at: datetime | None


def pace(latest: LimitSample, now: datetime) -> Pace | None:
    """The pace of ``latest``'s window at ``now``: its use projected at the reset at the
    average rate since the window started (the reset less the window's length), and when
    100 % would be reached. ``None`` when the reset or the length is unknown, the window has
    already reset, or less than :data:`MIN_ELAPSED` of it has gone by."""
    length = latest.length
    if latest.resets_at is None or length is None or now >= latest.resets_at:
        return None
    started = latest.resets_at - length
    elapsed = min(latest.at, now) - started
    if elapsed < MIN_ELAPSED:
        return None
    rate = latest.used_percent / elapsed.total_seconds()  # points per second
    projected = latest.used_percent + rate * (latest.resets_at - latest.at).total_seconds()
    full_at = None
    if rate > 0:
        full = started + timedelta(seconds=100 / rate)
        if full < latest.resets_at:
            full_at = full
    return Pace(started=started, projected_percent=projected, full_at=full_at)


@dataclass(frozen=True, slots=True)
class WindowNow:
    """A window as it stands at ``now``: its latest sample, whether it has reset since (the
    use is then unknown until the next sample, and ``used_percent`` is 0), the time to its
    reset and its pace."""

    agent: str
    window: str
    latest: LimitSample
    reset_since: bool
    used_percent: float
    resets_in: timedelta | None
    pace: Pace | None


def window_now(samples: Sequence[LimitSample], now: datetime) -> WindowNow | None:
    """Where the window of ``samples`` (one agent's, one window's) stands at ``now``."""
    if not samples:
        return None
    latest = max(samples, key=lambda s: s.at)
    reset_since = latest.resets_at is not None and now >= latest.resets_at
    return WindowNow(
        agent=latest.agent,
        window=latest.window,
        latest=latest,
        reset_since=reset_since,
        used_percent=0.0 if reset_since else latest.used_percent,
        resets_in=None if latest.resets_at is None or reset_since else latest.resets_at - now,
        pace=None if reset_since else pace(latest, now),
    )


def used_between(samples: Sequence[LimitSample], start: datetime, end: datetime) -> float | None:
    """How many points the window's use rose from ``start`` to ``end`` (a reset in between
    counts the rise before it and the use after it), from the samples of one window; ``None``
    when no sample falls in the span."""
    inside = [s for s in samples if start <= s.at <= end]
    if not inside:
        return None
    before = [s for s in samples if s.at < start]
    baseline = max(before, key=lambda s: s.at) if before else None
    total = 0.0
    previous = baseline
    for sample in sorted(inside, key=lambda s: s.at):
        if previous is None:
            previous = sample
            continue
        if same_period(previous, sample):
            total += max(0.0, sample.used_percent - previous.used_percent)
        else:
            total += sample.used_percent
        previous = sample
    return total


__all__ = [
    "CLAUDE",
    "CODEX",
    "FIVE_HOUR",
    "MIN_ELAPSED",
    "RESET_JITTER",
    "SEVEN_DAY",
    "SUPERSEDED_WITHIN",
    "WINDOW_LENGTHS",
    "LimitSample",
    "Pace",
    "WindowNow",
    "claude_samples",
    "codex_file_samples",
    "codex_rate_limits",
    "codex_samples",
    "pace",
    "periods",
    "same_period",
    "used_between",
    "window_label",
    "window_name",
    "window_now",
]
