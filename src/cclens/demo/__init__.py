"""A few real Claude Code sessions bundled with cclens, for ``cclens serve --demo``.

The folder is laid out like a Claude config folder (``projects/<project>/<session>.jsonl``,
subagents under ``<session>/subagents/``); ``SOURCES.txt`` says where each file comes from.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def demo_dir() -> Path:
    """The bundled demo folder (read-only: it is indexed, never written)."""
    return Path(str(files(__name__)))


__all__ = ["demo_dir"]
