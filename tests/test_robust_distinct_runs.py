"""Runs of distinct pathological lines (issue 24, item 11): folded where reported and drawn.

A line byte for byte the same as the one before is folded at read time (``repeats``); these
are the same lines made distinct (``[N]``, ``{"type":"user","uuid":N}``, ``{"n":N}``): every
line is read, a run of consecutive lines with the same problem is one diagnostic (first line,
excerpt, ``repeats``), a long run of records with nothing to show is drawn as its first few
and one folded line, and the JSON export keeps every record. The repairs of a line that does
not fit the model are replayed for lines of the same shape, with the same result as the loop.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.export import export_html, export_json, export_markdown
from cclens.model import AnyRecord, decode_record, to_builtins
from cclens.model._convert import Lenient
from cclens.model.entries import QUIET_KEPT, Diagnostic
from cclens.model.records import UnknownRecord
from cclens.readers.claude import load_session, read_file
from cclens.readers.claude.read import add_diagnostic, decode_line, problem_diagnostic
from cclens.readers.codex.read import read_file as read_codex_file
from cclens.readers.gemini.chat import read_chat
from cclens.render.runs import LONGEST, SHOWN, FoldedRun, fold_runs

from .shapes import misfits, samples

LINES = 1_000


def _write(path: Path, make: Callable[[int], bytes], count: int = LINES) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(make(number) + b"\n" for number in range(1, count + 1)))
    return path


@pytest.fixture
def arrays(tmp_path: Path) -> Path:
    return _write(tmp_path / "projects" / "-p" / "arrays.jsonl", lambda n: b"[%d]" % n)


@pytest.fixture
def users(tmp_path: Path) -> Path:
    return _write(
        tmp_path / "projects" / "-p" / "users.jsonl", lambda n: b'{"type":"user","uuid":%d}' % n
    )


@pytest.fixture
def unknowns(tmp_path: Path) -> Path:
    return _write(tmp_path / "projects" / "-p" / "unknowns.jsonl", lambda n: b'{"n":%d}' % n)


def test_a_run_of_distinct_malformed_lines_is_one_diagnostic(arrays: Path) -> None:
    result = read_file(arrays)
    assert result.entries == []
    [diagnostic] = result.diagnostics
    assert (diagnostic.line, diagnostic.repeats, diagnostic.count) == (1, LINES - 1, LINES)
    assert diagnostic.reason == "not a JSON object (an array)"
    assert (diagnostic.excerpt, diagnostic.offset) == ("[1]", 0)  # the first line's
    assert str(diagnostic) == f"{arrays}:1-{LINES}: not a JSON object (an array)"
    assert result.lines == LINES


def test_check_gives_the_first_and_last_line_and_the_count(arrays: Path) -> None:
    out = CliRunner().invoke(main, ["check", "--json", str(arrays)]).stdout
    report = json.loads(out)
    assert report["malformed"] == [
        {
            "file": str(arrays),
            "line": 1,
            "reason": "not a JSON object (an array)",
            "repeats": LINES - 1,
            "last_line": LINES,
        }
    ]
    text = CliRunner().invoke(main, ["check", str(arrays)]).stdout
    assert f"{LINES:,} malformed lines" in text
    assert f":1-{LINES} ({LINES:,} lines): not a JSON object" in " ".join(text.split())


def test_runs_end_where_the_problem_or_the_lines_change(tmp_path: Path) -> None:
    lines = [b"[1]", b"[1]", b"[2]", b"", b"[3]", b'"text"', b"[4]", b"{bad", b"{bad2", b'{"a":']
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    found = [(d.line, d.repeats, d.reason) for d in read_file(path).diagnostics]
    assert [(line, repeats) for line, repeats, _ in found] == [
        (1, 2),  # the same line twice, then another array: one run
        (5, 0),  # after a blank line: lines 1-3 and 5 are not one range
        (6, 0),
        (7, 0),
        (8, 1),  # invalid JSON at the same byte: the same reason
        (10, 0),  # truncated JSON: another
    ]


def test_records_with_the_same_problem_share_one_diagnostic_and_are_all_read(
    users: Path,
) -> None:
    result = read_file(users)
    # The first QUIET_KEPT are records, the rest the lines after the last (test_quiet_lines).
    assert len(result.entries) == QUIET_KEPT
    assert sum(entry.records for entry in result.entries) == LINES
    assert [entry.record.extra for entry in result.entries[:3]] == [
        {"uuid": 1},
        {"uuid": 2},
        {"uuid": 3},
    ]
    [diagnostic] = result.diagnostics
    assert diagnostic.partial and (diagnostic.line, diagnostic.repeats) == (1, LINES - 1)
    assert diagnostic.excerpt == '{"type":"user","uuid":1}'
    # Entries share their notes: a million of them hold one tuple.
    assert len({id(entry.problems) for entry in result.entries}) == 1


def test_an_identical_line_after_a_run_of_problems_counts_in_it(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    lines = [b'{"type":"user","uuid":%d}' % n for n in (1, 2, 3, 3, 3)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = read_file(path)
    assert [(entry.line, entry.repeats) for entry in result.entries] == [(1, 0), (2, 0), (3, 2)]
    [diagnostic] = result.diagnostics
    assert (diagnostic.line, diagnostic.repeats) == (1, 4)


def _records(document: dict[str, Any]) -> list[Any]:
    return [item["record"] for item in document["items"] if "record" in item]


def test_json_keeps_every_unknown_record_the_page_and_markdown_fold_the_run(
    unknowns: Path,
) -> None:
    session = load_session(unknowns)
    assert len(session.items) == QUIET_KEPT  # (the last holds the rest of the lines)
    document = json.loads(export_json(session))
    assert _records(document) == [{"n": n} for n in range(1, LINES + 1)]
    folded = fold_runs(session.main_line)
    assert len(folded) == SHOWN + 1
    run = folded[-1]
    assert isinstance(run, FoldedRun)
    assert (run.records, run.lines) == (LINES - SHOWN, (SHOWN + 1, LINES))
    said = f"{LINES - SHOWN:,} more records of unknown type (none)"
    markdown = export_markdown(session)
    assert markdown.count("Record of unknown type (none)") == SHOWN
    assert said in markdown and f"lines {SHOWN + 1}-{LINES:,}" in markdown
    html = export_html(session)
    assert html.count('data-kind="meta:(none)"') == SHOWN
    assert said in html
    assert html.count('data-kind="meta:folded-run"') == 1


def test_user_records_without_a_message_fold_too(users: Path) -> None:
    session = load_session(users)
    html = export_html(session)
    assert html.count("User record without a message") == SHOWN  # (not a prompt)
    assert f"{LINES - SHOWN:,} more user records without a message" in html
    assert f"Lines 1-{LINES} ({LINES:,} lines) were read in part" in export_markdown(session)


def test_short_runs_and_runs_broken_by_another_record_are_drawn_whole(tmp_path: Path) -> None:
    lines = [b'{"n":%d}' % n for n in range(LONGEST)]  # not more than LONGEST: all drawn
    lines.append(b'{"type":"other","n":1}')  # another kind: a run of its own
    lines += [b'{"n":%d}' % n for n in range(LONGEST + 5)]  # folded after SHOWN
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    session = load_session(path)
    folded = fold_runs(session.main_line)
    assert len(folded) == LONGEST + 1 + SHOWN + 1
    run = folded[-1]
    assert isinstance(run, FoldedRun) and run.records == LONGEST + 5 - SHOWN
    assert fold_runs(session.main_line[:LONGEST]) is not None
    assert len(fold_runs(session.main_line[:LONGEST])) == LONGEST


def test_the_web_page_draws_the_folded_run(unknowns: Path) -> None:
    from cclens.web.session_view import PageRenderer

    session = load_session(unknowns)
    body = PageRenderer().draw(session, "/parts").body
    assert body.count('data-kind="meta:(none)"') == SHOWN
    assert f"{LINES - SHOWN:,} more records of unknown type (none)" in body


def test_codex_folds_a_run_of_malformed_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / "rollout-x.jsonl", lambda n: b"[%d]" % n, 100)
    [diagnostic] = read_codex_file(path).diagnostics
    assert (diagnostic.line, diagnostic.repeats) == (1, 99)


def _bumped(value: Any) -> Any:
    """``value`` with every number one more and every string the same: the same shape."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, dict):
        return {key: _bumped(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_bumped(child) for child in value]
    return value


def _misfit_lines() -> Iterator[tuple[str, bytes, bytes]]:
    """Every 10th misfit of the model's records (every field takes every wrong value in turn),
    with the same made distinct."""
    every = (misfit for sample in samples(AnyRecord) for misfit in misfits(AnyRecord, sample))
    for label, value in itertools.islice(every, 0, None, 10):
        yield label, msgspec.json.encode(value), msgspec.json.encode(_bumped(value))


class _Loop(Lenient[AnyRecord]):
    """The decoder without plans: every line that needs repairs takes the repair loop."""

    def _planned(self, pristine: Any) -> Any:
        return self._slow(pristine, audit=False)


def test_a_replayed_repair_is_the_repair_loop_s() -> None:
    loop = _Loop(AnyRecord, lambda raw: UnknownRecord(raw=raw))
    replayed = 0
    for label, first, second in _misfit_lines():
        for line in (first, second):  # the second of the same shape replays the first's plan
            decoded = decode_record(line)
            expected = loop.decode(line)
            if not expected.notes:
                break
            assert type(decoded.value) is type(expected.value), label
            assert to_builtins(decoded.value) == to_builtins(expected.value), label
            assert (decoded.notes, decoded.problems) == (expected.notes, expected.problems), label
            replayed += line is second
    assert replayed > 1_000


def test_runs_read_as_the_decoder_reads_each_line(tmp_path: Path) -> None:
    """Random mixes of lines that are not objects (counted in a run without the decoder),
    invalid JSON, blank lines, objects, records with problems, the same line again: the
    diagnostics are those of the decoder's reading of each line, folded by
    :func:`add_diagnostic`."""
    pool = [b"[1]", b"[2]", b"5", b'"x"', b"null", b"[1", b"", b"  ", b"{}", b'{"n":1}', b"tru"]
    pool += [b'["\\ud800"]', b"[\xff]", b"-", b"1e999", b"[[[]]]"]
    # records read with problems (the same, or others), and without
    pool += [b'{"type":"user","uuid":1}', b'{"type":"user","uuid":2}', b'{"type":"user"}']
    pool += [b'{"type":"user","uuid":3,"isSidechain":"no"}', b'{"type":"system","uuid":4}']
    randomness = random.Random(24)
    for attempt in range(200):
        lines = [randomness.choice(pool) for _ in range(randomness.randrange(1, 40))]
        path = tmp_path / f"mix-{attempt}.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in lines))
        expected: list[Diagnostic] = []
        for number, line in enumerate(lines, 1):
            if line.strip():
                outcome = decode_line(path, number, 0, line + b"\n")  # as read_file gives it
                if isinstance(outcome, Diagnostic):
                    add_diagnostic(expected, outcome)
                elif outcome.problems:
                    add_diagnostic(expected, problem_diagnostic(path, outcome))
        found = read_file(path).diagnostics
        shown = [(d.line, d.repeats, d.reason, d.partial) for d in found]
        assert shown == [(d.line, d.repeats, d.reason, d.partial) for d in expected], lines


def test_gemini_folds_a_run_of_malformed_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / "session-x.jsonl", lambda n: b"[%d]" % n, 100)
    [diagnostic] = read_chat(path).diagnostics
    assert (diagnostic.line, diagnostic.repeats, diagnostic.reason) == (1, 99, "not a JSON object")
