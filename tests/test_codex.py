"""Codex CLI's rollout files: the typed model, the reader, and figures that agree with an
independent count (``tests/codex_count.py``, json module only) on real files from public
repositories (``tests/data/agents/codex/real``, origins in its ``SOURCES.tsv``) and on
synthetic files for every documented record kind (``make_synthetic.py`` beside them)."""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from cclens.figures.figures import figures_by_session, tally
from cclens.model import to_builtins
from cclens.model.blocks import ThinkingBlock
from cclens.model.codex import decode_line, is_known, line_kind
from cclens.model.messages import OutputTokensDetails
from cclens.model.session import AssistantItem, Session, SystemItem, UserItem
from cclens.readers import agents
from cclens.readers.codex import read_file
from cclens.readers.resume import resume_command
from cclens.reports.check import check

from .codex_count import count

DATA = Path(__file__).parent / "data" / "agents" / "codex"
REAL = DATA / "real"
SYNTHETIC = DATA / "synthetic"
A = "019f1000-0000-7000-8000-00000000000a"
B = "019f1000-0000-7000-8000-00000000000b"
C = "019f1000-0000-7000-8000-00000000000c"


def _files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.jsonl"))


def _last_time(path: Path) -> float:
    """When the file's last line was written (what its modification time would be)."""
    latest = 0.0
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        stamp = line.get("timestamp") if isinstance(line, dict) else None
        if isinstance(stamp, str) and stamp[:1].isdigit():
            latest = max(latest, datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp())
    return latest


def make_codex_home(home: Path) -> Path:
    """A Codex home holding every test file, each file's time that of its last line."""
    for source in (REAL, SYNTHETIC):
        for path in _files(source):
            relative = path.relative_to(source)
            # real/<owner>__<repo>/sessions/...: one home's folders for all of them
            inner = Path(*relative.parts[1:]) if source == REAL else relative
            target = home / inner
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            moment = _last_time(path) or 1.0
            os.utime(target, (moment, moment))
    return home


@pytest.fixture(scope="module")
def codex_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_codex_home(tmp_path_factory.mktemp("codex"))


def test_every_line_of_every_file_re_encodes_to_the_json_it_came_from() -> None:
    read = 0
    for path in [*_files(REAL), *_files(SYNTHETIC)]:
        for raw in path.read_bytes().splitlines():
            try:
                expected = json.loads(raw)
            except ValueError:
                continue
            assert to_builtins(decode_line(raw).value) == expected, (path, raw[:120])
            read += 1
    assert read > 1000


def test_real_files_hold_no_kind_cclens_does_not_know() -> None:
    kinds: set[str] = set()
    for path in _files(REAL):
        for entry in read_file(path).entries:
            assert is_known(entry.record), (path, entry.line, line_kind(entry.record))
            assert not entry.problems, (path, entry.line, entry.problems)
            kinds.add(line_kind(entry.record))
    # Both forms of the format are among them.
    assert {"header", "record_type:state", "response_item:message"} <= kinds
    assert {"session_meta", "event_msg:token_count", "response_item:custom_tool_call"} <= kinds


def test_synthetic_files_hold_every_documented_kind() -> None:
    kinds: set[str] = set()
    for path in _files(SYNTHETIC):
        kinds.update(line_kind(e.record) for e in read_file(path).entries)
    for kind in (
        "response_item:message",
        "response_item:reasoning",
        "response_item:function_call",
        "response_item:function_call_output",
        "response_item:custom_tool_call",
        "response_item:custom_tool_call_output",
        "response_item:local_shell_call",
        "response_item:web_search_call",
        "response_item:tool_search_call",
        "response_item:tool_search_output",
        "response_item:image_generation_call",
        "response_item:ghost_snapshot",
        "response_item:compaction",
        "event_msg:token_count",
        "event_msg:turn_aborted",
        "event_msg:mcp_tool_call_end",
        "event_msg:patch_apply_end",
        "event_msg:exec_command_end",
        "event_msg:web_search_end",
        "event_msg:view_image_tool_call",
        "event_msg:context_compacted",
        "event_msg:entered_review_mode",
        "event_msg:exited_review_mode",
        "event_msg:error",
        "event_msg:thread_name_updated",
        "event_msg:collab_agent_spawn_end",
        "compacted",
        "turn_context",
        "world_state",
        "header",
        "record_type:state",
    ):
        assert kind in kinds, kind


def _sessions(home: Path) -> list[Session]:
    found = agents.discover(home)
    assert not found.errors
    return [agents.load(file) for file in found.sessions]


def test_calls_and_tokens_per_session_equal_an_independent_count(codex_home: Path) -> None:
    sessions = _sessions(codex_home)
    assert {s.agent for s in sessions} == {"codex"}
    counted = tally(sessions)
    by_session = figures_by_session(counted)
    # The independent count reads the files in the order cclens counts sessions: project by
    # project, least recently written first; a session's own file before its subagents'.
    ordered = sorted(sessions, key=lambda s: (s.project, s.mtime, s.session_id, str(s.path)))
    paths = [agent.path for session in ordered for agent in session.all_sessions()]
    independent = count(paths)
    assert len(independent) == len(paths)
    total_calls = total_responses = 0
    for session in sessions:
        mine = by_session[session.path]
        files = [independent[agent.path] for agent in session.all_sessions()]
        calls = sum(f.calls for f in files)
        responses = sum(f.responses for f in files)
        tokens = {name: sum(f.tokens[name] for f in files) for name in next(iter(files)).tokens}
        assert mine.tool_calls.calls == calls, session.path.name
        assert mine.responses == responses, session.path.name
        assert mine.tokens.cache_read == tokens["cached_input_tokens"], session.path.name
        assert mine.tokens.input == tokens["input_tokens"] - tokens["cached_input_tokens"]
        assert mine.tokens.output == tokens["output_tokens"], session.path.name
        total_calls += calls
        total_responses += responses
    assert total_calls == len(counted.calls) > 100
    assert total_responses == len(counted.responses) > 100


def _load(home: Path, thread: str) -> Session:
    found = agents.discover(home)
    file = next(f for f in found.sessions if f.session_id == thread)
    return agents.load(file)


def test_every_kind_of_call_has_its_status(codex_home: Path) -> None:
    session = _load(codex_home, A)
    statuses = {call.id: call.status for call in session.tool_calls.values()}
    assert statuses == {
        "call_shell_ok": "ok",
        "call_shell_fail": "error",  # Exit code: 128
        "call_patch": "ok",
        "call_plan": "ok",
        "call_local": "ok",
        "ws_1": "ok",
        "call_image": "ok",
        "call_exec": "error",  # exec_command_end exit_code 1
        "call_mcp_ok": "ok",
        "call_mcp_err": "error",  # mcp_tool_call_end Err
        "call_search": "ok",
        "ig_1": "ok",
        "call_spawn": "ok",
        "call_aborted": "interrupted",  # still open when the turn was aborted
        "call_rejected": "rejected",  # exec command rejected by user
    }
    calls = session.tool_calls
    shell = calls["call_shell_fail"].result
    assert shell.exit_code == 128 and shell.duration_seconds == 0.2
    assert shell.output == "fatal: not a git repository\n"
    exec_result = calls["call_exec"].result
    assert exec_result.exit_code == 1 and exec_result.duration_seconds == 2.5
    patch = calls["call_patch"].result
    assert patch.success is True and set(patch.changes) == {
        "/home/dev/shop/src/app.py",
        "/home/dev/shop/NOTES.md",
        "/home/dev/shop/old.txt",
    }
    assert calls["call_patch"].input.input.startswith("*** Begin Patch")
    plan = calls["call_plan"].input
    assert [step.status for step in plan.plan] == ["completed", "in_progress", "pending"]
    assert calls["call_mcp_ok"].spec.family == "mcp"
    assert calls["call_mcp_err"].result.result == {"Err": "tool call failed: not found"}
    assert calls["ws_1"].result.results[0]["url"].startswith("https://docs.python.org")
    assert calls["call_image"].result.path == "/home/dev/shop/screen.png"


def test_tokens_kinds_and_a_repeated_count_counted_once(codex_home: Path) -> None:
    session = _load(codex_home, A)
    responses = [item for item in session.items if isinstance(item, AssistantItem)]
    usages = [item.usage for item in responses if item.usage is not None]
    # Eight counts in the file, one written twice: eight responses with usage.
    assert len(usages) == 8
    first = usages[0]
    assert (first.input_tokens, first.cache_read_input_tokens, first.output_tokens) == (
        200,
        1000,
        80,
    )
    details = first.output_tokens_details
    assert isinstance(details, OutputTokensDetails) and details.thinking_tokens == 40
    assert {item.model for item in responses} == {"gpt-5.1-codex"}


def test_the_session_reads_as_the_person_saw_it(codex_home: Path) -> None:
    session = _load(codex_home, A)
    assert session.title == "Greeting fix" and session.title_source == "custom"
    assert session.cwd == "/home/dev/shop" and session.git_branch == "feature/cart"
    assert session.versions == ["0.130.0"]
    prompts = [i.text for i in session.items if isinstance(i, UserItem) and i.kind == "prompt"]
    assert prompts == [
        "Fix the greeting and add notes",
        "Now run the whole suite",
        "Compact please",
        "Thanks",
    ]
    first = next(i for i in session.items if isinstance(i, UserItem) and i.kind == "prompt")
    assert len(first.images) == 1
    meta = [i.text[:22] for i in session.items if isinstance(i, UserItem) and i.kind == "meta"]
    assert meta == ["<permissions instructi", "<environment_context>\n"]
    kinds = [i.subtype for i in session.items if isinstance(i, SystemItem)]
    assert "compact_boundary" in kinds and "api_error" in kinds and "codex_review" in kinds
    assert len(session.compactions) == 1
    assert session.compactions[0].summary is not None
    interrupts = [i for i in session.items if isinstance(i, UserItem) and i.kind == "interrupt"]
    assert len(interrupts) == 1
    thinking = [
        (type(block).__name__, getattr(block, "thinking", None) or getattr(block, "data", None))
        for item in session.items
        if isinstance(item, AssistantItem)
        for block in item.blocks
        if "Thinking" in type(block).__name__
    ]
    # A summary is shown; the encrypted reasoning is noted (a redacted block), twice here.
    assert thinking[:3] == [
        ("ThinkingBlock", "**Looking at the code**"),
        ("RedactedThinkingBlock", "gAAAAAencrypted"),
        ("RedactedThinkingBlock", "gAAAAAencrypted2"),
    ]


def test_a_subagent_thread_hangs_under_the_call_that_spawned_it(codex_home: Path) -> None:
    session = _load(codex_home, A)
    assert [agent.session_id for agent in session.subagents] == [B]
    child = session.subagents[0]
    assert child.is_subagent and child.parent_tool_use_id == "call_spawn"
    assert session.tool_calls["call_spawn"].subagents == [child]
    # Its copy of the parent's history counts for the parent: only its own work is its own.
    figures = figures_by_session(tally([session]))[session.path]
    alone = figures_by_session(tally([child]))[child.path]
    assert alone.tool_calls.calls == 3  # two copied from the parent, one its own
    assert figures.tool_calls.calls == len(session.tool_calls) + 1


def test_a_thread_whose_parent_is_gone_is_an_orphan_session(codex_home: Path) -> None:
    found = agents.discover(codex_home)
    orphan = next(f for f in found.sessions if f.session_id == C)
    assert orphan.orphan is not None
    session = agents.load(orphan)
    assert session.orphan and session.is_subagent
    assert session.parent_session_id == "019f0fff-0000-7000-8000-0000000000ff"


def test_the_mid_2025_form_is_read() -> None:
    path = next(SYNTHETIC.rglob("rollout-2025-07-20T08-00-00-*.jsonl"))
    session = agents.load(next(f for f in agents.discover(path).sessions))
    prompts = [i.text for i in session.items if isinstance(i, UserItem) and i.kind == "prompt"]
    assert prompts == ["List the files"]
    assert session.tool_calls["call_bare_ls"].status == "ok"
    assert session.project == "-home-dev-old"  # from the context Codex gave the model
    thinking = next(
        block.thinking
        for item in session.items
        if isinstance(item, AssistantItem)
        for block in item.blocks
        if isinstance(block, ThinkingBlock)
    )
    assert thinking == "**Listing**\n\nI should run ls."


def test_bad_lines_are_diagnostics_and_the_rest_is_read() -> None:
    path = next(SYNTHETIC.rglob("rollout-2026-05-03T12-00-00-*.jsonl"))
    session = agents.load(next(f for f in agents.discover(path).sessions))
    reasons = {d.line: d.reason for d in session.diagnostics}
    assert reasons[2].startswith("invalid JSON")
    assert reasons[3] == "not a JSON object (an array)"
    assert "incomplete last line" in reasons[8]
    assert session.unknown_kinds == {
        "event_msg:brand_new_event": 1,
        "response_item:brand_new_item": 1,
        "future_line": 1,
    }
    assert [i.text for i in session.items if isinstance(i, UserItem)] == ["hello"]


def test_check_counts_line_kinds_and_unknown_kinds(codex_home: Path) -> None:
    report = check([codex_home])
    assert report.unknown.record_types == {
        "event_msg:brand_new_event": 1,
        "future_line": 1,
        "response_item:brand_new_item": 1,
    }
    assert report.record_types["event_msg:token_count"] > 100
    assert report.tools["shell"].calls > 50
    assert not report.unknown.tools


def test_resume_commands_are_codex_s_own() -> None:
    command = resume_command(A, "/home/dev/shop", agent="codex")
    assert command.argv == ["codex", "resume", A]
    assert command.shell == f"cd '/home/dev/shop' && codex resume {A}"
    assert resume_command(A, None, fork=True, agent="codex").argv == ["codex", "fork", A]
    with pytest.raises(ValueError, match="cannot fork a session at a message"):
        _ = resume_command(A, None, at="x", agent="codex").argv


@pytest.mark.slow
def test_every_codex_session_draws_with_its_tools_views(codex_home: Path) -> None:
    from cclens.export import export_json, export_markdown
    from cclens.render import SessionRenderer
    from cclens.render.parts import expand_page

    from .test_render_corpus import drawn_calls
    from .test_render_hostile import audit

    views: set[str] = set()
    for session in _sessions(codex_home):
        renderer = SessionRenderer()
        html = renderer.page(session)
        assert renderer.view_failures == [], session.path
        assert audit(html).problems == []
        opened = expand_page(html)
        assert audit(opened).problems == []
        assert opened.count('<section class="tool ') == drawn_calls(session)
        views.update(part.split('"', 2)[1] for part in opened.split("data-view=")[1:])
        assert export_markdown(session).startswith("# ")
        assert json.loads(export_json(session))["format"] == "cclens.session"
    assert {"codex-shell", "codex-patch", "codex-plan", "codex-web-search", "codex-mcp"} <= views


def test_codex_tools_are_drawn_like_their_claude_code_kin(codex_home: Path) -> None:
    from cclens.render import SessionRenderer
    from cclens.render.parts import expand_page
    from cclens.render.tool_views import tool_summary

    session = _load(codex_home, A)
    calls = {call.id: call for call in session.tool_calls.values()}
    html = expand_page(SessionRenderer().page(session))
    # Folded rows name the argument: the command, the files of a patch, the plan's progress.
    assert tool_summary(calls["call_shell_ok"]).line() == "cat src/app.py"
    assert tool_summary(calls["call_patch"]).line() == "src/app.py, NOTES.md, old.txt"
    assert tool_summary(calls["call_plan"]).line().startswith("1/3 done")
    # A command: its exit code; a failed one says so.
    assert "exit code 0" in html and "exit code 128" in html
    # A patch: a diff per file, numbered from the diff the end event recorded.
    assert 'class="diff-file">/home/dev/shop/src/app.py<' in html
    assert 'h<span class="dx">ello</span>' in html and ">deleted<" in html and ">added<" in html
    # Reasoning: its summary, and the encrypted part noted.
    assert "Looking at the code" in html and "Redacted thinking (encrypted by the API" in html
    # The side that answers is Codex; the header names the agent's version.
    assert '<span class="role">Codex</span>' in html
    assert '<span class="role">Claude</span>' not in html
    assert "<dt>Codex CLI</dt>" in html
    # Reasoning tokens are part of the output, shown apart.
    assert "out (100 reasoning)" in html
    # The Markdown export names the agent too, and shows commands and patches as the page
    # does: a patch as the diff of each file, numbered, its kind said.
    from cclens.export import export_markdown

    markdown = export_markdown(session)
    assert "## Codex (gpt-5.1-codex)" in markdown and "- **Codex CLI:** 0.130.0" in markdown
    assert "```bash\ncat src/app.py\n```" in markdown
    assert "`/home/dev/shop/src/app.py`:\n\n```diff\n@@ -1 +1 @@\n def main():" in markdown
    assert "/home/dev/shop/old.txt (deleted):\n\n```diff\n@@ -1 +1 @@\n-old" in markdown


def test_codex_sessions_in_the_dataset_and_in_traces(codex_home: Path, tmp_path: Path) -> None:
    import duckdb

    from cclens.dataset import write_dataset
    from cclens.otel.spans import TraceBuilder
    from cclens.redact import Redactor

    sessions = sorted(_sessions(codex_home), key=lambda s: (s.project, s.mtime))
    write_dataset(tmp_path / "ds", sessions, redaction=Redactor(), machine="m")
    with duckdb.connect() as connection:
        agents_written = connection.sql(
            f"select distinct agent from read_parquet('{tmp_path}/ds/sessions/**/*.parquet', "
            "hive_partitioning = true)"
        ).fetchall()
    assert agents_written == [("codex",)]
    spans = TraceBuilder("m", None).session(_load(codex_home, A))
    root = next(span for span in spans if span.parent is None)
    assert root.attributes is not None
    assert root.name == "invoke_agent codex"
    assert root.attributes["cclens.agent"] == "codex"
    assert root.attributes["gen_ai.provider.name"] == "openai"
    assert root.attributes["cclens.agent.version"] == "0.130.0"
    assert all((span.attributes or {}).get("gen_ai.provider.name") == "openai" for span in spans)


def test_openai_models_are_priced_by_their_own_entry_only() -> None:
    from cclens.figures.pricing import load_price_table, response_cost
    from cclens.figures.tokens import TokenCounts

    table = load_price_table()
    assert table.match("gpt-5.1-codex-mini") == "gpt-5.1-codex-mini"
    assert table.match("gpt-5-nano-2025-08-07") == "gpt-5-nano"
    assert table.match("gpt-5-codex") == "gpt-5-codex"
    # A variant without an entry is unpriced, never priced like its neighbour.
    for unknown in ("gpt-5.4-pro", "gpt-5.3-codex-spark", "gpt-5.9", "kimi-k2.5:cloud"):
        assert table.match(unknown) is None, unknown
    entry = table.models["gpt-5-codex"]
    assert entry.source.startswith("https://developers.openai.com/") and entry.as_of
    # Input is the non-cached part, cached input is read from the cache; output has reasoning.
    tokens = TokenCounts(input=1_000_000, output=100_000, cache_read=4_000_000)
    priced = response_cost(table, "gpt-5-codex", tokens)
    assert priced.cost == pytest.approx(1.25 + 0.125 * 4 + 10 * 0.1)
    long = TokenCounts(input=300_000, output=0, cache_read=0)
    assert response_cost(table, "gpt-5.4", long).price == "gpt-5.4 (long context)"
