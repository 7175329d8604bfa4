"""One pass over a text that finds every rule-based secret.

All rules (provider tokens, structured secrets, assignment keywords, regions to keep) compile
into a single regular expression. Python's engine has no multi-pattern automaton, so the
expression is laid out to let it skip fast: rules are grouped by their first character into
``c(?:rest1|rest2|…)`` branches. When every top-level branch starts with a literal, the engine
scans for that set of characters in C and only tries the branches that can start there; the
same rules written as one flat alternation ran three times slower on the shared corpus.

Each rule owns a handler that looks at its match and decides: replace some span with a
marker, protect a span (so the entropy pass leaves it alone), or decline and let the scan go
on from a given position. Context (the name an assignment is made to, the command around
``-u user:pass``) is judged there, in Python, only where a rule matched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

KEEP: Final = ""
"""The kind of a finding that protects its span instead of redacting it."""


class Finding(NamedTuple):
    """A span of the scanned text and what to do with it (``kind == KEEP``: leave it)."""

    start: int
    end: int
    kind: str


class Outcome(NamedTuple):
    """What a handler decided: findings inside its match, and where scanning resumes."""

    findings: tuple[Finding, ...]
    resume: int


Handler = Callable[["Hit"], Outcome]


@dataclass(frozen=True, slots=True)
class Rule:
    """A regular expression and the handler that judges its matches.

    ``regex`` must start with a literal character, an escaped character or a simple character
    class of literals and ranges (``[MNO]``, ``[0-9a-f]``); it may use named groups, which the
    handler reads through :class:`Hit`.
    """

    regex: str
    handler: Handler
    left: str | None = None
    """Characters (a class body such as ``A-Za-z0-9_``) that may not directly precede a match.
    Checked inside the expression right after the rule's literal prefix, where it costs
    nothing until that prefix is found, and where it keeps a rule from running on from every
    position inside a long run of letters (``sk-sk-sk-…`` was quadratic without it)."""


class Hit:
    """One match of one rule, with group access by the rule's own group names."""

    __slots__ = ("_match", "_prefix", "floor", "memo", "text")

    def __init__(
        self, match: re.Match[str], prefix: str, text: str, floor: int, memo: dict[str, int]
    ) -> None:
        self._match = match
        self._prefix = prefix
        self.text = text
        # Scratch space shared by the handlers during one scan (where the next END line of a
        # key block is), so that a thousand BEGIN lines do not each search to the end.
        self.memo = memo
        # Where the last redaction ended. Context checks never look behind it: in the output
        # a marker stands there, and judging the same text twice must give the same answer.
        self.floor = floor

    @property
    def start(self) -> int:
        return self._match.start()

    @property
    def end(self) -> int:
        return self._match.end()

    def group(self, name: str) -> str | None:
        value: str | None = self._match.group(self._prefix + name)
        return value

    def span(self, name: str) -> tuple[int, int]:
        """The span of group ``name``; ``(-1, -1)`` when it did not take part."""
        return self._match.span(self._prefix + name)

    # Outcomes, named for what the handler means.

    def redact(self, kind: str, span: tuple[int, int] | None = None) -> Outcome:
        """Replace ``span`` (default: the whole match) with a ``kind`` marker."""
        start, end = span if span is not None else (self.start, self.end)
        return Outcome((Finding(start, end, kind),), max(self.end, end))

    def keep(self) -> Outcome:
        """Protect the whole match from every later detector."""
        return Outcome((Finding(self.start, self.end, KEEP),), self.end)

    def decline(self, resume: int | None = None) -> Outcome:
        """Not a secret; scanning goes on at ``resume`` (default: one past the match start)."""
        return Outcome((), max(resume if resume is not None else 0, self.start + 1))


_NAMED_GROUP: Final = re.compile(r"\(\?P<(\w+)>")
_BACKREFERENCE: Final = re.compile(r"\(\?P=(\w+)\)")
_SIMPLE_CLASS: Final = re.compile(r"\[((?:[^\]\\]|\\.)+)\]")
_QUANTIFIER: Final = re.compile(r"(?P<plus>\+)|\{(?P<low>\d+)(?:,(?P<high>\d*))?\}|[*?]")


def _first_characters(regex: str) -> tuple[list[str], str]:
    """Split ``regex`` into the literal characters it can start with and the rest.

    ``[0-9a-f]{32}x`` becomes the sixteen characters and ``[0-9a-f]{31}x``: a quantified first
    item keeps one occurrence fewer in the rest.
    """
    if regex.startswith("\\"):
        item, characters = regex[:2], [regex[1]]
    elif regex.startswith("["):
        found = _SIMPLE_CLASS.match(regex)
        if found is None or found.group(1).startswith("^"):
            raise ValueError(f"rule must start with a literal or simple class: {regex!r}")
        item, characters = found.group(), _expand_class(found.group(1))
    elif regex[0] in "()|?*+{.^$":
        raise ValueError(f"rule must start with a literal or simple class: {regex!r}")
    else:
        item, characters = regex[0], [regex[0]]
    rest = regex[len(item) :]
    quantifier = _QUANTIFIER.match(rest)
    if quantifier is None:
        return characters, rest
    if quantifier.group() in ("*", "?"):
        raise ValueError(f"rule's first item may be absent: {regex!r}")
    if quantifier.group("plus"):
        return characters, item + "*" + rest[quantifier.end() :]
    low = int(quantifier.group("low"))
    high: str | None = quantifier.group("high")
    if low < 1:
        raise ValueError(f"rule's first item may be absent: {regex!r}")
    if high is None:
        remaining = f"{{{low - 1}}}"
    elif high == "":
        remaining = f"{{{low - 1},}}"
    else:
        remaining = f"{{{low - 1},{int(high) - 1}}}"
    return characters, item + remaining + rest[quantifier.end() :]


def _literal_prefix(regex: str) -> int:
    """How many characters of ``regex`` source are plain literals matched exactly once."""
    index = 0
    while index < len(regex):
        if regex[index] == "\\" and index + 1 < len(regex) and not regex[index + 1].isalnum():
            step = 2
        elif regex[index].isalnum() or regex[index] in "-_:=@/ ,;!%&'\"<>~#":
            step = 1
        else:
            break
        if index + step < len(regex) and regex[index + step] in "*+?{":
            break  # quantified: not matched exactly once
        index += step
    return index


def _unescaped_length(literal: str) -> int:
    return len(literal) - literal.count("\\")


def _rename_groups(regex: str, prefix: str) -> str:
    """``regex`` with every named group and back-reference given ``prefix``."""
    regex = _NAMED_GROUP.sub(lambda found: f"(?P<{prefix}{found.group(1)}>", regex)
    return _BACKREFERENCE.sub(lambda found: f"(?P={prefix}{found.group(1)})", regex)


def _expand_class(body: str) -> list[str]:
    characters: list[str] = []
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            first, last = ord(body[index]), ord(body[index + 2])
            characters.extend(chr(code) for code in range(first, last + 1))
            index += 3
        else:
            characters.append(body[index])
            index += 1
    return characters


class Scanner:
    """Runs a fixed set of rules over texts; immutable and reusable across threads."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._rules = tuple(rules)
        # A rule that starts with a class ([MNO]) is copied under each of its first
        # characters; every copy gets its own group names, mapped back to the rule here.
        self._branches: dict[str, tuple[Rule, str]] = {}
        by_character: dict[str, list[str]] = {}
        for index, rule in enumerate(self._rules):
            characters, rest = _first_characters(rule.regex)
            if rule.left:
                # After the literal prefix (``sk-ant-``), where it is reached only once that
                # prefix matched: at the start of every branch it halved the scan's speed.
                width = _literal_prefix(rest)
                behind = _unescaped_length(rest[:width]) + 1
                rest = f"{rest[:width]}(?<![{rule.left}](?s:.){{{behind}}}){rest[width:]}"
            for copy, character in enumerate(characters):
                prefix = f"g{index}_{copy}_"
                body = _rename_groups(rest, prefix)
                # An empty group closes last, so ``lastgroup`` names the branch that matched.
                marker_group = f"r{index}_{copy}"
                self._branches[marker_group] = (rule, prefix)
                by_character.setdefault(character, []).append(f"{body}(?P<{marker_group}>)")
        self._regex = re.compile(
            "|".join(
                f"{re.escape(character)}(?:{'|'.join(branches)})"
                for character, branches in by_character.items()
            )
        )

    def scan(self, text: str) -> list[Finding]:
        """Findings in ``text``, sorted and never overlapping."""
        findings: list[Finding] = []
        search = self._regex.search
        position = 0
        floor = 0
        memo: dict[str, int] = {}
        while (match := search(text, position)) is not None:
            name = match.lastgroup
            assert name is not None  # every branch ends in its marker group
            rule, prefix = self._branches[name]
            outcome = rule.handler(Hit(match, prefix, text, floor, memo))
            for finding in outcome.findings:
                if finding.start < floor or (findings and finding.start < findings[-1].end):
                    continue  # never overlap what is already decided
                findings.append(finding)
                if finding.kind != KEEP:
                    floor = finding.end
            position = max(outcome.resume, match.start() + 1)
        return findings
