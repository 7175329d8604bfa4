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


class Deferred:
    """A function named by its module and name, imported when it is first called or
    resolved (:meth:`resolve`); calling it calls the function."""

    __slots__ = ("_found", "module", "name", "package")

    def __init__(self, module: str, name: str, package: str | None = None) -> None:
        self.module = module
        self.name = name
        self.package = package
        self._found: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        """The function, imported now if it was not yet."""
        found = self._found
        if found is None:
            found = self._found = getattr(import_module(self.module, self.package), self.name)
        return found

    def __call__(self, *args: Any) -> Any:
        return (self._found or self.resolve())(*args)

    def __repr__(self) -> str:
        return f"<deferred {self.module}:{self.name}>"


def deferred(module: str, name: str, package: str | None = None) -> Any:
    """The function ``name`` of ``module`` (relative to ``package``), imported when it is first
    called (a :class:`Deferred`, typed as the field it fills)."""
    return Deferred(module, name, package)
