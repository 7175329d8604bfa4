"""Nothing is lost: every corpus line decodes to typed records that re-encode to the same JSON."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cclens.model import RECORD_TYPES, decode_record, to_builtins
from cclens.model.blocks import TextBlock, ThinkingBlock, ToolUseBlock, UnknownBlock
from cclens.model.records import AssistantRecord, SystemRecord, UnknownRecord, UserRecord

from .conftest import corpus_files


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_corpus_line_reencodes_to_equal_json(path: Path) -> None:
    checked = 0
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            original = json.loads(line)
        except json.JSONDecodeError:
            with pytest.raises(msgspec.DecodeError):
                decode_record(line)
            continue
        decoded = decode_record(line).value
        assert to_builtins(decoded) == original, f"{path}:{number} changed when re-encoded"
        checked += 1
    assert checked or path.stat().st_size == 0


def test_unknown_fields_are_kept_in_extra() -> None:
    line = (
        b'{"type":"user","uuid":"u","futureField":{"x":1},'
        b'"message":{"role":"user","content":"hi","newKey":2}}'
    )
    record = decode_record(line).value
    assert isinstance(record, UserRecord)
    assert record.extra == {"futureField": {"x": 1}}
    assert record.message and record.message.extra == {"newKey": 2}
    assert to_builtins(record) == json.loads(line)


def test_unknown_record_type_keeps_raw_json() -> None:
    line = b'{"type":"hologram","sessionId":"s","payload":[1,2]}'
    decoded = decode_record(line)
    assert isinstance(decoded.value, UnknownRecord)
    assert decoded.value.kind == "hologram"
    assert to_builtins(decoded.value) == json.loads(line)
    assert "hologram" not in RECORD_TYPES


def test_unknown_block_and_wrong_type_field_are_kept() -> None:
    line = (
        b'{"type":"assistant","uuid":"a","message":{"id":"m","role":"assistant","model":7,'
        b'"content":[{"type":"text","text":"ok"},{"type":"telepathy","beam":true},'
        b'{"type":"thinking","thinking":"","signature":"sig"}]}}'
    )
    decoded = decode_record(line)
    record = decoded.value
    assert isinstance(record, AssistantRecord) and record.message
    blocks = record.message.blocks
    assert isinstance(blocks[0], TextBlock)
    assert isinstance(blocks[1], UnknownBlock) and blocks[1].kind == "telepathy"
    assert isinstance(blocks[2], ThinkingBlock) and blocks[2].thinking == ""
    # ``model`` should be a string: the typed field stays unset and the value goes to extra
    assert record.message.extra == {"model": 7}
    assert decoded.notes
    assert to_builtins(record) == json.loads(line)


def test_block_missing_a_required_field_becomes_unknown_not_lost() -> None:
    line = (
        b'{"type":"assistant","message":{"content":'
        b'[{"type":"tool_use","input":{}},{"type":"text","text":"x"}]}}'
    )
    record = decode_record(line).value
    assert isinstance(record, AssistantRecord) and record.message
    first, second = record.message.blocks
    assert isinstance(first, UnknownBlock) and first.kind == "tool_use"
    assert isinstance(second, TextBlock)
    assert to_builtins(record) == json.loads(line)


def test_tool_use_input_is_kept_verbatim() -> None:
    line = (
        b'{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t",'
        b'"name":"Bash","input":{"command":"ls","x":[1]}}]}}'
    )
    record = decode_record(line).value
    assert isinstance(record, AssistantRecord) and record.message
    block = record.message.blocks[0]
    assert isinstance(block, ToolUseBlock)
    assert block.input == {"command": "ls", "x": [1]}


def test_absent_and_null_stay_distinct() -> None:
    for line in (b'{"type":"system","content":null}', b'{"type":"system"}'):
        record = decode_record(line).value
        assert isinstance(record, SystemRecord)
        assert to_builtins(record) == json.loads(line)
