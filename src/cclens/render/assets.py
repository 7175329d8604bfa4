"""The CSS and JavaScript of session pages, and the Content-Security-Policy they are served with.

The exported file inlines both; the policy allows exactly those two inline blocks by their SHA-256
hashes (no ``'unsafe-inline'``), the web app's files under ``'self'``, and images only as
``data:`` URIs. Nothing else may load: no network request leaves an exported page.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from importlib import resources

from pygments.formatters.html import HtmlFormatter

__all__ = ["CSP", "content_security_policy", "page_css", "page_js", "static_files", "theme_js"]

#: Pygments styles for the two themes.
_LIGHT_STYLE = "default"
_DARK_STYLE = "github-dark"


def _read(name: str) -> str:
    return (resources.files("cclens.render") / "static" / name).read_text(encoding="utf-8")


def _style_defs(style: str, selector: str) -> str:
    formatter: HtmlFormatter[str] = HtmlFormatter(style=style)
    defs: str = formatter.get_style_defs(selector)  # type: ignore[no-untyped-call]
    return defs


def _pygments_css() -> str:
    light = _style_defs(_LIGHT_STYLE, ".highlight")
    dark = _style_defs(_DARK_STYLE, ":root[data-theme=dark] .highlight")
    dark_auto = _style_defs(_DARK_STYLE, ":root[data-theme=auto] .highlight")
    # The code background comes from the page's own variables, not the Pygments styles.
    strip = [
        line
        for line in (light + "\n" + dark).splitlines()
        if not line.startswith(
            (
                "pre {",
                "td.linenos",
                "span.linenos",
                ".highlight {",
                ":root[data-theme=dark] .highlight {",
            )
        )
    ]
    auto = [
        line
        for line in dark_auto.splitlines()
        if not line.startswith(
            ("pre {", "td.linenos", "span.linenos", ":root[data-theme=auto] .highlight {")
        )
    ]
    return (
        "/* Pygments: light */\n"
        + "\n".join(strip)
        + "\n@media (prefers-color-scheme: dark) {\n"
        + "\n".join(auto)
        + "\n}\n"
    )


@lru_cache(maxsize=1)
def page_css() -> str:
    """The page stylesheet: cclens.css followed by the highlighting rules of both themes."""
    return _read("cclens.css") + "\n" + _pygments_css()


@lru_cache(maxsize=1)
def page_js() -> str:
    """The page script (themes, details toggle, expanders, keys, copy button; cclens.js)
    followed by finding within the page (find.js), one script."""
    return _read("cclens.js") + "\n" + _read("find.js")


@lru_cache(maxsize=1)
def theme_js() -> str:
    """The script in the ``<head>`` that applies the remembered theme before the first paint."""
    return _read("theme.js")


def static_files() -> dict[str, bytes]:
    """The files session pages link to when not standalone: name → content."""
    return {
        "cclens.css": page_css().encode(),
        "cclens.js": page_js().encode(),
        "theme.js": theme_js().encode(),
    }


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy() -> str:
    """The policy of every session page (see the module docstring)."""
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src 'self' {_hash(page_js())} {_hash(theme_js())}",
            f"style-src 'self' {_hash(page_css())}",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


#: The Content-Security-Policy an exported page carries and the web app sends.
CSP: str = content_security_policy()
