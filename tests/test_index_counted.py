"""The index counts a resumed session's copies once, as the analytics do, and keeps doing so
as sessions change (:mod:`cclens.index.write.counted`)."""

from __future__ import annotations

import os
from pathlib import Path

from cclens.figures.figures import figures_by_session, tally
from cclens.index import Index, SessionFilters
from cclens.readers.claude import discover, load

from .test_usage import (
    PROJECT,
    RESUMED,
    SESSION,
    assistant,
    project_dir,
    prompt,
    tool_result,
    tool_use,
    usage,
    write,
)


def _transcripts(root: Path) -> tuple[Path, Path]:
    folder = project_dir(root)
    first = [
        prompt("u0", "first", time="2025-06-01T09:00:00.000Z"),
        assistant(
            "a1",
            "msg_1",
            usage(input=5, output=7, write_1h=3),
            parent="u0",
            time="2025-06-01T09:00:05.000Z",
            content=[tool_use("toolu_1", "Bash", {"command": "ls"})],
        ),
    ]
    # The continuation copies the first session's records (the call without its result) and
    # goes on: the call's result, a response of its own.
    resumed = [
        {**first[0], "sessionId": RESUMED},
        {**first[1], "sessionId": RESUMED},
        tool_result(
            "r1", "toolu_1", "a.txt", parent="a1", session=RESUMED, time="2025-06-02T08:00:00.000Z"
        ),
        {
            **prompt("u2", "next", session=RESUMED, time="2025-06-02T09:00:00.000Z"),
            "parentUuid": "r1",
        },
        assistant(
            "a2",
            "msg_2",
            usage(input=2, output=4),
            request_id="req_2",
            parent="u2",
            session=RESUMED,
            time="2025-06-02T09:00:05.000Z",
        ),
    ]
    original = write(folder / f"{SESSION}.jsonl", first)
    continuation = write(folder / f"{RESUMED}.jsonl", resumed)
    os.utime(original, (1_000_000, 1_000_000))  # written to before its continuation
    os.utime(continuation, (2_000_000, 2_000_000))
    return original, continuation


def _figures(index: Index) -> dict[str, tuple[int, ...]]:
    return {
        summary.session_id: (
            summary.prompts,
            summary.responses,
            summary.tool_calls,
            summary.errors,
            summary.input_tokens,
            summary.output_tokens,
            summary.cache_write_tokens,
            summary.cache_write_1h_tokens,
        )
        for summary in index.sessions(SessionFilters(project=PROJECT))
    }


def _expected(root: Path) -> dict[str, tuple[int, ...]]:
    sessions = [load(file) for file in discover(root).sessions]
    found = figures_by_session(tally(sessions))
    return {
        session.session_id: (
            found[session.path].prompts,
            found[session.path].responses,
            found[session.path].tool_calls.calls,
            found[session.path].tool_calls.failed,
            found[session.path].tokens.input,
            found[session.path].tokens.output,
            found[session.path].tokens.cache_write,
            found[session.path].tokens.cache_write_1h,
        )
        for session in sessions
    }


def test_copies_count_once_for_the_session_that_recorded_them_first(tmp_path: Path) -> None:
    root = tmp_path / "claude"
    original, _ = _transcripts(root)
    with Index(tmp_path / "index.db") as index:
        index.update([root])
        figures = _figures(index)
        # The original counts its prompt, response and call (with the status the
        # continuation's result gives it); the continuation only what is its own.
        assert figures[SESSION] == (1, 1, 1, 0, 5, 7, 3, 3)
        assert figures[RESUMED] == (1, 1, 0, 0, 2, 4, 0, 0)
        assert figures == _expected(root)
        assert sum(p.tool_calls for p in index.projects()) == 1

        # The original is written to again (resumed in place): it now comes after its
        # continuation in reading order, and what they share moves with it.
        with original.open("a", encoding="utf-8") as handle:
            handle.write('{"type":"custom-title","customTitle":"again","sessionId":"x"}\n')
        os.utime(original, (3_000_000, 3_000_000))
        revision = index.session(RESUMED)
        assert revision is not None
        index.update([root])
        assert _figures(index) == _expected(root)
        assert _figures(index)[RESUMED] == (2, 2, 1, 0, 7, 11, 3, 3)
        after = index.session(RESUMED)
        assert after is not None and after.revision > revision.revision  # pages draw it anew
