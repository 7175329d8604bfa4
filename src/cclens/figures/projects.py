"""Projects: the folder name an agent gives a project, and which folders a name picks."""

from __future__ import annotations

from ..readers.discovery import slug

__all__ = ["project_matches", "slug"]


def project_matches(folder: str, name: str) -> bool:
    """Whether the project folder ``folder`` is the project ``name``.

    ``name`` may be the folder name itself, the project's path (``/home/me/src/app``), or the
    end of its path (``app`` or ``src/app``).
    """
    wanted = slug(name.rstrip("/"))
    return folder in (name, wanted) or folder.endswith("-" + wanted.lstrip("-"))
