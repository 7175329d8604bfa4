"""Images from base64 data, shown as ``data:`` URIs only for allowlisted raster types.

SVG is refused on purpose: an SVG document can carry script, so an SVG "image" from a transcript
is shown as a note instead.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from markupsafe import Markup

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["IMAGE_TYPES", "image_uri", "render_image"]

#: The image types drawn inline.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"})
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def image_uri(data: str, media_type: str) -> str | None:
    """A ``data:`` URI for ``data``, or ``None`` when the type or the data is not acceptable."""
    kind = media_type.strip().lower()
    if kind == "image/jpg":
        kind = "image/jpeg"
    if kind not in IMAGE_TYPES:
        return None
    compact = "".join(data.split())
    if not compact or not _BASE64.fullmatch(compact):
        return None
    return f"data:{kind};base64,{compact}"


def render_image(environment: Environment, data: str, media_type: str, alt: str = "") -> Markup:
    """An ``<img>`` for an allowlisted type, else a note naming the refused type."""
    uri = image_uri(data, media_type)
    template = environment.get_template("_image.html")
    size = len(data) * 3 // 4
    return Markup(template.render(uri=uri, media_type=media_type, size=size, alt=alt))
