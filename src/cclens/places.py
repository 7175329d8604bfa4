"""cclens's own folder for what it keeps besides the index: setup's backups, the hook's last
run, and its log file (bounded in size).

That is the user data folder (``~/.local/share/cclens`` on Linux, ``~/Library/Application
Support/cclens`` on macOS, ``%LOCALAPPDATA%\\cclens`` on Windows), where the index lives by
default too; never inside an agent's folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

if TYPE_CHECKING:  # logging is loaded when there is something to log (the hook starts often)
    import logging

#: The log file's size before it is rotated (one older file is kept): a few hundred problems.
LOG_BYTES = 256 * 1024


def data_dir() -> Path:
    """cclens's data folder (see the module's docstring); it may not exist yet."""
    return Path(platformdirs.user_data_dir("cclens", appauthor=False))


def cache_dir(name: str) -> Path:
    """``name`` in cclens's cache folder (``~/.cache/cclens`` on Linux): what only saves time
    (compiled templates, compiled lexers), safe to delete; it may not exist yet."""
    return Path(platformdirs.user_cache_dir("cclens", appauthor=False)) / name


def setup_dir() -> Path:
    """Where ``cclens setup`` keeps its backups and their manifest."""
    return data_dir() / "setup"


def hook_state_path() -> Path:
    """The file ``cclens hook`` records its last run in."""
    return data_dir() / "hook.json"


def log_path() -> Path:
    """cclens's log file."""
    return data_dir() / "cclens.log"


def logger(name: str) -> logging.Logger:
    """A logger writing to :func:`log_path` (made on first use, rotated past
    :data:`LOG_BYTES`); it never raises for a log file that cannot be written."""
    import logging
    import logging.handlers

    found = logging.getLogger(f"cclens.{name}")
    if not found.handlers:
        found.setLevel(logging.INFO)
        found.propagate = False
        try:
            log_path().parent.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.handlers.RotatingFileHandler(
                log_path(), maxBytes=LOG_BYTES, backupCount=1, encoding="utf-8"
            )
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(name)s[%(process)d] %(levelname)s %(message)s")
        )
        found.addHandler(handler)
    return found


__all__ = [
    "LOG_BYTES",
    "cache_dir",
    "data_dir",
    "hook_state_path",
    "log_path",
    "logger",
    "setup_dir",
]
