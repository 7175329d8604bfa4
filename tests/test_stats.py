"""``cclens stats``: token totals by hand on the shared corpus, date and project filters, the
tool breakdown, and the documented JSON."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cclens.cli import main

from .test_usage import PROJECT, SESSION, assistant, prompt, tool_result, tool_use, usage, write

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "stats.md"
KINDS = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, ["stats", *args])
    assert result.exit_code == 0, result.output
    return result


def run_json(*args: str) -> dict[str, Any]:
    report = json.loads(run("--json", *args).stdout)
    assert isinstance(report, dict)
    return report


# --- token totals computed by hand from the raw JSON -------------------------------------------


def _owner(path: Path, root: Path) -> str:
    """The session a transcript file belongs to, from where it is and what it says: a
    subagent file whose session file is not there is a session of its own (named by its file)."""
    parts = path.relative_to(root).parts
    if "subagents" in parts:
        parent = parts[parts.index("subagents") - 1]
        folder = root.joinpath(*parts[: parts.index("subagents") - 1])
        return parent if (folder / f"{parent}.jsonl").exists() else path.stem
    if path.name.startswith("agent-"):
        for line in path.read_bytes().splitlines():
            record = json.loads(line)
            if isinstance(record, dict) and record.get("sessionId"):
                parent = str(record["sessionId"])
                return parent if (path.parent / f"{parent}.jsonl").exists() else path.stem
    return path.stem


def _raw_tokens(raw: dict[str, Any]) -> dict[str, int]:
    """The API's cache-write total is authoritative; its breakdown only splits it."""
    split = raw.get("cache_creation")
    split = split if isinstance(split, dict) else {}
    written = raw.get("cache_creation_input_tokens") or 0
    write_1h = min(split.get("ephemeral_1h_input_tokens") or 0, written)
    explained = min(split.get("ephemeral_5m_input_tokens") or 0, written - write_1h)
    tokens = {
        "input": raw.get("input_tokens") or 0,
        "output": raw.get("output_tokens") or 0,
        "cache_write_5m": written - write_1h,
        "cache_write_1h": write_1h,
        "cache_read": raw.get("cache_read_input_tokens") or 0,
    }
    tokens["total"] = sum(tokens.values())
    tokens["cache_write_unsplit"] = written - write_1h - explained
    return tokens


def hand_totals(root: Path) -> dict[str, dict[str, int]]:
    """Per session: the tokens of each unique response (its largest usage), summed."""
    best: dict[tuple[str, str, str | None], tuple[tuple[int, int], str, dict[str, int]]] = {}
    for path in sorted(root.rglob("*.jsonl")):
        session = _owner(path, root)
        for line in path.read_bytes().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            message = record.get("message") if isinstance(record, dict) else None
            if not isinstance(message, dict) or not isinstance(message.get("usage"), dict):
                continue
            if record.get("type") != "assistant" or message.get("model") == "<synthetic>":
                continue
            # each project is counted on its own
            key = (path.relative_to(root).parts[0], message["id"], record.get("requestId"))
            tokens = _raw_tokens(message["usage"])
            size = (tokens["output"], tokens["total"])
            if key not in best or size >= best[key][0]:
                owner = best[key][1] if key in best else session
                best[key] = (size, owner, tokens)
    totals: dict[str, dict[str, int]] = {}
    for _, session, tokens in best.values():
        kinds = [*KINDS, "total", "cache_write_unsplit", "responses"]
        row = totals.setdefault(session, dict.fromkeys(kinds, 0))
        for kind, count in tokens.items():
            row[kind] += count
        row["responses"] += 1
    return totals


HAND_ROOTS = [
    "chiphuyen__sniffly/tests/mock-data",
    "iansherr__claude-code-log/test/test_data/real_projects",
    "d-kimuson__claude-code-viewer/mock-global-claude-dir",
]


@pytest.mark.parametrize("folder", HAND_ROOTS)
def test_totals_match_a_count_by_hand(corpus: Path, folder: str) -> None:
    root = corpus / folder
    expected = hand_totals(root)
    assert expected, f"no usage found by hand under {root}"
    report = run_json("--by", "session", "--claude-dir", str(root))
    got = {row["key"]: {**row["tokens"], "responses": row["responses"]} for row in report["rows"]}
    assert got == expected
    total = report["total"]
    for kind in (*KINDS, "total"):
        assert total["tokens"][kind] == sum(row[kind] for row in expected.values())
    assert (
        total["responses"]
        == report["responses"]
        == sum(row["responses"] for row in expected.values())
    )


def test_cost_by_hand_for_sonnet_4_sessions(corpus: Path) -> None:
    root = corpus / "chiphuyen__sniffly/tests/mock-data"
    # Every response there is claude-sonnet-4-20250514, below the 200K long-context threshold:
    # $3 input, $15 output, $3.75 and $6 cache writes, $0.30 cache reads per million tokens.
    rates = {
        "input": 3,
        "output": 15,
        "cache_write_5m": 3.75,
        "cache_write_1h": 6,
        "cache_read": 0.3,
    }
    expected = {
        session: sum(tokens[kind] * rates[kind] for kind in KINDS) / 1e6
        for session, tokens in hand_totals(root).items()
    }
    report = run_json("--by", "session", "--claude-dir", str(root))
    assert {row["key"]: row["cost"] for row in report["rows"]} == pytest.approx(expected)
    (model,) = run_json("--by", "model", "--claude-dir", str(root))["rows"]
    assert model["key"] == "claude-sonnet-4-20250514" and model["prices"] == ["claude-sonnet-4"]
    assert model["cost"] == pytest.approx(sum(expected.values()))


@pytest.mark.slow
def test_every_grouping_adds_up_to_the_same_total(corpus: Path) -> None:
    root = str(corpus / "iansherr__claude-code-log/test/test_data/real_projects")
    totals = set()
    for by in ("day", "week", "month", "project", "session", "model", "tool"):
        report = run_json("--by", by, "--claude-dir", root)
        summed = {kind: sum(row["tokens"][kind] for row in report["rows"]) for kind in KINDS}
        assert summed == {kind: report["total"]["tokens"][kind] for kind in KINDS}, by
        assert sum(row["cost"] or 0 for row in report["rows"]) == pytest.approx(
            report["total"]["cost"]
        )
        totals.add(report["total"]["tokens"]["total"])
    assert len(totals) == 1


def test_the_whole_corpus_reports_malformed_lines_and_goes_on(corpus: Path) -> None:
    result = CliRunner().invoke(
        main, ["stats", "--json", "--by", "model", "--claude-dir", str(corpus)]
    )
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["responses"] > 900
    assert any(
        re.search(r"edge_cases\.jsonl:13: not a JSON object", d) for d in report["diagnostics"]
    )
    assert "edge_cases.jsonl:13" in result.stderr
    models = {row["key"] for row in report["rows"]}
    assert "<synthetic>" not in models and "claude-opus-4-7" in models


# --- synthetic projects for the filters ---------------------------------------------------------


def _local_noon(day: str) -> datetime:
    """Noon of ``day`` in this machine's zone (days in reports are local days)."""
    return datetime.fromisoformat(f"{day}T12:00:00").astimezone()


def _timestamp(day: str) -> float:
    return _local_noon(day).timestamp()


def _stamp(day: str) -> str:
    """Local noon of ``day`` written the way Claude Code writes times (UTC, ``Z``)."""
    return _local_noon(day).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _day_session(folder: Path, session: str, days: list[str], *, mtime: str) -> Path:
    records = []
    for position, day in enumerate(days):
        records.append(
            assistant(
                f"{session}-{position}",
                f"msg_{session}_{position}",
                usage(input=1, output=10**position),
                request_id=f"req_{session}_{position}",
                session=session,
                time=_stamp(day),
            )
        )
    path = write(folder / f"{session}.jsonl", records)
    os.utime(path, (_timestamp(mtime), _timestamp(mtime)))
    return path


def test_date_filters_choose_files_before_parsing(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / PROJECT
    old = _day_session(folder, "old", ["2025-06-01"], mtime="2025-06-01")
    # Not JSON: reading this file would report the line. It must not be read at all.
    with old.open("a", encoding="utf-8") as handle:
        handle.write("{broken\n")
    os.utime(old, (_timestamp("2025-06-01"), _timestamp("2025-06-01")))
    # Written after --until, but it holds earlier records: read, then filtered by timestamp.
    _day_session(folder, "late", ["2025-06-05", "2025-06-12", "2025-06-25"], mtime="2025-07-01")

    report = run_json("--since", "2025-06-10", "--until", "20250620", "--claude-dir", str(tmp_path))
    assert report["since"] == "2025-06-10" and report["until"] == "2025-06-20"
    assert [row["key"] for row in report["rows"]] == ["2025-06-12"]
    assert report["total"]["tokens"]["output"] == 10
    assert report["files_read"] == 1
    assert not any("old.jsonl" in d for d in report["diagnostics"])

    everything = run_json("--claude-dir", str(tmp_path))
    assert [row["key"] for row in everything["rows"]] == [
        "2025-06-01",
        "2025-06-05",
        "2025-06-12",
        "2025-06-25",
    ]
    assert any("old.jsonl:2" in d for d in everything["diagnostics"])


def test_week_and_month_keys(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / PROJECT
    _day_session(
        folder, "s", ["2025-06-01", "2025-06-02", "2025-06-08", "2025-07-01"], mtime="2025-07-02"
    )
    weeks = run_json("--by", "week", "--claude-dir", str(tmp_path))
    # 2025-06-01 is a Sunday: it belongs to the week that began on Monday 2025-05-26.
    assert [(r["key"], r["responses"]) for r in weeks["rows"]] == [
        ("2025-05-26", 1),
        ("2025-06-02", 2),
        ("2025-06-30", 1),
    ]
    months = run_json("--by", "month", "--claude-dir", str(tmp_path))
    assert [(r["key"], r["responses"]) for r in months["rows"]] == [("2025-06", 3), ("2025-07", 1)]


def test_project_filter(tmp_path: Path) -> None:
    _day_session(tmp_path / "projects" / "-home-me-app", "a", ["2025-06-01"], mtime="2025-06-02")
    _day_session(
        tmp_path / "projects" / "-home-me-site",
        "b",
        ["2025-06-01", "2025-06-02"],
        mtime="2025-06-03",
    )
    for name in ("-home-me-site", "/home/me/site", "site", "me/site"):
        report = run_json("--project", name, "--by", "project", "--claude-dir", str(tmp_path))
        assert [row["key"] for row in report["rows"]] == ["-home-me-site"], name
        assert report["sessions_read"] == 1
    assert run_json("--project", "nothing", "--claude-dir", str(tmp_path))["rows"] == []


def test_by_tool_splits_tokens_and_reports_calls(tmp_path: Path) -> None:
    records = [
        prompt("u0", "go", time="2025-06-01T10:00:00.000Z"),
        assistant(
            "a1",
            "msg_1",
            usage(input=3, output=101, read=1000),
            parent="u0",
            time="2025-06-01T10:00:01.000Z",
            content=[
                tool_use("t1", "Read", {"file_path": "/home/me/app/a.py"}),
                tool_use("t2", "Bash", {"command": "rm -rf build"}),
            ],
        ),
        tool_result("u2", "t1", "contents", parent="a1", time="2025-06-01T10:00:03.000Z"),
        tool_result(
            "u3",
            "t2",
            "The user doesn't want to proceed with this tool use.",
            parent="u2",
            time="2025-06-01T10:00:11.000Z",
            is_error=True,
        ),
        assistant(
            "a4",
            "msg_2",
            usage(input=1, output=5),
            request_id="req_2",
            parent="u3",
            time="2025-06-01T10:00:12.000Z",
            content=[tool_use("t3", "Read", {"file_path": "/home/me/app/b.py"})],
        ),
        tool_result("u5", "t3", "contents", parent="a4", time="2025-06-01T10:00:16.000Z"),
        assistant(
            "a6",
            "msg_3",
            usage(output=7),
            request_id="req_3",
            parent="u5",
            time="2025-06-01T10:00:17.000Z",
        ),
    ]
    write(tmp_path / "projects" / PROJECT / f"{SESSION}.jsonl", records)
    report = run_json("--by", "tool", "--claude-dir", str(tmp_path))
    rows = {row["key"]: row for row in report["rows"]}
    assert set(rows) == {"Read", "Bash", "(no tool)"}
    # msg_1 is split in two (Read gets the odd token), msg_2 is all Read's, msg_3 is no tool's.
    assert rows["Read"]["tokens"]["output"] == 51 + 5
    assert rows["Bash"]["tokens"]["output"] == 50
    assert rows["(no tool)"]["tokens"]["output"] == 7
    assert rows["Read"]["tokens"]["input"] == 2 + 1 and rows["Bash"]["tokens"]["input"] == 1
    assert rows["Read"]["responses"] == 2 and rows["Bash"]["responses"] == 1
    read, bash = rows["Read"]["tool"], rows["Bash"]["tool"]
    assert (read["calls"], read["errors"], read["timed"]) == (2, 0, 2)
    assert read["median_seconds"] == pytest.approx(3.0)  # 2 s and 4 s
    assert read["p95_seconds"] == pytest.approx(2 + 0.95 * 2)
    assert (bash["calls"], bash["errors"], bash["rejected"]) == (1, 1, 1)
    assert bash["median_seconds"] == pytest.approx(10.0)
    total = report["total"]["tokens"]["total"]
    assert sum(row["tokens"]["total"] for row in rows.values()) == total
    text = run("--by", "tool", "--claude-dir", str(tmp_path)).stdout
    assert "Bash" in text and "rejected" in text and "(no tool)" in text


def test_unpriced_models_are_named_and_not_guessed(tmp_path: Path) -> None:
    write(
        tmp_path / "projects" / PROJECT / f"{SESSION}.jsonl",
        [
            assistant("a1", "msg_1", usage(input=1_000_000), model="deepseek-chat"),
            assistant(
                "a2",
                "msg_2",
                usage(input=1_000_000),
                request_id="req_2",
                parent="a1",
                model="claude-opus-4-7",
            ),
        ],
    )
    report = run_json("--by", "model", "--claude-dir", str(tmp_path))
    rows = {row["key"]: row for row in report["rows"]}
    assert rows["deepseek-chat"]["cost"] is None
    assert rows["deepseek-chat"]["unpriced_responses"] == 1
    assert rows["claude-opus-4-7"]["cost"] == pytest.approx(5.0)
    assert report["total"]["cost"] == pytest.approx(5.0)
    assert report["total"]["unpriced_responses"] == 1
    assert [u["model"] for u in report["unpriced"]] == ["deepseek-chat"]
    text = run("--by", "model", "--claude-dir", str(tmp_path)).stdout
    assert "deepseek-chat" in text and "unpriced" in text

    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"models": {"deepseek-chat": {"input": 0.28, "output": 0.42}}}))
    priced = run_json("--by", "model", "--pricing", str(prices), "--claude-dir", str(tmp_path))
    assert priced["total"]["cost"] == pytest.approx(5.28)
    assert priced["unpriced"] == [] and priced["prices"]["overrides"] == [str(prices)]


def test_bad_options_fail_with_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "prices.json"
    bad.write_text("{")
    result = CliRunner().invoke(
        main, ["stats", "--pricing", str(bad), "--claude-dir", str(tmp_path)]
    )
    assert result.exit_code == 2 and str(bad) in result.output and "not valid JSON" in result.output
    result = CliRunner().invoke(main, ["stats", "--since", "June"])
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output
    result = CliRunner().invoke(main, ["stats", "--since", "2025-06-02", "--until", "2025-06-01"])
    assert result.exit_code == 2 and "after --until" in result.output
    result = CliRunner().invoke(main, ["stats", "--claude-dir", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "no such file" in result.output


def test_human_output_lists_groups_and_the_price_date(corpus: Path) -> None:
    text = run("--by", "model", "--claude-dir", str(corpus / "chiphuyen__sniffly")).stdout
    assert "claude-sonnet-4-20250514" in text and "total" in text
    assert "Prices as of" in text


# --- the JSON is documented ---------------------------------------------------------------------


def _keys(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(key)
            found |= _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= _keys(inner)
    return found


def test_every_json_key_is_documented(corpus: Path) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    help_text = run("--help").stdout
    report = run_json("--by", "tool", "--claude-dir", str(corpus / "chiphuyen__sniffly"))
    session_report = run_json("--by", "session", "--claude-dir", str(corpus / "chiphuyen__sniffly"))
    keys = _keys(report) | _keys(session_report)
    keys -= {row["key"] for row in report["rows"]}  # tool names are values, not keys
    missing = sorted(key for key in keys if f"`{key}`" not in docs)
    assert missing == [], f"keys of cclens stats --json missing from {DOCS}"
    for key in report:
        assert key in help_text, key
    for option in (
        "--by",
        "--since",
        "--until",
        "--project",
        "--json",
        "--pricing",
        "--claude-dir",
    ):
        assert f"`{option}" in docs and option in help_text
