"""The tool inventory behind ``--by tool``: each call once, failures, and durations."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from cclens.figures.inventory import percentile, tool_usage
from cclens.readers.claude import discover, load

FOLDERS = [
    "chiphuyen__sniffly",
    "iansherr__claude-code-log/test/test_data/real_projects",
]


def test_percentile() -> None:
    assert percentile([], 0.5) is None
    assert percentile([4.0], 0.95) == 4.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([float(n) for n in range(1, 21)], 0.95) == pytest.approx(19.05)


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_call_counts_once_with_its_duration(corpus: Path, folder: str) -> None:
    sessions = [load(file) for file in discover(corpus / folder).sessions]
    files = {each.path for top in sessions for each in top.all_sessions()}
    started: dict[str, tuple[str, datetime]] = {}
    finished: dict[str, datetime] = {}
    for path in files:
        for line in path.read_bytes().splitlines():
            record = json.loads(line)
            content = record.get("message", {}).get("content")
            if not isinstance(content, list):
                continue
            when = datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))
            for block in content:
                if block.get("type") == "tool_use":
                    started.setdefault(block["id"], (block["name"], when))
                elif block.get("type") == "tool_result":
                    finished.setdefault(block["tool_use_id"], when)
    usage = tool_usage(sessions)
    by_name: dict[str, list[float]] = {}
    for tool_id, (name, when) in started.items():
        seconds = by_name.setdefault(name, [])
        if tool_id in finished and finished[tool_id] >= when:
            seconds.append((finished[tool_id] - when).total_seconds())
    assert {name: row.calls for name, row in usage.items()} == {
        name: sum(1 for n, _ in started.values() if n == name) for name in by_name
    }
    for name, seconds in by_name.items():
        row = usage[name]
        assert row.timed == len(seconds)
        assert row.median_seconds == pytest.approx(percentile(seconds, 0.5))
        assert row.p95_seconds == pytest.approx(percentile(seconds, 0.95))
        assert row.errors >= row.rejected + row.interrupted
