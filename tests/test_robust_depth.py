"""Nesting past the depth budget: kept as raw JSON, written back as it came, never recursed."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.index.write.view import read_view
from cclens.model import MAX_DEPTH, decode_record, format_json, iter_json, to_builtins, to_json
from cclens.model._depth import _skeleton_too_deep, bounded_decode, too_deep
from cclens.readers.claude import load_session
from cclens.redact import Redactor
from cclens.render.jsonview import json_tree


def _nested(depth: int, leaf: bytes = b"1") -> bytes:
    rng = random.Random(depth)
    text = leaf
    for _ in range(depth):
        text = b'{"k":' + text + b"}" if rng.random() < 0.5 else b"[0," + text + b"]"
    return text


@pytest.mark.slow
@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 1000, 100_000])
def test_a_record_nested_at_any_depth_decodes_and_encodes_back(depth: int) -> None:
    line = b'{"type":"user","uuid":"u","toolUseResult":' + _nested(depth) + b"}"
    decoded = decode_record(line)
    assert type(decoded.value).__name__ == "UserRecord"
    assert to_json(decoded.value) == line
    assert bool(decoded.problems) == (depth + 1 > MAX_DEPTH)  # the record is level 1
    assert not too_deep(decoded.value)


def test_bounded_decode_keeps_what_is_deeper_as_raw_bytes() -> None:
    text = b'{"a": [1, {"b": ' + _nested(200) + b'}], "c": "]"}'
    value, kept = bounded_decode(text, limit=5)
    assert kept == 1
    assert msgspec.json.encode(value) == text.replace(b" ", b"")
    assert not too_deep(value, 5)


@pytest.mark.parametrize(
    "text",
    [b"[" * 200, b"[" * 200 + b"]" * 199, b"[1,]", b'{"a" 1}', b"[1 2]", b"{1:2}", b"01", b"[]]"],
)
def test_bounded_decode_refuses_what_is_not_json(text: bytes) -> None:
    with pytest.raises(msgspec.DecodeError):
        bounded_decode(text, limit=3)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=40,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=1, max_value=6))
def test_bounded_decode_is_json_decode_with_deep_parts_raw(value: object, limit: int) -> None:
    text = json.dumps(value).encode()
    bounded, _ = bounded_decode(text, limit=limit)
    assert json.loads(msgspec.json.encode(bounded)) == value


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=1, max_value=6))
def test_both_ways_of_measuring_depth_agree(value: object, limit: int) -> None:
    text = json.dumps(value).encode()
    assert _skeleton_too_deep(text, limit) == too_deep(value, limit)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_JSON)
def test_iter_json_writes_what_msgspec_format_writes(value: object) -> None:
    document = {"items": [value, {"x": value}], "other": value}
    expected = msgspec.json.format(msgspec.json.encode(document), indent=2)
    assert b"".join(iter_json(document)) == expected
    assert format_json(value) == msgspec.json.format(msgspec.json.encode(value), indent=2)


def test_deep_values_go_through_every_walker_without_recursing(tmp_path: Path) -> None:
    secret = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8" * 6
    deep = b'{"a":' * 900 + json.dumps(secret).encode() + b"}" * 900
    session_file = tmp_path / "s.jsonl"
    session_file.write_bytes(
        b'{"type":"assistant","uuid":"a","message":{"id":"m","role":"assistant","content":'
        b'[{"type":"tool_use","id":"t","name":"mcp__x__y","input":' + deep + b"}]}}\n"
    )
    limit = sys.getrecursionlimit()
    session = load_session(session_file)
    call = session.tool_calls["t"]
    tree = json_tree(call.block.input)  # a raw node at the bottom, not 900 levels
    node, levels = tree, 0
    while node.children:
        node, levels = node.children[0], levels + 1
    assert node.kind == "raw" and levels < MAX_DEPTH
    redacted = Redactor().json(to_builtins(session.entries[0].record))
    assert secret not in json.dumps(redacted)
    assert secret.encode() in to_json(session.entries[0].record)  # kept as it was written
    view = read_view(session_file, session_file.read_bytes())
    assert len(view.entries) == 1 and not view.diagnostics[0].reason.startswith("cclens")
    assert sys.getrecursionlimit() == limit
