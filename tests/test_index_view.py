"""The index's view of records derives exactly what the assembled session gives.

The reference is :mod:`cclens.readers.claude` (full model, assembled session) with
:func:`cclens.index.extract.digest` and :func:`cclens.index.extract.documents`; the view
(:mod:`cclens.index.write.view`, :mod:`cclens.index.write.derive`) must agree with it on the real
corpus,
on generated transcripts, and on the lines it hands to the full model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cclens.index.extract import DocumentUpdate, SessionDigest, digest, documents
from cclens.index.storage.stored import StoredFile, StoredSession, build_session
from cclens.index.write.derive import NeedsAssembly, ViewFile, derive
from cclens.index.write.view import read_view
from cclens.model import RECORD_TYPES
from cclens.model.records import UnknownRecord
from cclens.readers.claude import discover, read_data

Derived = tuple[SessionDigest, dict[str, tuple[set[str] | None, list[Any]]]]


def _plain(found: tuple[SessionDigest, dict[str, DocumentUpdate]]) -> Derived:
    summary, updates = found
    return summary, {path: (u.replaced, u.rows) for path, u in updates.items()}


def assembled(files: list[tuple[Path, str, bytes]], since: dict[str, int] | None = None) -> Derived:
    """What indexing derived before the view: assemble the session, then summarise it."""
    stored = StoredSession("session", "project")
    for path, role, data in files:
        stored_file = StoredFile(path, role, path.name)
        stored_file.read = read_data(path, data)
        stored.files.append(stored_file)
    session = build_session(stored)
    return _plain((digest(session), documents(session, since)))


def viewed(files: list[tuple[Path, str, bytes]], since: dict[str, int] | None = None) -> Derived:
    views = [ViewFile(path, role, read_view(path, data), data) for path, role, data in files]
    return _plain(derive(views, since))


def _session_files(corpus: Path) -> list[list[tuple[Path, str, bytes]]]:
    found = discover(corpus)
    sessions = []
    for session in found.sessions:
        files = [(session.path, "session", session.path.read_bytes())]
        files += [(agent.path, "subagent", agent.path.read_bytes()) for agent in session.subagents]
        sessions.append(files)  # an orphan subagent file is a session of its own
    return sessions


@pytest.mark.slow
def test_the_view_derives_what_the_assembled_session_gives(corpus: Path) -> None:
    sessions = _session_files(corpus)
    assert len(sessions) > 100
    for files in sessions:
        assert viewed(files) == assembled(files), files[0][0]


def test_only_messages_after_a_line_are_derived_again(corpus: Path) -> None:
    for files in _session_files(corpus):
        since = {str(path): data[: len(data) // 2].count(b"\n") for path, _, data in files}
        assert viewed(files, since) == assembled(files, since), files[0][0]


RECORD = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hello"}}


def _line(record: object) -> bytes:
    return json.dumps(record).encode()


ODD_LINES = [
    # invalid UTF-8 where the view skips: the full model calls the line malformed
    _line({**RECORD, "toolUseResult": "x"}).replace(b'"x"', b'"\xff"'),
    _line({**RECORD, "attachment": {"text": "x"}}).replace(b'"x"', b'"\xed\xa0\x80"'),
    # a field of an unexpected type: the full model sets it aside
    _line({**RECORD, "isSidechain": "yes", "uuid": "u2"}),
    _line({**RECORD, "uuid": 7}),
    _line({"type": "assistant", "uuid": "a1", "message": {"id": 5, "content": "x"}}),
    # blocks of unknown kinds, and known kinds without their required fields
    _line({"type": "assistant", "uuid": "a2", "message": {"content": [{"type": "new_kind"}]}}),
    _line({"type": "assistant", "uuid": "a3", "message": {"content": [{"type": "text"}]}}),
    _line({"type": "assistant", "uuid": "a4", "message": {"content": [{"type": "tool_use"}]}}),
    _line(
        {
            "type": "user",
            "uuid": "u3",
            "message": {"content": [{"type": "tool_result", "content": [{"type": "tool_use"}]}]},
        }
    ),
    # records the full model does not know, or reads in its own way
    _line({"type": "__unknown__", "uuid": "x1"}),
    _line({"type": "brand-new", "uuid": "x2", "timestamp": "2025-01-01T00:00:00Z"}),
    _line({"uuid": "x3"}),
    _line({"type": 3}),
    b"[1, 2]",
    b'"just a string"',
    b"{not json",
    _line({**RECORD, "toolUseResult": {"interrupted": True, "more": [1, 2]}}),
    _line({**RECORD, "toolUseResult": [{"type": "text", "text": "t"}]}),
]


def test_lines_the_view_cannot_read_are_read_by_the_full_model(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    data = (
        b"\xef\xbb\xbf" + b"\n".join(ODD_LINES) + b"\r\n\n  \n" + _line(RECORD) + b'\n{"type": "us'
    )
    full = read_data(path, data)
    view = read_view(path, data)
    # a record of a kind the model does not know is one of "the others" either way
    assert [
        (e.line, "?" if isinstance(e.record, UnknownRecord) else e.record.kind)
        for e in full.entries
    ] == [
        (line, record.type if record.type in RECORD_TYPES else "?")
        for line, record, _, _ in view.entries
    ]
    assert [str(d) for d in full.diagnostics] == [str(d) for d in view.diagnostics]
    assert (full.lines, full.end_offset) == (view.lines, view.end_offset)
    assert view.newlines == data[: view.end_offset].count(b"\n")
    files = [(path, "session", data)]
    assert viewed(files) == assembled(files)


def _response(
    uuid: str, parent: str | None, blocks: list[dict[str, Any]], sidechain: bool = False
) -> dict[str, Any]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "parentUuid": parent,
        "isSidechain": sidechain,
        "message": {"id": "msg_1", "role": "assistant", "content": blocks},
    }


def _write(tmp_path: Path, records: list[dict[str, Any]]) -> list[tuple[Path, str, bytes]]:
    path = tmp_path / "session.jsonl"
    data = b"".join(_line(record) + b"\n" for record in records)
    path.write_bytes(data)
    return [(path, "session", data)]


def test_a_response_holding_the_same_text_twice(tmp_path: Path) -> None:
    text = {"type": "text", "text": "same words"}
    cited = {**text, "citations": [{"type": "char_location", "cited_text": "w"}]}
    thinking = {"type": "thinking", "thinking": "same words", "signature": "s"}
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "go"}},
        _response("a1", "u1", [text, text]),
        _response("a2", "a1", [text]),  # the same block again: dropped
        _response("a3", "a2", [cited]),  # the same text with a citation: kept
        _response("a4", "a3", [thinking, {"type": "text", "text": "same words", "x": 1}]),
    ]
    files = _write(tmp_path, records)
    found = viewed(files)
    assert found == assembled(files)
    kinds = [row[2] for row in found[1][str(files[0][0])][1]]
    assert kinds == ["prompt", "assistant", "assistant", "assistant", "thinking", "assistant"]


def test_a_response_split_across_subagent_runs_is_left_to_the_parser(tmp_path: Path) -> None:
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "go"}},
        _response("a1", "u1", [{"type": "text", "text": "main"}]),
        {**RECORD, "uuid": "s1", "parentUuid": None, "isSidechain": True},
        _response("s2", "s1", [{"type": "text", "text": "side"}], sidechain=True),
    ]
    files = _write(tmp_path, records)
    with pytest.raises(NeedsAssembly):
        viewed(files)


# Generated transcripts: small, but with every feature that changes what is derived: shared
# and duplicate uuids, branches, sidechains, streamed responses, calls and results in any
# order, markers of rejections and interruptions, titles, odd timestamps.
UUIDS = [f"u{i}" for i in range(8)]
TEXTS = [
    "",
    "  ",
    "hello world",
    "hello world",
    "<command-name>/review</command-name><command-args>now</command-args>",
    "<local-command-stdout>ok</local-command-stdout>",
    "[Request interrupted by user]",
    "The user doesn't want to proceed with this tool use.",
    "a \ue000 marked \x00 text",
    "line\n" * 1500,
]
maybe = st.one_of(st.none(), st.just(True), st.just(False))
uuid = st.one_of(st.none(), st.sampled_from(UUIDS))
timestamp = st.sampled_from(
    [None, "2025-06-01T10:00:00Z", "2025-06-01T09:00:00.500Z", "2025-06-02T10:00:00", "bad"]
)
text_block = st.builds(lambda t: {"type": "text", "text": t}, st.sampled_from(TEXTS))
CALL_IDS = st.sampled_from(["t0", "t1"])
result_block = st.fixed_dictionaries(
    {"type": st.just("tool_result"), "tool_use_id": CALL_IDS},
    optional={
        "content": st.one_of(st.sampled_from(TEXTS), st.lists(text_block, max_size=2)),
        "is_error": maybe,
    },
)
use_block = st.fixed_dictionaries(
    {
        "type": st.just("tool_use"),
        "name": st.sampled_from(["Bash", "Task", "Read"]),
        "input": st.dictionaries(
            st.sampled_from(["command", "prompt", "n"]),
            st.one_of(st.sampled_from(TEXTS), st.integers(0, 3), st.lists(st.just("x"))),
        ),
        "id": st.one_of(CALL_IDS, CALL_IDS, CALL_IDS, st.none()),
    },
)
usage = st.fixed_dictionaries(
    {},
    optional={
        key: st.integers(0, 50)
        for key in (
            "input_tokens",
            "output_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
        )
    },
)
chain = {
    "uuid": uuid,
    "parentUuid": uuid,
    "logicalParentUuid": uuid,
    "isSidechain": maybe,
    "isMeta": maybe,
    "teamName": st.sampled_from(["", "team"]),
    "cwd": st.sampled_from(["/a", "/b"]),
    "gitBranch": st.sampled_from(["main", "dev"]),
    "version": st.sampled_from(["1.0.0", "2.0.1"]),
    "timestamp": timestamp,
    "requestId": st.sampled_from(["r1", "r2"]),
}
user = st.fixed_dictionaries(
    {
        "type": st.just("user"),
        "message": st.fixed_dictionaries(
            {
                "role": st.just("user"),
                "content": st.one_of(
                    st.sampled_from(TEXTS),
                    st.lists(st.one_of(result_block, text_block, result_block), max_size=3),
                ),
            }
        ),
    },
    optional={
        **chain,
        "toolUseResult": st.one_of(
            st.sampled_from(TEXTS),
            st.fixed_dictionaries({"interrupted": maybe}),
            st.lists(st.just({"type": "text", "text": "r"}), max_size=1),
        ),
        "toolDenialKind": st.sampled_from(["user-rejected", "other"]),
        "isCompactSummary": maybe,
    },
)
assistant = st.fixed_dictionaries(
    {
        "type": st.just("assistant"),
        "message": st.fixed_dictionaries(
            {
                "role": st.just("assistant"),
                "content": st.lists(
                    st.one_of(
                        text_block,
                        use_block,
                        use_block,
                        st.builds(
                            lambda t: {"type": "thinking", "thinking": t}, st.sampled_from(TEXTS)
                        ),
                        st.just({"type": "image", "source": {"type": "base64"}}),
                    ),
                    max_size=3,
                ),
            },
            optional={
                "id": st.sampled_from(["m0", "m1", "m2"]),
                "model": st.sampled_from(["claude-a", "claude-b", "<synthetic>"]),
                "usage": usage,
            },
        ),
    },
    optional={**chain, "isApiErrorMessage": maybe},
)
other = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["system", "progress", "attachment"])}, optional=chain
    ),
    st.fixed_dictionaries(
        {"type": st.just("summary"), "summary": st.sampled_from(TEXTS)},
        optional={"leafUuid": uuid, "timestamp": timestamp},
    ),
    st.fixed_dictionaries({"type": st.just("custom-title"), "customTitle": st.sampled_from(TEXTS)}),
    st.fixed_dictionaries({"type": st.just("ai-title"), "aiTitle": st.sampled_from(TEXTS)}),
    st.fixed_dictionaries({"type": st.just("later-kind"), "timestamp": timestamp}),
)


@st.composite
def exchange(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A response calling a tool, and the user record with its result (sometimes others')."""
    response: dict[str, Any] = draw(assistant)
    call: dict[str, Any] = draw(use_block)
    response["message"]["content"] = [*response["message"]["content"], call]
    answer: dict[str, Any] = draw(user)
    result: dict[str, Any] = draw(result_block)
    if call.get("id") is not None and draw(st.booleans()):
        result["tool_use_id"] = call["id"]
    answer["message"]["content"] = [result, *draw(st.lists(st.one_of(text_block, result_block)))]
    return [response, answer] if draw(st.integers(0, 4)) else [answer, response]


records = st.lists(
    st.one_of(exchange(), st.lists(st.one_of(user, assistant, other), max_size=2)),
    min_size=1,
    max_size=6,
).map(lambda groups: [record for group in groups for record in group])


def _data(generated: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in generated)


@pytest.mark.slow
@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(main=records, agent=records, cut=st.integers(0, 14))
def test_generated_transcripts_derive_alike(
    tmp_path: Path, main: list[dict[str, Any]], agent: list[dict[str, Any]], cut: int
) -> None:
    files = [
        (tmp_path / "session.jsonl", "session", _data(main) + b"{broken\n"),
        (tmp_path / "agent-x.jsonl", "subagent", _data(agent)),
    ]
    since = {str(tmp_path / "session.jsonl"): cut}
    try:
        found = viewed(files, since)
    except NeedsAssembly:
        assume(False)
    assert found == assembled(files, since)
