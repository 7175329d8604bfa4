"""How a session page is rendered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..figures.counts import SessionCounts

__all__ = ["DEFAULT_OPTIONS", "THEMES", "RenderOptions"]

#: ``auto`` follows the reader's system setting (``prefers-color-scheme``).
THEMES = ("auto", "light", "dark")


@dataclass(frozen=True)
class RenderOptions:
    """Options of :func:`cclens.render.render_session_page` and friends.

    ``standalone``: inline the CSS, JavaScript and images so the page is one file that works
    offline (export); ``False`` links ``{static_url}/cclens.css`` and ``cclens.js`` (web app).
    ``theme``: ``auto``, ``light`` or ``dark``. ``show_branches``: draw abandoned branches (rewinds,
    edited prompts) as openable blocks at their fork point. ``title_suffix`` is appended to the
    document title (``" · cclens"``). ``lazy``: what is folded (tool bodies, subagent
    conversations, records' JSON, thinking, branches, the later chunks of a long session) is kept
    apart and drawn when opened (see :mod:`cclens.render.parts`); ``False`` draws everything in
    place. ``chunk_items``: how many items of the conversation one chunk holds (the first is drawn
    with the page, the others as the reader scrolls to them). ``embed_parts``: the page carries
    every folded part, compressed (default: when ``standalone``; the pages of a bulk export link
    shared CSS and JavaScript but carry their parts). ``counts``: the session's figures as the
    index counts them (each response, call and prompt once across the sessions of a project,
    see :mod:`cclens.figures.counts`), shown in the header instead of the session counted on
    its own. ``workers``: processes that draw
    an exported page's folded parts (:mod:`cclens.render.part_workers`; forked on Linux, the
    page is the same byte for byte); 1 draws them in this process. ``images_url``: link images
    as ``<images_url><digest>`` (the web app serves them from ``SessionRenderer.images``) instead
    of inlining them as ``data:`` URIs; not for a standalone page. ``theme_button``: the page's
    toolbar has a theme switch (the web app has one for every page in its top bar instead).
    ``app_keys``: the page is in the web app, whose keys (search every session, the sessions of
    the list you came from) its list of keys names too.
    """

    standalone: bool = True
    static_url: str = "/static"
    theme: str = "auto"
    show_branches: bool = True
    title_suffix: str = ""
    lazy: bool = True
    chunk_items: int = 40
    embed_parts: bool | None = None
    counts: SessionCounts | None = None
    workers: int = 1
    images_url: str | None = None
    theme_button: bool = True
    app_keys: bool = False

    def __post_init__(self) -> None:
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {self.theme!r}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")


#: The options used when none are given.
DEFAULT_OPTIONS = RenderOptions()
