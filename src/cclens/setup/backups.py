"""Applying a setup plan and taking it back: backups of every file touched, and a manifest.

Before ``cclens setup`` writes a file it copies the file's bytes into cclens's data folder
(``setup/runs/<n>/``) and records the run in ``setup/manifest.json``: each file's path, whether
it existed, its backup and a hash of what was written. ``cclens setup --undo`` puts back, for
every file any run touched, the bytes it had before the first run (or removes it when setup
made it), and removes the MCP server setup added; a file changed since setup wrote it is
named, so the person sees what the undo would drop before saying yes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..files import write_file
from .plan import FileChange, SetupPlan

#: The manifest's name in the setup folder.
MANIFEST = "manifest.json"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class Touched:
    """A file one setup run wrote: the path named (``path``) and the file written (``target``,
    the path with symbolic links resolved), whether it existed before and where its bytes were
    kept (relative to the setup folder), and the hash of what setup wrote."""

    path: str
    target: str
    existed: bool
    backup: str | None
    written: str


@dataclass(slots=True)
class Run:
    """One ``cclens setup`` that changed something."""

    number: int
    time: float
    files: list[Touched] = field(default_factory=list)
    mcp_added: bool = False


def load_runs(folder: Path) -> list[Run]:
    """The runs recorded in the setup ``folder``, oldest first (none when there is no
    manifest). Raises ``ValueError`` for a manifest cclens cannot read."""
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: cannot be read ({error})") from error
    runs = []
    for entry in data.get("runs", []):
        files = [Touched(**item) for item in entry.get("files", [])]
        runs.append(Run(entry["number"], entry["time"], files, bool(entry.get("mcp_added"))))
    return runs


def _save_runs(folder: Path, runs: list[Run]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"version": 1, "runs": [asdict(run) for run in runs]}
    write_atomically(folder / MANIFEST, (json.dumps(data, indent=2) + "\n").encode())


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it, keeping the file's mode,
    on disk before it replaces the file (:func:`cclens.files.write_file`): a reader sees the
    old bytes or the new, never half of them."""
    write_file(path, data, durable=True)


def apply_plan(
    plan: SetupPlan,
    folder: Path,
    run_command: Callable[[list[str]], bool],
) -> Run:
    """Write the plan's files (after keeping their bytes in the setup ``folder``) and run its
    MCP command when it can run here (``run_command`` says whether it succeeded); return the
    run as recorded."""
    runs = load_runs(folder)
    run = Run(number=max((r.number for r in runs), default=0) + 1, time=time.time())
    keep = folder / "runs" / str(run.number)
    for index, change in enumerate(plan.changes):
        target = change.path.resolve()
        backup = None
        if change.before is not None:
            keep.mkdir(parents=True, exist_ok=True)
            backup_path = keep / f"{index}-{target.name}"
            shutil.copy2(target, backup_path)
            backup = str(backup_path.relative_to(folder))
        data = change.after.encode("utf-8")
        run.files.append(
            Touched(str(change.path), str(target), change.before is not None, backup, digest(data))
        )
    _save_runs(folder, [*runs, run])
    for change, touched in zip(plan.changes, run.files, strict=True):
        target = Path(touched.target)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, change.after.encode("utf-8"))
    if plan.mcp is not None and plan.mcp.runnable:
        run.mcp_added = run_command(plan.mcp.command)
        _save_runs(folder, [*runs, run])
    return run


@dataclass(slots=True)
class UndoPlan:
    """What ``--undo`` would do: each file's change back (``after`` is the original text; a
    file setup made is removed, its change says so), the files changed since setup wrote
    them, and whether to remove the MCP server."""

    changes: list[FileChange] = field(default_factory=list)
    changed_since: list[Path] = field(default_factory=list)
    mcp: bool = False

    @property
    def empty(self) -> bool:
        return not self.changes and not self.mcp


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _touched(runs: list[Run]) -> tuple[dict[str, Touched], dict[str, Touched]]:
    """Each file the runs wrote: as the first run found it, and as the last one left it."""
    first: dict[str, Touched] = {}
    last: dict[str, Touched] = {}
    for run in runs:
        for touched in run.files:
            first.setdefault(touched.target, touched)
            last[touched.target] = touched
    return first, last


def plan_undo(folder: Path) -> UndoPlan:
    """What undoing every recorded run would do."""
    runs = load_runs(folder)
    undo = UndoPlan(mcp=any(run.mcp_added for run in runs))
    first, last = _touched(runs)
    for target, original in first.items():
        path = Path(target)
        current = _read(path)
        if current is not None and digest(current) != last[target].written:
            undo.changed_since.append(path)
        if original.backup is None:
            if current is not None:
                undo.changes.append(
                    FileChange(path, current.decode("utf-8", "replace"), "", ["remove it"])
                )
            continue
        old = (folder / original.backup).read_bytes()
        if current != old:
            undo.changes.append(
                FileChange(
                    path,
                    None if current is None else current.decode("utf-8", "replace"),
                    old.decode("utf-8", "replace"),
                    ["put back as it was before cclens setup"],
                )
            )
    return undo


def apply_undo(folder: Path, run_command: Callable[[list[str]], bool], mcp: list[str]) -> None:
    """Put every file back as it was before the first recorded run, run ``mcp`` (the command
    that removes the MCP server) when a run added it, and forget the runs."""
    runs = load_runs(folder)
    first, _ = _touched(runs)
    for target, original in first.items():
        path = Path(target)
        if original.backup is None:
            path.unlink(missing_ok=True)
        else:
            write_atomically(path, (folder / original.backup).read_bytes())
    if any(run.mcp_added for run in runs):
        run_command(mcp)
    shutil.rmtree(folder / "runs", ignore_errors=True)
    (folder / MANIFEST).unlink(missing_ok=True)


__all__ = [
    "MANIFEST",
    "Run",
    "Touched",
    "UndoPlan",
    "apply_plan",
    "apply_undo",
    "digest",
    "load_runs",
    "plan_undo",
    "write_atomically",
]
