"""Secrets as terminals and editors leave them: split by a line break, an ANSI colour code or
a zero-width character; passwords given as command-line flags; keys written in hex.

Each provider credential of the fake set is split at several places by each kind of
insertion and must vanish (every character of it) from the redacted text, counted under its
kind; ordinary text with the same insertions stays as it is.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cclens.redact import Redactor
from tests.data import fake_secrets as fake

PROVIDERS = [secret for secret in fake.provider_secrets() if len(secret.must_vanish) >= 24]
INSERTIONS = {
    "newline": "\n",
    "crlf": "\r\n",
    "ansi reset": "\x1b[0m",
    "ansi colour": "\x1b[1;32m",
    "ansi erase": "\x1b[K",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte-order mark": "\ufeff",
    "soft hyphen": "\u00ad",
}


def _split(value: str, at: int, insertion: str) -> str:
    return value[:at] + insertion + value[at:]


def _cases() -> list[Any]:
    cases: list[Any] = []
    for index, secret in enumerate(PROVIDERS):
        for name, insertion in INSERTIONS.items():
            cases.append(pytest.param(secret, insertion, id=f"{secret.kind}-{index}-{name}"))
    return cases


def _pieces(secret: str, insertion: str, at: int) -> list[str]:
    """The two halves of a split secret, and the secret itself, none of which may survive."""
    return [secret[:at], secret[at:]] if insertion else [secret]


@pytest.mark.parametrize(("secret", "insertion"), _cases())
def test_a_split_secret_is_redacted(secret: fake.FakeSecret, insertion: str) -> None:
    value = secret.value
    sensitive = secret.must_vanish
    offset = value.index(sensitive)
    for fraction in (0.3, 0.5, 0.8):
        at = offset + max(6, int(len(sensitive) * fraction))
        split = _split(value, at, insertion)
        for template in ("{}", "Here is my key: {} — does it work?", "export TOKEN={}\n"):
            redactor = Redactor()
            text = template.format(split)
            redacted = redactor.text(text)
            cut = at - offset
            for piece in (sensitive[:cut], sensitive[cut:]):
                assert piece[-12:] not in redacted, (text, redacted)
            assert sum(redactor.counts.values()) >= 1
            assert Redactor().text(redacted) == redacted  # stable


def test_a_colourised_terminal_line_is_redacted_and_keeps_its_colours() -> None:
    token = fake.provider_secrets()[0].value
    line = f"\x1b[32m$\x1b[0m export GH=\x1b[1m{token[:10]}\x1b[0m{token[10:]}\x1b[0m done"
    redacted = Redactor().text(line)
    assert token[10:][-8:] not in redacted and token[:10] not in redacted
    assert redacted.startswith("\x1b[32m$\x1b[0m export GH=") and redacted.endswith("done")


ORDINARY = [
    "import os\nimport sys\nfrom pathlib import Path\n",
    "\x1b[1mBold\x1b[0m and \x1b[32mgreen\x1b[0m text, nothing secret\n",
    "a zero\u200bwidth space in prose, and a soft\u00adhyphen",
    "sha256: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b\n"
    "sha256: 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f\n",
    "2024-06-01T12:00:00Z INFO build succeeded in 12.3 s\n" * 3,
    "mkdir -p /tmp/x && ssh -p 2222 host && docker run -p 8080:80 nginx",
    "pip install -r requirements.txt --user && pytest -q -p no:cacheprovider",
    "grep -n 'password' src/*.py | head",
    "docker login registry.example.com",
    "mysql -u root -p mydb   # asks for the password",
    "git log --pretty=%H\n" + "\n".join(f"{i:040x}" for i in range(5)),
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_with_the_same_insertions_is_left_alone(text: str) -> None:
    redactor = Redactor()
    assert redactor.text(text) == text, dict(redactor.counts)


PASSWORD = "Tr0ub4dor-and-3"
FLAGS = [
    f"docker login -u bob -p {PASSWORD} registry.example.com",
    f"docker login --username bob --password {PASSWORD}",
    f"podman login -u bob -p {PASSWORD} quay.io",
    f"echo hi | docker login -p {PASSWORD} -u bob",
    f"mysql -u root -p{PASSWORD} shop",
    f"mysqldump -uroot -p{PASSWORD} shop > shop.sql",
    f"mysql -h db -u root -p'{PASSWORD}' shop",
    f'mariadb --user=root --password="{PASSWORD}" shop',
    f"sshpass -p {PASSWORD} ssh bob@host",
    f"sshpass -p'{PASSWORD}' scp a bob@host:",
    f"redis-cli -h cache -a {PASSWORD} ping",
    f"openssl pkcs12 -in a.p12 -passin pass:{PASSWORD} -out a.pem",
    f"htpasswd -b -c .htpasswd bob {PASSWORD}",
    f"smbclient //host/share -U bob%{PASSWORD}",
    f"some-tool --password {PASSWORD}",
    f"some-tool --db-password={PASSWORD}",
    f"psql postgresql://bob:{PASSWORD}@db/shop",
]


@pytest.mark.parametrize("command", FLAGS)
def test_command_line_passwords_are_redacted(command: str) -> None:
    redactor = Redactor()
    redacted = redactor.text(command)
    assert PASSWORD not in redacted, redacted
    assert sum(redactor.counts.values()) == 1, dict(redactor.counts)
    data = json.dumps({"command": command})
    assert PASSWORD not in json.dumps(Redactor().json(json.loads(data)))


@pytest.mark.parametrize("secret", PROVIDERS[:12], ids=lambda secret: secret.kind)
def test_hex_encoded_keys_are_redacted(secret: fake.FakeSecret) -> None:
    encoded = secret.value.encode().hex()
    for text in (encoded, f"key = 0x{encoded}", f"echo {encoded.upper()} | xxd -r -p"):
        redactor = Redactor()
        redacted = redactor.text(text)
        assert encoded[8:40].lower() not in redacted.lower(), redacted
        assert sum(redactor.counts.values()) >= 1


def test_the_no_secrets_message_is_true_for_split_secrets() -> None:
    """What the exports print comes from the counts: a split secret is counted."""
    from cclens.cli._redaction import redaction_summary

    secret = PROVIDERS[0].value
    redactor = Redactor()
    redactor.json({"text": _split(secret, 12, "\u200b")})
    assert "No secrets found" not in redaction_summary(redactor)
