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
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple

import msgspec
from ahocorasick_rs import AhoCorasick, BytesAhoCorasick, Implementation

from cclens.redact.literals import known_prefixes

MIN_PREFIX: Final = 2
"""Rules whose literal prefix is shorter are found by one regular expression instead."""

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


class Rule(msgspec.Struct, frozen=True):
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
    anchor: Anchor | None = None
    """Where to look for the rule when its literal prefix is too common or too short (a
    format that starts with any of ``[MNO]``, or with ``pat`` as in "path")."""


class Anchor(msgspec.Struct, frozen=True):
    """A part every match of a rule holds at a known distance from its start.

    Every match of the rule starting at ``p`` contains a match of ``regex`` starting between
    ``p + low`` and ``p + high``; the scanner looks for ``regex`` and tries the rule at those
    starts. ``regex`` should be rare in ordinary text: that is the point of it.
    """

    regex: str
    low: int
    high: int


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


#: Characters searched at a time for literal prefixes in a long text (see _prefix_starts).
_WINDOW = 1 << 20
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
        # Rules with a literal prefix of two characters or more are found through it: one
        # automaton over every prefix, then the rule's own expression at each occurrence. That
        # expression is compiled the first time one of its prefixes is found (:meth:`_pattern`):
        # most texts hold few of the ~200 rules' prefixes, and compiling them all took most of
        # the time of making a scanner, in every process that redacts.
        self._sources: list[str | None] = []
        self._patterns: list[re.Pattern[str] | None] = []
        by_prefix: dict[str, list[int]] = {}
        residual: list[int] = []
        anchored: list[tuple[re.Pattern[str], int, int, int]] = []
        for number, rule in enumerate(self._rules):
            left = f"(?<![{rule.left}])" if rule.left else ""
            prefixes = known_prefixes(rule.regex)
            self._patterns.append(None)
            if rule.anchor is not None:
                anchor = rule.anchor
                anchored.append((re.compile(anchor.regex), anchor.low, anchor.high, number))
            elif not prefixes or min(map(len, prefixes)) < MIN_PREFIX or not _ascii(prefixes):
                residual.append(number)
                self._sources.append(None)
                continue
            self._sources.append(left + rule.regex)
            for prefix in prefixes if rule.anchor is None else ():
                by_prefix.setdefault(prefix, []).append(number)
        self._anchored = tuple(anchored)
        # One search finds where any anchor may be; each is then checked there.
        self._anchors = (
            re.compile("|".join(f"(?:{rule.anchor.regex})" for rule in rules if rule.anchor))
            if anchored
            else None
        )
        self._prefix_rules = tuple(tuple(numbers) for numbers in by_prefix.values())
        self._text_automaton = AhoCorasick(list(by_prefix), implementation=Implementation.DFA)
        self._longest_prefix = max((len(prefix) for prefix in by_prefix), default=1)
        self._bytes_automaton = BytesAhoCorasick(
            [prefix.encode("ascii") for prefix in by_prefix], implementation=Implementation.DFA
        )
        # The others ([MNO]…, <tag>…) share one expression, grouped by first character as
        # below; their first characters are few, so the engine skips fast between them.
        self._branches: dict[str, tuple[int, str]] = {}
        self._residual = self._combined(residual) if residual else None

    def _pattern(self, number: int) -> re.Pattern[str]:
        """The compiled expression of rule ``number`` (found through its prefix or anchor),
        compiled on first use. Two threads may both compile it: the same pattern either way."""
        source = self._sources[number]
        assert source is not None
        pattern = re.compile(source)
        self._patterns[number] = pattern
        return pattern

    def _combined(self, numbers: list[int]) -> re.Pattern[str]:
        """One expression for the rules ``numbers``: ``c(?:rest1|rest2|…)`` per first character
        ``c``, rules in order; the last group of each branch names it (see :meth:`scan`)."""
        by_character: dict[str, list[str]] = {}
        for number in numbers:
            rule = self._rules[number]
            characters, rest = _first_characters(rule.regex)
            if rule.left:
                # After the literal prefix, where it is reached only once that prefix matched.
                width = _literal_prefix(rest)
                behind = _unescaped_length(rest[:width]) + 1
                rest = f"{rest[:width]}(?<![{rule.left}](?s:.){{{behind}}}){rest[width:]}"
            for copy, character in enumerate(characters):
                prefix = f"g{number}_{copy}_"
                body = _rename_groups(rest, prefix)
                # An empty group closes last, so ``lastgroup`` names the branch that matched.
                marker_group = f"r{number}_{copy}"
                self._branches[marker_group] = (number, prefix)
                by_character.setdefault(character, []).append(f"{body}(?P<{marker_group}>)")
        return re.compile(
            "|".join(
                f"{re.escape(character)}(?:{'|'.join(branches)})"
                for character, branches in by_character.items()
            )
        )

    def _prefix_starts(self, text: str) -> Iterator[tuple[int, int]]:
        """``(prefix number, start)`` of every occurrence of a literal prefix in ``text``.

        A long text is searched a window of :data:`_WINDOW` characters at a time, each window
        reaching as far past its end as the longest prefix, and keeping what starts inside
        it: the automaton reads bytes, and the whole text's bytes would be one more copy of
        it (a 200 MB tool output)."""
        if len(text) <= _WINDOW:
            yield from self._starts_in(text, 0)
            return
        reach = self._longest_prefix - 1
        for low in range(0, len(text), _WINDOW):
            high = low + _WINDOW
            for prefix, start in self._starts_in(text[low : high + reach], low):
                if start < high:
                    yield prefix, start

    def _starts_in(self, text: str, offset: int) -> list[tuple[int, int]]:
        if text.isascii():
            found = self._bytes_automaton.find_matches_as_indexes(
                text.encode("ascii"), overlapping=True
            )
            return [(prefix, offset + start) for prefix, start, _ in found]
        # The automaton reads UTF-8: its offsets count bytes, turned into characters here.
        data = text.encode("utf-8", "surrogatepass")
        found = self._bytes_automaton.find_matches_as_indexes(data, overlapping=True)
        found.sort(key=_start)
        starts = []
        byte = character = 0
        for prefix, start, _ in found:
            if start != byte:
                character += len(data[byte:start].decode("utf-8", "surrogatepass"))
                byte = start
            starts.append((prefix, offset + character))
        return starts

    def _candidates(self, text: str) -> list[tuple[int, int]]:
        """``(start, rule number)`` wherever a rule may match: at every occurrence of its
        literal prefixes, and around every occurrence of its anchor; sorted."""
        rules = self._prefix_rules
        candidates = [
            (start, number)
            for prefix, start in self._prefix_starts(text)
            for number in rules[prefix]
        ]
        anchors = self._anchors
        if anchors is not None:
            # Every occurrence, overlapping ones too: one may end where the next begins.
            match = anchors.search(text)
            while match is not None:
                at = match.start()
                for anchor, low, high, number in self._anchored:
                    if anchor.match(text, at):
                        first = max(at - high, 0)
                        candidates.extend((start, number) for start in range(first, at - low + 1))
                match = anchors.search(text, at + 1)
        if len(candidates) > 1:
            candidates.sort()
        return candidates

    def scan(self, text: str) -> list[Finding]:
        """Findings in ``text``, sorted and never overlapping.

        Exactly what one search with all rules in one alternation would find: at each position
        from the left, the first rule in order that matches there.
        """
        candidates = self._candidates(text)
        residual = self._residual
        pending = residual.search(text) if residual is not None else None
        if not candidates and pending is None:
            return []
        findings: list[Finding] = []
        rules, patterns = self._rules, self._patterns
        position = floor = index = 0
        count = len(candidates)
        memo: dict[str, int] = {}
        nowhere = len(text) + 1  # past every position
        no_rule = len(rules)  # past every rule number
        while True:
            while index < count and candidates[index][0] < position:
                index += 1
            if pending is not None and pending.start() < position:
                assert residual is not None
                pending = residual.search(text, position)
            start = candidates[index][0] if index < count else nowhere
            pending_start = pending.start() if pending is not None else nowhere
            if pending_start < start:
                start = pending_start
            if start == nowhere:
                break
            match: re.Match[str] | None = None
            if pending is not None and pending_start == start:
                name = pending.lastgroup
                assert name is not None  # every branch ends in its marker group
                pending_number, pending_prefix = self._branches[name]
            else:
                pending_number, pending_prefix = no_rule, ""
            number = no_rule
            # Rules whose prefix is here, in order, up to the one the residual found here.
            while index < count and candidates[index][0] == start:
                number = candidates[index][1]
                index += 1
                if number > pending_number:
                    break
                pattern = patterns[number] or self._pattern(number)
                match = pattern.match(text, start)
                if match is not None:
                    break
            prefix = ""
            if match is None:
                if pending_number == no_rule:
                    position = start + 1
                    continue
                match, number, prefix = pending, pending_number, pending_prefix
                assert match is not None
            outcome = rules[number].handler(Hit(match, prefix, text, floor, memo))
            for finding in outcome.findings:
                if finding.start < floor or (findings and finding.start < findings[-1].end):
                    continue  # never overlap what is already decided
                findings.append(finding)
                if finding.kind != KEEP:
                    floor = finding.end
            position = max(outcome.resume, start + 1)
        return findings


def _start(found: tuple[int, int, int]) -> int:
    return found[1]


def _ascii(prefixes: Sequence[str]) -> bool:
    return all(prefix.isascii() for prefix in prefixes)
