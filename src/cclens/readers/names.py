"""The names of the agents cclens reads, in the order they are shown: all that a command's
options and help need (:mod:`cclens.readers.agents`, the registry, loads the readers)."""

from __future__ import annotations

AGENTS: tuple[str, ...] = ("claude", "codex", "gemini", "copilot")

__all__ = ["AGENTS"]
