"""Projects: the folder name an agent gives a project, and which folders a name picks."""

from __future__ import annotations

import re

_NOT_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]")


def slug(path: str) -> str:
    """The folder name Claude Code gives a project: its path with every character that is not
    a letter or digit replaced by ``-``."""
    return _NOT_ALPHANUMERIC.sub("-", path)


def project_matches(folder: str, name: str) -> bool:
    """Whether the project folder ``folder`` is the project ``name``.

    ``name`` may be the folder name itself, the project's path (``/home/me/src/app``), or the
    end of its path (``app`` or ``src/app``).
    """
    wanted = slug(name.rstrip("/"))
    return folder in (name, wanted) or folder.endswith("-" + wanted.lstrip("-"))
