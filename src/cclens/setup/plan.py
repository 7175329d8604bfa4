"""What ``cclens setup`` would change, worked out before anything is written.

:func:`plan_setup` reads Claude Code's settings and returns a :class:`SetupPlan`: the new text
of each file it would change (shown as a unified diff before asking), the MCP server to add
and what to say about the rest. Planning twice on the result plans nothing: every step first
looks whether it is done already.
"""

from __future__ import annotations

import difflib
import json
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from . import jsonedit
from .claude_settings import (
    HOOK_EVENTS,
    check_shapes,
    cleanup_days,
    hook_installed,
    mcp_config_path,
    mcp_installed,
    read_json,
    status_line,
    user_settings_path,
)

#: What to do with a status line command of the user's own: run it and add cclens's line after
#: its output, leave it as it is, or put cclens's in its place.
StatusLineChoice = Literal["chain", "keep", "replace"]
STATUS_LINE_CHOICES: tuple[StatusLineChoice, ...] = ("chain", "keep", "replace")
#: Seconds Claude Code gives the hook before it stops waiting (``cclens hook`` stops itself
#: well before: see :data:`cclens.setup.hook.DEADLINE`).
HOOK_TIMEOUT = 30


def cclens_program() -> str:
    """How settings should start cclens: ``cclens`` when it is on the PATH, else this Python
    running the package."""
    if shutil.which("cclens"):
        return "cclens"
    return f"{shlex.quote(sys.executable)} -m cclens"


@dataclass(frozen=True, slots=True)
class SetupOptions:
    """What the person chose. ``program`` starts cclens (see :func:`cclens_program`); ``db``
    is the index the installed commands use (``None``: their default); ``keep_days`` raises
    ``cleanupPeriodDays`` to that many days when it is lower (``None``: left alone)."""

    program: str = "cclens"
    db: Path | None = None
    status_line: StatusLineChoice = "chain"
    keep_days: int | None = None
    mcp: bool = True

    def command(self, subcommand: str, *extra: str) -> str:
        """The command line that runs ``cclens <subcommand>`` with this index."""
        words = [self.program, subcommand]
        if self.db is not None:
            words.append(f"--db {shlex.quote(str(self.db))}")
        words.extend(extra)
        return " ".join(words)


@dataclass(slots=True)
class FileChange:
    """A file setup would write: its text before (``None``: the file does not exist) and
    after, and what the change is for."""

    path: Path
    before: str | None
    after: str
    reasons: list[str] = field(default_factory=list)

    def diff(self) -> str:
        """The change as a unified diff."""
        name = str(self.path)
        lines = difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile="/dev/null" if self.before is None else name,
            tofile=name,
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(slots=True)
class McpStep:
    """The MCP server to add: the command that adds it, and whether ``claude`` is here to run
    it (else the person is told to)."""

    command: list[str]
    runnable: bool

    @property
    def shell(self) -> str:
        return shlex.join(self.command)


@dataclass(slots=True)
class SetupPlan:
    """Everything setup would do; ``notes`` say what is already there and what was left."""

    changes: list[FileChange] = field(default_factory=list)
    mcp: McpStep | None = None
    notes: list[str] = field(default_factory=list)
    keep_days: float = 30.0
    keep_days_set: bool = False


def _hook_group(options: SetupOptions) -> dict[str, object]:
    return {
        "hooks": [{"type": "command", "command": options.command("hook"), "timeout": HOOK_TIMEOUT}]
    }


def plan_setup(folder: Path, options: SetupOptions, *, claude: str | None = None) -> SetupPlan:
    """What setup would change in Claude Code's configuration ``folder``. ``claude``: the
    ``claude`` program when it is on the PATH. Raises
    :class:`~cclens.setup.claude_settings.SettingsError` for a settings file it cannot edit
    (nothing is planned then)."""
    path = user_settings_path(folder)
    before, settings = read_json(path)
    check_shapes(path, settings)
    plan = SetupPlan()
    text = before if before is not None and before.strip() else "{}"
    reasons: list[str] = []

    for event in HOOK_EVENTS:
        if hook_installed(settings, event):
            plan.notes.append(f"The {event} hook already runs cclens hook.")
        else:
            text = jsonedit.append_item(text, ["hooks", event], _hook_group(options))
            reasons.append(f"a {event} hook that archives the session: {options.command('hook')}")

    line = status_line(settings)
    ours = options.command("statusline")
    if line is None:
        text = jsonedit.set_key(text, ["statusLine"], {"type": "command", "command": ours})
        reasons.append(f"the status line: {ours}")
    elif line.command is None:
        text = jsonedit.set_key(text, ["statusLine", "type"], "command")
        text = jsonedit.set_key(text, ["statusLine", "command"], ours)
        reasons.append(f"the status line: {ours}")
    elif line.ours:
        plan.notes.append(f"The status line is cclens's already ({line.command}).")
    elif options.status_line == "keep":
        plan.notes.append(f"Your status line is kept as it is ({line.command}).")
    else:
        if options.status_line == "chain":
            command = options.command("statusline", "--chain", shlex.quote(line.command))
            reasons.append(f"the status line: yours ({line.command}), then cclens's")
        else:
            command = ours
            reasons.append(f"the status line: cclens's in place of yours ({line.command})")
        text = jsonedit.set_key(text, ["statusLine", "command"], command)

    days, said = cleanup_days(settings)
    plan.keep_days, plan.keep_days_set = days, said
    if options.keep_days is not None and days < options.keep_days:
        text = jsonedit.set_key(text, ["cleanupPeriodDays"], options.keep_days)
        reasons.append(
            f"cleanupPeriodDays {options.keep_days}: transcripts kept {options.keep_days} days "
            f"after their last activity instead of {days:g}"
        )

    if reasons:
        if before is None or not before.strip():  # a new file, laid out as Claude Code would
            text = jsonedit.new_text(json.loads(text))
        elif "\r\n" in before:  # the lines added end as the file's others do
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        plan.changes.append(FileChange(path, before, text, reasons))

    if options.mcp:
        _, claude_json = read_json(mcp_config_path(folder))
        if mcp_installed(claude_json):
            plan.notes.append("The cclens MCP server is in Claude Code's user settings already.")
        else:
            server = [*shlex.split(options.program), "mcp"]
            if options.db is not None:
                server += ["--db", str(options.db)]
            plan.mcp = McpStep(
                [claude or "claude", "mcp", "add", "--scope", "user", "cclens", "--", *server],
                runnable=claude is not None,
            )
    return plan


__all__ = [
    "HOOK_TIMEOUT",
    "STATUS_LINE_CHOICES",
    "FileChange",
    "McpStep",
    "SetupOptions",
    "SetupPlan",
    "StatusLineChoice",
    "cclens_program",
    "plan_setup",
]
