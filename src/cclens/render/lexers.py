"""Pygments lexers found by language name or file name, from tables built once per process.

``pygments.lexers.get_lexer_for_filename`` tests every file pattern of every lexer (about 1,500
globs, each compiled to a regex) on each call, and then loads the plugin lexers, which imports
IPython where it is installed: a third of a second before the first line is drawn. Here the
patterns are indexed once: exact names and ``*.ext`` patterns go into dictionaries, and only the
few patterns with other wildcards are matched one by one. The choice among several lexers that
claim a name is Pygments' own (priority, a bonus for an exact name, then class name). Only
Pygments' built-in lexers are used: a page should not depend on which plugins happen to be
installed, and looking them up costs more than the rest.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from pygments.lexer import Lexer
from pygments.lexers import find_lexer_class, get_all_lexers

from .lexer_cache import prepare

__all__ = ["lexer_by_filename", "lexer_by_name", "lexer_for", "set_up"]

#: Names people put after ``` that Pygments does not know by that name.
LANGUAGE_ALIASES = {
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "console": "bash",
    "jsonl": "json",
}

_WILDCARDS = re.compile(r"[*?\[]")


@dataclass
class _Tables:
    """Every built-in lexer's aliases and file patterns, indexed for lookup."""

    #: alias (lower case) → lexer name
    aliases: dict[str, str] = field(default_factory=dict)
    #: exact file name → (lexer name, pattern)
    names: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: ".ext" (from a ``*.ext`` pattern) → (lexer name, pattern)
    suffixes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: any other pattern, as Pygments matches it (``fnmatch.translate``, case-sensitive)
    others: list[tuple[re.Pattern[str], str, str]] = field(default_factory=list)


@cache
def _tables() -> _Tables:
    tables = _Tables()
    # get_all_lexers reads Pygments' static mapping: no lexer module is imported here.
    for name, aliases, patterns, _mimetypes in get_all_lexers(plugins=False):
        for alias in aliases:
            tables.aliases.setdefault(alias.lower(), name)
        for pattern in patterns:
            entry = (name, pattern)
            if not _WILDCARDS.search(pattern):
                tables.names.setdefault(pattern, []).append(entry)
            elif pattern.startswith("*.") and not _WILDCARDS.search(pattern[1:]):
                tables.suffixes.setdefault(pattern[1:], []).append(entry)
            else:
                regex = re.compile(fnmatch.translate(pattern))
                tables.others.append((regex, name, pattern))
    return tables


def _candidates(basename: str) -> list[tuple[str, str]]:
    tables = _tables()
    found = list(tables.names.get(basename, ()))
    # "*.ext" matches every name ending in ".ext" (the star may match nothing).
    start = basename.find(".")
    while start != -1:
        found.extend(tables.suffixes.get(basename[start:], ()))
        start = basename.find(".", start + 1)
    found.extend((name, pattern) for regex, name, pattern in tables.others if regex.match(basename))
    return found


@cache
def _instance(name: str) -> Lexer | None:
    cls = find_lexer_class(name)
    if cls is None:
        return None
    prepare(cls)  # its token table from the cache (lexer_cache.py)
    # Pygments strips leading and trailing blank lines by default, which would shift numbers.
    return cls(stripnl=False, stripall=False, ensurenl=False)


@lru_cache(maxsize=256)
def lexer_by_name(language: str) -> Lexer | None:
    """The lexer Pygments knows as ``language`` (any case; a few common aliases added)."""
    language = language.strip().lower()
    name = _tables().aliases.get(LANGUAGE_ALIASES.get(language, language))
    return _instance(name) if name is not None else None


@lru_cache(maxsize=1024)
def lexer_by_filename(basename: str) -> Lexer | None:
    """The lexer for a file called ``basename``, chosen as Pygments would, or ``None``."""
    best: tuple[float, str, str] | None = None
    for name, pattern in _candidates(basename):
        cls = find_lexer_class(name)
        if cls is None:
            continue
        # Pygments' own rating when no text is given: priority, +0.5 for an exact name.
        rating = (cls.priority + (0 if "*" in pattern else 0.5), cls.__name__, name)
        if best is None or rating > best:
            best = rating
    return _instance(best[2]) if best is not None else None


def lexer_for(language: str | None = None, filename: str | None = None) -> Lexer | None:
    """The lexer for ``language`` (a name or alias), else for ``filename``; ``None`` if neither."""
    if language:
        lexer = lexer_by_name(language)
        if lexer is not None:
            return lexer
    if filename:
        # Only the base name matters; paths may be long and would defeat the cache.
        return lexer_by_filename(filename.replace("\\", "/").rsplit("/", 1)[-1])
    return None


def set_up(filenames: Iterable[str] = (), languages: Iterable[str] = ()) -> None:
    """Find the lexers of ``filenames`` and ``languages`` now (their modules imported, their
    token tables built): before forking processes that would each do it again."""
    for language in languages:
        lexer_for(language)
    for filename in filenames:
        lexer_for(filename=filename)
