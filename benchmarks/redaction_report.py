"""How precise redaction is on a corpus: what it removes, per kind and per megabyte.

Usage: ``python benchmarks/redaction_report.py [CORPUS...] [--examples N]`` (default:
../shared/corpus).

Every record of every ``.jsonl`` file goes through ``Redactor.json()``, as the exports,
the dataset and the traces do. A corpus without credentials (the shared one) should lose
nothing: every redaction there is a false alarm. The report also counts the ids Claude Code
and the model APIs generate (``toolu_…``, ``msg_…``, ``req_…``, uuids, agent ids, file-history
hashes) that the records hold, and how many of them came out changed (the answer must be 0).
``--examples N`` prints, for each kind, the field and the first characters of N values it
took (never a whole value).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cclens.redact import Redactor

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus"
_MARKER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")
_ID_FIELDS = frozenset(
    {
        "id", "tool_use_id", "toolUseID", "parentToolUseID", "requestId", "agentId", "uuid",
        "parentUuid", "sessionId", "promptId", "messageId", "leafUuid", "backupFileName",
    }
)  # fmt: skip


def _pairs(before: Any, after: Any, key: str = "") -> Iterator[tuple[str, str, str]]:
    """``(field, value before, value after)`` for every string of a record."""
    if isinstance(before, dict) and isinstance(after, dict):
        for name, inner in before.items():
            yield from _pairs(inner, after.get(name), name)
    elif isinstance(before, list) and isinstance(after, list):
        for inner_before, inner_after in zip(before, after, strict=False):
            yield from _pairs(inner_before, inner_after, key)
    elif isinstance(before, str) and isinstance(after, str):
        yield key, before, after


def report(root: Path, examples: int) -> None:
    redactor = Redactor()
    size = records = ids = ids_changed = 0
    shown: dict[str, list[str]] = {}
    began = time.perf_counter()
    for path in sorted(root.rglob("*.jsonl")):
        data = path.read_bytes()
        size += len(data)
        for line in data.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            records += 1
            redacted = redactor.json(record)
            for key, before, after in _pairs(record, redacted):
                if key in _ID_FIELDS and len(before) >= 8 and not before.startswith("["):
                    ids += 1
                    ids_changed += before != after
                if before != after and examples:
                    for kind in _MARKER.findall(after):
                        found = shown.setdefault(kind, [])
                        if len(found) < examples:
                            found.append(f"{key}: {before[:12]!r}… ({len(before)} characters)")
    seconds = time.perf_counter() - began
    megabytes = size / 1e6
    counts = Counter(redactor.counts)
    total = sum(counts.values())
    print(f"{root}: {megabytes:,.1f} MB, {records:,} records, read in {seconds:.1f} s")
    print(f"  redactions: {total:,} ({total / megabytes:.2f} per MB)")
    for kind, count in counts.most_common():
        print(f"    {kind:24} {count:8,}  {count / megabytes:8.3f} per MB")
        for example in shown.get(kind, []):
            print(f"      {example}")
    print(f"  generated ids in the records: {ids:,}; changed by redaction: {ids_changed:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--examples", type=int, default=0, metavar="N")
    arguments = parser.parse_args()
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    for root in arguments.corpora:
        report(root, arguments.examples)


if __name__ == "__main__":
    main()
