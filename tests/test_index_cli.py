"""``cclens index``, ``cclens search`` and ``cclens restore`` on a copy of the corpus."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from cclens.cli.main import main

from .test_index_layout import make_claude_dir, snapshot

SMALL = "fed8ce56-bc79-401f-a83e-af084253362f"


@pytest.fixture
def claude_dir(corpus: Path, tmp_path: Path) -> Path:
    return make_claude_dir(corpus, tmp_path / "claude")


def run(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
def test_index_then_again_reads_nothing(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    before = snapshot(claude_dir)
    code, out, err = run("index", "--claude-dir", claude_dir, "--db", db)
    assert code == 0
    assert "109 new" in out.replace(",", "") or "new," in out
    assert "edge_cases.jsonl:13: not a JSON object" in err
    code, out, _ = run("index", "--claude-dir", claude_dir, "--db", db, "--json")
    report = msgspec.json.decode(out)
    assert report["files_read"] == 0 and report["added"] == []
    assert report["totals"]["sessions"] > 100
    assert snapshot(claude_dir) == before


@pytest.mark.slow
def test_the_db_can_come_from_the_environment(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "from-env.db"
    code, _, _ = run("index", "--claude-dir", claude_dir, env={"CCLENS_DB": str(db)})
    assert code == 0 and db.exists()


def test_a_db_inside_the_claude_dir_is_refused(claude_dir: Path) -> None:
    code, _, err = run("index", "--claude-dir", claude_dir, "--db", claude_dir / "i.db")
    assert code == 2 and "never writes there" in err
    assert not (claude_dir / "i.db").exists()


@pytest.mark.slow
def test_a_damaged_index_is_reported_and_rebuild_moves_it_aside(
    claude_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "index.db"
    db.write_bytes(b"garbage" * 1000)
    code, _, err = run("index", "--claude-dir", claude_dir, "--db", db)
    assert code == 2
    assert str(db) in err and "cclens index --rebuild" in err
    code, _, err = run("index", "--claude-dir", claude_dir, "--db", db, "--rebuild")
    assert code == 0 and "moved the old index aside" in err
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("index.db.") and p.suffix == ".old"]
    assert len(kept) == 1 and kept[0].read_bytes() == b"garbage" * 1000


@pytest.mark.slow
def test_search_from_the_terminal(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    code, out, _ = run("search", "sidechain", "--claude-dir", claude_dir, "--db", db)
    assert code == 0 and "/sessions/" in out
    code, out, _ = run(
        "search",
        '"command not found"',
        "--kind",
        "tool_output",
        "--tool",
        "Bash",
        "--errors",
        "--json",
        "--no-update",
        "--db",
        db,
    )
    assert code == 0
    found = msgspec.json.decode(out)
    hits = [hit for group in found["groups"] for hit in group["shown"]]
    assert found["total"]["hits"] >= len(hits) > 0
    assert all(h["kind"] == "tool_output" and h["tool"] == "Bash" for h in hits)
    for hit in hits:
        start, end = hit["matches"][0]
        assert hit["snippet"][start:end].lower() in {"command not found", "command_not_found"}
        assert hit["url"].startswith(f"/sessions/{hit['session']}?hl=command+not+found&")
        assert hit["url"].endswith(f"&part=tool_output#{hit['target']}")
        assert hit["monospace"] is True
    code, out, _ = run("search", "sidechain", "--since", "2100-01-01", "--no-update", "--db", db)
    assert code == 0 and "No matches." in out
    code, _, err = run("search", "x", "--since", "yesterday", "--no-update", "--db", db)
    assert code == 2 and "not a date" in err and "--since" in err


@pytest.mark.slow
def test_restore_writes_the_session_back_byte_for_byte(claude_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    run("index", "--claude-dir", claude_dir, "--db", db)
    original = next(claude_dir.rglob(f"{SMALL}.jsonl"))
    content = original.read_bytes()
    original.unlink()
    run("index", "--claude-dir", claude_dir, "--db", db)
    out_dir = tmp_path / "restored"
    code, out, _ = run("restore", SMALL[:8], "-o", out_dir, "--db", db, "--claude-dir", claude_dir)
    assert code == 0 and out.strip() == str(out_dir / original.name)
    assert (out_dir / original.name).read_bytes() == content
    code, _, err = run("restore", SMALL, "-o", out_dir, "--db", db, "--claude-dir", claude_dir)
    assert code == 2 and "--force" in err
    code, _, err = run(
        "restore", SMALL, "-o", original.parent, "--db", db, "--claude-dir", claude_dir
    )
    assert code == 2 and "never writes there" in err
    assert not original.exists()
    code, _, err = run("restore", "e", "-o", out_dir, "--db", db, "--claude-dir", claude_dir)
    assert code == 2 and "matches" in err


def test_search_output_keeps_whitespace_and_groups_by_session(tmp_path: Path) -> None:
    folder = tmp_path / "claude" / "projects" / "-work-app"
    folder.mkdir(parents=True)
    for number in range(2):
        session = f"c0000000-0000-4000-8000-00000000000{number}"
        lines = [
            {
                "type": "user",
                "uuid": f"00000000-0000-4000-800{number}-00000000000{line}",
                "parentUuid": None,
                "sessionId": session,
                "cwd": "/work/app",
                "timestamp": f"2025-06-0{line + 1}T10:00:00Z",
                "message": {"role": "user", "content": f"Error\ncalling tool {line}\n    indented"},
            }
            for line in range(number + 2)
        ]
        (folder / f"{session}.jsonl").write_bytes(
            b"".join(msgspec.json.encode(line) + b"\n" for line in lines)
        )
    db = tmp_path / "index.db"
    code, out, _ = run("search", "error", "--claude-dir", tmp_path / "claude", "--db", db)
    assert code == 0
    assert out.startswith("5 hits in 2 sessions")
    assert "Errorcalling" not in out
    assert "Error\n    calling tool" in out and "\n        indented" in out
    assert out.count("/work/app") == 2  # one heading per session, with its path
    assert "3 hits" in out and "2 hits" in out and "… 0 more" not in out
