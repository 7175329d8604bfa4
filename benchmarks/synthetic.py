"""Large sessions built from real transcript records, for the page and export benchmarks.

    python3 benchmarks/synthetic.py DIR [--size-mb 10] [--calls 2000] [--sessions 1]

Real sessions run to several MB and hundreds of tool calls; the shared corpus is mostly small
files. A large session is made by chaining real sessions of the corpus (those with tool calls)
one after the other into one transcript: every uuid and ``msg_``/``req_``/``toolu_`` id gets a
fresh value (consistent between a session and its subagent files), every record takes the new
session id, each donor's first record hangs below the previous donor's last one (so the whole
file is one conversation, with the donors' own branches and compactions inside it), and
timestamps are shifted so the conversation moves forward in time. Subagent transcripts are
copied beside it (``<session-id>/subagents/``), so Agent/Task calls keep their conversations.
What comes out is the corpus's real mix: Bash, Read, Edit, Write, Grep, TodoWrite, Agent with
subagents, long outputs, diffs, thinking, images.
"""

from __future__ import annotations

import argparse
import json
import re
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from cclens.readers.claude import SessionFile, discover, load, load_session

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
_IDS = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|(?:msg|req|toolu)_[0-9A-Za-z]{8,}"
)
_NAMESPACE = uuid.UUID("0b5c6a52-7f1e-4d2b-9a34-51c0de5e55a1")
_PROJECT = "-synthetic-large-sessions"


@dataclass(frozen=True)
class Donor:
    """A corpus session used as a piece of large ones: its files and tool calls."""

    file: SessionFile
    #: Tool calls of the session's own file (its subagents' are not counted).
    calls: int
    #: Bytes of the session's own file.
    size: int

    @property
    def density(self) -> float:
        """Bytes per tool call."""
        return self.size / self.calls


def donors(corpus: Path = DEFAULT_CORPUS) -> list[Donor]:
    """The corpus sessions with at least five tool calls, in a stable order."""
    found = []
    for file in sorted(discover(corpus).sessions, key=lambda f: str(f.path)):
        session = load(file)
        if len(session.tool_calls) >= 5:
            found.append(Donor(file, len(session.tool_calls), file.size))
    return found


def _fresh_ids(salt: str, session_id: str, old_ids: set[str]) -> Callable[[re.Match[str]], str]:
    mapping: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        old = match.group(0)
        if old in old_ids:
            return session_id
        new = mapping.get(old)
        if new is None:
            made = uuid.uuid5(_NAMESPACE, f"{salt}:{old}")
            new = old.split("_", 1)[0] + "_" + made.hex[:24] if "_" in old[:6] else str(made)
            mapping[old] = new
        return new

    return replace


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


#: Keys whose long string values get the replica's marker (texts, code, outputs): never ids,
#: paths, base64 data or signatures.
_SALTED = frozenset(
    {
        "text",
        "thinking",
        "content",
        "stdout",
        "stderr",
        "command",
        "old_string",
        "new_string",
        "prompt",
        "plan",
    }
)


def _salt(value: Any, marker: str) -> Any:
    """``value`` with ``marker`` after each long text (so repeats of a donor are new text)."""
    if isinstance(value, dict):
        return {
            key: (
                item + marker
                if key in _SALTED and isinstance(item, str) and len(item) > 40
                else _salt(item, marker)
            )
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_salt(item, marker) for item in value]
    return value


class _Writer:
    """Appends donors to one transcript, re-identified, chained and moved forward in time."""

    def __init__(self, folder: Path, session_id: str) -> None:
        self.folder = folder
        self.session_id = session_id
        self.path = folder / f"{session_id}.jsonl"
        self.lines: list[str] = []
        self.last_uuid: str | None = None
        self.clock: datetime | None = None
        self.size = 0

    def _records(
        self, path: Path, replace: Callable[[re.Match[str]], str], marker: str
    ) -> list[Any]:
        records: list[Any] = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                record = json.loads(_IDS.sub(replace, line))
            except json.JSONDecodeError:
                continue  # malformed lines are dropped
            records.append(_salt(record, marker) if marker else record)
        return records

    def _shift(self, records: list[Any], offset: timedelta) -> None:
        for record in records:
            if isinstance(record, dict):
                moment = _time(record.get("timestamp"))
                if moment is not None:
                    record["timestamp"] = _stamp(moment + offset)

    def add(self, donor: Donor, salt: str, repeat: int) -> None:
        """Append ``donor`` (with fresh ids from ``salt``) and copy its subagent files.

        ``repeat``: how many times the donor was used before; its texts then end with that many
        spaces, so they are new text to a renderer that remembers what it drew.
        """
        file = donor.file
        old_ids = {file.session_id}
        replace = _fresh_ids(salt, self.session_id, old_ids)
        marker = " " * repeat
        records = self._records(file.path, replace, marker)
        if not records:
            return
        times = [t for r in records if isinstance(r, dict) and (t := _time(r.get("timestamp")))]
        offset = timedelta(0)
        if times and self.clock is not None:
            offset = self.clock + timedelta(minutes=1) - min(times)
        self._shift(records, offset)
        if times:
            self.clock = max(times) + offset
        for record in records:
            if not isinstance(record, dict):
                continue
            if "sessionId" in record:
                record["sessionId"] = self.session_id
            if (
                "uuid" in record
                and record.get("parentUuid") is None
                and self.last_uuid
                and record.get("type") in ("user", "assistant")
                and not record.get("isSidechain")
            ):
                record["parentUuid"] = self.last_uuid
            self.lines.append(json.dumps(record, ensure_ascii=False))
        chained = [
            r["uuid"]
            for r in records
            if isinstance(r, dict) and isinstance(r.get("uuid"), str) and not r.get("isSidechain")
        ]
        if chained:
            self.last_uuid = chained[-1]
        for agent in file.subagents:
            self._copy_agent(agent.path, replace, marker, offset)
        self.size = sum(len(line) + 1 for line in self.lines)

    def _copy_agent(
        self,
        path: Path,
        replace: Callable[[re.Match[str]], str],
        marker: str,
        offset: timedelta,
    ) -> None:
        records = self._records(path, replace, marker)
        self._shift(records, offset)
        for record in records:
            if isinstance(record, dict) and "sessionId" in record:
                record["sessionId"] = self.session_id
        name = _IDS.sub(replace, path.name)
        target = self.folder / self.session_id / "subagents" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        meta = path.with_name(path.name.removesuffix(".jsonl") + ".meta.json")
        if meta.is_file():
            text = _IDS.sub(replace, meta.read_text(encoding="utf-8"))
            target.with_name(target.name.removesuffix(".jsonl") + ".meta.json").write_text(text)

    def write(self) -> Path:
        """Write the transcript; its path."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path.write_text("".join(line + "\n" for line in self.lines), encoding="utf-8")
        return self.path


def synthesize(
    folder: Path,
    pieces: list[Donor],
    *,
    size: int,
    calls: int,
    seed: int = 0,
    uses: Counter[str] | None = None,
) -> Path:
    """One session of at least ``size`` bytes (main file) and ``calls`` tool calls in ``folder``.

    Donors are taken in turn starting at ``seed`` (so sessions built with different seeds differ),
    each time with fresh ids, until both amounts are reached: from those with many calls per byte
    while the session has fewer calls per byte than asked, else from the others. ``uses`` counts
    the times each donor was used (shared between the sessions of one corpus): a donor used again
    gets its texts marked (see :meth:`_Writer.add`).
    """
    session_id = str(uuid.uuid5(_NAMESPACE, f"session:{seed}:{size}:{calls}"))
    writer = _Writer(folder, session_id)
    target = size / calls
    dense = [d for d in pieces if d.density <= target] or pieces
    sparse = [d for d in pieces if d.density > target] or pieces
    made_calls = turn = 0
    uses = Counter() if uses is None else uses
    while True:
        while writer.size < size or made_calls < calls:
            wanted = dense if writer.size > target * made_calls else sparse
            donor = wanted[(seed + turn) % len(wanted)]
            key = str(donor.file.path)
            writer.add(donor, f"{seed}:{turn}", uses[key])
            uses[key] += 1
            made_calls += donor.calls
            turn += 1
        path = writer.write()
        # Donors' counts can overlap once chained (inline sidechains): count what was made.
        made_calls = len(load_session(path).tool_calls)
        if made_calls >= calls:
            return path


def large_corpus(
    target: Path, pieces: list[Donor], sizes_mb: list[float], calls_per_mb: int = 110
) -> list[Path]:
    """Sessions of ``sizes_mb`` MB each under ``target/projects/<project>/``, one per seed."""
    folder = target / "projects" / _PROJECT
    uses: Counter[str] = Counter()
    return [
        synthesize(
            folder,
            pieces,
            size=int(size_mb * 1e6),
            calls=int(size_mb * calls_per_mb),
            seed=seed * 7 + 1,
            uses=uses,
        )
        for seed, size_mb in enumerate(sizes_mb)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--size-mb", type=float, default=10.0)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pieces = donors(args.corpus)
    path = synthesize(
        args.folder / "projects" / _PROJECT,
        pieces,
        size=int(args.size_mb * 1e6),
        calls=args.calls,
        seed=args.seed,
    )
    session = load(next(s for s in discover(args.folder).sessions if s.path == path))
    total = sum(len(agent.tool_calls) for agent in session.all_sessions())
    print(
        f"{path}: {path.stat().st_size / 1e6:.1f} MB, {len(session.items)} items, "
        f"{len(session.tool_calls)} tool calls ({total} with subagents), "
        f"{len(session.subagents)} subagents, {len(session.compactions)} compactions"
    )


if __name__ == "__main__":
    main()
