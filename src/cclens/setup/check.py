"""``cclens setup --check``: what is installed, when the hook last ran, how big the archive
is, and which sessions Claude Code may delete before cclens has them.

Claude Code deletes a transcript ``cleanupPeriodDays`` (30 by default) after its last activity
(the file's modification time), when it starts. A transcript is *at risk* when that moment is
less than :data:`AT_RISK_DAYS` away (or past) and the index does not hold all its bytes. Only
read: nothing is written, the index is opened read-only.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..index.read.archive_state import stored_sizes
from ..index.read.live_usage import connect_reader
from ..index.read.queries import Totals, totals
from ..places import hook_state_path
from .claude_settings import (
    HOOK_EVENTS,
    SettingsError,
    StatusLine,
    cleanup_days,
    hook_installed,
    mcp_config_path,
    mcp_installed,
    read_json,
    status_line,
    user_settings_path,
)

#: How close to its deletion a transcript that is not archived counts as at risk.
AT_RISK_DAYS = 7


@dataclass(frozen=True, slots=True)
class AtRisk:
    """A transcript Claude Code will delete at ``deleted_at`` (``None``: at its next start),
    of which the index lacks ``missing`` bytes (all of them when it does not know the file)."""

    path: Path
    size: int
    missing: int
    deleted_at: datetime


@dataclass(slots=True)
class CheckReport:
    """What ``cclens setup --check`` says (see the module's docstring)."""

    settings_path: Path
    settings_problem: str | None = None
    hooks: dict[str, bool] = field(default_factory=dict)
    status_line: StatusLine | None = None
    mcp: bool | None = None
    keep_days: float = 30.0
    keep_days_set: bool = False
    hook_last: dict[str, Any] | None = None
    index_path: Path | None = None
    index_bytes: int = 0
    totals: Totals | None = None
    index_problem: str | None = None
    transcripts: int = 0
    at_risk: list[AtRisk] = field(default_factory=list)


def _last_hook() -> dict[str, Any] | None:
    try:
        found = json.loads(hook_state_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _transcripts(roots: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for root in roots:
        projects = root / "projects"
        folder = projects if projects.is_dir() else root
        if folder.is_dir():
            found.extend(folder.rglob("*.jsonl"))
    return found


def check(folder: Path, db: Path, roots: Sequence[Path], *, now: datetime) -> CheckReport:
    """The report for Claude Code's configuration ``folder``, the index ``db`` and the
    transcripts under ``roots``."""
    report = CheckReport(settings_path=user_settings_path(folder))
    try:
        _, settings = read_json(report.settings_path)
        _, claude_json = read_json(mcp_config_path(folder))
    except SettingsError as error:
        report.settings_problem = str(error)
        settings, claude_json = {}, {}
    report.hooks = {event: hook_installed(settings, event) for event in HOOK_EVENTS}
    report.status_line = status_line(settings)
    report.mcp = mcp_installed(claude_json)
    report.keep_days, report.keep_days_set = cleanup_days(settings)
    report.hook_last = _last_hook()
    report.index_path = db
    stored: dict[str, int] = {}
    if db.exists():
        report.index_bytes = sum(
            path.stat().st_size for path in (db, db.with_name(db.name + "-wal")) if path.exists()
        )
        try:
            connection = connect_reader(db)
            try:
                report.totals = totals(connection)
                stored = stored_sizes(connection)
            finally:
                connection.close()
        except sqlite3.Error as error:
            report.index_problem = f"cannot be read ({error})"
    else:
        report.index_problem = "no index yet (run cclens index)"
    keep = timedelta(days=report.keep_days)
    for path in _transcripts(roots):
        try:
            stat = path.stat()
        except OSError:
            continue
        report.transcripts += 1
        deleted_at = datetime.fromtimestamp(stat.st_mtime, UTC) + keep
        if deleted_at - now > timedelta(days=AT_RISK_DAYS):
            continue
        missing = stat.st_size - min(stored.get(str(path.absolute()), 0), stat.st_size)
        if missing > 0:
            report.at_risk.append(AtRisk(path, stat.st_size, missing, deleted_at))
    report.at_risk.sort(key=lambda risk: risk.deleted_at)
    return report


__all__ = ["AT_RISK_DAYS", "AtRisk", "CheckReport", "check"]
