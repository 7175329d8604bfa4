"""Names a package exports but imports only when first used, and functions a registry names
but imports only when first called.

The status line is a new process each time Claude Code redraws it, and the trace export must not
load Arrow: their packages re-export names whose modules are costly to import. Such a package
sets ``__getattr__ = lazy_names(__name__, {name: ".module", ...})`` and lists the names in
``__all__`` (and under ``TYPE_CHECKING``, for type checkers). A registry whose entries run
functions of many modules (the agents' readers, the tool catalogues, the tool views) names each
with :func:`deferred`, so that a process loads the modules of what it uses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, places: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``places`` is imported on first use
    from its module (relative to ``package``), under the same name or ``module:attribute``."""
    namespace = import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        place = places.get(name)
        if place is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = place.partition(":")
        value = getattr(import_module(module, package), attribute or name)
        namespace[name] = value
        return value

    return __getattr__


def deferred(module: str, name: str, package: str | None = None) -> Any:
    """The function ``name`` of ``module`` (relative to ``package``), imported when it is first
    called; it takes and returns what that function does."""
    found: list[Callable[..., Any]] = []

    def call(*args: Any) -> Any:
        if not found:
            found.append(getattr(import_module(module, package), name))
        return found[0](*args)

    call.__name__ = call.__qualname__ = name
    return call
