"""A temporary Claude config folder made from the shared corpus, for index and web tests.

``make_claude_dir`` copies every corpus session (with its subagent files, sidecars and workflow
journals, in their layout relative to the session) into ``<root>/projects/<slug>/``, one slug per
corpus folder, so tests can append to and delete transcripts as Claude Code would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from cclens.readers.claude import discover


def _slug(folder: Path, corpus: Path) -> str:
    return "-" + "-".join(folder.relative_to(corpus).parts)


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    sidecar = source.with_name(source.name.removesuffix(".jsonl") + ".meta.json")
    if sidecar.exists():
        shutil.copy2(sidecar, target.with_name(sidecar.name))


def make_claude_dir(corpus: Path, root: Path) -> Path:
    """Lay the corpus out under ``root`` as Claude Code would; return ``root``."""
    found = discover(corpus)
    projects = root / "projects"
    for session in found.sessions:
        if session.orphan is not None:
            continue  # copied below, where it is
        folder = session.path.parent
        target = projects / _slug(folder, corpus)
        _copy(session.path, target / session.path.name)
        for agent in session.subagents:
            _copy(agent.path, target / agent.path.relative_to(folder))
        for journal in session.journals:
            _copy(journal, target / journal.relative_to(folder))
    for orphan in found.orphans:
        _copy(orphan.path, projects / _slug(orphan.path.parent, corpus) / orphan.path.name)
    return root


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: its bytes and modification time (to prove nothing changed)."""
    return {
        path.relative_to(root).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_layout_keeps_every_session_and_subagent(corpus: Path, tmp_path: Path) -> None:
    original = discover(corpus)
    copied = discover(make_claude_dir(corpus, tmp_path))
    assert len(copied.sessions) == len(original.sessions)
    assert len(copied.orphans) == len(original.orphans)
    assert sum(len(s.subagents) for s in copied.sessions) == sum(
        len(s.subagents) for s in original.sessions
    )
    assert {s.session_id for s in copied.sessions} == {s.session_id for s in original.sessions}
