"""The Parquet dataset, read back with DuckDB and checked against the library."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from click.testing import CliRunner

from cclens.cli.main import main
from cclens.dataset import (
    TABLES,
    DatasetReport,
    SessionFilter,
    load_selected,
    machine_file,
    markdown_tables,
    select_files,
    write_dataset,
)
from cclens.figures.inventory import inventory
from cclens.figures.usage import collect_responses
from cclens.model.blocks import ToolUseBlock
from cclens.model.records import AssistantRecord
from cclens.readers.claude import AssistantItem, Session, discover, load
from cclens.redact import RedactionOptions, Redactor

from .conftest import ROOT
from .test_dataset_synthetic import (
    AGENT,
    MALFORMED_LINE,
    PROJECT,
    RESUMED,
    SECRETS,
    SESSION,
    write_claude_dir,
)

DOCS = ROOT / "docs" / "dataset.md"


def write(root: Path, source: Path, machine: str = "alpha", **options: Any) -> DatasetReport:
    """Write the sessions under ``source`` to ``root`` the way ``cclens dataset`` does."""
    since = options.pop("since", None)
    wanted = SessionFilter(since=since)
    selection = select_files([source], wanted)
    redaction = options.pop("redaction", None) or Redactor()
    return write_dataset(
        root, load_selected(selection, wanted), redaction=redaction, machine=machine, **options
    )


def query(sql: str) -> list[tuple[Any, ...]]:
    # Day and month boundaries in UTC, as the partitions use, whatever the machine's zone.
    with duckdb.connect() as connection:
        connection.execute("set TimeZone = 'UTC'")
        rows: list[tuple[Any, ...]] = connection.sql(sql).fetchall()
    return rows


def scan(root: Path, table: str) -> str:
    return f"read_parquet('{root}/{table}/**/*.parquet', hive_partitioning = true)"


def file_hashes(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def corpus_sessions(corpus: Path) -> list[Session]:
    return [load(file) for file in discover(corpus).sessions]


@pytest.fixture(scope="module")
def corpus_dataset(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dataset")
    write(root, corpus)
    return root


# Row counts and totals against the library ------------------------------------------------


@pytest.mark.slow
def test_one_session_row_per_session(corpus_dataset: Path, corpus_sessions: list[Session]) -> None:
    ((rows, machines),) = query(
        f"select count(*), list(distinct machine) from {scan(corpus_dataset, 'sessions')}"
    )
    assert rows == len(corpus_sessions) > 100
    assert machines == ["alpha"]
    counted = dict(
        query(f"select session_id, count(*) from {scan(corpus_dataset, 'sessions')} group by 1")
    )
    assert counted == Counter(s.session_id for s in corpus_sessions)


def test_tool_calls_per_tool_match_the_inventory(
    corpus_dataset: Path, corpus_sessions: list[Session]
) -> None:
    rows = query(
        f"select name, count(*), count(*) filter (where is_error), "
        f"count(*) filter (where status = 'rejected') "
        f"from {scan(corpus_dataset, 'tool_calls')} group by 1"
    )
    expected = {
        row.name: (row.calls, row.errors, row.rejected) for row in inventory(corpus_sessions)
    }
    assert {name: tuple(counts) for name, *counts in rows} == expected
    assert sum(calls for calls, _, _ in expected.values()) > 1000


def test_each_tool_call_is_one_row(corpus_dataset: Path, corpus_sessions: list[Session]) -> None:
    # Counted here without the library's helpers: one call per tool_use id in each project,
    # wherever the block was read (inline sidechains are read twice, resumed sessions copy
    # calls; each project is counted on its own).
    names: dict[tuple[str, str], str] = {}
    for top in corpus_sessions:
        for session in top.all_sessions():
            for entry in session.entries:
                record = entry.record
                if isinstance(record, AssistantRecord) and record.message:
                    for block in record.message.blocks:
                        if isinstance(block, ToolUseBlock):
                            key = block.id or f"{session.path}:{entry.line}"
                            names[(top.project, key)] = block.name
    rows = dict(
        query(f"select name, count(*) from {scan(corpus_dataset, 'tool_calls')} group by 1")
    )
    assert rows == Counter(names.values())


def _real(text: str | None) -> str | None:
    return text if text and not text.startswith("[") else None


def _responses(sessions: list[Session]) -> dict[str, list[int]]:
    """Token totals per model, each API response once: (message.id, requestId) pairs, and a
    copy without requestId matched by message.id alone. Claude Code's own notices (model
    ``<synthetic>``) are not API responses, and fixtures' ``[trimmed]`` ids are no ids."""
    items = [
        (top.project, item)
        for top in sessions
        for session in top.all_sessions()
        for item in session.items
        if isinstance(item, AssistantItem)
        and item.usage is not None
        and item.model != "<synthetic>"
    ]
    # Each project is counted on its own.
    with_request = {
        (project, _real(i.message_id), _real(i.request_id))
        for project, i in items
        if _real(i.request_id)
    }
    message_ids = {(p, m) for p, m, _ in with_request if m}
    seen: set[tuple[str, str, str | None]] = set()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for project, item in items:
        message_id, request_id = _real(item.message_id), _real(item.request_id)
        if message_id and not request_id and (project, message_id) in message_ids:
            continue
        key = (
            project,
            message_id or request_id or _real(item.uuid) or str(id(item)),
            request_id,
        )
        if key in seen:
            continue
        seen.add(key)
        usage = item.usage
        assert usage is not None
        total = totals[item.model or "(none)"]
        total[0] += usage.input_tokens or 0
        total[1] += usage.output_tokens or 0
        total[2] += usage.cache_creation_input_tokens or 0
        total[3] += usage.cache_read_input_tokens or 0
    return {model: counts for model, counts in totals.items() if any(counts)}


def test_tokens_per_model_count_each_response_once(
    corpus_dataset: Path, corpus_sessions: list[Session]
) -> None:
    rows = query(
        f"select coalesce(model, '(none)'), sum(input_tokens), sum(output_tokens), "
        f"sum(cache_creation_input_tokens), sum(cache_read_input_tokens) "
        f"from {scan(corpus_dataset, 'usage')} group by 1"
    )
    found = {model: [int(v) for v in values] for model, *values in rows}
    # Fixtures that replaced message ids with "[trimmed for fixture]" hold responses the
    # transcript model merges into one; they used no tokens, so only models that did count.
    found = {model: totals for model, totals in found.items() if any(totals)}
    assert found == _responses(corpus_sessions)
    assert sum(v[1] for v in found.values()) > 100_000


@pytest.mark.slow
def test_usage_matches_the_stats_library(
    corpus_dataset: Path, corpus_sessions: list[Session]
) -> None:
    responses = collect_responses(corpus_sessions)
    expected: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for response in responses:
        tokens = response.tokens
        counts = (
            1,
            tokens.input,
            tokens.output,
            tokens.cache_write_5m,
            tokens.cache_write_1h,
            tokens.cache_read,
        )
        total = expected[response.model or ""]
        for index, count in enumerate(counts):
            total[index] += count
    rows = query(
        f"select coalesce(model, ''), count(*), sum(input_tokens), sum(output_tokens), "
        f"sum(cache_write_5m_tokens), sum(cache_write_1h_tokens), sum(cache_read_input_tokens) "
        f"from {scan(corpus_dataset, 'usage')} group by 1"
    )
    assert {model: [int(v) for v in values] for model, *values in rows} == expected


def test_session_totals_add_up_to_the_detail_tables(corpus_dataset: Path) -> None:
    mismatches = query(
        f"""
        with calls as (
            select session_id, count(*) as n, count(*) filter (where is_error) as errors
            from {scan(corpus_dataset, "tool_calls")} group by 1),
        used as (
            select session_id, sum(output_tokens) as output
            from {scan(corpus_dataset, "usage")} group by 1),
        said as (
            select session_id, count(*) as n
            from {scan(corpus_dataset, "messages")} group by 1)
        select s.session_id
        from (
            select session_id, sum(tool_calls) as tool_calls, sum(tool_errors) as tool_errors,
                sum(output_tokens) as output_tokens, sum(messages) as messages
            from {scan(corpus_dataset, "sessions")} group by 1) s
        left join calls using (session_id) left join used using (session_id)
        left join said using (session_id)
        where s.tool_calls != coalesce(calls.n, 0) or s.tool_errors != coalesce(calls.errors, 0)
           or s.output_tokens != coalesce(used.output, 0) or s.messages != coalesce(said.n, 0)
        """
    )
    assert mismatches == []


def test_ids_join_across_tables(corpus_dataset: Path) -> None:
    ((unmatched_usage,),) = query(
        f"select count(*) from {scan(corpus_dataset, 'usage')} u anti join "
        f"{scan(corpus_dataset, 'messages')} m using (session_id, message_id) "
        "where u.message_id is not null"
    )
    assert unmatched_usage == 0
    ((spawned, linked),) = query(
        f"select count(*), count(t.tool_use_id) from {scan(corpus_dataset, 'subagents')} a "
        f"left join {scan(corpus_dataset, 'tool_calls')} t using (session_id, tool_use_id)"
    )
    assert spawned > 10
    assert (
        linked
        == spawned
        - query(
            f"select count(*) from {scan(corpus_dataset, 'subagents')} where tool_use_id is null"
        )[0][0]
    )


def test_partitions_are_project_and_month(corpus_dataset: Path) -> None:
    months = {m for (m,) in query(f"select distinct month from {scan(corpus_dataset, 'sessions')}")}
    assert months and all(re.fullmatch(r"\d{4}-\d{2}|unknown", m) for m in months)
    rows = query(
        f"select month, epoch(started) from {scan(corpus_dataset, 'sessions')} "
        "where started is not null"
    )
    assert len(rows) > 90
    for month, started in rows:
        assert datetime.fromtimestamp(started, UTC).strftime("%Y-%m") == month
    for path in corpus_dataset.rglob("*.parquet"):
        table, project, month, name = path.relative_to(corpus_dataset).parts
        assert table in TABLES
        assert project.startswith("project=") and month.startswith("month=")
        assert name == "alpha.parquet"


def test_files_carry_the_documented_schema(corpus_dataset: Path) -> None:
    for table, schema in TABLES.items():
        for path in (corpus_dataset / table).rglob("*.parquet"):
            assert pq.read_schema(path).remove_metadata() == schema.remove_metadata(), path


# Documentation ------------------------------------------------------------------------------


def test_docs_list_every_column() -> None:
    assert markdown_tables() in DOCS.read_text(encoding="utf-8"), (
        "docs/dataset.md is out of date: paste cclens.dataset.markdown_tables() into it"
    )


def _sql_blocks() -> list[str]:
    return re.findall(r"```sql\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)


def test_docs_have_example_queries() -> None:
    assert len(_sql_blocks()) >= 4


@pytest.mark.parametrize("index", range(len(_sql_blocks())) if DOCS.exists() else [])
def test_every_query_in_the_docs_runs(corpus_dataset: Path, index: int) -> None:
    sql = _sql_blocks()[index].replace("'dataset/", f"'{corpus_dataset}/")
    assert str(corpus_dataset) in sql, "queries read the dataset as 'dataset/<table>/...'"
    rows = query(sql)
    assert rows, f"query {index + 1} of docs/dataset.md returned nothing:\n{sql}"


# Re-runs and several machines ------------------------------------------------------------


@pytest.mark.slow
def test_writing_again_gives_the_same_files(corpus: Path, tmp_path: Path) -> None:
    write(tmp_path, corpus)
    first = file_hashes(tmp_path)
    write(tmp_path, corpus)
    assert file_hashes(tmp_path) == first


@pytest.mark.slow
def test_a_run_since_a_date_keeps_the_other_sessions(corpus: Path, tmp_path: Path) -> None:
    full, partial = tmp_path / "full", tmp_path / "partial"
    write(full, corpus)
    write(partial, corpus)
    since = datetime(2025, 11, 1, tzinfo=UTC)
    report = write(partial, corpus, since=since)
    assert 0 < report.sessions < 104
    assert file_hashes(partial) == file_hashes(full)


@pytest.mark.slow
def test_machines_write_side_by_side(corpus: Path, tmp_path: Path) -> None:
    alpha, beta, shared = tmp_path / "alpha", tmp_path / "beta", tmp_path / "shared"
    write(alpha, corpus, machine="alpha")
    write(beta, corpus, machine="beta.example.com")
    shutil.copytree(alpha, shared)
    shutil.copytree(beta, shared, dirs_exist_ok=True)
    count = len(list(alpha.rglob("*.parquet")))
    assert len(list(shared.rglob("*.parquet"))) == 2 * count
    rows = dict(query(f"select machine, count(*) from {scan(shared, 'usage')} group by 1"))
    assert rows["alpha"] == rows["beta.example.com"] > 900


def test_machine_names_make_distinct_safe_file_names() -> None:
    assert machine_file("alpha") == "alpha.parquet"
    odd = machine_file("Alex's laptop/2")
    assert re.fullmatch(r"Alex-s-laptop-2-[0-9a-f]{8}\.parquet", odd)
    assert machine_file("Alex's laptop/2") != machine_file("Alex-s laptop/2")
    assert machine_file("..") != ".parquet"


# Redaction, resumed sessions and bad lines (synthetic folder) ------------------------------


@pytest.fixture
def synthetic(tmp_path: Path) -> Path:
    return write_claude_dir(tmp_path / "claude")


def _all_values(root: Path) -> Iterator[str]:
    for path in root.rglob("*.parquet"):
        for row in pq.read_table(path).to_pylist():
            yield json.dumps(row, default=str)


def test_no_secret_survives_in_any_column(synthetic: Path, tmp_path: Path) -> None:
    redaction = Redactor()
    write(tmp_path / "out", synthetic, redaction=redaction)
    text = "\n".join(_all_values(tmp_path / "out"))
    for secret, part in SECRETS.items():
        assert part not in text, f"{secret} survived"
    assert "[REDACTED:" in text
    assert redaction.counts["github-token"] >= 3
    # Ordinary text and code stay as they were.
    assert "Checking the token first." in text
    assert "api.github.com/user" in text


def test_no_redact_keeps_the_text(synthetic: Path, tmp_path: Path) -> None:
    redaction = Redactor(RedactionOptions(enabled=False))
    write(tmp_path / "out", synthetic, redaction=redaction)
    text = "\n".join(_all_values(tmp_path / "out"))
    assert all(part in text for part in SECRETS.values())


def test_synthetic_rows(synthetic: Path, tmp_path: Path) -> None:
    root = tmp_path / "out"
    report = write(root, synthetic)
    assert report.sessions == 2
    assert [(d.path.name, d.line) for d in report.diagnostics] == [
        (f"{RESUMED}.jsonl", MALFORMED_LINE)
    ]
    calls = query(
        f"select agent_id, name, tool, status, is_error, duration_seconds, subagent_ids "
        f"from {scan(root, 'tool_calls')} where session_id = '{SESSION}' order by started"
    )
    assert calls == [
        (None, "Bash", "Bash", "ok", False, 4.0, []),
        (None, "Task", "Agent", "ok", False, 50.0, [AGENT]),
        (AGENT, "Grep", "Grep", "ok", False, 5.0, []),
        (None, "Read", "Read", "error", True, 1.0, []),
    ]
    ((agent_type, description, tool_use_id, messages, output),) = query(
        f"select agent_type, description, tool_use_id, messages, output_tokens "
        f"from {scan(root, 'subagents')}"
    )
    assert (agent_type, description, tool_use_id) == ("Explore", "Audit the config", "toolu_task1")
    assert (messages, output) == (4, 6 + 9)
    sessions = dict(
        query(f"select session_id, [turns, tool_calls, subagents] from {scan(root, 'sessions')}")
    )
    # The resumed session repeats the first prompt and response, then adds a prompt; the
    # copied tool call stays counted with the first session.
    assert sessions == {SESSION: [2, 4, 1], RESUMED: [2, 0, 0]}
    ((project, month),) = query(f"select distinct project, month from {scan(root, 'usage')}")
    assert (project, month) == (PROJECT, "2025-03")


def test_a_resumed_session_does_not_count_copied_responses_again(
    synthetic: Path, tmp_path: Path
) -> None:
    root = tmp_path / "out"
    write(root, synthetic)
    usage = query(
        f"select session_id, message_id from {scan(root, 'usage')} order by session_id, timestamp"
    )
    copied = [row for row in usage if row[1] == "msg_s1_1"]
    assert copied == [(SESSION, "msg_s1_1")]
    assert (RESUMED, "msg_s2_1") in usage
    # The copy is still a message of the resumed session; only its usage is counted once.
    ((copies,),) = query(
        f"select count(*) from {scan(root, 'messages')} where message_id = 'msg_s1_1'"
    )
    assert copies == 2


def test_usage_stays_counted_once_across_runs(synthetic: Path, tmp_path: Path) -> None:
    root = tmp_path / "out"
    # The resumed session alone first (as a --since run would), then everything.
    only_resumed = SessionFilter(sessions=(RESUMED,))
    selection = select_files([synthetic], only_resumed)
    write_dataset(
        root, load_selected(selection, only_resumed), redaction=Redactor(), machine="alpha"
    )
    write(root, synthetic)
    ((count, distinct),) = query(
        f"select count(*), count(distinct message_id) from {scan(root, 'usage')}"
    )
    assert count == distinct == 8


# The command -----------------------------------------------------------------------------


def test_command_writes_and_reports(synthetic: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["dataset", str(out), "--claude-dir", str(synthetic), "--machine", "ci"]
    )
    assert result.exit_code == 0, result.output
    assert "Wrote 2 sessions" in result.stdout
    assert "Redacted" in result.stdout and "github-token" in result.stdout
    assert f"{RESUMED}.jsonl:{MALFORMED_LINE}:" in result.stderr
    assert (out / "sessions" / f"project={PROJECT}" / "month=2025-03" / "ci.parquet").is_file()


def test_command_json(synthetic: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["dataset", str(out), "--claude-dir", str(synthetic), "--no-redact", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sessions"] == 2
    assert report["rows"]["tool_calls"] == 4
    assert report["redacted"] == {}
    assert report["malformed"][0]["line"] == MALFORMED_LINE


def test_command_filters_by_project_and_date(synthetic: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["dataset", str(tmp_path / "out"), "--claude-dir", str(synthetic), "--json"]
    for name in (PROJECT, "/home/alex/shop", "shop", "alex/shop"):
        found = json.loads(runner.invoke(main, [*base, "--project", name]).stdout)
        assert found["sessions"] == 2, name
    none = json.loads(runner.invoke(main, [*base, "--project", "elsewhere"]).stdout)
    assert none["sessions"] == 0
    later = json.loads(runner.invoke(main, [*base, "--since", "2999-01-01"]).stdout)
    assert later["sessions"] == 0
    bad = runner.invoke(main, [*base, "--since", "yesterday"])
    assert bad.exit_code == 2 and "not a date" in bad.output


def test_command_refuses_to_write_into_the_transcripts(synthetic: Path) -> None:
    result = CliRunner().invoke(
        main, ["dataset", str(synthetic / "out"), "--claude-dir", str(synthetic)]
    )
    assert result.exit_code == 2
    assert "never writes there" in result.output
    assert not (synthetic / "out").exists()


def test_command_reports_a_missing_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["dataset", str(tmp_path / "out"), "--claude-dir", str(tmp_path / "missing")]
    )
    assert result.exit_code == 2
    assert "missing: no such file or folder" in result.stderr


def test_command_names_an_existing_file_it_cannot_read(synthetic: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    runner = CliRunner()
    arguments = ["dataset", str(out), "--claude-dir", str(synthetic), "--machine", "ci"]
    assert runner.invoke(main, arguments).exit_code == 0
    broken = out / "usage" / f"project={PROJECT}" / "month=2025-03" / "ci.parquet"
    broken.write_bytes(b"not parquet")
    result = runner.invoke(main, arguments)
    assert result.exit_code == 2
    assert f"{broken}: cannot read the existing file" in result.output
