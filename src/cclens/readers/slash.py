"""A slash command typed to an agent, written as Claude Code writes one.

Claude Code records ``/compact now`` as ``<command-name>/compact</command-name>``,
``<command-message>``, ``<command-args>``; every surface tells a command from a prompt by those
tags. Gemini CLI and Copilot CLI record the line as typed: their readers write it in the same
form, so a command is never counted or titled as a prompt.
"""

from __future__ import annotations


def command_text(text: str) -> str:
    """``text`` (``/stats model``) as Claude Code's command tags."""
    name, _, arguments = text.strip().partition(" ")
    return (
        f"<command-name>{name}</command-name>\n"
        f"<command-message>{name.lstrip('/')}</command-message>\n"
        f"<command-args>{arguments.strip()}</command-args>"
    )


__all__ = ["command_text"]
