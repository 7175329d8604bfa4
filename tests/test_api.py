"""The public API: everything in ``__all__`` exists, is sorted, and public names are exported."""

from __future__ import annotations

import importlib
import inspect

import pytest

import cclens

PACKAGES = [
    "cclens",
    "cclens.dataset",
    "cclens.demo",
    "cclens.export",
    "cclens.index",
    "cclens.model",
    "cclens.model.tools",
    "cclens.otel",
    "cclens.readers.claude",
    "cclens.permissions",
    "cclens.redact",
    "cclens.render",
    "cclens.web",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    # isort style, as ruff's RUF022 keeps it: CONSTANTS, then Classes, then functions
    assert exported == sorted(exported, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    for item in exported:
        assert hasattr(module, item), f"{name}.{item} is in __all__ but missing"


def test_parse_exports_every_public_session_type() -> None:
    from cclens.model import session

    public = {
        name
        for name, value in vars(session).items()
        if inspect.isclass(value) and value.__module__ == session.__name__ and name[0] != "_"
    }
    missing = public - set(importlib.import_module("cclens.readers.claude").__all__)
    assert missing <= {"ToolStatus", "UserKind", "TitleSource"}, missing


def test_library_api_from_the_readme(corpus: object) -> None:
    from pathlib import Path

    assert isinstance(corpus, Path)
    found = cclens.discover(corpus / "simonw__claude-code-transcripts")
    (file,) = found.sessions
    session = cclens.load(file)
    assert session.session_id == "sample_session"
    assert session.tool_calls
    same = cclens.load_session(file.path)
    assert [i.anchor for i in same.items] == [i.anchor for i in session.items]
