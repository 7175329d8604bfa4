"""The redactor every export runs its output through."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Any, Final

import msgspec

from cclens.redact.assignments import (
    AWS_SECRET_ACCESS_KEY,
    BASIC_AUTH,
    BEARER_TOKEN,
    COOKIE,
    ENV_ASSIGNMENT,
    PRIVATE_KEY,
)
from cclens.redact.encoded import find_hex_secrets
from cclens.redact.entropy import HIGH_ENTROPY, candidate_runs, find_high_entropy
from cclens.redact.flags import COMMAND_PASSWORD
from cclens.redact.hidden import hidden_findings, kept_insertions, merge, might_hide
from cclens.redact.names import secret_word
from cclens.redact.options import RedactionOptions
from cclens.redact.paths import HOME_DIRECTORY, USER_NAME, PathAnonymizer
from cclens.redact.patterns import TOKEN_PATTERNS
from cclens.redact.rules import all_rules
from cclens.redact.scanner import KEEP, Finding, Scanner
from cclens.redact.structures import URL_PASSWORD, URL_TOKEN
from cclens.redact.values import MARKER_PREFIX, is_plausible_secret, marker

SECRET_FIELD: Final = "secret-field"
CUSTOM: Final = "custom"

KINDS: Final[tuple[str, ...]] = tuple(
    sorted(
        {pattern.kind for pattern in TOKEN_PATTERNS}
        | {AWS_SECRET_ACCESS_KEY, BASIC_AUTH, BEARER_TOKEN, COOKIE, ENV_ASSIGNMENT, PRIVATE_KEY}
        | {COMMAND_PASSWORD}
        | {URL_PASSWORD, URL_TOKEN, HIGH_ENTROPY, SECRET_FIELD, CUSTOM}
        | {HOME_DIRECTORY, USER_NAME}
    )
)
"""Every kind a :class:`Redactor` can count, sorted; path kinds count anonymisations."""

# Compiled once per process: building the combined expression costs a few milliseconds.
_SCANNER: Final = Scanner(all_rules())
_DEFAULT_OPTIONS: Final = RedactionOptions()
_MAX_PASSES: Final = 4
# How many characters of distinct strings a redactor remembers before it starts afresh.
_MEMO_CHARACTERS: Final = 32_000_000
# Key names repeat on every record: judge each once.
_secret_word: Final = functools.lru_cache(maxsize=4096)(secret_word)
# Characters whose meaning a marker can change next to it: a token's edge (letters, digits,
# "_") and the "-" of "-----BEGIN" and "key-…". Not "/" or "+": no rule starts or ends on them.
_GLUE: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

# Fields that carry binary payloads as base64 (image and document sources, Read results,
# thinking signatures). Their content cannot be redacted meaningfully, and scanning megabytes
# of random characters would only produce false alarms; they are skipped when they hold
# nothing but base64.
_BASE64_ONLY: Final = re.compile(r"[A-Za-z0-9+/=_\-\s]*")


_BINARY_KEYS: Final = frozenset({"base64", "blob", "data", "signature", "image"})
_SCALARS: Final = frozenset({int, float, bool, type(None)})
_CONTAINERS: Final = frozenset({dict, list, tuple})


def _is_binary_field(parent: Mapping[str, Any], key: str) -> bool:
    kind = parent.get("type")
    if key in ("base64", "blob"):
        return True
    if key == "data" and kind in ("base64", "redacted_thinking"):
        return True
    if key == "signature" and kind == "thinking":
        return True
    return key == "image" and "mime_type" in parent


class Redactor:
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
        self._enabled = options.enabled
        self._counts: Counter[str] = Counter()
        self._custom = tuple(_compile_custom(pattern) for pattern in options.extra_patterns)
        self._paths = (
            PathAnonymizer(options.home, options.user) if options.anonymize_paths else None
        )
        # Each distinct string is redacted once: transcripts repeat a lot (a tool's output is
        # in its tool_result block and again in toolUseResult; cwd, versions, model names and
        # record types are on every record). Kept are the output and the kinds removed, which
        # are counted again on every repeat. Bounded by the characters it holds.
        self._memo: dict[str, tuple[str | None, tuple[str, ...]]] = {}
        self._memo_characters = 0
        self._found: list[str] = []

    @property
    def options(self) -> RedactionOptions:
        return self._options

    @property
    def counts(self) -> Mapping[str, int]:
        """How many secrets of each kind were removed so far (a live, read-only view)."""
        return MappingProxyType(self._counts)

    def text(self, value: str) -> str:
        """``value`` with every secret replaced by ``[REDACTED:<kind>]``."""
        if not value or not self._enabled:
            return value
        known = self._memo.get(value)
        if known is None:
            redacted, kinds = self._redact(value)
            # None: unchanged, so that a repeat hands back its own object without comparing.
            known = (None if redacted == value else redacted, kinds)
            self._memo_characters += len(value)
            if self._memo_characters > _MEMO_CHARACTERS:
                self._memo.clear()
                self._memo_characters = len(value)
            self._memo[value] = known
        if known[1]:
            self._counts.update(known[1])
        # The very object given when nothing changed: callers can tell by identity.
        return value if known[0] is None else known[0]

    def _redact(self, value: str) -> tuple[str, tuple[str, ...]]:
        """``value`` redacted, and the kind of each thing removed, in order."""
        found = self._found = []
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
        return value, tuple(found)

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

        A list, tuple or dict in which nothing changed is returned as it is, not copied (so
        ``redactor.json(value) is value`` tells that ``value`` held nothing to remove).
        """
        if not self._options.enabled:
            return value
        return self._walk(value)

    def _walk(self, value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return self.text(value) if value else value
        if kind is dict:
            return self._walk_dict(value)
        if kind is list or kind is tuple:
            return self._walk_sequence(value)
        if kind in _SCALARS:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return self._walk_dict(value)
        if isinstance(value, list):
            return [self._walk(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self._walk(item) for item in value)
        if isinstance(value, msgspec.Raw):
            # JSON nested too deep to decode: redacted as the text it is (a marker could break
            # it as JSON, so it goes on as a string).
            return self.text(bytes(value).decode("utf-8", errors="replace"))
        return value

    # The two walks below run for every value of every record: exact type checks first, the
    # common cases inline, and a container is copied only once something in it changed.

    def _walk_dict(self, value: Mapping[Any, Any]) -> Any:
        result: dict[Any, Any] | None = None if type(value) is dict else dict(value)
        for key, item in value.items():
            kind = type(item)
            if kind is str or (kind not in _CONTAINERS and isinstance(item, str)):
                if not item:
                    continue
                word = _secret_word(key) if isinstance(key, str) else None
                if word is not None and is_plausible_secret(word, item):
                    self._counts[SECRET_FIELD] += 1
                    new = marker(SECRET_FIELD)
                elif key in _BINARY_KEYS and _is_binary_field(value, key):
                    if _BASE64_ONLY.fullmatch(item):
                        continue
                    new = self.text(item)
                else:
                    new = self.text(item)
            elif kind in _SCALARS:
                continue
            elif kind is dict:
                new = self._walk_dict(item)
            else:
                new = self._walk(item)
            if new is not item:
                if result is None:
                    result = dict(value)
                result[key] = new
        return value if result is None else result

    def _walk_sequence(self, value: list[Any] | tuple[Any, ...]) -> Any:
        changed: list[Any] | None = None
        for index, item in enumerate(value):
            kind = type(item)
            if kind is str:
                new = self.text(item) if item else item
            elif kind is dict:
                new = self._walk_dict(item)
            elif kind in _SCALARS:
                continue
            else:
                new = self._walk(item)
            if new is not item:
                if changed is None:
                    changed = list(value)
                changed[index] = new
        if changed is None:
            return value
        return changed if type(value) is list else tuple(changed)

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
        # The runs of base64 characters both passes look in, found once.
        runs = list(candidate_runs(value))
        entropy = find_high_entropy(value, findings, runs)
        if entropy:
            findings = sorted(findings + entropy)
        encoded = find_hex_secrets(value, findings, _SCANNER.scan, runs)
        if encoded:
            findings = sorted(findings + encoded)
        widened: set[int] = set()
        if might_hide(value):
            # Secrets cut by an ANSI sequence, a zero-width character or a wrapped line.
            hidden = hidden_findings(value, _SCANNER.scan, find_high_entropy, findings)
            findings, widened = merge(findings, hidden)
        return self._replace(value, findings, widened), glued

    def _count(self, kind: str) -> None:
        self._found.append(kind)

    def _replace(
        self, text: str, findings: list[Finding], widened: AbstractSet[int] = frozenset()
    ) -> str:
        """``text`` with each finding replaced by its marker; after the marker of a secret that
        spanned ANSI sequences or line breaks (``widened``), those are put back, so the
        terminal's colours and the lines stay as they were."""
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
