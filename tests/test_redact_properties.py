"""Properties of the redactor on generated input: it never raises, and redacting twice is the
same as redacting once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cclens.redact import RedactionOptions, Redactor
from tests.data import fake_secrets as fake

# Pieces that make generated text look like what transcripts hold: secrets, key blocks, and
# the punctuation and names around them, glued together in any order.
SECRETS = [secret.value for secret in fake.provider_secrets()] + [
    *fake.private_keys(),
    fake.password(),
    fake.aws_secret_access_key(),
    fake.opaque_token(),
    fake.certificate(),
    fake.ssh_public_key(),
    fake.base64_blob(60),
]
GLUE = [
    " ", "\n", "\\n", "=", ": ", ":", '"', "'", "`", "{", "}", "[", "]", ",", ";", "&", "?", "/",
    "@", "-", "_", ".", "x", "A1", "API_KEY=", "export TOKEN=", "password: ", '"token": "',
    "Authorization: Bearer ", "Authorization: Basic ", "Cookie: ", "https://user:", "@host/",
    "postgres://", "?sig=", "&key=", "--token ", "curl -u admin:", "<password>", "</password>",
    "machine h login u password ", "-----BEGIN RSA PRIVATE KEY-----", "-----END EC PRIVATE KEY---",
    "data:image/png;base64,", "sha512-", "[REDACTED:github-token]", "${TOKEN}", "ssh-rsa AAAA",
    "PuTTY-User-Key-File-2: ", "Private-MAC: ", "sk-", "ghp_", "eyJ", "AKIA", "-us1", ":AA",
]  # fmt: skip

secretish_text = st.lists(
    st.one_of(st.sampled_from(SECRETS), st.sampled_from(GLUE), st.text(max_size=8)),
    max_size=16,
).map("".join)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | secretish_text,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["apiKey", "password", "token", "command", "content", "data", "type"])
            | st.text(max_size=6),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.text())
def test_text_never_raises_on_any_string(value: str) -> None:
    assert isinstance(Redactor().text(value), str)


@SETTINGS
@given(st.text())
def test_text_is_idempotent_on_any_string(value: str) -> None:
    once = Redactor().text(value)
    assert Redactor().text(once) == once


@pytest.mark.slow
@SETTINGS
@given(secretish_text)
def test_text_is_idempotent_on_secret_laden_strings(value: str) -> None:
    redactor = Redactor()
    once = redactor.text(value)
    again = Redactor()
    assert again.text(once) == once
    assert dict(again.counts) == {}  # nothing left to count the second time


@pytest.mark.slow
@SETTINGS
@given(json_values)
def test_json_is_idempotent_and_keeps_structure(value: Any) -> None:
    once = Redactor().json(value)
    assert Redactor().json(once) == once
    assert _shape(once) == _shape(value)


@pytest.mark.slow
@SETTINGS
@given(secretish_text)
def test_disabled_redactor_returns_its_input(value: str) -> None:
    redactor = Redactor(RedactionOptions(enabled=False))
    assert redactor.text(value) is value
    structure = {"password": value, "items": [value]}
    assert redactor.json(structure) is structure


@pytest.mark.slow
@SETTINGS
@given(
    st.sampled_from([secret for secret in fake.provider_secrets() if secret.must_vanish]),
    st.sampled_from([" ", "\n", '"', "'", "=", ": ", "(", ",", ""]),
    st.sampled_from([" ", "\n", '"', "'", ";", ",", ")", ""]),
    st.text(alphabet=st.characters(categories=["Zs", "P"]), max_size=5),
)
def test_a_separated_secret_never_survives(
    secret: fake.FakeSecret, before: str, after: str, noise: str
) -> None:
    text = f"{noise}{before}{secret.value}{after}{noise}"
    assert secret.must_vanish not in Redactor().text(text)


def _shape(value: Any) -> Any:
    """Everything but the strings: what redaction must preserve."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value]
    if isinstance(value, str):
        return str
    return json.dumps(value)


# Text made of token characters, line breaks (a ``\r`` before some) and what stands between.
_CHAIN_TEXT = st.text(alphabet="ab9_-+/=.~ \n\r\t\"'xZ\x1b\u200b", max_size=60)


@settings(max_examples=3000, deadline=None)
@given(_CHAIN_TEXT)
def test_wrapped_runs_are_found_as_their_expression_defines_them(text: str) -> None:
    """The chains of runs joined by line breaks (where a token may have been wrapped) are the
    spans the expression that defines them matches, found the faster way."""
    from cclens.redact.hidden import _CHAIN, _chains

    assert list(_chains(text)) == [match.span() for match in _CHAIN.finditer(text)]
