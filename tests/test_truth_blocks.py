"""``/api/blocks?at=T`` gives the 5-hour blocks as they stood at ``T``: what came later is not
in them, and a block that starts after ``T`` is not active (it once was, and the active block
already held responses written after ``T``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from cclens.index import Index
from cclens.web.live_block import live_blocks
from cclens.web.server import start
from cclens.web.settings import Settings

from .test_usage import SESSION, assistant, project_dir, prompt, usage, write

DAY = datetime(2025, 6, 2, tzinfo=UTC)


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _three_responses(root: Path) -> None:
    """Responses at 10:10 and 11:20 (one block), then at 16:40 (the next)."""
    records = [prompt("u0", "go", time=_when(DAY + timedelta(hours=10)))]
    for number, (hours, minutes) in enumerate(((10, 10), (11, 20), (16, 40)), start=1):
        records.append(
            assistant(
                f"a{number}",
                f"msg_{number}",
                usage(input=1000 * number, output=100),
                request_id=f"req_{number}",
                parent="u0",
                time=_when(DAY + timedelta(hours=hours, minutes=minutes)),
            )
        )
    write(project_dir(root) / f"{SESSION}.jsonl", records)


def test_blocks_as_they_stood_at_a_moment(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    _three_responses(claude)
    with Index(tmp_path / "index.db") as index:
        index.update([claude])
        early = live_blocks(index, DAY + timedelta(hours=10, minutes=30))
        assert early.active is not None and early.active.responses == 1
        assert early.active.tokens.input == 1000
        assert [row.responses for row in early.recent] == [1]
        assert early.largest is None

        between = live_blocks(index, DAY + timedelta(hours=13))
        assert between.active is not None and between.active.responses == 2
        assert [row.responses for row in between.recent] == [2]

        late = live_blocks(index, DAY + timedelta(hours=17))
        assert late.active is not None and late.active.responses == 1
        assert late.active.tokens.input == 3000
        assert [row.responses for row in late.recent] == [1, 2]
        assert late.largest == 3000 + 200


def test_the_api_takes_the_moment(tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    _three_responses(claude)
    running = start(
        Settings(db_path=tmp_path / "index.db", claude_dirs=[claude], port=0, watch=False)
    )
    try:
        assert running.app.state.cclens.indexer.ready.wait(60)
        moment = (DAY + timedelta(hours=10, minutes=30)).isoformat()
        with httpx.Client(base_url=running.url, timeout=60) as client:
            answer = client.get("/api/blocks", params={"at": moment}).json()
    finally:
        running.stop()
    assert answer["active"]["responses"] == 1
    assert len(answer["recent"]) == 1 and not answer["recent"][0]["block"]["gap"]
