"""The fuzz suite: hostile lines made from real ones, through every command and page.

``CCLENS_FUZZ_LINES`` (default 1,500) fuzzed lines from the shared corpus, seeded by
``CCLENS_FUZZ_SEED`` (default 13), are written into a Claude folder of eight sessions, next to
the lines of issue 13. Every command reads that folder (``check``, ``export`` in each format
and ``--all``, ``show``, ``stats``, ``permissions``, ``tools``, ``dataset``, ``otel``,
``index``, ``search``) and the web app serves every page over it: none may raise, every
malformed line is reported by its file and line number, and every line is accounted for.

Beside the sessions sit what is not a transcript though named like one (a FIFO, a link to
``/dev/zero``): named as unreadable, never opened, every command ending with exit status 2
after doing the rest. One session ends in a cut line (as a crash leaves it): stored, and given
back by ``restore``, byte for byte. Fuzzed strings hold fake credentials cut in two by a line
break, an ANSI code or a zero-width character (``fuzz.PLANTED``): no export shows a piece.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cclens.cli.main import main
from cclens.model import RECORD_TYPES, decode_record
from cclens.model._depth import bounded_decode
from cclens.readers.claude import read_data
from cclens.web import RunningServer

from .conftest import corpus_files
from .fuzz import PLANTED, expected_malformed, fuzzed_lines
from .otlp import Receiver, otlp_receiver
from .shapes import same_json
from .test_web import running

LINES = int(os.environ.get("CCLENS_FUZZ_LINES", "1500"))
SEED = int(os.environ.get("CCLENS_FUZZ_SEED", "13"))
SESSIONS = 8

#: The lines issue 13 reports, as they were written.
ISSUE_LINES = [
    b"[" * 1000 + b"]" * 1000,
    b'{"a":' * 1000 + b"1" + b"}" * 1000,
    b'{"type":"user","uuid":"deep","message":{"role":"user","content":"deep"},"toolUseResult":'
    + b'{"a":' * 1000
    + b"1"
    + b"}" * 1000
    + b"}",
    b'{"type":"user","uuid":"deep2","message":{"role":"user","content":[{"type":"text",'
    b'"text":"t","x":' + b"[" * 1000 + b"]" * 1000 + b"}]}}",
    b'{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m",'
    b'"trackedFileBackups":{"a.js":[]},"timestamp":"2026-01-01T00:00:00Z"},'
    b'"isSnapshotUpdate":false}',
    b"{}\n" * 50,
]
#: Lines the fuzz found beyond the issue's (kept so that the default run meets them).
FOUND_LINES = [
    # Invalid UTF-8 in a summary: the titles' reader of summaries raised UnicodeDecodeError.
    b'{"type":"summary","summary":"\xc3(","leafUuid":"fuzz-leaf"}',
    # A summary nested past the depth of Python's stack: the same reader raised RecursionError.
    b'{"type":"summary","summary":"deep","leafUuid":"x","x":' + b"[" * 5000 + b"]" * 5000 + b"}",
    # The same in an assistant response, which the status line reads from appended lines.
    b'{"type":"assistant","uuid":"u8","message":{"id":"msg_u8","role":"assistant",'
    b'"model":"claude-sonnet-4-5","content":[{"type":"text","text":"\xff"}],'
    b'"usage":{"input_tokens":1,"output_tokens":1}}}',
]


def _originals() -> list[bytes]:
    rng = random.Random(SEED)
    lines = [
        line
        for path in corpus_files()
        for line in path.read_bytes().split(b"\n")
        if line.startswith(b"{") and len(line) < 64_000
    ]
    originals = []
    for line in rng.sample(lines, min(len(lines), 600)):
        try:
            json.loads(line)
        except ValueError:
            continue
        originals.append(line)
    return originals


@pytest.fixture(scope="module")
def claude(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Claude folder of eight sessions of fuzzed lines (and the issue's lines)."""
    root = tmp_path_factory.mktemp("fuzz") / "claude"
    project = root / "projects" / "-fuzz-project"
    project.mkdir(parents=True)
    lines = list(fuzzed_lines(_originals(), LINES, SEED))
    per_file = len(lines) // SESSIONS + 1
    for number in range(SESSIONS):
        chunk = lines[number * per_file : (number + 1) * per_file]
        if number == 0:
            chunk = [*ISSUE_LINES, *FOUND_LINES, *chunk]
        name = f"{number:08d}-aaaa-bbbb-cccc-dddddddddddd.jsonl"
        (project / name).write_bytes(b"\n".join(chunk) + b"\n")
    agents = project / f"{0:08d}-aaaa-bbbb-cccc-dddddddddddd" / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-fuzz.jsonl").write_bytes(b"\n".join(lines[:200]) + b"\n")
    # The last session ends in the middle of a line, as a crash or a full disk leaves it.
    last = project / f"{SESSIONS - 1:08d}-aaaa-bbbb-cccc-dddddddddddd.jsonl"
    whole = last.read_bytes()
    last.write_bytes(whole + _originals()[0][: len(_originals()[0]) // 2])
    # Named like transcripts, and not files to read.
    os.mkfifo(project / "fifo.jsonl")
    os.symlink("/dev/zero", project / "zero.jsonl")
    return root


SPECIAL = ("fifo.jsonl", "zero.jsonl")


def run(*args: str | Path, claude: Path, tmp: Path) -> tuple[int, str]:
    env = {"CLAUDE_CONFIG_DIR": str(claude), "CCLENS_DB": str(tmp / "index.db")}
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    # (stdout may hold a traceback a transcript recorded: ``show`` prints transcripts)
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout


def _sessions(claude: Path) -> list[Path]:
    return sorted(
        path for path in (claude / "projects").glob("*/*.jsonl") if path.name not in SPECIAL
    )


@pytest.mark.slow
def test_check_reports_every_bad_line_by_file_and_line(claude: Path, tmp_path: Path) -> None:
    code, out = run("check", "--json", claude, claude=claude, tmp=tmp_path)
    assert code == 2  # the special files: named, and every other line read
    report = json.loads(out)
    assert sorted(Path(u.split(": ")[0]).name for u in report["unreadable"]) == sorted(SPECIAL)
    malformed_lines = sum(1 + m.get("repeats", 0) for m in report["malformed"])
    assert report["records"] + malformed_lines == report["lines"]
    # Lines with the same problem as the one before are reported with it (``repeats``).
    reported = {
        (Path(m["file"]), m["line"] + extra)
        for m in report["malformed"]
        for extra in range(m.get("repeats", 0) + 1)
    }
    for path in [*_sessions(claude), *claude.rglob("agent-*.jsonl")]:
        for number in expected_malformed(path.read_bytes()):
            assert (path, number) in reported, (path, number)
    # Consecutive lines with the same problem are one entry: its first line and ``repeats``.
    partial = {
        (Path(p["file"]).name, p["line"] + extra)
        for p in report["partial"]
        for extra in range(p.get("repeats", 0) + 1)
    }
    first = _sessions(claude)[0].name
    assert {(first, 3), (first, 4), (first, 5)} <= partial  # deep, deep, the odd snapshot


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with otlp_receiver() as found:
        yield found


@pytest.mark.slow
def test_every_command_reads_the_fuzzed_folder(
    claude: Path, tmp_path: Path, receiver: Receiver
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    # The special files are named and left; the commands that read transcripts end with 2.
    assert run("tools", "--json", claude, claude=claude, tmp=tmp_path)[0] == 2
    assert run("stats", "--json", "--by", "session", claude=claude, tmp=tmp_path)[0] == 0
    assert run("permissions", "--json", claude=claude, tmp=tmp_path)[0] == 2
    exported = []
    for number, path in enumerate(_sessions(claude)):
        for fmt in ("html", "md", "json"):
            target = out / f"{number}.{fmt}"
            code, _ = run("export", path, "-f", fmt, "-o", target, claude=claude, tmp=tmp_path)
            assert code == 0 and target.stat().st_size > 0
            exported.append(target)
        assert run("show", path, claude=claude, tmp=tmp_path)[0] == 0
    code, _ = run("export", "--all", "-o", out / "all", claude=claude, tmp=tmp_path)
    assert code == 2 and (out / "all" / "index.html").is_file()
    assert run("dataset", out / "dataset", claude=claude, tmp=tmp_path)[0] == 2
    code, _ = run("otel", "--endpoint", receiver.url, claude=claude, tmp=tmp_path)
    assert code == 2 and receiver.spans()
    code, _ = run("index", claude=claude, tmp=tmp_path)
    assert code == 2
    assert run("search", "the", claude=claude, tmp=tmp_path)[0] in (0, 1)
    # No piece of a credential cut in two survives in an export.
    assert PLANTED
    for target in exported:
        if target.suffix == ".html":
            continue  # folded parts are compressed in the page: the JSON and Markdown show all
        text = target.read_text(encoding="utf-8")
        for before, after in PLANTED:
            assert before[-10:] not in text and after[:10] not in text, (target, before, after)


@pytest.mark.slow
def test_the_cut_last_line_is_stored_and_restored(claude: Path, tmp_path: Path) -> None:
    assert run("index", claude=claude, tmp=tmp_path)[0] == 2  # the special files
    for path in _sessions(claude):
        target = tmp_path / "restored" / path.stem
        code, _ = run("restore", path.stem, "-o", target, claude=claude, tmp=tmp_path)
        assert code == 0
        assert (target / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_deep_tool_result_is_exported_as_it_was_written(tmp_path: Path) -> None:
    deep = b'{"a":' * 1000 + b"1" + b"}" * 1000
    claude = tmp_path / "claude"
    project = claude / "projects" / "p"
    project.mkdir(parents=True)
    session = project / "deep.jsonl"
    session.write_bytes(
        b'{"type":"assistant","uuid":"a","message":{"id":"m","role":"assistant","content":'
        b'[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}\n'
        b'{"type":"user","uuid":"u","parentUuid":"a","message":{"role":"user","content":'
        b'[{"type":"tool_result","tool_use_id":"t","content":"ok"}]},"toolUseResult":'
        + deep
        + b"}\n"
    )
    target = tmp_path / "deep.json"
    code, _ = run(
        "export", session, "-f", "json", "--no-redact", "-o", target, claude=claude, tmp=tmp_path
    )
    assert code == 0
    document, kept = bounded_decode(target.read_bytes())  # too deep for json.loads
    assert kept == 1
    result = msgspec.json.encode(document["tool_calls"][0]["result"])
    assert result.replace(b"\n", b"").replace(b" ", b"") == deep
    code, out = run("export", session, "-f", "json", "-o", "-", claude=claude, tmp=tmp_path)
    assert code == 0 and '"a": "{\\"a\\":{\\"a\\":' in out  # redacted: as its text


@pytest.fixture(scope="module")
def server(claude: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running([claude], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.mark.slow
def test_every_page_answers_over_the_fuzzed_folder(server: RunningServer) -> None:
    with httpx.Client(base_url=server.url, timeout=120) as client:
        for page in ("/", "/stats", "/permissions", "/api/permissions", "/api/projects"):
            response = client.get(page)
            assert response.status_code == 200, page
        keys = [
            session["id"]
            for project in client.get("/api/projects").json()
            for session in client.get(f"/api/projects/{project['id']}/sessions").json()["sessions"]
        ]
        assert len(keys) == SESSIONS
        for key in keys:
            assert client.get(f"/sessions/{key}").status_code == 200, key
            assert client.get(f"/api/sessions/{key}").status_code == 200, key
            assert client.get(f"/api/permissions/{key}").status_code in (200, 404)


# Hypothesis: any JSON object, and any bytes, as a transcript line --------------------------

_KEYS = st.sampled_from(
    [
        "type",
        "message",
        "content",
        "toolUseResult",
        "uuid",
        "parentUuid",
        "usage",
        "input",
        "snapshot",
        "attachment",
        "data",
        "__extra__",
        "__raw__",
        "text",
        "id",
        "name",
    ]
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from([*sorted(RECORD_TYPES), "__unknown__", "tool_use", "text", "image"])
)


def _containers(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.lists(children, max_size=4) | st.dictionaries(
        _KEYS | st.text(max_size=8), children, max_size=5
    )


_JSON = st.recursive(_SCALARS, _containers, max_leaves=30)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RECORD_TYPES)), st.dictionaries(_KEYS, _JSON, max_size=6))
def test_any_object_decodes_and_keeps_its_json(kind: str, fields: dict[str, object]) -> None:
    value = {"type": kind, **fields}
    decoded = decode_record(msgspec.json.encode(value))
    assert same_json(decoded.value, value)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=60) | _JSON.map(msgspec.json.encode), max_size=12))
def test_any_bytes_are_read_line_by_line(lines: list[bytes]) -> None:
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"
    result = read_data(Path("fuzz.jsonl"), data)
    # Every line is an entry or a diagnostic, once; a line just like the one before is folded
    # into it (``repeats``).
    numbers = [entry.line + n for entry in result.entries for n in range(entry.repeats + 1)]
    malformed = [
        d.line + n for d in result.diagnostics if not d.partial for n in range(d.repeats + 1)
    ]
    assert len(numbers + malformed) == len(set(numbers + malformed)) == result.lines
    assert expected_malformed(data) <= set(malformed)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([b"{}", b"[]", b'{"type":"user","uuid":5}', b"x", b""]), max_size=30)
)
def test_repeated_lines_are_read_alike_by_both_readers(lines: list[bytes]) -> None:
    """The model's reader and the index's view fold the same runs of identical lines."""
    from cclens.index.write.view import read_view

    data = b"\n".join(lines) + b"\n"
    full, view = read_data(Path("r.jsonl"), data), read_view(Path("r.jsonl"), data)
    assert [entry.line for entry in full.entries] == [entry[0] for entry in view.entries]
    assert [str(d) for d in full.diagnostics] == [str(d) for d in view.diagnostics]
    assert (full.lines, full.end_offset) == (view.lines, view.end_offset)
