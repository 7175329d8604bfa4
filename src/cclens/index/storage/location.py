"""Where the index lives, and the rule that it never lives inside Claude Code's folders."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import platformdirs

#: The environment variable that names the index file (``--db`` wins over it).
ENVIRONMENT_VARIABLE = "CCLENS_DB"
DEFAULT_NAME = "index.db"


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$CCLENS_DB`` when set, else ``index.db`` in the user's data directory.

    That is ``~/.local/share/cclens/index.db`` on Linux, ``~/Library/Application Support/cclens``
    on macOS and ``%LOCALAPPDATA%\\cclens`` on Windows.
    """
    environ = os.environ if environ is None else environ
    configured = environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir("cclens", appauthor=False)) / DEFAULT_NAME


def protected_dirs(claude_dirs: Iterable[Path], home: Path | None = None) -> list[Path]:
    """Folders cclens must never write into: the Claude dirs given, and ``~/.claude``."""
    home = Path.home() if home is None else home
    found = [Path(d).expanduser() for d in claude_dirs]
    found.append(home / ".claude")
    return found


def inside(path: Path, folders: Iterable[Path]) -> Path | None:
    """The first of ``folders`` that holds ``path`` (symlinks resolved), or ``None``."""
    target = path.expanduser().resolve()
    for folder in folders:
        resolved = folder.expanduser().resolve()
        if target == resolved or target.is_relative_to(resolved):
            return folder
    return None


class WriteRefused(ValueError):
    """cclens was asked to write inside a folder Claude Code owns."""


def refuse_inside(path: Path, claude_dirs: Iterable[Path], what: str) -> None:
    """Raise :class:`WriteRefused` when ``path`` is inside a Claude Code folder."""
    folder = inside(path, protected_dirs(claude_dirs))
    if folder is not None:
        raise WriteRefused(
            f"refusing to write the {what} at {path}: it is inside {folder}, which belongs to "
            "Claude Code (cclens never writes there); choose another location"
        )
