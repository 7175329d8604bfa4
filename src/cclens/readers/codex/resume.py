"""The commands that take you back into a Codex CLI thread.

What the ``codex`` command line accepts (``codex-rs/cli/src/main.rs`` of openai/codex):
``codex resume <SESSION_ID>`` continues a thread, appending to its rollout file;
``codex fork <SESSION_ID>`` continues in a new thread with a copy of the history, leaving the
original untouched. Codex cannot fork at a given message.
"""

from __future__ import annotations

#: The program that runs Codex CLI.
CODEX = "codex"


def resume_argv(session_id: str, fork: bool = False, at: str | None = None) -> list[str]:
    """``codex resume <id>``, or ``codex fork <id>`` (``at`` is refused: Codex cannot fork at a
    message)."""
    if at is not None:
        raise ValueError("Codex CLI cannot fork a session at a message; fork it whole")
    return [CODEX, "fork" if fork else "resume", session_id]
