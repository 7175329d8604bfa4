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


def own_assets() -> dict[str, Asset]:
    """The app's own files from ``cclens/web/static``."""
    folder = files("cclens.web") / "static"
    return {
        entry.name: asset(entry.name, entry.read_bytes())
        for entry in folder.iterdir()
        if entry.is_file() and not entry.name.startswith(".")
    }


def renderer_assets(contents: dict[str, bytes]) -> dict[str, Asset]:
    """The session renderer's files (served under ``/static/render/``)."""
    return {name: asset(name, content) for name, content in contents.items()}
