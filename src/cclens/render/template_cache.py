"""Compiled templates kept on disk between runs, as Python keeps ``.pyc`` files.

Compiling the ~70 page templates costs about 0.2 s of CPU in every new process (and in every
worker of a bulk export); loading them compiled costs about 0.01 s. Jinja's own
:class:`~jinja2.FileSystemBytecodeCache` does the work: entries are keyed by template name and
checked against the template source's checksum and the Python version, so a changed template or
interpreter is simply compiled again, and files are written atomically (several processes may
share the folder). The folder is ``cclens/templates`` in the user's cache directory
(``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux). A cache that cannot be read or written is
skipped: it only ever costs speed.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from jinja2.bccache import Bucket, FileSystemBytecodeCache

from ..places import cache_dir

__all__ = ["TemplateCache", "default_template_cache_dir", "template_cache"]


def default_template_cache_dir() -> Path:
    """``templates`` under the user's cache directory for cclens."""
    return cache_dir("templates")


class TemplateCache(FileSystemBytecodeCache):
    """A bytecode cache that never fails a render: read and write errors count as misses."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        # A damaged or unreadable entry is a miss: the template is compiled again.
        except Exception:
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def template_cache(directory: Path | None = None) -> TemplateCache | None:
    """A cache in ``directory`` (default: :func:`default_template_cache_dir`), created private
    to the user; ``None`` when the folder cannot be made."""
    folder = directory or default_template_cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not os.access(folder, os.W_OK | os.X_OK):
            return None
    except OSError:
        return None
    return TemplateCache(str(folder))
