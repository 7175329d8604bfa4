"""Long runs of records with nothing to show, kept as the lines written (issue 24, item 11).

Past the first :data:`QUIET_KEPT` records of a run of message-less user records, or of records
of a type cclens does not know, the reader keeps each line that is JSON of the run's shape as
bytes (``Entry.quiet``) instead of a record: a million such lines are read in about a second
and held in the bytes they take on disk. These tests hold that to what matters: every such line
reads exactly as the run's records did (kind, problems, diagnostics), so that reading with and
without quiet lines gives the same diagnostics, reports and exports; the JSON export and the
redaction see every line; the page, the terminal and Markdown fold the run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import msgspec
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.export import export_html, export_json, export_markdown
from cclens.model import JsonStream, iter_compact, to_builtins
from cclens.model.entries import QUIET_KEPT, Diagnostic, Entry, QuietLines, ReadResult
from cclens.model.records import UnknownRecord, UserRecord
from cclens.readers.claude import load_session, read_data, read_file
from cclens.readers.claude import read as claude_read
from cclens.readers.claude.quiet import _never_takes, quiet_shape
from cclens.readers.claude.read import decode_line
from cclens.readers.quiet import QuietShape
from cclens.render.runs import SHOWN, FoldedRun, fold_runs
from cclens.reports.check import _Tally

LINES = 400
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _write(path: Path, lines: list[bytes], end: bytes = b"\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + end)
    return path


@pytest.fixture
def without_quiet(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], Any]], Any]:
    """Run a function with every line read as a record (no quiet lines)."""

    def run(function: Callable[[], Any]) -> Any:
        with monkeypatch.context() as patch:
            patch.setattr(claude_read, "quiet_shape", lambda entry, line: None)
            return function()

    return run


def test_a_long_run_keeps_its_first_records_and_the_rest_as_written(tmp_path: Path) -> None:
    lines = [b'{"type":"user","uuid":%d}' % n for n in range(LINES)]
    path = _write(tmp_path / "p.jsonl", lines)
    result = read_file(path)
    assert len(result.entries) == QUIET_KEPT
    last = result.entries[-1]
    assert last.quiet is not None and last.quiet.count == LINES - QUIET_KEPT
    assert last.quiet.data == b"".join(line + b"\n" for line in lines[QUIET_KEPT:])
    assert list(last.quiet.lines()) == lines[QUIET_KEPT:]
    assert (last.records, last.last_line) == (LINES - QUIET_KEPT + 1, LINES)
    assert result.lines == LINES and result.end_offset == path.stat().st_size
    [diagnostic] = result.diagnostics  # every line's problem, in one run
    assert (diagnostic.line, diagnostic.repeats, diagnostic.partial) == (1, LINES - 1, True)


def test_short_runs_and_records_that_show_something_are_records(tmp_path: Path) -> None:
    short = [b'{"n":%d}' % n for n in range(QUIET_KEPT)]  # not more than QUIET_KEPT
    path = _write(tmp_path / "short.jsonl", short)
    assert [entry.quiet for entry in read_file(path).entries] == [None] * QUIET_KEPT
    # A string where a record takes one, a flag it takes, a message: each is read.
    made: Callable[[int], bytes]
    for made in (
        lambda n: b'{"type":"user","uuid":"u%d"}' % n,
        lambda n: b'{"type":"user","isMeta":%s}' % (b"true" if n % 2 else b"false"),
        lambda n: b'{"type":"user","message":{"role":"user","content":"%d"}}' % n,
        lambda n: b'{"type":"summary","n":%d}' % n,  # a known type with an unknown key
        lambda n: b'{"n":%s}' % (b"[" * 40 + b"]" * 40),  # may be nested past the budget
        lambda n: b'{"n":"a\\n%d"}' % n,  # an escape: read the long way
    ):
        path = _write(tmp_path / "other.jsonl", [made(n) for n in range(LINES)])
        assert all(entry.quiet is None for entry in read_file(path).entries), made(1)


def test_the_run_ends_where_the_shape_or_the_lines_change(tmp_path: Path) -> None:
    run = [b'{"n":%d}' % n for n in range(QUIET_KEPT + 10)]
    lines = [*run, b'{"n":"ten"}', *run, b"", *run, b"[1]", *run, b'{"n":1.5}', *run]
    result = read_file(_write(tmp_path / "p.jsonl", lines))
    quiet = [(entry.line, entry.quiet.count) for entry in result.entries if entry.quiet]
    assert quiet == [(50, 10), (111, 10), (172, 10), (233, 10), (294, 10)]
    assert sum(entry.records for entry in result.entries) == len(lines) - 2  # (blank, [1])


def test_a_line_nested_past_the_budget_is_not_quiet(tmp_path: Path) -> None:
    lines = [b'{"n":[%d],"m":{"k":"v"}}' % n for n in range(QUIET_KEPT + 5)]
    deep = b'{"n":%s,"m":{"k":1}}' % (b"[" * 70 + b"]" * 70)  # (the same keys and types)
    result = read_file(_write(tmp_path / "p.jsonl", [*lines, deep]))
    assert result.entries[-2].quiet is not None and result.entries[-2].quiet.count == 5
    assert result.entries[-1].line == len(lines) + 1  # read the long way: an entry
    assert result.entries[-1].problems  # (what was too deep is said)


@pytest.mark.parametrize(
    "odd",
    [b'{"f":5}', b'{"f":1.5e3}', b'{"f":1e999}', b'{"f":"1.5"}', b'{"f":%s.5}' % (b"9" * 400)],
)
def test_a_number_not_written_as_the_run_s_is_read_as_every_line_is(
    tmp_path: Path, odd: bytes, without_quiet: Callable[[Callable[[], Any]], Any]
) -> None:
    lines = [b'{"f":%d.5}' % n for n in range(QUIET_KEPT + 5)]
    lines.insert(QUIET_KEPT + 2, odd)
    path = _write(tmp_path / "p.jsonl", lines)
    read, plain = read_file(path), without_quiet(lambda: read_file(path))
    assert read.diagnostics == plain.diagnostics
    spans = [(entry.line, entry.last_line) for entry in read.entries if entry.quiet]
    assert not any(first <= QUIET_KEPT + 3 <= last for first, last in spans)  # (read alone)
    assert sum(entry.records for entry in read.entries) == len(plain.entries)


def test_keys_in_another_order_are_read_as_every_line_is(tmp_path: Path) -> None:
    lines = [b'{"type":"user","uuid":%d,"cwd":%d}' % (n, n) for n in range(QUIET_KEPT + 5)]
    lines.insert(QUIET_KEPT + 2, b'{"type":"user","cwd":1,"uuid":1}')
    result = read_file(_write(tmp_path / "p.jsonl", lines))
    [swapped] = [entry for entry in result.entries if entry.line == QUIET_KEPT + 3]
    assert swapped.problems[0].startswith("$.cwd")  # (its problems in its own order)
    assert [d.line for d in result.diagnostics] == [1, QUIET_KEPT + 3, QUIET_KEPT + 4]


_ODD = [
    (30_000, b'{"type":"zz","n":1},{"type":"zz","n":2}'),
    (30_000, b'{"type":"user","type":"zz","n":3}'),
    (30_000, b'{"type":"user","typ\\u0065":"zz","n":3}'),
    (30_000, b'{"typ\\u0065":"zz","n":3}'),
    (30_000, b'{"type":"zz","n":"4"}'),
    (30_000, b""),
    (30_000, b"  "),
    (90_000, b'{"n":1},{"n":2}'),
    (90_000, b'{"n":1} {"n":2}'),
    (90_000, b'{"n":"a\\"}'),
    (90_000, b'{"n":1,"type":"zz"}'),
]


@pytest.mark.parametrize(
    ("at", "odd", "ending"),
    [(at, odd, b"\n") for at, odd in _ODD] + [(90_000, b'{"n":1},{"n":2}', b"\r\n")],
)
def test_runs_longer_than_a_block_read_as_line_by_line(
    tmp_path: Path,
    at: int,
    odd: bytes,
    ending: bytes,
    without_quiet: Callable[[Callable[[], Any]], Any],
) -> None:
    """Quiet lines are taken a block (1 MB) at a time; a line that breaks a run anywhere in a
    block (two objects on it, ``type`` twice, a blank line, another type) ends it there."""
    lines = [b'{"type":"zz","n":%d}' % n for n in range(60_000)]
    lines += [b'{"n":%d}' % n for n in range(60_000)]
    lines[at] = odd
    path = _write(tmp_path / "p.jsonl", lines, end=b"")  # (the last line: no line break)
    path.write_bytes(path.read_bytes().replace(b"\n", ending))
    data = path.read_bytes()
    read, plain = read_file(path), without_quiet(lambda: read_file(path))
    assert (read.lines, read.end_offset, read.diagnostics) == (
        plain.lines,
        plain.end_offset,
        plain.diagnostics,
    )
    assert [entry.records for entry in read.entries if entry.line == at + 1] == [
        entry.records for entry in plain.entries if entry.line == at + 1
    ]  # (the odd line is read as every line is: its own entry, or a diagnostic)
    assert sum(entry.records for entry in read.entries) == sum(
        entry.records for entry in plain.entries
    )
    for entry in read.entries:  # each quiet line is the file's, in place
        if entry.quiet is not None:
            start = entry.offset + entry.length + len(ending)
            assert data[start : start + len(entry.quiet.data)] == entry.quiet.data
    assert sum(entry.quiet.count for entry in read.entries if entry.quiet) > 100_000
    # Read on from an offset (as the index reads what was appended): the same records.
    middle = data.index(b"\n", len(data) // 3) + 1
    before = data[:middle].count(b"\n")
    tail = read_data(path, data[middle:], middle, before)
    plain_tail = without_quiet(lambda: read_data(path, data[middle:], middle, before))
    assert tail.diagnostics == plain_tail.diagnostics
    assert sum(e.records for e in tail.entries) == sum(e.records for e in plain_tail.entries)


def test_a_last_line_without_a_line_break_is_read_as_a_record(tmp_path: Path) -> None:
    lines = [b'{"n":%d}' % n for n in range(QUIET_KEPT + 5)]
    result = read_file(_write(tmp_path / "p.jsonl", lines, end=b""))
    assert result.entries[-1].line == len(lines) and result.entries[-1].quiet is None
    assert result.entries[-2].quiet == QuietLines(
        b"".join(line + b"\n" for line in lines[QUIET_KEPT:-1]), 4
    )


def test_a_field_takes_no_value_of_a_type_only_when_no_member_of_its_type_does() -> None:
    class Probe(msgspec.Struct, kw_only=True):
        text: str | None = None
        count: Annotated[int, msgspec.Meta(ge=0)] | None = None
        ratio: float | None = None
        flag: bool | None = None
        mode: Literal["a", "b"] | None = None
        level: Literal[1, 2] | None = None
        items: list[int] | None = None
        anything: Any = None

    assert _never_takes(Probe, "text", int) and _never_takes(Probe, "text", bool)
    assert _never_takes(Probe, "unknown", str)  # (undeclared: kept aside whatever it holds)
    assert not _never_takes(Probe, "count", int)  # (5 is taken, -5 is not)
    assert not _never_takes(Probe, "ratio", int) and not _never_takes(Probe, "ratio", float)
    assert _never_takes(Probe, "count", bool) and _never_takes(Probe, "ratio", bool)
    assert not _never_takes(Probe, "flag", bool) and _never_takes(Probe, "flag", int)
    assert not _never_takes(Probe, "level", int)
    assert not _never_takes(Probe, "mode", str)  # (a string may be taken or not)
    assert _never_takes(Probe, "items", float)
    assert not _never_takes(Probe, "anything", int)
    assert not _never_takes(Probe, "text", type(None))  # (null is taken)
    assert _never_takes(Probe, "items", int)


# Random runs: each line made from a pattern and its number, with lines that break runs.
_USER_KEYS = [
    field.encode_name
    for field in cast(msgspec.inspect.StructType, msgspec.inspect.type_info(UserRecord)).fields
]


def _value(kind: str, number: int) -> Any:
    return {
        "int": number * 7919 - 50_000,
        "big": 2**60 + number,
        "float": number + 0.5,
        "bool": number % 3 == 0,
        "null": None,
        "str": f"s{number}",
        "time": f"2026-01-{1 + number % 28:02d}T00:00:00Z",
        "list": [number],
        "object": {"n": number},
    }[kind]


_KINDS = ["int", "big", "float", "bool", "null", "str", "time", "list", "object"]


def _patterns(randomness: random.Random) -> Iterator[Callable[[int], dict[str, Any]]]:
    kinds = _KINDS
    for _ in range(60):
        head: dict[str, Any] = {}
        kind_of_record = randomness.choice(["user", "user", "user", "zz", None, 5, True])
        if kind_of_record is not None:
            head["type"] = kind_of_record
        keys = randomness.sample([*_USER_KEYS, "n", "extra_key"], randomness.randrange(1, 4))
        chosen = [(key, randomness.choice(kinds)) for key in keys]

        def make(number: int, head: dict[str, Any] = head, chosen: Any = chosen) -> dict[str, Any]:
            return head | {key: _value(kind, number) for key, kind in chosen}

        yield make


def _breakers(number: int) -> list[bytes]:
    return [
        b"",
        b"[1]",
        b"{bad",
        b'{"type":"user","type":"zz","n":%d}' % number,
        b'{"type":"zz","type":"user","n":%d}' % number,
        b'{"n":%d,"n":"x"}' % number,
        b'{"type":"user","uuid":"a\\u0000%d"}' % number,
        b'{"n":%d}' % number,
        b'{"n":%d.0}' % number,
    ]


def _random_file(randomness: random.Random, path: Path) -> Path:
    lines: list[bytes] = []
    for make in _patterns(randomness):
        length = randomness.choice([3, QUIET_KEPT, QUIET_KEPT + 1, QUIET_KEPT + 40, 3 * QUIET_KEPT])
        for number in range(length):
            line = msgspec.json.encode(make(number))
            lines.append(line)
            if randomness.random() < 0.02:
                lines.extend([line] * randomness.randrange(1, 4))  # the same line again
            if randomness.random() < 0.01:
                lines.append(randomness.choice(_breakers(number)))
            if randomness.random() < 0.03:  # the same keys, a value of another type
                value = make(number)
                key = randomness.choice(sorted(value))
                value[key] = _value(randomness.choice(_KINDS), number)
                lines.append(msgspec.json.encode(value))
            if randomness.random() < 0.03:  # the same keys in another order
                value = make(number)
                keys = list(value)
                randomness.shuffle(keys)
                lines.append(msgspec.json.encode({key: value[key] for key in keys}))
    return _write(path, lines, end=randomness.choice([b"\n", b""]))


def _expanded(result: ReadResult) -> Iterator[tuple[int, Entry]]:
    """Each line read with its entry: lines folded into it (the same bytes) and its quiet lines
    decoded one by one."""
    for entry in result.entries:
        for line in range(entry.line, entry.line + entry.repeats + 1):
            yield line, entry
        if entry.quiet is None:
            continue
        line = entry.line + entry.repeats
        head_shape = quiet_shape(entry, next(entry.quiet.lines()) + b"\n")
        for written in entry.quiet.lines():
            line += 1
            decoded = decode_line(result.path, line, 0, written + b"\n")
            assert isinstance(decoded, Entry), written
            # Read as the run's records were: same type, notes, problems; a shape of the same
            # keys and types (an unknown record's keys in any order: its notes do not say them).
            assert type(decoded.record) is type(entry.record)
            assert (decoded.notes, decoded.problems) == (entry.notes, entry.problems)
            assert _unordered(quiet_shape(decoded, written + b"\n")) == _unordered(head_shape)
            yield line, decoded


def _unordered(shape: QuietShape | None) -> Any:
    assert shape is not None
    return sorted(zip(shape.keys, [kind.__name__ for kind in shape.types], strict=True)), shape.kind


def test_every_quiet_line_reads_as_the_run_s_records_did(
    tmp_path: Path, without_quiet: Callable[[Callable[[], Any]], Any]
) -> None:
    randomness = random.Random(2024)
    quiet = 0
    for attempt in range(10):
        path = _random_file(randomness, tmp_path / f"random-{attempt}.jsonl")
        read = read_file(path)
        plain: ReadResult = without_quiet(lambda: read_file(path))  # noqa: B023
        assert (read.lines, read.end_offset, read.bytes) == (
            plain.lines,
            plain.end_offset,
            plain.bytes,
        )
        assert read.diagnostics == plain.diagnostics
        expanded = list(_expanded(read))
        plain_lines = list(_expanded(plain))
        assert [line for line, _ in expanded] == [line for line, _ in plain_lines]
        for (_, entry), (_, expected) in zip(expanded, plain_lines, strict=True):
            assert to_builtins(entry.record) == to_builtins(expected.record)
            assert entry.problems == expected.problems
        quiet += sum(entry.quiet.count for entry in read.entries if entry.quiet)
        # What every surface makes of it is the same too.
        session = load_session(path)
        plain_session = without_quiet(lambda: load_session(path))  # noqa: B023
        assert export_json(session) == export_json(plain_session)
        assert export_markdown(session) == export_markdown(plain_session)
        report, plain_report = _Tally(), _Tally()
        report.add_session(session)
        plain_report.add_session(plain_session)
        assert vars(report) == vars(plain_report)
    assert quiet > 300, quiet  # (the random runs did make quiet lines)


def test_the_index_s_view_counts_quiet_lines_as_the_reader_does(tmp_path: Path) -> None:
    from cclens.index.write.derive import NeedsAssembly
    from cclens.index.write.view import read_view

    from .test_index_view import assembled, viewed

    randomness = random.Random(7)
    for attempt in range(6):
        path = _random_file(randomness, tmp_path / f"random-{attempt}.jsonl")
        data = path.read_bytes()
        read, view = read_file(path), read_view(path, data)
        assert (view.lines, view.end_offset) == (read.lines, read.end_offset)
        # (the view does not report a field it skips: a partial diagnostic it gives, the
        # reader gives too)
        assert [d for d in view.diagnostics if not d.partial] == [
            d for d in read.diagnostics if not d.partial
        ]
        assert {d for d in view.diagnostics if d.partial} <= set(read.diagnostics)
        # The view leaves out the lines the reader keeps as quiet lines, and no other.
        assert [entry[0] for entry in view.entries] == [entry.line for entry in read.entries]
        files = [(path, "session", data)]
        try:
            found = viewed(files)
        except NeedsAssembly:
            continue
        assert found == assembled(files)


def test_json_has_every_record_and_the_page_folds_the_run(tmp_path: Path) -> None:
    lines = [b'{"n":%d,"type":"zz"}' % n for n in range(LINES)]
    session = load_session(_write(tmp_path / "p.jsonl", lines))
    document = json.loads(export_json(session))
    assert [item["record"] for item in document["items"]] == [json.loads(x) for x in lines]
    assert [item["line"] for item in document["items"]] == list(range(1, LINES + 1))
    assert document["items"][-1]["anchor"] == f"line-{LINES}"
    [*shown, run] = fold_runs(session.main_line)
    assert len(shown) == SHOWN and isinstance(run, FoldedRun)
    assert (run.records, run.lines) == (LINES - SHOWN, (SHOWN + 1, LINES))
    said = f"{LINES - SHOWN:,} more records of unknown type zz"
    assert said in export_html(session) and said in export_markdown(session)


def test_a_secret_in_a_quiet_line_is_redacted_in_every_export(tmp_path: Path) -> None:
    lines = [b'{"n":%d,"note":"x"}' % n for n in range(LINES)]
    lines[QUIET_KEPT + 7] = b'{"n":7,"note":"token %s"}' % GITHUB_TOKEN.encode()
    path = _write(tmp_path / "projects" / "-p" / "p.jsonl", lines)
    assert read_file(path).entries[-1].quiet is not None  # (the secret is in a quiet line)
    for fmt in ("json", "md", "html"):
        out = tmp_path / f"out.{fmt}"
        result = CliRunner().invoke(main, ["export", "-f", fmt, str(path), "-o", str(out)])
        assert result.exit_code == 0, result.output
        text = out.read_text()
        assert GITHUB_TOKEN not in text and "ghp_A1b2" not in text, fmt
    document = json.loads((tmp_path / "out.json").read_text())
    assert "[REDACTED" in document["items"][QUIET_KEPT + 7]["record"]["note"]
    assert len(document["items"]) == LINES


def test_a_redacted_record_keeps_the_lines_folded_into_it(tmp_path: Path) -> None:
    line = b'{"n":1,"note":"%s"}' % GITHUB_TOKEN.encode()
    path = _write(tmp_path / "projects" / "-p" / "p.jsonl", [line] * 5)
    out = tmp_path / "out.json"
    CliRunner().invoke(main, ["export", "-f", "json", str(path), "-o", str(out)])
    [item] = json.loads(out.read_text())["items"]
    assert item["repeats"] == 4 and GITHUB_TOKEN not in json.dumps(item)


def test_check_counts_every_line_as_a_record(tmp_path: Path) -> None:
    lines = [b'{"type":"user","uuid":%d}' % n for n in range(LINES)]
    lines += [b'{"n":%d}' % n for n in range(LINES)]
    path = _write(tmp_path / "projects" / "-p" / "p.jsonl", lines)
    report = json.loads(CliRunner().invoke(main, ["check", "--json", str(path)]).stdout)
    assert report["records"] == 2 * LINES
    assert report["record_types"] == {"user": LINES, "(none)": LINES}
    assert report["unknown"]["record_types"] == {"(none)": LINES}
    [partial] = report["partial"]
    assert (partial["line"], partial["last_line"]) == (1, LINES)


def test_a_message_less_user_record_is_not_a_prompt(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.jsonl", [b'{"type":"user","uuid":%d}' % n for n in range(3)])
    session = load_session(path)
    assert [item.kind for item in session.items] == ["meta"] * 3  # type: ignore[attr-defined]
    document = json.loads(export_json(session))
    assert document["counts"]["figures"]["prompts"] == 0


def test_the_index_keeps_the_lines_and_the_page_folds_them(tmp_path: Path) -> None:
    from cclens.index import Index
    from cclens.web.session_view import PageRenderer

    lines = [b'{"type":"user","uuid":%d}' % n for n in range(LINES)]
    folder = tmp_path / "projects"
    _write(folder / "-p" / "s.jsonl", lines)
    index = Index(tmp_path / "index.db")
    index.update([folder], workers=1)
    [summary] = index.sessions()
    session = index.load(summary.key)
    assert session is not None
    assert session.entries[-1].quiet is not None
    assert session.entries[-1].quiet.count == LINES - QUIET_KEPT
    body = PageRenderer().draw(session, "/parts").body
    assert f"{LINES - SHOWN:,} more user records without a message" in body
    counts = index.counts(summary.key)
    assert counts is not None and counts.figures.prompts == 0  # (as the session says)


def test_the_server_s_page_and_api_of_a_long_run(tmp_path: Path) -> None:
    import httpx

    from .test_web import running

    lines = [b'{"n":%d,"type":"zz"}' % n for n in range(LINES)]
    lines[QUIET_KEPT + 3] = lines[QUIET_KEPT + 4]  # (the same line twice: one item, two lines)
    claude = tmp_path / "claude"
    _write(claude / "projects" / "-p" / "s.jsonl", lines)
    with (
        running([claude], tmp_path / "index.db") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        page = client.get("/sessions/s")
        assert page.status_code == 200
        assert f"{LINES - SHOWN:,} more records of unknown type zz" in page.text
        answer = client.get("/api/sessions/s")
        assert answer.headers["content-type"].startswith("application/json")
        items = answer.json()["transcript"]["items"]
    records = [record for item in items for record in item["records"]]
    assert records == [json.loads(line) for n, line in enumerate(lines) if n != QUIET_KEPT + 4]
    assert [line for item in items for line in item["lines"]] == list(range(1, LINES + 1))
    assert items[QUIET_KEPT + 3]["lines"] == [QUIET_KEPT + 4, QUIET_KEPT + 5]


def test_compact_json_writes_streams_element_by_element() -> None:
    made: list[int] = []

    def elements() -> Iterator[Any]:
        for number in range(3):
            made.append(number)
            yield {"n": number, "inner": JsonStream(lambda: iter([1, 2]))}

    value = {"a": [1, {"b": JsonStream(elements)}], "c": JsonStream(lambda: iter([])), "d": "x"}
    pieces = iter_compact(value)
    first = next(pieces)
    assert made == []  # (nothing made before it is written)
    text = first + b"".join(pieces)
    assert json.loads(text) == {
        "a": [1, {"b": [{"n": n, "inner": [1, 2]} for n in range(3)]}],
        "c": [],
        "d": "x",
    }
    sneaky = {"s": "0123456789abcdef:0", "t": JsonStream(lambda: iter([5]))}
    assert json.loads(b"".join(iter_compact(sneaky))) == {"s": "0123456789abcdef:0", "t": [5]}


def test_an_unknown_record_is_quiet_and_a_known_type_written_twice_is_not(tmp_path: Path) -> None:
    entry = decode_line(tmp_path, 1, 0, b'{"type":"zz","n":1}\n')
    assert isinstance(entry, Entry) and isinstance(entry.record, UnknownRecord)
    assert quiet_shape(entry, b'{"type":"zz","n":1}\n') is not None
    twice = b'{"type":"zz","type":"user"}\n'
    found = decode_line(tmp_path, 1, 0, twice)
    assert not isinstance(found, Diagnostic) and quiet_shape(found, twice) is None


_CODEX_META = (
    b'{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":'
    b'"0193f0b2-0000-7000-8000-000000000001","timestamp":"2025-01-01T00:00:00.000Z",'
    b'"cwd":"/tmp/x","originator":"codex_cli_rs","cli_version":"0.30.0"}}'
)
_CODEX_PROMPT = (
    b'{"timestamp":"2025-01-01T00:00:01.000Z","type":"event_msg","payload":'
    b'{"type":"user_message","message":"hello %d"}}'
)


def test_codex_runs_of_unknown_lines_read_as_every_line_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex CLI's reader keeps runs of lines of a kind cclens does not know as written too:
    `check`, the JSON export and Markdown are the same as when each line is read."""
    from cclens.readers.codex import read as codex_read

    randomness = random.Random(18)
    makers: list[Callable[[int], bytes]] = [
        lambda n: b'{"n":%d}' % n,
        lambda n: b'{"type":"zz","s":"text %d"}' % n,
        lambda n: b'{"type":"zz","v":[%d],"f":%d.5}' % (n, n),
        lambda n: b'{"id":%d,"x":1}' % n,  # (a header is told by its keys: never quiet)
        lambda n: b'{"record_type":"state","n":%d}' % n,
        lambda n: _CODEX_PROMPT % n,
    ]
    lines = [_CODEX_META]
    for _ in range(30):
        make = randomness.choice(makers)
        for number in range(randomness.choice([3, QUIET_KEPT + 1, 3 * QUIET_KEPT])):
            lines.append(make(number))
            if randomness.random() < 0.02:
                lines.append(randomness.choice([b"", b"[1]", b'{"n":"x"}', b'{"n":1},{"n":2}']))
    folder = tmp_path / "codex" / "sessions" / "2025" / "01" / "01"
    path = _write(
        folder / "rollout-2025-01-01T00-00-00-0193f0b2-0000-7000-8000-000000000001.jsonl", lines
    )
    read = codex_read.read_file(path)
    assert sum(entry.quiet.count for entry in read.entries if entry.quiet) > 200
    runner = CliRunner()

    def outputs() -> list[str]:
        found = [runner.invoke(main, ["check", "--json", "--dir", str(tmp_path / "codex")]).stdout]
        for fmt in ("json", "md"):
            out = tmp_path / f"codex.{fmt}"
            result = runner.invoke(main, ["export", "-f", fmt, str(path), "-o", str(out)])
            assert result.exit_code == 0, result.output
            found.append(out.read_text())
        return found

    quiet = outputs()
    with monkeypatch.context() as patch:
        patch.setattr(codex_read, "quiet_shape", lambda entry, line: None)
        plain_read = codex_read.read_file(path)
        plain = outputs()
    assert quiet == plain
    assert (read.lines, read.end_offset, read.diagnostics) == (
        plain_read.lines,
        plain_read.end_offset,
        plain_read.diagnostics,
    )
    assert sum(entry.records for entry in read.entries) == len(plain_read.entries)
    assert json.loads(quiet[0])["records"] == len(plain_read.entries)
