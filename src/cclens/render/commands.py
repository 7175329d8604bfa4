"""Slash commands, shell escapes (``!cmd``) and their output, read from the tags Claude Code
wraps them in (``<command-name>``, ``<command-args>``, ``<local-command-stdout>``, ``<bash-input>``,
``<bash-stdout>``, ``<bash-stderr>``)."""

from __future__ import annotations

import re

import msgspec

from .events import strip_ansi

__all__ = ["CommandOutput", "CommandView", "parse_command", "parse_command_output"]

_TAG = re.compile(r"<(?P<tag>[a-z-]+)>(?P<body>.*?)</(?P=tag)>", re.DOTALL)


def _tags(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _TAG.finditer(text):
        found.setdefault(match.group("tag"), match.group("body"))
    return found


class CommandView(msgspec.Struct, frozen=True):
    """A slash command (``/name args``) or a shell escape (``!command``) the user typed.

    ``contents`` is the expanded prompt some commands record (``<command-contents>``).
    """

    name: str
    args: str
    message: str
    contents: str
    shell: bool

    @property
    def line(self) -> str:
        """The command as the user typed it."""
        if self.shell:
            return f"! {self.args}"
        name = self.name if self.name.startswith("/") else f"/{self.name}"
        return f"{name} {self.args}".strip()


class CommandOutput(msgspec.Struct, frozen=True):
    """What a local command or shell escape printed (terminal escapes removed)."""

    stdout: str
    stderr: str


def parse_command(text: str) -> CommandView | None:
    """The command in a user message, or ``None`` when it holds none."""
    tags = _tags(text)
    if "bash-input" in tags:
        return CommandView("!", tags["bash-input"].strip(), "", "", True)
    if "command-name" not in tags:
        return None
    return CommandView(
        tags["command-name"].strip(),
        tags.get("command-args", "").strip(),
        tags.get("command-message", "").strip(),
        tags.get("command-contents", "").strip(),
        False,
    )


def parse_command_output(text: str) -> CommandOutput:
    """The output in a command-output message; the whole text as stdout when it has no tags."""
    tags = _tags(text)
    stdout = tags.get("local-command-stdout", tags.get("bash-stdout"))
    stderr = tags.get("local-command-stderr", tags.get("bash-stderr", ""))
    if stdout is None and not stderr:
        stdout = text
    return CommandOutput(strip_ansi(stdout or "").strip("\n"), strip_ansi(stderr).strip("\n"))
