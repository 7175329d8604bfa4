"""Claude Code's own configuration as ``cclens setup`` reads it: where it is, what it holds.

Claude Code keeps the user's settings in ``settings.json`` of its configuration folder
(``$CLAUDE_CONFIG_DIR``, else ``~/.claude``) and its user-scope MCP servers in ``.claude.json``
(in that folder when ``$CLAUDE_CONFIG_DIR`` is set, else in the home folder). Nothing here
writes; a file that is not JSON is a :class:`SettingsError` naming the file, line and column.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import read_regular

#: Where Claude Code keeps transcripts when ``cleanupPeriodDays`` is not set: files whose last
#: activity (modification time) is older are deleted when Claude Code starts.
DEFAULT_CLEANUP_DAYS = 30
#: The hook events ``cclens setup`` installs ``cclens hook`` for: a session that ends, and a
#: conversation about to be compacted.
HOOK_EVENTS = ("SessionEnd", "PreCompact")


class SettingsError(ValueError):
    """A settings file cclens cannot read or understand (one line: file, where, what)."""


def config_dir(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """Claude Code's configuration folder: the first of ``$CLAUDE_CONFIG_DIR``, else
    ``~/.claude`` (whether or not it exists)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    for part in environ.get("CLAUDE_CONFIG_DIR", "").split(","):
        if part.strip():
            return Path(part.strip()).expanduser()
    return home / ".claude"


def user_settings_path(folder: Path) -> Path:
    """The user's settings file in Claude Code's configuration ``folder``."""
    return folder / "settings.json"


def mcp_config_path(
    folder: Path, environ: Mapping[str, str] | None = None, home: Path | None = None
) -> Path:
    """Where Claude Code keeps user-scope MCP servers (``.claude.json``)."""
    environ = os.environ if environ is None else environ
    if environ.get("CLAUDE_CONFIG_DIR", "").strip():
        return folder / ".claude.json"
    return (Path.home() if home is None else home) / ".claude.json"


def read_json(path: Path) -> tuple[str | None, dict[str, Any]]:
    """The text of the JSON file at ``path`` (``None`` when there is none) and its object
    (``{}`` for a missing or empty file). Raises :class:`SettingsError` for a file that cannot
    be read, is not JSON, or does not hold an object."""
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        return None, {}
    except OSError as error:
        raise SettingsError(f"{path}: cannot be read ({error.strerror or error})") from error
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingsError(f"{path}: not UTF-8 text (byte {error.start})") from error
    if not text.strip():
        return text, {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SettingsError(
            f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
            "fix it, then run cclens setup again"
        ) from error
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: holds {type(data).__name__}, not a JSON object")
    return text, data


_COMMAND_NAMES = {"cclens", "cclens.exe"}


def cclens_subcommand(command: object) -> str | None:
    """The cclens subcommand a settings ``command`` runs (``hook``, ``statusline``), or
    ``None`` when it does not run cclens: ``cclens hook``, ``/opt/bin/cclens statusline --db
    x``, ``python3 -m cclens hook``."""
    if not isinstance(command, str):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for index, word in enumerate(words[:-1]):
        name = re.split(r"[\\/]", word)[-1]
        if name in _COMMAND_NAMES or (word == "cclens" and index > 0 and words[index - 1] == "-m"):
            return words[index + 1]
    return None


def hook_installed(settings: Mapping[str, Any], event: str) -> bool:
    """Whether a hook of ``event`` already runs ``cclens hook``."""
    hooks = settings.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, Mapping) else None
    if not isinstance(groups, list):
        return False
    for group in groups:
        entries = group.get("hooks") if isinstance(group, Mapping) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, Mapping) and cclens_subcommand(entry.get("command")) == "hook":
                return True
    return False


def check_shapes(path: Path, settings: Mapping[str, Any]) -> None:
    """Raise :class:`SettingsError` when a key setup edits holds something Claude Code would
    not read (setup would otherwise have to overwrite it)."""
    hooks = settings.get("hooks")
    if hooks is not None and not isinstance(hooks, Mapping):
        raise SettingsError(f"{path}: hooks is a {type(hooks).__name__}, not an object")
    for event in HOOK_EVENTS:
        groups = hooks.get(event) if isinstance(hooks, Mapping) else None
        if groups is not None and not isinstance(groups, list):
            raise SettingsError(f"{path}: hooks.{event} is not a list")
    line = settings.get("statusLine")
    if line is not None and not isinstance(line, Mapping):
        raise SettingsError(f"{path}: statusLine is a {type(line).__name__}, not an object")


@dataclass(frozen=True, slots=True)
class StatusLine:
    """The status line a settings file sets: its command, and whether that is cclens's own
    (``chained``: cclens's, running another command first)."""

    command: str | None
    ours: bool
    chained: str | None


def status_line(settings: Mapping[str, Any]) -> StatusLine | None:
    """The status line ``settings`` set, ``None`` when none."""
    line = settings.get("statusLine")
    if not isinstance(line, Mapping):
        return None
    command = line.get("command")
    text = command if isinstance(command, str) else None
    ours = cclens_subcommand(text) == "statusline"
    chained = None
    if ours and text is not None:
        words = shlex.split(text)
        if "--chain" in words[:-1]:
            chained = words[words.index("--chain") + 1]
    return StatusLine(text, ours, chained)


def cleanup_days(settings: Mapping[str, Any]) -> tuple[float, bool]:
    """How many days Claude Code keeps a transcript after its last activity, and whether the
    settings say so (else it is :data:`DEFAULT_CLEANUP_DAYS`)."""
    value = settings.get("cleanupPeriodDays")
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value), True
    return float(DEFAULT_CLEANUP_DAYS), False


def mcp_installed(claude_json: Mapping[str, Any]) -> bool:
    """Whether Claude Code's ``.claude.json`` has a user-scope ``cclens`` MCP server."""
    servers = claude_json.get("mcpServers")
    return isinstance(servers, Mapping) and "cclens" in servers


__all__ = [
    "DEFAULT_CLEANUP_DAYS",
    "HOOK_EVENTS",
    "SettingsError",
    "StatusLine",
    "cclens_subcommand",
    "check_shapes",
    "cleanup_days",
    "config_dir",
    "hook_installed",
    "mcp_config_path",
    "mcp_installed",
    "read_json",
    "status_line",
    "user_settings_path",
]
