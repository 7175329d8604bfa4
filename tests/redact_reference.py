"""The redaction engine as it was before the speed work, kept only to prove the new one equal.

``test_redact_identity.py`` runs this and :class:`cclens.redact.Redactor` on every string of the
shared corpus, the fake secrets and generated text, and asserts the same output and the same
counts of each kind. It is a frozen copy of ``scanner.py`` (the single combined expression),
``entropy.find_high_entropy`` (candidates by ``finditer``) and ``engine.py`` (one string at a
time, no memo), over the rule modules the two engines share. Do not "fix" it: it is the
definition the fast engine must agree with. (The passes over a scan's findings added later,
hex-encoded keys and secrets cut by what terminals insert, are the engine's own pure functions
in ``encoded.py`` and ``hidden.py``; here they run over this scanner and this entropy pass.)
"""

# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

import re
from collections import Counter
import math
from collections.abc import Mapping, Sequence
from itertools import pairwise
from types import MappingProxyType
from typing import Any, Final

from cclens.redact.encoded import find_hex_secrets
from cclens.redact.entropy import HIGH_ENTROPY, MAX_LENGTH, MIN_LENGTH
from cclens.redact.hidden import hidden_findings, kept_insertions, merge, might_hide
from cclens.redact.ids import PREFIXES
from cclens.redact.names import secret_word
from cclens.redact.options import RedactionOptions
from cclens.redact.paths import PathAnonymizer
from cclens.redact.rules import all_rules
from cclens.redact.scanner import KEEP, Finding, Outcome, Rule
from cclens.redact.values import MARKER_PREFIX, is_plausible_secret, marker

SECRET_FIELD: Final = "secret-field"
CUSTOM: Final = "custom"


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


class ReferenceScanner:
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


_CANDIDATE: Final = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}")
_HEX: Final = re.compile(r"[0-9a-fA-F-]+")
_IDENTIFIER_PREFIX: Final = re.compile(rf"(?:{'|'.join(PREFIXES)})[_-]")
# A word between slashes ("com", "status", "envs", "Qwen" in "Qwen/Qwen3-Next-80B") marks a
# path, URL or model name, whose segments are judged one by one.
_PATH_WORD: Final = re.compile(r"[A-Za-z][a-z0-9._-]{2,}")
_WORD_RUN: Final = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{4,}")
_VOWELS: Final = frozenset("aeiouyAEIOUY")
MIN_CLASS_CHANGES: Final = 0.3
MAX_WORDINESS: Final = 0.7


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` under its own character frequencies."""
    length = len(value)
    if length == 0:
        return 0.0
    return -sum(count / length * math.log2(count / length) for count in Counter(value).values())


def entropy_threshold(length: int) -> float:
    """The least entropy a random base64 string of ``length`` characters reaches 999 times in
    1,000 (measured; see ``tests/test_redact_entropy.py``)."""
    return 4.0 + min(max(length - MIN_LENGTH, 0), 32) * (0.75 / 32)


def looks_random(token: str) -> bool:
    """True when ``token`` (no separators but base64's own) reads as key material."""
    body = token.rstrip("=")
    if not MIN_LENGTH <= len(body) <= MAX_LENGTH:
        return False
    if _HEX.fullmatch(body) or _IDENTIFIER_PREFIX.match(body):
        return False
    if not (
        any(c.isdigit() for c in body)
        and any(c.isupper() for c in body)
        and any(c.islower() for c in body)
    ):
        return False
    if class_changes(body) < MIN_CLASS_CHANGES or wordiness(body) >= MAX_WORDINESS:
        return False
    return shannon_entropy(body) >= entropy_threshold(len(body))


def _character_class(character: str) -> int:
    return 0 if character.isdigit() else 1 if character.isupper() else 2


def class_changes(token: str) -> float:
    """How often two neighbouring letters or digits differ in class (digit, upper, lower).

    About 0.6 for random base62 or base64; 0.3 or less for names made of words and numbers
    (``Qwen3-Next-80B-A3B-Instruct``, ``claude-3-5-sonnet-20241022``).
    """
    pairs = changes = 0
    for first, second in pairwise(token):
        if first.isalnum() and second.isalnum():
            pairs += 1
            changes += _character_class(first) != _character_class(second)
    return changes / pairs if pairs else 0.0


def wordiness(token: str) -> float:
    """The share of ``token`` in runs that read as words (three or more lower-case letters
    with a vowel, or four capitals), such as camelCase names: ``getServerSideProps2``."""
    words = (word for word in _WORD_RUN.findall(token) if _VOWELS.intersection(word))
    return sum(len(word) for word in words) / len(token) if token else 0.0


def find_high_entropy(text: str, protected: Sequence[Finding]) -> list[Finding]:
    """High-entropy spans of ``text`` outside the ``protected`` spans (sorted findings).

    A run that a finding cuts is judged in the pieces left on either side, as it will read
    once the finding is replaced by its marker.
    """
    findings: list[Finding] = []
    cursor = 0
    for match in _CANDIDATE.finditer(text):
        start, end = match.span()
        if end - start > MAX_LENGTH:
            continue
        while cursor < len(protected) and protected[cursor].end <= start:
            cursor += 1
        piece_start = start
        index = cursor
        while index < len(protected) and protected[index].start < end:
            _judge(text, piece_start, protected[index].start, findings)
            piece_start = max(piece_start, protected[index].end)
            index += 1
        _judge(text, piece_start, end, findings)
    return findings


def _judge(text: str, start: int, end: int, findings: list[Finding]) -> None:
    """Judge ``text[start:end]``: a path-like run segment by segment, any other run whole
    (and then by segment).

    A segment that goes is replaced, and what is left on either side is judged again in the
    same way, exactly as the next pass over the output would see it: that keeps redaction
    idempotent.
    """
    if end - start < MIN_LENGTH:
        return
    token = text[start:end]
    segments = token.split("/")
    path_like = len(segments) > 1 and any(_PATH_WORD.fullmatch(part) for part in segments)
    if not path_like and looks_random(token):
        findings.append(Finding(start, end, HIGH_ENTROPY))
        return
    offset = 0
    for segment in segments:
        if len(segment) >= MIN_LENGTH and looks_random(segment):
            _judge(text, start, start + offset, findings)
            findings.append(Finding(start + offset, start + offset + len(segment), HIGH_ENTROPY))
            _judge(text, start + offset + len(segment), end, findings)
            return
        offset += len(segment) + 1


# Compiled once per process: building the combined expression costs a few milliseconds.
_SCANNER: Final = ReferenceScanner(all_rules())
_DEFAULT_OPTIONS: Final = RedactionOptions()
_MAX_PASSES: Final = 4
# Characters whose meaning a marker can change next to it: a token's edge (letters, digits,
# "_") and the "-" of "-----BEGIN" and "key-…". Not "/" or "+": no rule starts or ends on them.
_GLUE: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

# Fields that carry binary payloads as base64 (image and document sources, Read results,
# thinking signatures). Their content cannot be redacted meaningfully, and scanning megabytes
# of random characters would only produce false alarms; they are skipped when they hold
# nothing but base64.
_BASE64_ONLY: Final = re.compile(r"[A-Za-z0-9+/=_\-\s]*")


def _is_binary_field(parent: Mapping[str, Any], key: str) -> bool:
    kind = parent.get("type")
    if key in ("base64", "blob"):
        return True
    if key == "data" and kind in ("base64", "redacted_thinking"):
        return True
    if key == "signature" and kind == "thinking":
        return True
    return key == "image" and "mime_type" in parent


class ReferenceRedactor:
    """Removes secrets from strings and JSON-like values.

    One instance per export: :attr:`counts` adds up what it removed. Instances are cheap; the
    rules are compiled once per process. Not safe for concurrent use (the counts are shared).

    >>> redactor = Redactor()
    >>> redactor.text("export GITHUB_TOKEN=ghp_" + "a1B2c3D4e5" * 4)
    'export GITHUB_TOKEN=[REDACTED:github-token]'
    >>> dict(redactor.counts)
    {'github-token': 1}
    """

    def __init__(self, options: RedactionOptions = _DEFAULT_OPTIONS) -> None:
        self._options = options
        self._counts: Counter[str] = Counter()
        self._custom = tuple(_compile_custom(pattern) for pattern in options.extra_patterns)
        self._paths = (
            PathAnonymizer(options.home, options.user) if options.anonymize_paths else None
        )

    @property
    def options(self) -> RedactionOptions:
        return self._options

    @property
    def counts(self) -> Mapping[str, int]:
        """How many secrets of each kind were removed so far (a live, read-only view)."""
        return MappingProxyType(self._counts)

    def text(self, value: str) -> str:
        """``value`` with every secret replaced by ``[REDACTED:<kind>]``."""
        if not self._options.enabled or not value:
            return value
        for pattern in self._custom:
            value = self._apply_custom(pattern, value)
        for _ in range(_MAX_PASSES):
            # A marker can expose what its secret hid: a token glued to another ("AKIA…ghp_…")
            # only has an edge once the other is replaced. When a replaced secret touched such
            # characters, go again, so that redacting the output changes nothing.
            value, glued = self._redact_once(value)
            if not glued:
                break
        if self._paths is not None:
            value = self._paths.apply(value, self._count)
        return value

    def json(self, value: Any) -> Any:
        """A copy of a JSON-like value (dicts, lists, tuples, scalars) with secrets removed.

        Every string value goes through :meth:`text`. A string under a secret-named key
        (``apiKey``, ``password``, ``token``, ``client_secret``, ``Authorization`` …) is
        replaced whole as ``secret-field``, unless it cannot be one: empty, a reference such
        as ``${TOKEN}``, a path, a word like ``"include"``, or, under a token- or key-named
        field, a value that is not machine-made (a tokenizer's ``"pad_token": "[PAD]"``).
        Numbers and booleans stay as they are. Keys are left as they are: they are the
        structure of the record (tool and field names), and redacting them could merge two
        keys into one. Base64 payload fields of images, documents and thinking signatures are
        passed through.
        """
        if not self._options.enabled:
            return value
        return self._walk(value)

    def _walk(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            result: dict[Any, Any] = {}
            for key, item in value.items():
                if isinstance(key, str) and isinstance(item, str):
                    word = secret_word(key)
                    if word is not None and is_plausible_secret(word, item):
                        self._count(SECRET_FIELD)
                        result[key] = marker(SECRET_FIELD)
                        continue
                    if _is_binary_field(value, key) and _BASE64_ONLY.fullmatch(item):
                        result[key] = item
                        continue
                result[key] = self._walk(item)
            return result
        if isinstance(value, list):
            return [self._walk(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self._walk(item) for item in value)
        return value

    def _redact_once(self, value: str) -> tuple[str, bool]:
        """``value`` redacted by one pass, and whether a replaced secret was glued to
        characters that a marker would separate differently."""
        findings = _SCANNER.scan(value)
        # High-entropy spans are judged as the next pass would see them (see entropy.py), so
        # only rule findings can leave something for another pass.
        glued = any(
            kind != KEEP
            and (
                (start > 0 and value[start - 1] in _GLUE)
                or (end < len(value) and value[end] in _GLUE)
            )
            for start, end, kind in findings
        )
        entropy = find_high_entropy(value, findings)
        if entropy:
            findings = sorted(findings + entropy)
        # The passes over what the scan returned (hex runs, secrets cut by insertions) are the
        # engine's own pure functions, run here over this scanner and this entropy pass.
        encoded = find_hex_secrets(value, findings, _SCANNER.scan)
        if encoded:
            findings = sorted(findings + encoded)
        widened: set[int] = set()
        if might_hide(value):
            hidden = hidden_findings(value, _SCANNER.scan, find_high_entropy, findings)
            findings, widened = merge(findings, hidden)
        return self._replace(value, findings, widened), glued

    def _count(self, kind: str) -> None:
        self._counts[kind] += 1

    def _replace(self, text: str, findings: list[Finding], widened: set[int]) -> str:
        pieces: list[str] = []
        position = 0
        for start, end, kind in findings:
            if kind == KEEP or text.startswith(MARKER_PREFIX, start):
                continue
            pieces.append(text[position:start])
            pieces.append(marker(kind))
            if start in widened:
                pieces.append(kept_insertions(text, start, end))
            self._count(kind)
            position = end
        if not pieces:
            return text
        pieces.append(text[position:])
        return "".join(pieces)

    def _apply_custom(self, pattern: re.Pattern[str], text: str) -> str:
        secret_group = "secret" in pattern.groupindex

        def replace(match: re.Match[str]) -> str:
            start, end = match.span("secret") if secret_group else match.span()
            if start == end or start < 0:
                return match.group()
            self._count(CUSTOM)
            whole_start = match.start()
            whole = match.group()
            return whole[: start - whole_start] + marker(CUSTOM) + whole[end - whole_start :]

        return pattern.sub(replace, text)


def _compile_custom(pattern: str) -> re.Pattern[str]:
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise ValueError(f"invalid redaction pattern {pattern!r}: {error}") from error
    if compiled.fullmatch("") is not None:
        raise ValueError(f"redaction pattern {pattern!r} matches the empty string")
    return compiled
