"""An independent reading of the plan limits in Codex rollout files, with the ``json`` module
alone (not cclens's code), from Codex's own formats and cclens's documented rules:

* every ``event_msg`` ``token_count`` line's ``rate_limits``: the ``primary`` and
  ``secondary`` windows (``used_percent``, ``window_minutes``, ``resets_at`` in epoch seconds
  or ``resets_in_seconds`` counted from the line's time), or the first versions' flat
  ``primary_used_percent`` keys; a window is named by its length (300 minutes ``five_hour``,
  10080 ``seven_day``, else ``<n>_minutes``; by its slot without a length), prefixed by a
  ``limit_id`` other than ``codex``;
* in one file, a sample followed less than a second later by another of its window is left out
  (a thread's copied history is written in one burst);
* over every file, a window's history keeps a sample only when it differs from the one before
  it in time (its share used, or its reset by more than two minutes).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

#: ``(window, at, used, resets)``
Sample = tuple[str, datetime, float, datetime | None]
#: ``(at, used, resets, session)``
Kept = tuple[datetime, float, datetime | None, str]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _name(minutes: int | None, slot: str) -> str:
    if minutes is None:
        return "five_hour" if slot == "primary" else "seven_day"
    if abs(minutes - 300) <= 1:
        return "five_hour"
    if abs(minutes - 10080) <= 1:
        return "seven_day"
    return f"{minutes}_minutes"


def _samples(limits: dict[str, object], at: datetime) -> list[Sample]:
    found = []
    limit = limits.get("limit_id")
    for slot in ("primary", "secondary"):
        window = limits.get(slot)
        if not isinstance(window, dict) and f"{slot}_used_percent" in limits:
            window = {
                "used_percent": limits.get(f"{slot}_used_percent"),
                "window_minutes": limits.get(f"{slot}_window_minutes"),
                "resets_in_seconds": limits.get(f"{slot}_reset_after_seconds"),
            }
        if not isinstance(window, dict):
            continue
        used = _number(window.get("used_percent"))
        if used is None:
            continue
        minutes = _number(window.get("window_minutes"))
        whole = round(minutes) if minutes is not None and minutes > 0 else None
        resets = None
        if _number(window.get("resets_at")) is not None:
            resets = datetime.fromtimestamp(window["resets_at"], UTC)
        elif _number(window.get("resets_in_seconds")) is not None:
            resets = at + timedelta(seconds=window["resets_in_seconds"])
        name = _name(whole, slot)
        if isinstance(limit, str) and limit not in ("", "codex"):
            name = f"{limit}.{name}"
        found.append((name, at, used, resets))
    return found


def file_samples(path: Path) -> list[Sample]:
    """The samples one file gives, superseded ones left out."""
    found: list[Sample | None] = []
    latest: dict[str, int] = {}
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict) or line.get("type") != "event_msg":
            continue
        payload = line.get("payload")
        stamp = line.get("timestamp")
        if not isinstance(payload, dict) or payload.get("type") != "token_count":
            continue
        limits = payload.get("rate_limits")
        if not isinstance(limits, dict) or not isinstance(stamp, str):
            continue
        at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        for sample in _samples(limits, at):
            before = latest.get(sample[0])
            if before is not None:
                earlier = found[before]
                assert earlier is not None
                if timedelta(0) <= sample[1] - earlier[1] < timedelta(seconds=1):
                    found[before] = None
            latest[sample[0]] = len(found)
            found.append(sample)
    return [sample for sample in found if sample is not None]


def history(files: dict[Path, str]) -> dict[str, list[Kept]]:
    """Each window's history over ``files`` (each with the session it belongs to):
    ``(at, used, resets, session)``, oldest first."""
    by_window: dict[str, list[Kept]] = {}
    for path, session in files.items():
        for window, at, used, resets in file_samples(path):
            by_window.setdefault(window, []).append((at, used, resets, session))
    kept: dict[str, list[Kept]] = {}
    for window, samples in by_window.items():
        samples.sort(key=lambda sample: sample[0])
        previous = None
        for sample in samples:
            if previous is None or not _same(previous, sample):
                kept.setdefault(window, []).append(sample)
            previous = sample
    return kept


def _same(a: Kept, b: Kept) -> bool:
    if a[1] != b[1]:
        return False
    if a[2] is None or b[2] is None:
        return a[2] is None and b[2] is None
    return abs((a[2] - b[2]).total_seconds()) <= 120
