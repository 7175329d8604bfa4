"""Images from base64 data, shown only for allowlisted raster types.

SVG is refused on purpose: an SVG document can carry script, so an SVG "image" from a transcript
is shown as a note instead.

An exported page carries each image as a ``data:`` URI. The web app links it instead
(:class:`ImageStore`: ``<img src="<url><digest>">``, served by the app from the session it drew),
so that opening a call with a screenshot puts a line of HTML in the page, not a megabyte of
base64, and the browser keeps the image once fetched.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import threading
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["IMAGE_TYPES", "ImageStore", "image_uri", "render_image"]

#: The image types drawn inline.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"})
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def _acceptable(data: str, media_type: str) -> tuple[str, str] | None:
    """The allowlisted type and the base64 without whitespace, or ``None``."""
    kind = media_type.strip().lower()
    if kind == "image/jpg":
        kind = "image/jpeg"
    if kind not in IMAGE_TYPES:
        return None
    compact = "".join(data.split())
    if not compact or not _BASE64.fullmatch(compact):
        return None
    return kind, compact


def image_uri(data: str, media_type: str) -> str | None:
    """A ``data:`` URI for ``data``, or ``None`` when the type or the data is not acceptable."""
    found = _acceptable(data, media_type)
    return f"data:{found[0]};base64,{found[1]}" if found else None


class ImageStore:
    """The images of the pages one renderer drew, by digest, for a server to answer
    ``<url><digest>`` with (see the module docstring). Safe to share between threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._images: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def link(self, data: str, media_type: str) -> str | None:
        """The URL of ``data`` (kept until asked for), or ``None`` when it is not acceptable."""
        found = _acceptable(data, media_type)
        if found is None:
            return None
        digest = hashlib.sha256(found[1].encode("ascii")).hexdigest()[:32]
        with self._lock:
            self._images.setdefault(digest, found)
        return f"{self.url}{digest}"

    def get(self, digest: str) -> tuple[bytes, str] | None:
        """The bytes and media type of the image ``digest`` names, or ``None``."""
        with self._lock:
            found = self._images.get(digest)
        if found is None:
            return None
        try:
            return base64.b64decode(found[1]), found[0]
        except (binascii.Error, ValueError):  # padding the allowlist's pattern let through
            return None


def render_image(
    environment: Environment,
    data: str,
    media_type: str,
    alt: str = "",
    store: ImageStore | None = None,
) -> Markup:
    """An ``<img>`` for an allowlisted type, else a note naming the refused type: with a
    ``data:`` URI, or linked through ``store`` when given."""
    uri = store.link(data, media_type) if store is not None else image_uri(data, media_type)
    template = environment.get_template("_image.html")
    size = len(data) * 3 // 4
    return Markup(template.render(uri=uri, media_type=media_type, size=size, alt=alt))
