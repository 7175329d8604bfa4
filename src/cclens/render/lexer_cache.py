"""Pygments lexers' token expressions kept on disk between runs, compiled.

A Pygments ``RegexLexer`` compiles its token table (hundreds of regular expressions) the first
time it is used in a process: about 20 ms for Python or CSS, 100 ms for the languages of a real
session, paid again by every worker that draws parts (:mod:`cclens.render.part_workers`).
Python's ``re`` compiles an expression in two steps, parsing and code generation (pure Python,
nearly all the cost), then ``_sre.compile`` (C) builds the pattern from the code. The code is
kept here: one file per lexer class, mapping each expression and its flags to what
``_sre.compile`` takes, so a later process builds the very same patterns without parsing them;
and each ``words()`` list to the expression Pygments makes of it (``regex_opt``, as costly).

Entries are keyed by the expression's text and flags; the folder by the Python version, the
regular expression engine's ``MAGIC`` and the Pygments version, so another interpreter or
Pygments compiles anew. Files are written whole and renamed into place (processes may share the
folder). An entry that cannot be read is compiled again; a folder that cannot be written is
skipped: the cache only ever costs speed. It lives in ``cclens/lexers`` in the user's cache
directory (beside the compiled templates, :mod:`cclens.render.template_cache`).
"""

from __future__ import annotations

import marshal
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

import pygments
from pygments.lexer import Lexer, RegexLexerMeta, words
from pygments.util import Future

from ..places import cache_dir

__all__ = ["compiled_pattern", "lexer_cache_dir", "prepare"]

#: The C half of ``re`` (``re._compiler`` calls it the same).
_sre: Any = _compiler._sre
#: Held while a class's table is built: the method set on the class for that time is its own.
_BUILDING = threading.Lock()

#: What ``_sre.compile`` takes after the expression: flags, code, group count, group names.
_Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def lexer_cache_dir() -> Path:
    """The folder of this interpreter's and this Pygments's compiled token tables."""
    version = "{}.{}.{}".format(*sys.version_info[:3])
    return cache_dir("lexers") / f"{version}-{_sre.MAGIC}-pygments-{pygments.__version__}"


def _entry(pattern: str, flags: int) -> _Entry:
    """What ``re.compile(pattern, flags)`` gives ``_sre.compile`` (``re._compiler.compile``)."""
    parsed = _parser.parse(pattern, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    code = [int(op) for op in _compiler._code(parsed, flags)]
    return (
        int(flags | parsed.state.flags),
        code,
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def compiled_pattern(pattern: str, flags: int, entries: dict[Any, Any]) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, built from ``entries`` when they hold it (added when
    not)."""
    key = (pattern, flags)
    entry = entries.get(key)
    if entry is not None:
        try:
            built: re.Pattern[str] = _sre.compile(pattern, *entry)
            return built
        except Exception:  # a damaged entry (the engine checks the code): compiled again
            pass
    entry = _entry(pattern, flags)
    entries[key] = entry
    built = _sre.compile(pattern, *entry)
    return built


def _words_pattern(found: words, entries: dict[Any, Any]) -> str:
    """The expression of a ``words()`` list (Pygments' ``regex_opt``: as costly as compiling
    it), from ``entries`` when they hold it (added when not). ``regex_opt`` sorts the words
    first, so the sorted words are the key."""
    try:
        key = ("words", tuple(sorted(found.words)), found.prefix, found.suffix)
    except TypeError:  # words that do not sort: not kept
        return str(found.get())  # type: ignore[no-untyped-call]
    pattern = entries.get(key)
    if not isinstance(pattern, str):
        pattern = str(found.get())  # type: ignore[no-untyped-call]
        entries[key] = pattern
    return pattern


def _file(cls: type) -> Path:
    return lexer_cache_dir() / f"{cls.__module__}.{cls.__qualname__}.marshal"


def _load(path: Path) -> dict[Any, Any]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _save(path: Path, entries: dict[Any, Any]) -> None:
    from ..files import write_file  # only when something new was compiled

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_file(path, marshal.dumps(entries))
    except (OSError, ValueError):
        return


def prepare(cls: type[Lexer]) -> None:
    """Give the ``RegexLexer`` class ``cls`` its token table from the cache (what Pygments
    builds on its first instance), compiling and storing what the cache lacks.

    Does nothing for a lexer that is not a plain ``RegexLexer`` (its own way of compiling, token
    variants) or whose table is built already; on any failure Pygments builds the table itself
    on the first instance, as it always does.
    """
    if not isinstance(cls, RegexLexerMeta) or "_tokens" in cls.__dict__:
        return
    if getattr(cls, "token_variants", False):
        return
    if any("_process_regex" in vars(klass) for klass in cls.__mro__):
        return  # a lexer that compiles its expressions its own way
    with _BUILDING:  # one table at a time (the web app draws pages on several threads)
        if "_tokens" not in cls.__dict__:
            _build(cls)


def _build(cls: type[Lexer]) -> None:
    """Build ``cls``'s token table as Pygments does, its expressions taken from the cache."""
    path = _file(cls)
    entries = _load(path)
    known = len(entries)

    def process_regex(regex: Any, rflags: int, state: str) -> Callable[..., Any]:
        # RegexLexerMeta._process_regex, with the compiled code from the cache.
        if isinstance(regex, words):
            regex = _words_pattern(regex, entries)
        elif isinstance(regex, Future):
            regex = regex.get()  # type: ignore[func-returns-value]
        if not isinstance(regex, str):
            return re.compile(regex, rflags).match
        return compiled_pattern(regex, int(rflags), entries).match

    # Found on the class before the metaclass's method, while the table is built (the
    # metaclass's __call__ does the same two steps before the first instance).
    cls._process_regex = staticmethod(process_regex)  # type: ignore[attr-defined]
    try:
        cls._all_tokens = {}  # type: ignore[attr-defined]
        cls._tmpname = 0  # type: ignore[attr-defined]
        tokens = cls.process_tokendef("", cls.get_tokendefs())  # type: ignore[attr-defined]
    except Exception:
        return  # built by Pygments on the first instance instead
    finally:
        del cls._process_regex  # type: ignore[attr-defined]
    cls._tokens = tokens  # type: ignore[attr-defined]
    if len(entries) != known:
        _save(path, entries)
