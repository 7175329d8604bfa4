"""OpenTelemetry traces, sent to a real OTLP/HTTP receiver on 127.0.0.1 and decoded."""

from __future__ import annotations

import hashlib
import json
import socket
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from cclens.cli.main import main
from cclens.dataset import own_items
from cclens.figures.usage import collect_responses
from cclens.otel import Content, TraceBuilder, send_sessions, span_id, trace_id, traces_endpoint
from cclens.otel.conventions import CONTENT_ATTRIBUTES
from cclens.readers.claude import AssistantItem, Session, load_session
from cclens.redact import RedactionOptions, Redactor

from .conftest import ROOT
from .otlp import Receiver, attributes, otlp_receiver
from .test_dataset_synthetic import AGENT, SECRETS, SESSION, write_claude_dir

ASYNC_AGENTS = (
    "iansherr__claude-code-log/test/test_data/async_agents/"
    "eb000000-0000-4000-8000-000000000001.jsonl"
)
#: A real session: 167 tool calls (23 failed) and 5 subagents.
BIG = (
    "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/"
    "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
)


#: A session with compactions and API errors, and one the person interrupted.
EVENTS = "jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/claude/small.jsonl"
INTERRUPTED = (
    "iansherr__claude-code-log/test/test_data/real_projects/"
    "-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl"
)


# The receiver ------------------------------------------------------------------------------


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """An OTLP/HTTP trace receiver on a free port of 127.0.0.1."""
    with otlp_receiver() as found:
        yield found


def send(receiver: Receiver, session: Session, content: Content | None) -> None:
    before = len(receiver.spans())
    report = send_sessions([session], TraceBuilder("test-machine", content), endpoint=receiver.url)
    assert report.failed == []
    assert report.spans == len(receiver.spans()) - before > 0


def by_id(spans: list[Span]) -> dict[bytes, Span]:
    return {span.span_id: span for span in spans}


def operation(span: Span) -> str | None:
    found = attributes(span.attributes).get("gen_ai.operation.name")
    return str(found) if found is not None else None


def children(spans: list[Span], parent: Span) -> list[Span]:
    return [span for span in spans if span.parent_span_id == parent.span_id]


# A session with a subagent -----------------------------------------------------------------


@pytest.mark.slow
def test_a_session_with_a_subagent(corpus: Path, receiver: Receiver) -> None:
    session = load_session(corpus / ASYNC_AGENTS)
    send(receiver, session, Content(Redactor()))
    (received,) = receiver.requests
    assert received.path == "/v1/traces"
    assert received.headers["content-type"] == "application/x-protobuf"
    (resource,) = receiver.resources()
    assert resource["service.name"] == "claude-code"
    assert resource["cclens.machine"] == "test-machine"

    spans = receiver.spans()
    digest = hashlib.sha256(session.session_id.encode()).digest()
    assert {span.trace_id for span in spans} == {digest[:16]}
    (root,) = [span for span in spans if not span.parent_span_id]
    assert root.name == "invoke_agent claude-code"
    root_attributes = attributes(root.attributes)
    assert root_attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root_attributes["gen_ai.conversation.id"] == session.session_id
    assert (
        root_attributes["gen_ai.provider.name"] == root_attributes["gen_ai.system"] == "anthropic"
    )

    (turn,) = children(spans, root)
    assert turn.name == "turn 1"
    below = children(spans, turn)
    assert {operation(span) for span in below} == {"chat", "execute_tool"}
    tools = {
        attributes(s.attributes)["gen_ai.tool.name"]: s
        for s in below
        if operation(s) == "execute_tool"
    }
    assert set(tools) == {"Task", "TaskOutput"}
    task = attributes(tools["Task"].attributes)
    assert task["gen_ai.tool.call.id"] == "tu_Task_async_001"
    assert task["gen_ai.tool.type"] == "function"
    assert json.loads(task["gen_ai.tool.call.arguments"])["subagent_type"] == "Explore"

    sid = session.session_id
    assert root.span_id == span_id(sid, "session//").to_bytes(8, "big")
    assert tools["Task"].span_id == span_id(sid, "tool//tu_Task_async_001").to_bytes(8, "big")
    (agent,) = children(spans, tools["Task"])
    assert agent.span_id == span_id(sid, "agent/cccc333/").to_bytes(8, "big")
    assert agent.name == "invoke_agent Explore"
    assert attributes(agent.attributes)["gen_ai.agent.id"] == "cccc333"
    (agent_turn,) = children(spans, agent)
    agent_chats = children(spans, agent_turn)
    assert [operation(s) for s in agent_chats] == ["chat", "chat"]
    assert attributes(agent_chats[-1].attributes)["gen_ai.response.id"] == "msg_sub_final"

    # Times come from the records: the subagent's first record is at 10:03:30.
    started = datetime(2026, 4, 19, 10, 3, 30, tzinfo=UTC).timestamp()
    assert agent.start_time_unix_nano == int(started) * 10**9
    for span in spans:
        assert span.start_time_unix_nano <= span.end_time_unix_nano
    parents = by_id(spans)
    assert all(span.parent_span_id in parents for span in spans if span.parent_span_id)


@pytest.mark.slow
def test_a_big_session(corpus: Path, receiver: Receiver) -> None:
    session = load_session(corpus / BIG)
    send(receiver, session, Content(Redactor()))
    spans = receiver.spans()
    transcripts = session.all_sessions()
    responses = [
        item for s in transcripts for item in own_items(s) if isinstance(item, AssistantItem)
    ]
    calls = {call.id: call for s in transcripts for call in s.tool_calls.values()}
    counts = Counter(operation(span) for span in spans)
    assert counts["chat"] == len(responses)
    assert counts["execute_tool"] == len(calls) == 167
    assert counts["invoke_agent"] == 1 + 5

    parents = by_id(spans)
    for span in spans:
        if span.parent_span_id:
            assert span.parent_span_id in parents, span.name
    for span in spans:
        if operation(span) == "invoke_agent" and span.parent_span_id:
            spawner = attributes(parents[span.parent_span_id].attributes)
            assert spawner["gen_ai.tool.name"] in ("Task", "Agent")
        if operation(span) == "chat":
            assert span.kind == Span.SPAN_KIND_CLIENT
            assert parents[span.parent_span_id].name.startswith("turn ")

    failed = [span for span in spans if span.status.code == Status.STATUS_CODE_ERROR]
    assert len(failed) == sum(1 for call in calls.values() if call.is_error) == 23
    for span in failed:
        found = attributes(span.attributes)
        call = calls[found["gen_ai.tool.call.id"]]
        assert found["error.type"] == call.status
        assert span.status.message[:40] == Redactor().text(call.result_text)[:40]

    # Token usage: each response once, as cclens stats counts it.
    chat = [attributes(span.attributes) for span in spans if operation(span) == "chat"]
    output = sum(found.get("gen_ai.usage.output_tokens", 0) for found in chat)
    assert output == sum(r.tokens.output for r in collect_responses([session])) > 10_000
    for found in chat:
        if "gen_ai.usage.input_tokens" in found:
            assert (
                found["gen_ai.usage.input_tokens"] >= found["gen_ai.usage.cache_read.input_tokens"]
            )
            assert found["gen_ai.request.model"] == found["gen_ai.response.model"]


@pytest.mark.slow
def test_exporting_twice_sends_the_same_ids(corpus: Path, receiver: Receiver) -> None:
    session = load_session(corpus / BIG)
    send(receiver, session, Content(Redactor()))
    first = sorted((s.trace_id, s.span_id, s.parent_span_id, s.name) for s in receiver.spans())
    receiver.requests.clear()
    send(receiver, load_session(corpus / BIG), None)
    second = sorted((s.trace_id, s.span_id, s.parent_span_id, s.name) for s in receiver.spans())
    assert first == second
    assert len({span_id for _, span_id, _, _ in first}) == len(first)


@pytest.mark.slow
def test_docs_describe_every_attribute(corpus: Path, synthetic: Path, receiver: Receiver) -> None:
    send(receiver, load_session(corpus / BIG), Content(Redactor()))
    send(receiver, _synthetic_session(synthetic), Content(Redactor()))
    # Compactions, API errors and interruptions are events.
    send(receiver, load_session(corpus / EVENTS), Content(Redactor()))
    send(receiver, load_session(corpus / INTERRUPTED), Content(Redactor()))
    keys: set[str] = set()
    names: set[str] = set()
    for span in receiver.spans():
        keys |= set(attributes(span.attributes))
        for event in span.events:
            names.add(event.name)
            keys |= set(attributes(event.attributes))
    docs = (ROOT / "docs" / "otel.md").read_text(encoding="utf-8")
    missing = sorted(key for key in keys | names if f"`{key}`" not in docs)
    assert not missing, f"docs/otel.md does not describe {missing}"
    assert names == {"cclens.compaction", "cclens.api_error", "cclens.interrupt"}
    assert keys >= CONTENT_ATTRIBUTES


def test_ids_are_derived_from_session_and_record_ids() -> None:
    digest = hashlib.sha256(b"abc").digest()
    assert trace_id("abc") == int.from_bytes(digest[:16], "big")
    assert span_id("abc", "tool//toolu_1") == int.from_bytes(
        hashlib.sha256(b"abc/tool//toolu_1").digest()[:8], "big"
    )
    assert span_id("abc", "tool//toolu_1") != span_id("abd", "tool//toolu_1")


# Content -------------------------------------------------------------------------------------


@pytest.fixture
def synthetic(tmp_path: Path) -> Path:
    return write_claude_dir(tmp_path / "claude")


def _synthetic_session(synthetic: Path) -> Session:
    return load_session(synthetic / "-home-alex-shop" / f"{SESSION}.jsonl")


@pytest.mark.slow
def test_no_secret_survives_in_content(synthetic: Path, receiver: Receiver) -> None:
    redactor = Redactor()
    send(receiver, _synthetic_session(synthetic), Content(redactor))
    body = receiver.body()
    for secret, part in SECRETS.items():
        assert part.encode() not in body, f"{secret} survived"
    assert b"[REDACTED:" in body
    assert redactor.counts["github-token"] >= 3
    spans = receiver.spans()
    turns = [attributes(s.attributes) for s in spans if s.name == "turn 1"]
    (prompt,) = json.loads(turns[0]["gen_ai.input.messages"])
    assert prompt["role"] == "user"
    assert prompt["parts"][0]["content"].startswith("Deploy with [REDACTED:github-token]")
    (failed,) = [s for s in spans if s.status.code == Status.STATUS_CODE_ERROR]
    assert failed.status.message.startswith("File does not exist")
    agent = [s for s in spans if s.name == "invoke_agent Explore"]
    assert attributes(agent[0].attributes)["gen_ai.agent.id"] == AGENT


@pytest.mark.slow
def test_without_redaction_the_content_is_sent_as_it_is(
    synthetic: Path, receiver: Receiver
) -> None:
    send(
        receiver, _synthetic_session(synthetic), Content(Redactor(RedactionOptions(enabled=False)))
    )
    body = receiver.body()
    assert all(part.encode() in body for part in SECRETS.values())


@pytest.mark.slow
def test_no_content_sends_structure_only(synthetic: Path, receiver: Receiver) -> None:
    send(receiver, _synthetic_session(synthetic), None)
    spans = receiver.spans()
    assert len(spans) > 10
    for span in spans:
        keys = set(attributes(span.attributes))
        for event in span.events:
            keys |= set(attributes(event.attributes))
        assert not keys & CONTENT_ATTRIBUTES, span.name
    body = receiver.body()
    for text in (b"Deploy with", b"Checking the token", b"api.github.com", b"/home/alex/shop/.env"):
        assert text not in body
    assert all(part.encode() not in body for part in SECRETS.values())
    (failed,) = [s for s in spans if s.status.code == Status.STATUS_CODE_ERROR]
    assert failed.status.message == "the tool returned an error"


@pytest.mark.slow
def test_long_content_is_cut(synthetic: Path, receiver: Receiver) -> None:
    send(receiver, _synthetic_session(synthetic), Content(Redactor(), limit=10))
    turn = next(s for s in receiver.spans() if s.name == "turn 1")
    (prompt,) = json.loads(attributes(turn.attributes)["gen_ai.input.messages"])
    assert prompt["parts"][0]["content"].startswith("Deploy wit… [")


# The command ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_command_sends_a_session(synthetic: Path, receiver: Receiver) -> None:
    result = CliRunner().invoke(
        main,
        [
            "otel",
            "--endpoint",
            receiver.url,
            "--claude-dir",
            str(synthetic),
            "--session",
            SESSION,
            "--header",
            "x-api-key=secret-for-the-collector",
            "--machine",
            "ci",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sessions"] == 1
    assert report["spans"] == len(receiver.spans()) > 10
    assert report["redacted"]["github-token"] >= 3
    assert receiver.requests[0].headers["x-api-key"] == "secret-for-the-collector"
    assert receiver.resources()[0]["cclens.machine"] == "ci"


@pytest.mark.slow
def test_command_no_content(synthetic: Path, receiver: Receiver) -> None:
    result = CliRunner().invoke(
        main, ["otel", "--endpoint", receiver.url, "--claude-dir", str(synthetic), "--no-content"]
    )
    assert result.exit_code == 0, result.output
    assert "Content was not sent" in result.stdout
    assert {span.trace_id for span in receiver.spans()} == {
        trace_id(SESSION).to_bytes(16, "big"),
        trace_id("5e551011-0000-4000-8000-000000000002").to_bytes(16, "big"),
    }
    assert b"Deploy with" not in receiver.body()


def test_command_reports_an_unreachable_endpoint(synthetic: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(
        main,
        [
            "otel",
            "--endpoint",
            f"http://127.0.0.1:{port}",
            "--claude-dir",
            str(synthetic),
            "--timeout",
            "0.5",
        ],
    )
    assert result.exit_code == 1
    assert f"was not delivered to http://127.0.0.1:{port}/v1/traces" in result.stderr


def test_command_checks_its_arguments(synthetic: Path) -> None:
    runner = CliRunner()
    base = ["otel", "--claude-dir", str(synthetic)]
    bad_url = runner.invoke(main, [*base, "--endpoint", "localhost:4318"])
    assert bad_url.exit_code == 2 and "not an http(s) URL" in bad_url.output
    bad_header = runner.invoke(main, [*base, "--endpoint", "http://x", "--header", "nokey"])
    assert bad_header.exit_code == 2 and "KEY=VALUE" in bad_header.output
    ambiguous = runner.invoke(main, [*base, "--endpoint", "http://x", "--session", "5e55"])
    assert ambiguous.exit_code == 2 and "matches several sessions" in ambiguous.output
    missing = runner.invoke(main, [*base, "--endpoint", "http://x", "--session", "nope"])
    assert missing.exit_code == 2 and "no session matches" in missing.output


def test_endpoints() -> None:
    assert traces_endpoint("http://localhost:4318") == "http://localhost:4318/v1/traces"
    assert traces_endpoint("https://otlp.example.com/otlp/") == (
        "https://otlp.example.com/otlp/v1/traces"
    )
    assert traces_endpoint("http://h:4318/v1/traces") == "http://h:4318/v1/traces"
    with pytest.raises(ValueError, match="not an http"):
        traces_endpoint("grpc://h:4317")
