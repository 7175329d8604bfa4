"""The literal text every match of a regular expression starts with.

The scanner looks for rules where their literal prefixes occur (``sk-ant-``, ``ghp_``,
``token``), found all at once by an Aho-Corasick automaton, instead of trying every rule at
every position. That is only correct if each prefix is *necessary*: every match of the rule
starts with one of the strings returned here. The walk over the parsed expression keeps that
promise by stopping wherever it is unsure: a shorter prefix is always still necessary.

Python's own parser (``re._parser``, the ``sre_parse`` of older versions) reads the expression,
so the prefixes follow the exact syntax the rule is compiled with.
"""

from __future__ import annotations

import functools
import json
import re

# The parser behind re.compile; typeshed knows it only by its deprecated name, sre_parse.
import re._parser as parser  # type: ignore[import-not-found]
from collections.abc import Iterable
from pathlib import Path
from re import _constants as constants  # type: ignore[attr-defined]
from typing import Any, Final

#: Prefixes stop growing at this length: longer ones would not be rarer in practice.
LONG_ENOUGH: Final = 6
#: A character class is spelled out into one prefix per character up to this size.
MAX_CLASS: Final = 8
#: No rule is given more prefixes than this (a class after a class multiplies them).
MAX_PREFIXES: Final = 64
#: The prefixes of every rule, worked out in advance (:func:`known_prefixes`).
TABLE: Final = Path(__file__).with_name("prefixes.json")


def literal_prefixes(regex: str) -> tuple[str, ...]:
    """Strings one of which starts every match of ``regex`` (flags none), longest first.

    ``()`` (the empty string alone) when nothing is certain, such as for ``[MNO]…`` where the
    class is too short to be worth spelling out, or an expression starting with ``.``.

    >>> literal_prefixes(r"gh[pousr]_[A-Za-z0-9]{36}")
    ('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_')
    >>> literal_prefixes(r"A(?:3T[A-Z0-9]|KIA|SIA)[A-Z0-9]{16}")
    ('AKIA', 'ASIA', 'A3T')
    """
    parsed = parser.parse(regex)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return ()  # a literal would match other spellings; keep to the plain syntax
    prefixes, _ = _walk(list(parsed), [""])
    if "" in prefixes:
        return ()  # some match starts with anything
    # Longest first, each once, in the order the expression gives them.
    return tuple(dict.fromkeys(sorted(prefixes, key=len, reverse=True)))


def _walk(items: list[tuple[Any, Any]], prefixes: list[str]) -> tuple[list[str], bool]:
    """Extend ``prefixes`` through the parsed ``items``; the flag says the walk stopped early
    (what follows the returned prefixes is not known to be literal)."""
    for op, argument in items:
        if min(len(prefix) for prefix in prefixes) >= LONG_ENOUGH:
            return prefixes, True
        if op is constants.LITERAL:
            prefixes = [prefix + chr(argument) for prefix in prefixes]
        elif op is constants.IN:
            characters = _class_characters(argument)
            if characters is None or len(prefixes) * len(characters) > MAX_PREFIXES:
                return prefixes, True
            prefixes = [prefix + character for prefix in prefixes for character in characters]
        elif op is constants.SUBPATTERN:
            # (group, add_flags, del_flags, pattern): flags would change what a literal matches.
            if argument[1] or argument[2]:
                return prefixes, True
            prefixes, stopped = _walk(list(argument[3]), prefixes)
            if stopped:
                return prefixes, True
        elif op is constants.BRANCH:
            extended: list[str] = []
            for alternative in argument[1]:
                branch, _ = _walk(list(alternative), prefixes)
                extended.extend(branch)
            if len(extended) > MAX_PREFIXES:
                return prefixes, True
            # The alternatives may end at different lengths: stop here.
            return extended, True
        elif op in (constants.MAX_REPEAT, constants.MIN_REPEAT):
            low, _, body = argument
            if low >= 1:
                prefixes, _ = _walk(list(body), prefixes)
            return prefixes, True
        elif op in (constants.ASSERT, constants.ASSERT_NOT):
            continue  # zero-width: what follows still starts where it did
        else:
            return prefixes, True
    return prefixes, False


def _class_characters(items: list[tuple[Any, Any]]) -> list[str] | None:
    """The characters of a class of literals and small ranges, or ``None``."""
    characters: list[str] = []
    for op, argument in items:
        if op is constants.LITERAL:
            characters.append(chr(argument))
        elif op is constants.RANGE:
            low, high = argument
            characters.extend(chr(code) for code in range(low, high + 1))
        else:
            return None  # a negated class, a category (\d, \w): too many characters
        if len(characters) > MAX_CLASS:
            return None
    return characters


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    try:
        found = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {regex: tuple(prefixes) for regex, prefixes in found.items()}


def known_prefixes(regex: str) -> tuple[str, ...]:
    """:func:`literal_prefixes` of ``regex``, read from the table made in advance
    (``prefixes.json``, written by ``python -m cclens.redact.prefix_table``) when it holds the
    expression: parsing the ~200 rules costs about 10 ms in every process that redacts. An
    expression the table does not hold (a rule changed since it was written) is parsed, so a
    table out of date only costs that time; ``tests/test_redact_prefixes.py`` checks it is
    current."""
    found = _table().get(regex)
    return found if found is not None else literal_prefixes(regex)


def table_text(regexes: Iterable[str]) -> str:
    """The table of ``regexes``' prefixes, as ``prefixes.json`` holds it."""
    table = {regex: list(literal_prefixes(regex)) for regex in sorted(set(regexes))}
    return json.dumps(table, indent=0, ensure_ascii=True) + "\n"
