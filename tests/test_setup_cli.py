"""``cclens setup`` end to end against a temporary ``CLAUDE_CONFIG_DIR``: the diff shown, the
settings written (only the keys setup changes differ), idempotence, a status line and hooks of
the user's own, a malformed file refused, the MCP step, and ``--undo`` byte for byte."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cclens.cli import main
from cclens.setup.claude_settings import cclens_subcommand

# A settings file as a person keeps it: four-space indents, a hook and a status line of their
# own, one object written on one line.
OWN = """{
    "model": "opus",
    "statusLine": {"type": "command", "command": "~/.claude/my line.sh", "padding": 0},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
        ],
        "SessionEnd": [
            {"hooks": [{"type": "command", "command": "notify-send bye"}]}
        ]
    },
    "permissions": {"allow": ["Bash(npm test:*)"]}
}
"""


class Home:
    """A person's machine in a temporary folder: Claude Code's folder, cclens's data folder,
    and a PATH with no ``claude`` on it (unless a test puts one there)."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.claude = root / "claude"
        self.claude.mkdir()
        self.data = root / "data"
        self.bin = root / "bin"
        self.bin.mkdir()
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(self.claude))
        monkeypatch.setenv("XDG_DATA_HOME", str(self.data))
        monkeypatch.setenv("HOME", str(root / "home"))
        monkeypatch.setenv("PATH", f"{self.bin}{os.pathsep}{Path(sys.executable).parent}")
        monkeypatch.delenv("CCLENS_DB", raising=False)

    @property
    def settings(self) -> Path:
        return self.claude / "settings.json"

    def setup(self, *arguments: str, input: str | None = None) -> Result:
        return CliRunner().invoke(main, ["setup", *arguments], input=input)

    def fake_claude(self) -> Path:
        """A stand-in for Claude Code's ``claude`` program (not installed here): it records
        its arguments, and ``mcp add`` writes the server into ``.claude.json`` as Claude Code
        does, so setup's next run sees it."""
        calls = self.root / "claude-calls.txt"
        script = self.bin / "claude"
        script.write_text(
            f"""#!{sys.executable}
import json, sys, pathlib
pathlib.Path({str(calls)!r}).open("a").write(json.dumps(sys.argv[1:]) + "\\n")
config = pathlib.Path({str(self.claude / ".claude.json")!r})
data = json.loads(config.read_text()) if config.exists() else {{}}
if sys.argv[1:3] == ["mcp", "add"]:
    server = sys.argv[sys.argv.index("--") + 1]
    data.setdefault("mcpServers", {{}})["cclens"] = {{"command": server}}
elif sys.argv[1:3] == ["mcp", "remove"]:
    data.get("mcpServers", {{}}).pop("cclens", None)
config.write_text(json.dumps(data))
"""
        )
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        return calls


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    return Home(tmp_path, monkeypatch)


def _commands(settings: dict[str, object], event: str) -> list[str]:
    hooks = settings["hooks"]
    assert isinstance(hooks, dict)
    return [entry["command"] for group in hooks[event] for entry in group["hooks"]]


def test_a_settings_file_of_ones_own_gets_only_the_keys_setup_adds(home: Home) -> None:
    home.settings.write_text(OWN)
    result = home.setup("--yes", "--no-mcp")
    assert result.exit_code == 0, result.output
    written = home.settings.read_text()
    settings = json.loads(written)
    # The person's hooks are kept and cclens's added beside them.
    assert _commands(settings, "SessionEnd")[0] == "notify-send bye"
    assert cclens_subcommand(_commands(settings, "SessionEnd")[1]) == "hook"
    assert [cclens_subcommand(c) for c in _commands(settings, "PreCompact")] == ["hook"]
    assert _commands(settings, "PreToolUse") == ["audit.sh"]
    # Their status line runs first, then cclens's (padding kept).
    line = settings["statusLine"]
    assert cclens_subcommand(line["command"]) == "statusline"
    assert "--chain '~/.claude/my line.sh'" in line["command"] and line["padding"] == 0
    # Every line the change did not concern is as it was (a comma added after the entry an
    # item now follows), in its order.
    kept = [text.removesuffix(",") for text in OWN.splitlines() if "statusLine" not in text]
    lines = [text.removesuffix(",") for text in written.splitlines()]
    positions = [lines.index(text) for text in kept if text.strip() not in ("]", "}")]
    assert positions == sorted(positions)
    assert '    "permissions": {"allow": ["Bash(npm test:*)"]}' in lines
    # The diff was shown before writing.
    assert f"--- {home.settings}" in result.output and "+++ " in result.output
    assert "cclens setup --undo" in result.output


def test_setup_twice_adds_nothing_twice(home: Home) -> None:
    home.settings.write_text(OWN)
    assert home.setup("--yes", "--no-mcp").exit_code == 0
    once = home.settings.read_bytes()
    again = home.setup("--yes", "--no-mcp")
    assert again.exit_code == 0, again.output
    assert home.settings.read_bytes() == once
    assert "nothing to change" in again.output
    assert "already runs cclens hook" in again.output


def test_undo_gives_the_file_back_byte_for_byte(home: Home) -> None:
    original = OWN.replace("\n", "\r\n").encode()  # CRLF, as an editor on Windows keeps it
    home.settings.write_bytes(original)
    os.chmod(home.settings, 0o600)
    result = home.setup("--yes", "--no-mcp", "--keep-days", "400")
    assert result.exit_code == 0, result.output
    changed = home.settings.read_bytes()
    assert b"\r\n" in changed and b"\n" not in changed.replace(b"\r\n", b"")
    assert json.loads(changed)["cleanupPeriodDays"] == 400
    assert stat.S_IMODE(home.settings.stat().st_mode) == 0o600
    undone = home.setup("--undo", "--yes")
    assert undone.exit_code == 0, undone.output
    assert home.settings.read_bytes() == original
    assert "Nothing to undo" in home.setup("--undo", "--yes").output


def test_undo_removes_a_file_setup_made_and_undoes_every_run(home: Home) -> None:
    assert home.setup("--yes", "--no-mcp").exit_code == 0
    settings = json.loads(home.settings.read_text())
    assert cclens_subcommand(settings["statusLine"]["command"]) == "statusline"
    assert home.setup("--yes", "--no-mcp", "--keep-days", "90").exit_code == 0
    result = home.setup("--undo", "--yes")
    assert result.exit_code == 0, result.output
    assert not home.settings.exists()
    assert sorted(p.name for p in home.claude.iterdir()) == []


def test_a_malformed_settings_file_is_refused_and_nothing_is_written(home: Home) -> None:
    broken = '{\n  "model": "opus",\n  "hooks": {}\n  "x": 1\n}\n'
    home.settings.write_text(broken)
    result = home.setup("--yes")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"cclens: {home.settings}: not valid JSON (line 4, column 3")
    assert lines[0].endswith("nothing was written")
    assert home.settings.read_text() == broken
    assert not (home.data / "cclens" / "setup").exists()


def test_a_key_of_the_wrong_kind_is_refused_too(home: Home) -> None:
    home.settings.write_text('{"hooks": {"SessionEnd": "cclens hook"}}')
    result = home.setup("--yes")
    assert result.exit_code == 2
    assert "hooks.SessionEnd is not a list" in result.output


def test_dry_run_shows_and_writes_nothing(home: Home) -> None:
    home.settings.write_text(OWN)
    result = home.setup("--dry-run")
    assert result.exit_code == 0, result.output
    assert '+        "PreCompact": [' in result.output
    assert home.settings.read_text() == OWN
    assert not (home.data / "cclens" / "setup").exists()


def test_it_asks_first_and_a_no_writes_nothing(home: Home) -> None:
    home.settings.write_text(OWN)
    # What to do with the status line, whether to raise cleanupPeriodDays, whether to apply.
    result = home.setup("--no-mcp", input="keep\nn\nn\n")
    assert result.exit_code == 2
    assert "What should setup do with it?" in result.output
    assert "Raise cleanupPeriodDays to 365 days?" in result.output
    assert result.output.rstrip().endswith("cclens: nothing was written")
    assert home.settings.read_text() == OWN
    result = home.setup("--no-mcp", input="keep\ny\ny\n")
    assert result.exit_code == 0, result.output
    settings = json.loads(home.settings.read_text())
    assert settings["statusLine"]["command"] == "~/.claude/my line.sh"
    assert settings["cleanupPeriodDays"] == 365


def test_replace_puts_cclens_status_line_in_place_of_ones_own(home: Home) -> None:
    home.settings.write_text(OWN)
    assert home.setup("--yes", "--no-mcp", "--status-line", "replace").exit_code == 0
    line = json.loads(home.settings.read_text())["statusLine"]
    assert cclens_subcommand(line["command"]) == "statusline" and "--chain" not in line["command"]


def test_cleanup_period_is_raised_never_lowered(home: Home) -> None:
    home.settings.write_text('{"cleanupPeriodDays": 1000}\n')
    result = home.setup("--yes", "--no-mcp", "--keep-days", "365")
    assert result.exit_code == 0, result.output
    assert json.loads(home.settings.read_text())["cleanupPeriodDays"] == 1000
    assert "deletes a transcript 1000 days after its last activity" in result.output


def test_the_mcp_server_is_added_with_claude_and_removed_by_undo(home: Home) -> None:
    calls = home.fake_claude()
    result = home.setup("--yes")
    assert result.exit_code == 0, result.output
    added = json.loads(calls.read_text().splitlines()[0])
    assert added[:6] == ["mcp", "add", "--scope", "user", "cclens", "--"]
    assert added[-1] == "mcp"
    assert "MCP server added." in result.output
    assert "is in Claude Code's user settings already" in home.setup("--yes").output
    assert home.setup("--undo", "--yes").exit_code == 0
    removed = json.loads(calls.read_text().splitlines()[-1])
    assert removed == ["mcp", "remove", "--scope", "user", "cclens"]


def test_without_claude_on_the_path_the_command_is_printed(home: Home) -> None:
    result = home.setup("--yes")
    assert result.exit_code == 0, result.output
    said = "Claude Code is not on the PATH: add the MCP server with: claude mcp add --scope user"
    assert f"{said} cclens -- " in result.output


def test_a_linked_settings_file_is_written_through_its_link(home: Home) -> None:
    dotfiles = home.root / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(OWN)
    home.settings.symlink_to(dotfiles)
    assert home.setup("--yes", "--no-mcp").exit_code == 0
    assert home.settings.is_symlink()
    assert "cclens hook" in dotfiles.read_text()
    assert home.setup("--undo", "--yes").exit_code == 0
    assert home.settings.is_symlink() and dotfiles.read_text() == OWN


def test_without_a_claude_folder_it_says_so(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home.root / "nowhere"))
    result = home.setup("--yes")
    assert result.exit_code == 2
    assert "no Claude Code folder at" in result.output
