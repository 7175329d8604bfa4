"""Lexers' token tables built from compiled expressions kept on disk (render/lexer_cache.py): the
same patterns and the same tokens as Pygments' own, whatever state the cache is in."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from pygments.lexer import Lexer, RegexLexer, words
from pygments.lexers import find_lexer_class

from cclens.render import lexer_cache
from cclens.render.lexer_cache import compiled_pattern, lexer_cache_dir, prepare

from .conftest import ROOT

#: Languages a session shows most, each with real text of this repository to lex.
SAMPLES = {
    "Python": ROOT / "src/cclens/render/lexer_cache.py",
    "HTML": ROOT / "src/cclens/render/templates/page.html",
    "CSS": ROOT / "src/cclens/render/static/cclens.css",
    "JavaScript": ROOT / "src/cclens/render/static/cclens.js",
    "Markdown": ROOT / "README.md",
    "Bash": ROOT / "scripts/test.sh",
    "TOML": ROOT / "pyproject.toml",
}


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def fresh(name: str) -> type[Lexer]:
    """A class of the Pygments lexer ``name`` whose token table is not built yet (a subclass
    adds nothing to the table; its name and module are the same for every call)."""
    base = find_lexer_class(name)
    assert base is not None
    cls = type(base.__name__, (base,), {"__module__": "tests.fresh", "__qualname__": name})
    assert "_tokens" not in cls.__dict__
    return cls


def tokens(cls: type[Lexer], text: str) -> list[tuple[Any, str]]:
    return list(cls(stripnl=False, stripall=False, ensurenl=False).get_tokens(text))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_tables_from_the_cache_lex_as_pygments_does(name: str) -> None:
    text = SAMPLES[name].read_text(encoding="utf-8")
    stock = find_lexer_class(name)
    assert stock is not None
    expected = tokens(stock, text)
    written = fresh(name)
    prepare(written)  # compiled, then stored
    assert (lexer_cache_dir() / f"tests.fresh.{name}.marshal").is_file()
    read = fresh(name)
    prepare(read)  # built from the cache
    assert tokens(written, text) == expected
    assert tokens(read, text) == expected
    for state, rules in stock._tokens.items():  # type: ignore[attr-defined]
        ours = read._tokens[state]  # type: ignore[attr-defined]
        assert [(r[0].__self__.pattern, r[0].__self__.flags, r[1], r[2]) for r in ours] == [
            (r[0].__self__.pattern, r[0].__self__.flags, r[1], r[2]) for r in rules
        ]


def test_a_second_process_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    prepare(fresh("Python"))

    def parse(*args: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(lexer_cache, "_entry", parse)
    monkeypatch.setattr(words, "get", parse)  # no words() list made an expression again
    again = fresh("Python")
    prepare(again)
    assert tokens(again, "def f(x):\n    return x  # done\n")[0][1] == "def"


def test_a_damaged_cache_is_compiled_again_and_rewritten() -> None:
    prepare(fresh("Python"))
    path = lexer_cache_dir() / "tests.fresh.Python.marshal"
    path.write_bytes(b"\x00damaged")
    text = SAMPLES["Python"].read_text(encoding="utf-8")
    stock = find_lexer_class("Python")
    assert stock is not None
    again = fresh("Python")
    prepare(again)
    assert tokens(again, text) == tokens(stock, text)
    assert path.read_bytes() != b"\x00damaged"


def test_a_damaged_entry_is_compiled_again() -> None:
    entries: dict[Any, Any] = {("a(b)c", 32): (32, [1, 2, 3], 1, {}, (None, None))}
    pattern = compiled_pattern("a(b)c", 32, entries)
    assert pattern.match("abc") is not None and pattern.groups == 1
    assert entries[("a(b)c", 32)][1] != [1, 2, 3]


def test_a_cache_that_cannot_be_written_is_skipped(cache_home: Path) -> None:
    cache_home.parent.mkdir(parents=True, exist_ok=True)
    cache_home.write_text("a file where the folder would be")
    cls = fresh("Bash")
    prepare(cls)
    assert tokens(cls, "echo hi\n")[0][1] == "echo"


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        (r"(?P<name>[a-z]+)\s*=\s*(\d+)", 0),
        (r"(?<=x)y+|z{2,3}?", re.MULTILINE),
        (r"(?i)select\b", 0),
        (r"[^\W\d_]+|\$\{[^}]*\}", re.DOTALL | re.VERBOSE),
        ("", 0),
    ],
)
def test_compiled_pattern_is_re_compile(pattern: str, flags: int) -> None:
    ours = compiled_pattern(pattern, flags, {})
    theirs = re.compile(pattern, flags)
    assert (ours.pattern, ours.flags, ours.groups, ours.groupindex) == (
        theirs.pattern,
        theirs.flags,
        theirs.groups,
        theirs.groupindex,
    )
    for text in ["name = 42", "xyyy zz", "SELECT 1", "word ${x}", ""]:
        found, expected = ours.match(text), theirs.match(text)
        assert (found and found.groups()) == (expected and expected.groups())


def test_other_lexers_are_left_to_pygments(cache_home: Path) -> None:
    json = find_lexer_class("JSON")  # hand-written, not a RegexLexer
    assert json is not None and not issubclass(json, RegexLexer)
    prepare(json)
    assert not cache_home.exists()


def test_threads_building_one_table_get_pygments_tokens() -> None:
    cls = fresh("Python")
    stock = find_lexer_class("Python")
    assert stock is not None
    errors: list[BaseException] = []

    def build() -> None:
        try:
            prepare(cls)
        except BaseException as error:  # pragma: no cover - the failure this test looks for
            errors.append(error)

    threads = [threading.Thread(target=build) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert "_process_regex" not in cls.__dict__
    text = SAMPLES["Python"].read_text(encoding="utf-8")
    assert tokens(cls, text) == tokens(stock, text)
