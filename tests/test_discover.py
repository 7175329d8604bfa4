"""Discovery: Claude config folders, projects, sessions and both subagent layouts."""

from __future__ import annotations

import json
from pathlib import Path

from cclens.readers.claude import claude_dirs, discover, load, subagents_for


def line(**fields: object) -> str:
    return json.dumps(fields) + "\n"


def make_claude_dir(root: Path) -> Path:
    project = root / "projects" / "-home-me-app"
    (project / "s1" / "subagents" / "workflows" / "wf1").mkdir(parents=True)
    (project / "s1.jsonl").write_text(line(type="user", sessionId="s1", uuid="u"))
    (project / "s2.jsonl").write_text(line(type="user", sessionId="s2", uuid="v"))
    (project / "agent-old.jsonl").write_text(line(type="user", sessionId="s2", isSidechain=True))
    (project / "agent-lost.jsonl").write_text(line(type="user", sessionId="gone"))
    nested = project / "s1" / "subagents"
    (nested / "agent-abc.jsonl").write_text(line(type="user", sessionId="s1"))
    (nested / "agent-abc.meta.json").write_text(json.dumps({"agentId": "abc", "toolUseId": "t1"}))
    workflow = nested / "workflows" / "wf1"
    (workflow / "agent-w1.jsonl").write_text(line(type="user", sessionId="s1"))
    (workflow / "journal.jsonl").write_text(line(type="started", key="k", agentId="w1"))
    return root


def test_layouts(tmp_path: Path) -> None:
    found = discover(make_claude_dir(tmp_path / ".claude"))
    by_session = {s.session_id: s for s in found.sessions}
    assert set(by_session) == {"s1", "s2", "agent-lost"}
    assert set(found.projects) == {"-home-me-app"}
    s1, s2 = by_session["s1"], by_session["s2"]
    by_id = {a.agent_id: a for a in s1.subagents}
    assert set(by_id) == {"abc", "w1"}
    assert by_id["abc"].layout == "nested" and by_id["abc"].tool_use_id == "t1"
    assert by_id["w1"].layout == "workflow" and by_id["w1"].workflow_run == "wf1"
    assert [a.agent_id for a in s2.subagents] == ["old"]
    assert s2.subagents[0].layout == "sibling"
    assert [a.agent_id for a in found.orphans] == ["lost"]
    assert [j.name for j in s1.journals] == ["journal.jsonl"]
    # a subagent file is a session of its own only when its session file is gone
    lost = by_session["agent-lost"]
    assert lost.orphan is found.orphans[0] and lost.project == "-home-me-app"
    assert lost.subagents == [] and s1.orphan is None
    assert [s.path.name for s in found.sessions if s.path.name.startswith("agent-")] == [
        "agent-lost.jsonl"
    ]
    # sessions are in reading order: by project, then last written first
    assert found.sessions == sorted(
        found.sessions, key=lambda s: (s.project, s.mtime, s.session_id)
    )


def test_an_orphan_loads_as_a_session_marked_as_a_subagent(tmp_path: Path) -> None:
    found = discover(make_claude_dir(tmp_path / ".claude"))
    lost = load(next(s for s in found.sessions if s.orphan is not None))
    assert (lost.session_id, lost.agent_id, lost.orphan) == ("agent-lost", "lost", True)
    assert lost.is_subagent and lost.parent_session_id == "gone"
    assert lost.project == "-home-me-app" and lost.mtime > 0


def test_subagents_for_a_single_file(tmp_path: Path) -> None:
    root = make_claude_dir(tmp_path / ".claude")
    project = root / "projects" / "-home-me-app"
    assert {a.agent_id for a in subagents_for(project / "s1.jsonl")} == {"abc", "w1"}
    assert [a.agent_id for a in subagents_for(project / "s2.jsonl")] == ["old"]


def test_find_by_id_and_prefix(tmp_path: Path) -> None:
    found = discover(make_claude_dir(tmp_path / ".claude"))
    assert [s.session_id for s in found.find("s1")] == ["s1"]
    assert sorted(s.session_id for s in found.find("s")) == ["s1", "s2"]
    assert [s.session_id for s in found.find("agent-lost")] == ["agent-lost"]
    assert found.find("nope") == []


def test_claude_dirs_order_and_env(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".config" / "claude").mkdir(parents=True)
    custom = tmp_path / "custom"
    custom.mkdir()
    dirs = claude_dirs({"CLAUDE_CONFIG_DIR": str(custom)}, home=home)
    assert dirs == [custom, home / ".claude", home / ".config" / "claude"]
    assert claude_dirs({}, home=tmp_path / "nobody") == []


def test_missing_root_is_an_error_not_a_crash(tmp_path: Path) -> None:
    found = discover(tmp_path / "missing")
    assert found.sessions == []
    assert found.errors and found.errors[0][1] == "no such file or directory"


def test_corpus_discovery(corpus: Path) -> None:
    found = discover(corpus)
    names = {s.path.name for s in found.sessions}
    orphans = {s.path.name for s in found.sessions if s.orphan is not None}
    assert orphans == {a.path.name for a in found.orphans} and len(orphans) == 5
    assert not any(name.startswith("agent-") for name in names - orphans)
    assert "journal.jsonl" not in names
    nested = [a for a in found.subagent_files if a.layout == "workflow"]
    assert len(nested) == 3
