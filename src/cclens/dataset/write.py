"""Write sessions as a Parquet dataset, one project at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..figures.figures import TURN_STARTS
from ..readers.claude import Diagnostic, Session
from .files import existing_rows, machine_file, machine_files, partition_dir, write_partition
from .machine import default_machine
from .redaction import Redaction
from .responses import Ledger
from .rows import Row, RowBuilder, SessionRows, count_once, fill_totals, project_slug
from .schema import TABLES
from .select import diagnostics


@dataclass(slots=True)
class DatasetReport:
    """What an export wrote."""

    root: Path
    machine: str
    sessions: int = 0
    #: Rows written this run, by table.
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    #: Files written (or removed, when no row was left in them).
    files: list[Path] = field(default_factory=list)
    #: Malformed lines met in the transcripts (they are skipped, the rest is written).
    diagnostics: list[Diagnostic] = field(default_factory=list)


def write_dataset(
    root: Path,
    sessions: Iterable[Session],
    *,
    redaction: Redaction,
    machine: str | None = None,
    on_session: Callable[[Session], None] | None = None,
) -> DatasetReport:
    """Write ``sessions`` (with their subagents) under ``root`` as a Parquet dataset.

    Sessions are written a project at a time (memory holds one project's rows), so give them
    grouped by project, as :func:`cclens.readers.claude.discover` lists them; any order gives the
    same
    files, only slower. Each API response, tool call and prompt is counted once in its project
    (a resumed session's copies stay with the first session in reading order that recorded
    them; a call keeps the status of the first copy that has a result), the machine's rows
    already in ``root`` included. Raises
    :class:`~cclens.dataset.files.DatasetError` when an existing file cannot be read or a new
    one cannot be written.
    """
    machine = machine or default_machine()
    report = DatasetReport(root, machine)
    builder = RowBuilder(machine, redaction)
    name = machine_file(machine)
    group: list[SessionRows] = []
    for session in sessions:
        if group and project_slug(session.project) != group[0].project:
            _flush(root, name, group, report)
            group = []
        group.append(builder.session(session))
        report.sessions += 1
        report.diagnostics.extend(diagnostics(session))
        if on_session is not None:
            on_session(session)
    if group:
        _flush(root, name, group, report)
    return report


def _flush(root: Path, name: str, group: list[SessionRows], report: DatasetReport) -> None:
    """Write one project's sessions: count responses once, then replace each partition.

    Each project is counted on its own (see :mod:`cclens.figures.identity`): its ledger
    starts from the rows this machine already wrote for the project's other sessions.
    """
    project = group[0].project
    ledger = Ledger()
    written = {rows.session_id for rows in group}
    usage = list(machine_files(root, "usage", project, name))
    keys = existing_rows(usage, ("message_id", "request_id", "message_uuid"), written)
    ledger.remember_responses((m, r, u) for m, r, u in keys)
    calls = list(machine_files(root, "tool_calls", project, name))
    ledger.remember_tool_calls(i for (i,) in existing_rows(calls, ("tool_use_id",), written))
    messages = list(machine_files(root, "messages", project, name))
    ledger.remember_prompts(
        u for u, kind in existing_rows(messages, ("uuid", "kind"), written) if kind in TURN_STARTS
    )
    # The session first in reading order claims what its resumed copies repeat.
    kept: dict[str, Row] = {}
    for rows in sorted(group, key=lambda rows: rows.reading_key):
        count_once(rows, ledger, kept)
    for rows in group:
        fill_totals(rows)
    months: dict[str, list[SessionRows]] = {}
    for rows in group:
        months.setdefault(rows.month, []).append(rows)
    for month, members in sorted(months.items()):
        sessions = {rows.session_id for rows in members}
        for table, schema in TABLES.items():
            table_rows = [row for rows in members for row in rows.tables[table]]
            directory = partition_dir(root, table, project, month)
            if not table_rows and not (directory / name).exists():
                continue
            write_partition(directory, name, schema, table_rows, sessions)
            report.rows[table] += len(table_rows)
            report.files.append(directory / name)


__all__ = ["DatasetReport", "write_dataset"]
