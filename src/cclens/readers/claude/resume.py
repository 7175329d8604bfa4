"""The command that goes back into a Claude Code session: ``claude --resume <id>``."""

from __future__ import annotations

#: The program that runs Claude Code.
CLAUDE = "claude"


def claude_argv(session_id: str, fork: bool = False, at: str | None = None) -> list[str]:
    """``claude --resume <id>`` (``--fork-session``, ``--resume-session-at=<uuid>``)."""
    arguments = [CLAUDE, "--resume", session_id]
    if fork or at:
        arguments.append("--fork-session")
    if at:
        arguments.append(f"--resume-session-at={at}")
    return arguments


__all__ = ["CLAUDE", "claude_argv"]
