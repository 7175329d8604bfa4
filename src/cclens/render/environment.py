"""The Jinja2 environment every cclens page is drawn with: autoescaped, with display filters."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_environment
from markupsafe import Markup

from .. import formats
from .template_cache import template_cache

__all__ = ["template_environment"]


def _tag(value: Any) -> str:
    """The ``type`` tag of a model value (``"text"``, ``"web_search_tool_result"``, …)."""
    config = getattr(type(value), "__struct_config__", None)
    return str(config.tag) if config is not None and config.tag is not None else ""


@pass_environment
def _draw(environment: Environment, piece: Any) -> Markup:
    """A prepared view's piece (code, a diff, markdown, a JSON tree) as HTML."""
    # The view helpers import Pygments and markdown-it: only once something is drawn.
    from .views import draw

    return draw(environment, piece)


@lru_cache(maxsize=1)
def template_environment() -> Environment:
    """The shared environment (templates from ``cclens/render/templates``, autoescape on,
    undefined names an error)."""
    environment = Environment(
        loader=PackageLoader("cclens.render", "templates"),
        autoescape=True,
        # A name a template reads and nobody gave it is an error, not a blank: a view that
        # fails is drawn by the generic view and counted (SessionRenderer.view_failures).
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        # Templates ship with the package: checking their mtime on every include costs ~10%.
        auto_reload=False,
        # Every template stays loaded (there are ~70): a plain dict, not an LRU whose every
        # lookup reorders a queue.
        cache_size=-1,
        # Compiled templates are kept between runs (see template_cache.py).
        bytecode_cache=template_cache(),
    )
    environment.filters["duration"] = formats.duration
    environment.filters["tokens"] = formats.compact
    environment.filters["time"] = partial(formats.utc_time, seconds=True)
    environment.filters["clock"] = formats.clock
    environment.filters["plural"] = formats.plural
    environment.filters["text_size"] = formats.text_size
    environment.filters["tag"] = _tag
    environment.filters["draw"] = _draw
    return environment
