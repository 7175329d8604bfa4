"""``cclens permissions`` on a Claude folder of its own, with settings at every destination."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cclens.cli import main
from cclens.figures.projects import slug

SESSION = "33333333-3333-4333-8333-333333333333"
OTHER = "44444444-4444-4444-8444-444444444444"


def _record(
    kind: str, uuid: str, parent: str | None, time: str, cwd: str, **extra: Any
) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": cwd,
        "sessionId": extra.pop("session", SESSION),
        "version": "2.1.42",
        "type": kind,
        "uuid": uuid,
        "timestamp": time,
        **extra,
    }


class Transcript:
    """Builds a session in which the assistant calls tools one after the other."""

    def __init__(self, cwd: str, session: str = SESSION) -> None:
        self.cwd = cwd
        self.session = session
        self.records: list[dict[str, Any]] = [
            {"type": "permission-mode", "permissionMode": "default", "sessionId": session}
        ]
        self.last: str | None = None
        self.second = 0

    def _time(self) -> str:
        self.second += 1
        return f"2025-06-01T10:{self.second // 60:02d}:{self.second % 60:02d}.000Z"

    def prompt(self, text: str, mode: str | None = None) -> None:
        uuid = f"u{len(self.records)}"
        extra: dict[str, Any] = {"message": {"role": "user", "content": text}}
        if mode is not None:
            extra["permissionMode"] = mode
        self.records.append(
            _record("user", uuid, self.last, self._time(), self.cwd, session=self.session, **extra)
        )
        self.last = uuid

    def call(
        self, name: str, tool_input: dict[str, Any], result: str = "ok", rejected: bool = False
    ) -> None:
        index = len(self.records)
        tool_id = f"toolu_{self.session[:4]}_{index}"
        assistant = f"a{index}"
        self.records.append(
            _record(
                "assistant",
                assistant,
                self.last,
                self._time(),
                self.cwd,
                session=self.session,
                requestId=f"req_{index}",
                message={
                    "id": f"msg_{self.session[:4]}_{index}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5-20250929",
                    "content": [
                        {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
                    ],
                    "usage": {"input_tokens": 1, "output_tokens": 1},
                },
            )
        )
        text = (
            "The user doesn't want to proceed with this tool use. The tool use was rejected."
            if rejected
            else result
        )
        user = f"r{index}"
        self.records.append(
            _record(
                "user",
                user,
                assistant,
                self._time(),
                self.cwd,
                session=self.session,
                message={
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": tool_id,
                            "content": text,
                            "is_error": rejected,
                        }
                    ],
                },
                toolUseResult=("Error: " + text) if rejected else {"stdout": result, "stderr": ""},
            )
        )
        self.last = user

    def write(self, claude: Path) -> Path:
        path = claude / "projects" / slug(self.cwd) / f"{self.session}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in self.records), encoding="utf-8")
        return path


def _settings(path: Path, permissions: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"permissions": permissions}), encoding="utf-8")
    return path


@pytest.fixture
def claude(tmp_path: Path) -> tuple[Path, Path, list[Path]]:
    """A Claude folder with user settings, and a project with project and local settings."""
    claude = tmp_path / "claude"
    project = tmp_path / "work" / "app"
    (project / "src").mkdir(parents=True)
    settings = [
        _settings(
            claude / "settings.json", {"allow": ["Bash(git status)"], "deny": ["Bash(rm -rf:*)"]}
        ),
        _settings(
            project / ".claude" / "settings.json",
            {"allow": ["Bash(npm run test:*)"], "ask": ["Bash(git push:*)"]},
        ),
        _settings(
            project / ".claude" / "settings.local.json",
            {"allow": ["Read(./src/**)"], "defaultMode": "plan"},
        ),
    ]
    transcript = Transcript(str(project))
    transcript.prompt("set things up")
    transcript.call("Bash", {"command": "git status"})
    transcript.call("Bash", {"command": "npm run test -- --watch"})
    transcript.call("Bash", {"command": "git push origin main"})
    transcript.call("Bash", {"command": "rm -rf build"})
    transcript.call("Read", {"file_path": f"{project}/src/a.py"})
    transcript.call("Bash", {"command": "npm install"})
    transcript.call("Bash", {"command": "npm install"})
    transcript.call("Bash", {"command": "ls -la /etc"}, rejected=True)
    transcript.prompt("now edit", mode="acceptEdits")
    transcript.call(
        "Edit", {"file_path": f"{project}/src/a.py", "old_string": "a", "new_string": "b"}
    )
    transcript.write(claude)

    elsewhere = Transcript(str(tmp_path / "work" / "site"), session=OTHER)
    elsewhere.prompt("hello")
    elsewhere.call("Bash", {"command": "make"})
    elsewhere.write(claude)
    return claude, project, settings


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, ["permissions", *args])


def _audit(claude: Path, *args: str) -> dict[str, Any]:
    result = _run("--json", "--claude-dir", str(claude), "--", *args)
    assert result.exit_code == 0, result.output
    audit = json.loads(result.stdout)
    assert isinstance(audit, dict)
    return audit


def test_every_call_is_decided_by_the_right_rule_and_destination(
    claude: tuple[Path, Path, list[Path]],
) -> None:
    folder, project, (user, shared, local) = claude
    audit = _audit(folder, str(project))
    assert audit["claude_dir"] == str(folder)
    (found,) = audit["projects"]
    assert found["project_dir"] == str(project) and found["sessions"] == [SESSION]
    calls = {(call["tool"], call["subject"]): call for call in found["calls"]}
    expected = {
        ("Bash", "git status"): ("allow", "rule", "Bash(git status)", "userSettings", user),
        ("Bash", "npm run test -- --watch"): (
            "allow",
            "rule",
            "Bash(npm run test:*)",
            "projectSettings",
            shared,
        ),
        ("Bash", "git push origin main"): (
            "ask",
            "rule",
            "Bash(git push:*)",
            "projectSettings",
            shared,
        ),
        ("Bash", "rm -rf build"): ("deny", "rule", "Bash(rm -rf:*)", "userSettings", user),
        ("Read", f"{project}/src/a.py"): (
            "allow",
            "rule",
            "Read(./src/**)",
            "localSettings",
            local,
        ),
        ("Bash", "npm install"): ("ask", "mode", None, None, None),
        ("Bash", "ls -la /etc"): ("ask", "mode", None, None, None),
        ("Edit", f"{project}/src/a.py"): ("allow", "mode", None, None, None),
    }
    for key, (behavior, decided_by, rule, destination, path) in expected.items():
        call = calls[key]
        assert (call["behavior"], call["decided_by"], call["rule"], call["destination"]) == (
            behavior,
            decided_by,
            rule,
            destination,
        ), key
        assert call["settings_path"] == (str(path) if path else None), key
    # The recorded mode decides, not the settings' defaultMode (plan).
    assert calls[("Bash", "npm install")]["mode"] == "default"
    assert calls[("Bash", "npm install")]["mode_source"] == "recorded"
    edit = calls[("Edit", f"{project}/src/a.py")]
    assert (edit["mode"], edit["recorded_mode"]) == ("acceptEdits", "acceptEdits")
    assert "acceptEdits" in edit["explanation"]

    tools = {row["tool"]: row for row in found["tools"]}
    assert (
        tools["Bash"]["calls"],
        tools["Bash"]["allow"],
        tools["Bash"]["ask"],
        tools["Bash"]["deny"],
    ) == (
        7,
        2,
        4,
        1,
    )
    assert tools["Bash"]["rejected"] == 1
    used = {(use["rule"], use["destination"]): use["calls"] for use in found["rules_used"]}
    assert used[("Bash(git status)", "userSettings")] == 1
    assert used[("Bash(rm -rf:*)", "userSettings")] == 1

    settings = {s["destination"]: s for s in found["settings"]}
    assert settings["userSettings"]["path"] == str(user) and settings["userSettings"]["exists"]
    assert settings["localSettings"]["default_mode"] == "plan"
    assert settings["projectSettings"]["rules"] == [
        "ask Bash(git push:*)",
        "allow Bash(npm run test:*)",
    ]


def test_rejected_calls_and_suggestions(claude: tuple[Path, Path, list[Path]]) -> None:
    folder, project, _ = claude
    (found,) = _audit(folder, str(project))["projects"]
    assert [(call["tool"], call["subject"]) for call in found["rejected"]] == [
        ("Bash", "ls -la /etc")
    ]
    assert found["rejected"][0]["status"] == "rejected"
    suggestions = found["suggestions"]
    first = suggestions[0]
    assert first["rule"] == "Bash(npm install)" and first["prompts_saved"] == 2
    # The update is a PermissionUpdate exactly as Claude Code writes it.
    assert first["update"] == {
        "type": "addRules",
        "rules": [{"toolName": "Bash", "ruleContent": "npm install"}],
        "behavior": "allow",
        "destination": "projectSettings",
    }
    rules = {s["rule"] for s in suggestions}
    # Never the rejected call, never a destructive or already-decided command.
    assert not any("ls" in rule or "rm" in rule or "git push" in rule for rule in rules)
    saved = [s["prompts_saved"] for s in suggestions]
    assert saved == sorted(saved, reverse=True)


def test_settings_are_read_never_written(claude: tuple[Path, Path, list[Path]]) -> None:
    folder, project, settings = claude
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in settings}
    files_before = sorted(p for p in folder.rglob("*"))
    assert _run("--claude-dir", str(folder)).exit_code == 0
    assert _run("--json", "--claude-dir", str(folder)).exit_code == 0
    assert {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in settings} == before
    assert sorted(p for p in folder.rglob("*")) == files_before
    assert sorted(p.name for p in (project / ".claude").iterdir()) == [
        "settings.json",
        "settings.local.json",
    ]


def test_project_argument_selects_projects(claude: tuple[Path, Path, list[Path]]) -> None:
    folder, project, _ = claude
    everything = _audit(folder)
    assert [p["project_dir"] for p in everything["projects"]] == sorted(
        [str(project), str(project.parent / "site")], key=slug
    )
    for name in (str(project), slug(str(project)), "app", "work/app"):
        assert [p["project_dir"] for p in _audit(folder, name)["projects"]] == [str(project)], name
    missing = _run("--claude-dir", str(folder), "no-such-project")
    assert missing.exit_code == 2 and "no session of project" in missing.output


def test_broken_settings_are_reported_and_the_rest_still_applies(
    claude: tuple[Path, Path, list[Path]],
) -> None:
    folder, project, (_, shared, _) = claude
    shared.write_text("{not json", encoding="utf-8")
    (found,) = _audit(folder, str(project))["projects"]
    problems = {s["destination"]: s["problems"] for s in found["settings"]}
    assert problems["projectSettings"] and "not valid JSON" in problems["projectSettings"][0]
    calls = {call["subject"]: call for call in found["calls"]}
    assert calls["git status"]["rule"] == "Bash(git status)"  # user settings still apply
    assert calls["npm run test -- --watch"]["behavior"] == "ask"  # the project's allow rule is gone


def test_human_output(claude: tuple[Path, Path, list[Path]]) -> None:
    folder, project, _ = claude
    result = _run("--claude-dir", str(folder), str(project))
    assert result.exit_code == 0, result.output
    text = result.stdout
    for expected in (
        str(project),
        "What today's rules decide",
        "Rules that decided",
        "Rejected by the user",
        "ls -la /etc",
        "Bash(npm install)",
        '"type": "addRules"',  # indented: it fits the terminal and pastes as it is
    ):
        assert expected in text, expected
