"""The package re-exports its public API with a sorted ``__all__``."""

from __future__ import annotations

import importlib
import pkgutil

import cclens.permissions as permissions


def _isort_key(name: str) -> tuple[int, str]:
    # The order ruff (RUF022) and isort use: CONSTANTS, then Classes, then functions.
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


def test_all_is_sorted_and_resolves() -> None:
    assert permissions.__all__ == sorted(permissions.__all__, key=_isort_key)
    for name in permissions.__all__:
        assert hasattr(permissions, name), name


def test_entry_points_are_exported_and_every_module_imports() -> None:
    for entry in ("evaluate", "suggest", "rule_matches", "parse_rule", "load_settings"):
        assert entry in permissions.__all__
    for module in pkgutil.iter_modules(permissions.__path__):
        importlib.import_module(f"cclens.permissions.{module.name}")


def test_public_functions_have_docstrings() -> None:
    for name in permissions.__all__:
        value = getattr(permissions, name)
        if callable(value) and getattr(value, "__module__", "").startswith("cclens."):
            assert value.__doc__, name
