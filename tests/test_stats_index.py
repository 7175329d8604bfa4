"""``cclens stats`` from the index gives what reading the transcripts gives; 5-hour blocks.

The index stores each session's responses as the analytics count them, and merges copies
across sessions; these tests compare every grouping with the direct reading of the same
transcripts (real ones from the shared corpus, and made-up ones for resumed sessions and lines
appended to a live session), and check the blocks against their responses.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.figures.aggregate import PricedResponse, UsageRow, part_of, price_responses
from cclens.figures.blocks import BLOCK_LENGTH, apply_token_limit, five_hour_blocks
from cclens.figures.period import Period
from cclens.figures.pricing import load_price_table
from cclens.figures.tokens import TokenCounts
from cclens.figures.usage import collect_responses
from cclens.index import Index
from cclens.readers.claude import discover, load
from cclens.reports.stats import index_stats, usage_stats

from .test_usage import SESSION, assistant, project_dir, prompt, resumed_corpus, usage, write

RESUMED = "22222222-2222-4222-8222-222222222222"
GROUPINGS = ("day", "week", "month", "project", "session", "model", "tool", "block")


def _plain(report: Any) -> dict[str, Any]:
    """A report as JSON, without what differs by design between the two sources."""
    found: dict[str, Any] = json.loads(msgspec.json.encode(report))
    for key in ("source", "diagnostics", "files_read", "sessions_read"):
        found.pop(key)
    rounded: dict[str, Any] = _rounded(found)
    return rounded


def _rounded(value: Any) -> Any:
    # Costs summed in SQLite and in Python differ in the last bits of a double.
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


def _compare(index: Index, root: Path, by: str, **options: Any) -> dict[str, Any]:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    direct = _plain(usage_stats([root], by=by, now=now, **options))  # type: ignore[arg-type]
    indexed = _plain(index_stats(index, by=by, now=now, **options))  # type: ignore[arg-type]
    assert indexed == direct, by
    return indexed


@pytest.mark.slow
def test_the_index_gives_what_the_transcripts_give_on_the_corpus(
    corpus: Path, corpus_index: Index
) -> None:
    index = corpus_index
    for by in GROUPINGS:
        report = _compare(index, corpus, by)
        assert report["responses"] > 900
    # Projects, and a period, chosen in both.
    _compare(index, corpus, "model", project="chiphuyen-sniffly")
    _compare(index, corpus, "day", period=Period(since=datetime(2025, 7, 1).date()))
    # Another price table: the responses are read back and priced again.
    table = load_price_table()
    _compare(index, corpus, "model", prices=table)


def test_sessions_match_where_no_subagent_file_is_orphaned(corpus: Path, tmp_path: Path) -> None:
    root = corpus / "d-kimuson__claude-code-viewer"
    with Index(tmp_path / "index.db") as index:
        index.update([root])
        report = _compare(index, root, "session")
        assert report["rows"]


def test_a_response_copied_into_a_resumed_session_counts_once(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    resumed_corpus(root)
    with Index(tmp_path / "index.db") as index:
        index.update([root])
        report = _compare(index, root, "session")
        assert report["responses"] == 2
        assert {row["key"]: row["tokens"]["input"] for row in report["rows"]} == {
            SESSION: 5,
            RESUMED: 11,
        }
        with index.connection() as connection:
            rows = connection.execute(
                "SELECT counts, count(*) FROM counted WHERE kind = 1 GROUP BY counts"
            ).fetchall()
        # The copied response: its two copies, and the one row that counts them.
        assert dict(rows) == {0: 2, 1: 1, 2: 1}


def test_lines_appended_to_a_live_session_add_responses(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    path = write(
        project_dir(root) / f"{SESSION}.jsonl",
        [
            prompt("u0", "first", time="2025-06-01T09:00:00.000Z"),
            assistant("a1", "msg_1", usage(input=5, output=7), parent="u0"),
        ],
    )
    with Index(tmp_path / "index.db") as index:
        index.update([root])
        assert _compare(index, root, "day")["responses"] == 1
        # A streamed response grows, and another one starts.
        more = [
            assistant("a2", "msg_1", usage(input=5, output=70), parent="a1"),
            assistant(
                "a3",
                "msg_2",
                usage(input=3, output=4, read=100),
                request_id="req_2",
                parent="a2",
                time="2025-06-01T10:30:00.000Z",
            ),
        ]
        with path.open("a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(record) + "\n" for record in more)
        report = index.update([root], changed=[path])
        assert report.bytes_read < path.stat().st_size  # only what was appended
        found = _compare(index, root, "day")
        assert found["responses"] == 2
        assert found["total"]["tokens"]["output"] == 74


def test_stats_with_paths_reads_transcripts_without_an_index(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "never.db"
    monkeypatch.setenv("CCLENS_DB", str(database))
    root = corpus / "chiphuyen__sniffly"
    result = CliRunner().invoke(main, ["stats", "--json", str(root)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["source"] == "transcripts"
    assert not database.exists()
    # Without a path: the index (brought up to date from the --db's roots first).
    index_db = tmp_path / "index.db"
    with Index(index_db) as index:
        index.update([root])
    result = CliRunner().invoke(main, ["stats", "--json", "--no-update", "--db", str(index_db)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["source"] == "index"
    direct = usage_stats([root])
    assert report["responses"] == direct.responses
    assert report["total"]["tokens"]["total"] == direct.total.tokens.total


# --- 5-hour blocks ----------------------------------------------------------------------------


def _priced(root: Path) -> list[PricedResponse]:
    sessions = [load(file) for file in discover(root).sessions]
    return price_responses(collect_responses(sessions), load_price_table())


def _spread(root: Path, times: list[str]) -> None:
    records: list[dict[str, Any]] = [prompt("u0", "go", time=times[0])]
    for number, when in enumerate(times):
        records.append(
            assistant(
                f"a{number}",
                f"msg_{number}",
                usage(input=10 * (number + 1), output=number + 1, read=1000),
                request_id=f"req_{number}",
                time=when,
            )
        )
    write(project_dir(root) / f"{SESSION}.jsonl", records)


def test_blocks_start_at_the_hour_last_five_hours_and_show_gaps(tmp_path: Path) -> None:
    _spread(
        tmp_path,
        [
            "2025-06-01T09:17:00.000Z",  # block 09:00-14:00
            "2025-06-01T13:59:59.000Z",  # still in it
            "2025-06-01T14:00:00.000Z",  # starts 14:00-19:00, touching the first
            "2025-06-02T08:45:00.000Z",  # after a gap: 08:00-13:00
        ],
    )
    items = _priced(tmp_path)
    period = Period()
    rows = five_hour_blocks([part_of(item, period) for item in items], now=datetime.now(UTC))
    kinds = [(row.key, row.block.gap if row.block else None) for row in rows]
    assert kinds == [
        ("2025-06-01T09:00:00Z", False),
        ("2025-06-01T14:00:00Z", False),
        ("2025-06-01T19:00:00Z", True),
        ("2025-06-02T08:00:00Z", False),
    ]
    blocks = [row for row in rows if row.block and not row.block.gap]
    assert [row.responses for row in blocks] == [2, 1, 1]
    # Block totals are the sum of the responses they hold.
    total = TokenCounts()
    for row in blocks:
        total = total + row.tokens
    assert total == sum((item.response.tokens for item in items), TokenCounts())
    held = [
        sum(
            (
                item.response.tokens
                for item in items
                if row.block
                and item.response.timestamp
                and row.block.start <= item.response.timestamp < row.block.end
            ),
            TokenCounts(),
        )
        for row in blocks
    ]
    assert held == [row.tokens for row in blocks]
    assert sum(row.cost or 0 for row in blocks) == pytest.approx(
        sum(item.priced.cost or 0 for item in items)
    )
    assert not any(row.block and row.block.active for row in rows)


def test_the_active_block_has_a_burn_rate_and_a_projection(tmp_path: Path) -> None:
    _spread(tmp_path, ["2025-06-01T09:10:00.000Z", "2025-06-01T10:10:00.000Z"])
    items = _priced(tmp_path)
    period = Period()
    now = datetime(2025, 6, 1, 11, 0, tzinfo=UTC)
    (row,) = five_hour_blocks([part_of(item, period) for item in items], now=now)
    info = row.block
    assert info is not None and info.active
    assert info.minutes_left == pytest.approx(180)
    # One hour of activity, from the first response to the last.
    assert info.tokens_per_hour == pytest.approx(row.tokens.total)
    assert info.projected_tokens == round(row.tokens.total + row.tokens.total * 3)
    assert row.cost is not None and info.cost_per_hour == pytest.approx(row.cost)
    assert info.projected_cost == pytest.approx(row.cost * 4)
    # The same block five hours after its last response is over.
    (later,) = five_hour_blocks([part_of(item, period) for item in items], now=now + BLOCK_LENGTH)
    assert later.block is not None and not later.block.active


def test_token_limit_max_is_the_largest_past_block() -> None:
    def block(tokens: int, *, active: bool = False, projected: int | None = None) -> UsageRow:
        from cclens.figures.aggregate import BlockInfo

        start = datetime(2025, 6, 1, tzinfo=UTC)
        row = UsageRow(key="b", tokens=TokenCounts(input=tokens), responses=1)
        row.block = BlockInfo(
            start=start, end=start + timedelta(hours=5), active=active, projected_tokens=projected
        )
        return row

    rows = [block(100), block(300), block(50, active=True, projected=400)]
    assert apply_token_limit(rows, "max") == 300
    assert [row.block.over_limit for row in rows if row.block] == [False, False, True]
    assert apply_token_limit(rows, 90) == 90
    assert [row.block.over_limit for row in rows if row.block] == [True, True, True]
    assert apply_token_limit(rows, None) is None


def test_stats_by_block_on_the_command_line(corpus: Path, tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    shutil.copytree(corpus / "chiphuyen__sniffly", root)
    result = CliRunner().invoke(main, ["stats", "--by", "block", "--token-limit", "max", str(root)])
    assert result.exit_code == 0, result.output
    assert "block (UTC)" in result.stdout
    result = CliRunner().invoke(
        main, ["stats", "--by", "block", "--json", "--token-limit", "max", str(root)]
    )
    report = json.loads(result.stdout)
    blocks = [row for row in report["rows"] if not row["block"]["gap"]]
    assert sum(row["responses"] for row in blocks) == report["responses"]
    assert report["token_limit"] == max(row["tokens"]["total"] for row in blocks)
    result = CliRunner().invoke(main, ["stats", "--token-limit", "lots", str(root)])
    assert result.exit_code == 2
    assert "not a number of tokens" in result.output
