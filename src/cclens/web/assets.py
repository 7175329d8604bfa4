"""Static files, read once into memory: a request names a key in a map, never a path."""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from importlib.resources import files

_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".woff2": "font/woff2",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file: its bytes, content type and a validator for caches."""

    content: bytes
    content_type: str
    etag: str


def asset(name: str, content: bytes) -> Asset:
    """Wrap ``content`` served under ``name``."""
    suffix = "." + name.rsplit(".", 1)[-1] if "." in name else ""
    content_type = _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    etag = '"' + hashlib.sha256(content).hexdigest()[:16] + '"'
    return Asset(content, content_type, etag)


#: Folders of ``static`` served too (``/static/vendor/{name}``): third-party libraries.
SUBFOLDERS = ("vendor",)


def own_assets() -> dict[str, Asset]:
    """The app's own files from ``cclens/web/static``, and its vendored libraries (keyed
    ``vendor/<name>``)."""
    folder = files("cclens.web") / "static"
    found: dict[str, Asset] = {}
    for prefix, place in [("", folder), *((f"{sub}/", folder / sub) for sub in SUBFOLDERS)]:
        for entry in place.iterdir():
            if entry.is_file() and not entry.name.startswith("."):
                found[prefix + entry.name] = asset(entry.name, entry.read_bytes())
    return found


def renderer_assets(contents: dict[str, bytes]) -> dict[str, Asset]:
    """The session renderer's files (served under ``/static/render/``)."""
    return {name: asset(name, content) for name, content in contents.items()}
