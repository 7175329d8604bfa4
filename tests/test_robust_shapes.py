"""A value of an unexpected shape, anywhere, lands in ``.extra`` (or an ``Unknown…`` value).

For every struct type of the model (every record, message, content block, attachment, progress
kind, and every tool's input and result), every field, and its tag, is given values of every
other JSON type (and nesting past the depth budget, a huge integer, the model's own reserved
keys) one at a time. Decoding never raises, the value encodes back to the JSON it came from,
and sessions made of such records are assembled, drawn, exported and indexed without raising.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cclens.export import export_html, export_json, export_markdown
from cclens.index import Index
from cclens.model import AnyRecord, decode_record, to_builtins
from cclens.model.tools import BUILTIN_TOOLS, parse_tool_input, parse_tool_result
from cclens.model.tools.generic import ResultList
from cclens.readers.claude import load_session

from .conftest import sampled
from .shapes import WRONG, misfits, same_json, samples, struct_places

RECORD_SAMPLES = samples(AnyRecord)


def _record_misfits() -> Iterator[tuple[str, Any]]:
    for sample in RECORD_SAMPLES:
        yield "valid", sample
        yield from misfits(AnyRecord, sample)


def test_samples_reach_every_struct_type() -> None:
    import inspect

    import cclens.model.attachments as attachments
    import cclens.model.blocks as blocks
    import cclens.model.messages as messages
    import cclens.model.progress as progress
    import cclens.model.records as records
    from cclens.model._shape import layout

    reached = {cls for sample in RECORD_SAMPLES for _, cls in struct_places(AnyRecord, sample)}
    declared = {
        member
        for module in (records, blocks, messages, attachments, progress)
        for member in vars(module).values()
        if inspect.isclass(member)
        and issubclass(member, msgspec.Struct)
        and member.__module__ == module.__name__
        and layout(member).raw_attribute is None
        and not member.__name__.startswith("_")
    }
    bases = {"Record", "ChainRecord", "Block", "Attachment", "ProgressData"}
    assert {cls.__name__ for cls in declared - reached} == bases


@pytest.mark.slow
def test_a_misfit_in_any_field_of_any_record_decodes_and_keeps_the_json() -> None:
    checked = 0
    for label, value in _record_misfits():
        line = msgspec.json.encode(value)
        decoded = decode_record(line)  # never raises: the line is valid JSON
        assert same_json(decoded.value, value), label
        checked += 1
    assert checked > 40_000


def test_the_issue_file_history_snapshot_keeps_its_odd_backup() -> None:
    line = (
        '{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m",'
        '"trackedFileBackups":{"a.js":[]},"timestamp":"2026-01-01T00:00:00Z"},'
        '"isSnapshotUpdate":false}'
    )
    decoded = decode_record(line)
    record = decoded.value
    assert type(record).__name__ == "FileHistorySnapshotRecord"
    assert record.snapshot.extra == {"trackedFileBackups": {"a.js": []}}  # type: ignore[union-attr]
    assert to_builtins(record) == json.loads(line)
    assert decoded.problems == [
        '$.snapshot.trackedFileBackups["a.js"]: expected `object`, got `array`; kept as it is'
    ]


def _tool_roots() -> Iterator[tuple[str, str, Any]]:
    """``(tool name, "input" | "result", type)`` for every built-in tool."""
    for spec in BUILTIN_TOOLS:
        yield spec.name, "input", spec.input_type
        if spec.result_type is not None:
            yield spec.name, "result", spec.result_type
        if spec.list_result_type is not None:
            assert issubclass(spec.list_result_type, ResultList)
            yield spec.name, "result", list[spec.list_result_type.item_type]  # type: ignore[name-defined]


def _parse(name: str, part: str, raw: Any) -> Any:
    if part == "input":
        return parse_tool_input(name, raw).value
    decoded = parse_tool_result(name, raw)
    assert decoded is not None
    return decoded.value


@pytest.mark.parametrize(
    ("name", "part", "type_"),
    sampled(_tool_roots(), quick=12),
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_misfit_in_any_field_of_any_tool_input_or_result_keeps_the_json(
    name: str, part: str, type_: Any
) -> None:
    for sample in samples(type_):
        assert same_json(_parse(name, part, sample), sample), (name, part, "valid")
        for label, value in misfits(type_, sample):
            assert same_json(_parse(name, part, value), value), (name, part, label)
    for wrong in WRONG:  # the whole input or result of another shape
        assert same_json(_parse(name, part, wrong), wrong), (name, part, wrong)


def _session_lines() -> Iterator[bytes]:
    """Records with misfits: one of each (struct, field) pair, the values taking turns; and
    tool calls whose inputs and results have misfits."""
    seen: set[str] = set()
    for number, (label, value) in enumerate(_record_misfits()):
        kind = label.rsplit(" = ", 1)[0].split(" at ")[0]
        if kind in seen and number % 7:
            continue
        seen.add(kind)
        yield msgspec.json.encode(value)
    for number, (name, part, type_) in enumerate(_tool_roots()):
        for sample in samples(type_)[:2]:
            for index, (_, value) in enumerate(misfits(type_, sample)):
                if index % 5:
                    continue
                call = f"toolu_{number}_{index}"
                use = {"type": "tool_use", "id": call, "name": name, "input": value}
                if part == "result":
                    use["input"] = {}
                yield msgspec.json.encode(
                    {
                        "type": "assistant",
                        "uuid": f"a{call}",
                        "message": {"id": f"m{call}", "role": "assistant", "content": [use]},
                    }
                )
                result = {"type": "tool_result", "tool_use_id": call, "content": "done"}
                record = {
                    "type": "user",
                    "uuid": f"u{call}",
                    "parentUuid": f"a{call}",
                    "message": {"role": "user", "content": [result]},
                }
                if part == "result":
                    record["toolUseResult"] = value
                yield msgspec.json.encode(record)


@pytest.fixture(scope="module")
def odd_sessions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("claude") / "projects" / "odd"
    root.mkdir(parents=True)
    lines = list(_session_lines())
    size = 1500
    for start in range(0, len(lines), size):
        name = f"{start // size:08d}-0000-0000-0000-000000000000.jsonl"
        (root / name).write_bytes(b"\n".join(lines[start : start + size]) + b"\n")
    return root


@pytest.mark.slow
def test_sessions_of_misfits_assemble_draw_and_export(odd_sessions: Path) -> None:
    for path in sorted(odd_sessions.glob("*.jsonl")):
        session = load_session(path)
        assert not [d for d in session.diagnostics if not d.partial], path
        assert "<html" in export_html(session)
        assert export_markdown(session)
        assert json.loads(export_json(session))["items"]


@pytest.mark.slow
def test_sessions_of_misfits_are_indexed_and_loaded(odd_sessions: Path, tmp_path: Path) -> None:
    with Index(tmp_path / "index.db") as index:
        report = index.update([odd_sessions.parent.parent], workers=1)
        assert not [d for d in report.diagnostics if not d.partial]
        files = sorted(odd_sessions.glob("*.jsonl"))
        assert len(report.added) == len(files)
        for key in report.added:
            session = index.load(key)
            assert session is not None and session.items
