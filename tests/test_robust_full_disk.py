"""A write that fails (a full disk, a file-size limit) leaves the file it would replace intact.

Every file cclens writes for the user (an export, a site, a dataset, a restored transcript) is
written to a temporary file in the same folder and renamed over its name once complete. The
full disk is simulated with a file-size limit (``RLIMIT_FSIZE``) on the command's process:
a write past it fails with ``EFBIG`` as it would with ``ENOSPC``.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
from pathlib import Path

import pytest

from cclens.files import replace_file, write_file

from .test_cli_exits import COMMAND, _environment, run
from .test_index import SMALL, WITH_SUBAGENTS

OLD = b"the file that was here before\n"


def limited(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``cclens ARGS`` in a process that cannot write files larger than ``limit`` bytes."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        env=_environment(),
        preexec_fn=cap,
        timeout=300,
        check=False,
    )


def leftovers(folder: Path) -> list[Path]:
    """Temporary files left behind in ``folder`` (none may be)."""
    return [path for path in folder.rglob("*") if ".tmp" in path.name or path.name.startswith(".")]


@pytest.fixture
def session(corpus: Path, tmp_path: Path) -> Path:
    source = next(corpus.rglob(f"{WITH_SUBAGENTS}.jsonl"))
    project = tmp_path / "claude" / "projects" / "-tmp-app"
    project.mkdir(parents=True)
    shutil.copytree(source.parent, project, dirs_exist_ok=True)
    return project / source.name


def test_the_shared_writer_replaces_only_a_complete_file(tmp_path: Path) -> None:
    target = tmp_path / "x.md"
    target.write_bytes(OLD)
    with pytest.raises(RuntimeError), replace_file(target) as handle:
        handle.write(b"half of it")
        raise RuntimeError("the writer failed")
    assert target.read_bytes() == OLD and not leftovers(tmp_path)
    write_file(target, b"new")
    assert target.read_bytes() == b"new" and not leftovers(tmp_path)
    with replace_file(tmp_path / "fresh.txt") as handle:
        handle.write(b"a")
    assert (tmp_path / "fresh.txt").read_bytes() == b"a"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_a_failed_export_keeps_the_old_file(session: Path, tmp_path: Path, fmt: str) -> None:
    target = tmp_path / "out" / f"x.{fmt}"
    target.parent.mkdir()
    target.write_bytes(OLD)
    result = limited(20_000, "export", str(session), "-f", fmt, "-o", str(target))
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("cclens: cannot write") and "Traceback" not in result.stderr
    assert target.read_bytes() == OLD
    assert not leftovers(target.parent)
    done = run("export", str(session), "-f", fmt, "-o", str(target))
    assert done.returncode == 0 and target.read_bytes() != OLD


@pytest.mark.slow
def test_a_failed_site_export_keeps_the_old_pages(session: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    claude = session.parent.parent.parent
    first = run("export", "--all", "-o", str(site), "--claude-dir", str(claude), "--jobs", "1")
    assert first.returncode == 0, first.stderr
    before = {path: path.read_bytes() for path in site.rglob("*") if path.is_file()}
    assert len(before) > 2
    for path in before:
        path.write_bytes(OLD + path.read_bytes()[:10])
    kept = {path: path.read_bytes() for path in before}
    result = limited(
        1_000, "export", "--all", "-o", str(site), "--claude-dir", str(claude), "--jobs", "1"
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert {path: path.read_bytes() for path in before} == kept
    assert not leftovers(site)


@pytest.mark.slow
def test_a_failed_restore_keeps_the_old_files(session: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.db"
    claude = session.parent.parent.parent
    assert run("index", "--claude-dir", str(claude), "--db", str(db)).returncode == 0
    out = tmp_path / "restored"
    out.mkdir()
    (out / session.name).write_bytes(OLD)
    result = limited(150_000, "restore", WITH_SUBAGENTS, "-o", str(out), "--force", "--db", str(db))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "cannot write" in result.stderr
    assert (out / session.name).read_bytes() == OLD
    assert not leftovers(out)


@pytest.mark.slow
def test_a_failed_dataset_keeps_the_old_tables(session: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    claude = session.parent.parent.parent
    out = tmp_path / "dataset"
    first = run("dataset", str(out), "--claude-dir", str(claude))
    assert first.returncode == 0, first.stderr
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    result = limited(2_000, "dataset", str(out), "--claude-dir", str(claude))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before
    assert not leftovers(out)


@pytest.mark.slow
def test_the_small_session_exports_under_a_generous_limit(corpus: Path, tmp_path: Path) -> None:
    """The limit itself is no obstacle to a write that fits."""
    source = next(corpus.rglob(f"{SMALL}.jsonl"))
    target = tmp_path / "s.md"
    target.write_bytes(OLD)
    result = limited(10_000_000, "export", str(source), "-f", "md", "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() != OLD
