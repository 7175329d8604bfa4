"""Settings files are read, never written; every problem is a diagnostic naming the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cclens.permissions import (
    claude_config_dir,
    load_settings,
    parse_settings,
    read_settings_file,
    settings_paths,
)


def write_json(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A claude dir and a project dir with all three settings files."""
    claude = tmp_path / "claude"
    project = tmp_path / "project"
    write_json(
        claude / "settings.json",
        {
            "model": "opus",
            "permissions": {
                "allow": ["WebSearch"],
                "deny": ["Read(~/.ssh/**)"],
                "defaultMode": "plan",
            },
        },
    )
    write_json(
        project / ".claude" / "settings.json",
        {
            "permissions": {
                "allow": ["Bash(npm run test:*)"],
                "ask": ["Bash(git push:*)"],
                "additionalDirectories": ["../shared"],
                "defaultMode": "acceptEdits",
            }
        },
    )
    write_json(
        project / ".claude" / "settings.local.json",
        {"permissions": {"allow": ["Bash(git status)"], "additionalDirectories": ["../shared"]}},
    )
    return claude, project


def test_load_settings_reads_all_three_files(layout: tuple[Path, Path]) -> None:
    claude, project = layout
    settings = load_settings(claude_dir=str(claude), project_dir=str(project))
    assert [file.destination for file in settings.files] == [
        "userSettings",
        "projectSettings",
        "localSettings",
    ]
    assert [(rule.text, rule.behavior, rule.destination) for rule in settings.rules] == [
        ("Read(~/.ssh/**)", "deny", "userSettings"),
        ("WebSearch", "allow", "userSettings"),
        ("Bash(git push:*)", "ask", "projectSettings"),
        ("Bash(npm run test:*)", "allow", "projectSettings"),
        ("Bash(git status)", "allow", "localSettings"),
    ]
    assert settings.rules[0].path == str(claude / "settings.json")
    assert settings.additional_directories == ("../shared",)
    # The most specific file that sets a mode wins.
    assert settings.default_mode == "acceptEdits"
    assert settings.diagnostics == ()


def test_settings_paths(tmp_path: Path) -> None:
    assert settings_paths(claude_dir="/h/.claude", project_dir="/p") == {
        "userSettings": "/h/.claude/settings.json",
        "projectSettings": "/p/.claude/settings.json",
        "localSettings": "/p/.claude/settings.local.json",
    }
    assert settings_paths(claude_dir="/h/.claude", project_dir=None) == {
        "userSettings": "/h/.claude/settings.json"
    }


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "/home/ana/.claude"),
        ({"CLAUDE_CONFIG_DIR": ""}, "/home/ana/.claude"),
        ({"CLAUDE_CONFIG_DIR": "/srv/claude"}, "/srv/claude"),
        ({"CLAUDE_CONFIG_DIR": "/srv/claude/"}, "/srv/claude"),
    ],
)
def test_claude_config_dir_honours_the_environment(environ: dict[str, str], expected: str) -> None:
    assert claude_config_dir(environ, home="/home/ana") == expected


def test_missing_files_are_diagnostics(tmp_path: Path) -> None:
    settings = load_settings(claude_dir=str(tmp_path / "none"), project_dir=str(tmp_path / "p"))
    assert settings.rules == ()
    assert settings.default_mode is None
    assert [file.exists for file in settings.files] == [False, False, False]
    assert {diagnostic.kind for diagnostic in settings.diagnostics} == {"missing"}
    assert {diagnostic.path for diagnostic in settings.diagnostics} == {
        str(tmp_path / "none" / "settings.json"),
        str(tmp_path / "p" / ".claude" / "settings.json"),
        str(tmp_path / "p" / ".claude" / "settings.local.json"),
    }


def test_malformed_json_is_a_diagnostic_and_other_files_still_count(
    layout: tuple[Path, Path],
) -> None:
    claude, project = layout
    broken = project / ".claude" / "settings.json"
    broken.write_text('{"permissions": {"allow": ["Bash(ls)",]}', encoding="utf-8")
    settings = load_settings(claude_dir=str(claude), project_dir=str(project))
    [diagnostic] = settings.diagnostics
    assert diagnostic.path == str(broken)
    assert diagnostic.kind == "malformed"
    assert "not valid JSON" in diagnostic.reason
    assert [rule.text for rule in settings.rules] == [
        "Read(~/.ssh/**)",
        "WebSearch",
        "Bash(git status)",
    ]
    assert settings.default_mode == "plan"


def test_unreadable_path_is_a_diagnostic(tmp_path: Path) -> None:
    directory = tmp_path / "settings.json"
    directory.mkdir()
    result = read_settings_file(str(directory), "userSettings")
    assert result.exists
    assert [diagnostic.kind for diagnostic in result.diagnostics] == ["unreadable"]


@pytest.mark.parametrize(
    ("document", "reason_part"),
    [
        ([1, 2], "top level is not a JSON object"),
        ({"permissions": ["Bash"]}, "permissions is not an object"),
        ({"permissions": {"allow": "Bash"}}, "permissions.allow is not a list"),
        ({"permissions": {"deny": ["Bash", 3]}}, "permissions.deny[1] is not a string"),
        ({"permissions": {"ask": ["Bash(oops"]}}, "permissions.ask: 'Bash(oops'"),
        ({"permissions": {"defaultMode": "yolo"}}, "defaultMode 'yolo' is not one of"),
        ({"permissions": {"additionalDirectories": "/x"}}, "additionalDirectories is not a list"),
    ],
)
def test_invalid_entries_are_diagnostics(document: Any, reason_part: str) -> None:
    result = parse_settings(
        json.dumps(document).encode(),
        path="/p/.claude/settings.json",
        destination="projectSettings",
    )
    assert any(reason_part in diagnostic.reason for diagnostic in result.diagnostics), (
        result.diagnostics
    )
    assert {diagnostic.path for diagnostic in result.diagnostics} == {"/p/.claude/settings.json"}


def test_valid_rules_survive_next_to_invalid_ones() -> None:
    document = {"permissions": {"allow": ["Bash(ls)", "Bash(oops", 7, "Read"]}}
    result = parse_settings(
        json.dumps(document).encode(), path="/s.json", destination="localSettings"
    )
    assert [rule.text for rule in result.rules] == ["Bash(ls)", "Read"]
    assert len(result.diagnostics) == 2


def test_a_file_without_permissions_is_fine() -> None:
    result = parse_settings(b'{"model": "opus"}', path="/s.json", destination="userSettings")
    assert result.exists
    assert result.rules == ()
    assert result.diagnostics == ()


def test_reading_never_writes(layout: tuple[Path, Path]) -> None:
    claude, project = layout
    before = {path: path.stat().st_mtime_ns for path in [*claude.rglob("*"), *project.rglob("*")]}
    load_settings(claude_dir=str(claude), project_dir=str(project))
    after = {path: path.stat().st_mtime_ns for path in [*claude.rglob("*"), *project.rglob("*")]}
    assert before == after
