"""The fast redaction engine gives exactly what the engine before it gave.

``tests/redact_reference.py`` is a frozen copy of the engine as it was: one combined regular
expression tried from every position, candidates for the entropy pass by ``finditer``, every
string redacted on its own. The engine in ``cclens.redact`` finds rules through an automaton
over their literal prefixes, finds entropy candidates through a translated byte string,
remembers each distinct string and copies a JSON value only where something changed. Here both
run on every string of the shared corpus, every fake secret in every context, hostile input and
generated text, and must agree on the output and on the count of each kind, in order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cclens.redact import RedactionOptions, Redactor
from cclens.redact.engine import _SCANNER
from cclens.redact.entropy import _CANDIDATE, candidate_runs
from cclens.redact.literals import literal_prefixes
from cclens.redact.rules import all_rules
from tests.conftest import corpus_files, sampled
from tests.data import fake_secrets as fake
from tests.redact_reference import ReferenceRedactor, ReferenceScanner
from tests.test_redact_corpus import HOSTILE, records_of
from tests.test_redact_properties import SECRETS, json_values, secretish_text
from tests.test_redact_secrets import CONTEXTS

REFERENCE_SCANNER = ReferenceScanner(all_rules())
OPTIONS = {
    "default": RedactionOptions(),
    "paths": RedactionOptions(anonymize_paths=True, home="/Users/alice"),
    "custom": RedactionOptions(extra_patterns=(r"corp_(?P<secret>\w+)", r"ACME-\d{4}")),
}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _same_text(values: list[str], options: RedactionOptions) -> None:
    """One redactor of each engine over ``values`` in order: same outputs, same counts."""
    fast, reference = Redactor(options), ReferenceRedactor(options)
    for value in values:
        assert fast.text(value) == reference.text(value), value[:300]
    assert list(fast.counts.items()) == list(reference.counts.items())


def _fake_texts() -> list[str]:
    texts = [
        template.format(secret=secret.value)
        for secret in fake.provider_secrets()
        for template in CONTEXTS.values()
    ]
    texts += SECRETS
    texts += [f"password: {fake.password()}", f"aws_secret_access_key = {fake.opaque_token()}"]
    return texts


@pytest.mark.slow
@pytest.mark.parametrize("name", OPTIONS)
def test_every_corpus_record_redacts_as_before(corpus: Path, name: str) -> None:
    fast, reference = Redactor(OPTIONS[name]), ReferenceRedactor(OPTIONS[name])
    for path in corpus_files():
        for record in records_of(path):
            assert fast.json(record) == reference.json(record), path
    assert list(fast.counts.items()) == list(reference.counts.items())


@pytest.mark.slow
def test_every_corpus_string_and_line_scans_and_redacts_as_before(corpus: Path) -> None:
    """Each string alone (no memo between engines' differences), and whole raw lines."""
    values: list[str] = []
    for path in corpus_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        values.extend(text.splitlines())
        values.extend(s for record in records_of(path) for s in _strings(record))
    for value in dict.fromkeys(values):
        assert _SCANNER.scan(value) == REFERENCE_SCANNER.scan(value), value[:300]
        assert list(candidate_runs(value)) == [m.span() for m in _CANDIDATE.finditer(value)]
    _same_text(values, OPTIONS["default"])


@pytest.mark.slow
def test_the_corpus_as_one_text_redacts_as_before(corpus: Path) -> None:
    """The benchmark's input: every string joined, non-ASCII characters and all."""
    text = "\n".join(s for path in corpus_files() for r in records_of(path) for s in _strings(r))
    assert not text.isascii()
    assert _SCANNER.scan(text) == REFERENCE_SCANNER.scan(text)
    _same_text([text, text.encode("ascii", "replace").decode()], OPTIONS["default"])


@pytest.mark.parametrize("name", OPTIONS)
def test_fake_secrets_in_every_context_redact_as_before(name: str) -> None:
    texts = _fake_texts()
    # Repeats are counted each time, memo or not.
    _same_text(texts + texts[::-1], OPTIONS[name])


@pytest.mark.slow
def test_hostile_input_redacts_as_before() -> None:
    _same_text(list(HOSTILE.values()), OPTIONS["default"])


def test_unchanged_values_come_back_as_they_are() -> None:
    """What held nothing to remove is not copied: the export then reuses its records."""
    redactor = Redactor()
    record = {"type": "user", "message": {"content": [{"type": "text", "text": "hello"}]}}
    assert redactor.json(record) is record
    text = "".join(["plain ", "text"])  # a distinct object equal to one seen before
    redactor.text("plain text")
    assert redactor.text(text) is text
    secret = {"type": "user", "env": [f"TOKEN={fake.opaque_token()}", "x"], "a": ("b",)}
    redacted = redactor.json(secret)
    assert redacted is not secret and redacted["a"] is secret["a"]
    assert redacted == ReferenceRedactor().json(secret)


MIXED = st.lists(
    st.one_of(
        secretish_text,
        st.text(max_size=40),
        st.text(alphabet="aA0+/=_-.é→ \n", min_size=28, max_size=80),
    ),
    max_size=6,
)
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SETTINGS
@given(MIXED)
def test_generated_text_redacts_as_before(values: list[str]) -> None:
    for value in values:
        assert _SCANNER.scan(value) == REFERENCE_SCANNER.scan(value)
        assert list(candidate_runs(value)) == [m.span() for m in _CANDIDATE.finditer(value)]
    _same_text(values + values, OPTIONS["default"])
    _same_text(["\n".join(values)], OPTIONS["paths"])


@pytest.mark.slow
@SETTINGS
@given(st.lists(json_values, max_size=4))
def test_generated_json_redacts_as_before(values: list[Any]) -> None:
    fast, reference = Redactor(), ReferenceRedactor()
    for value in values + values:
        assert fast.json(value) == reference.json(value)
    assert list(fast.counts.items()) == list(reference.counts.items())


RULES = all_rules()


@pytest.mark.parametrize("number", sampled(range(len(RULES)), quick=3))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_match_starts_with_a_literal_prefix_of_its_rule(number: int, data: Any) -> None:
    """The automaton finds a rule only where one of its prefixes is: each must be necessary."""
    rule = RULES[number]
    prefixes = literal_prefixes(rule.regex)
    # A few characters after the match let a trailing look-ahead be satisfied.
    text = data.draw(st.from_regex(re.compile(rule.regex + r"(?s:.{0,3})"), fullmatch=True))
    assert re.match(rule.regex, text) is not None
    if prefixes:
        assert text.startswith(prefixes), (text, prefixes)
    if rule.anchor is not None:
        anchor = re.compile(rule.anchor.regex)
        assert any(anchor.match(text, at) for at in range(rule.anchor.low, rule.anchor.high + 1)), (
            text
        )


@pytest.mark.slow
@SETTINGS
@given(MIXED, st.integers(min_value=1, max_value=80))
def test_runs_found_a_window_at_a_time_are_the_same(values: list[str], window: int) -> None:
    # Long texts are translated a window at a time; any window gives the same spans.
    import cclens.redact.entropy as entropy

    text = "\n".join(values) * 3
    expected = [m.span() for m in _CANDIDATE.finditer(text)]
    kept = entropy._WINDOW
    entropy._WINDOW = window
    try:
        assert list(candidate_runs(text)) == expected
    finally:
        entropy._WINDOW = kept


@pytest.mark.slow
@SETTINGS
@given(MIXED, st.integers(min_value=1, max_value=80))
def test_prefixes_found_a_window_at_a_time_are_the_same(values: list[str], window: int) -> None:
    # Long texts are searched for literal prefixes a window at a time; any window gives the
    # same candidates and the same findings.
    import cclens.redact.scanner as scanner

    text = "\n".join(values) * 3
    whole = _SCANNER._candidates(text), _SCANNER.scan(text)
    kept = scanner._WINDOW
    scanner._WINDOW = window
    try:
        assert (_SCANNER._candidates(text), _SCANNER.scan(text)) == whole
    finally:
        scanner._WINDOW = kept
