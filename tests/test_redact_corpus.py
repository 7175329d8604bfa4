"""The redactor on real transcripts, on hostile input, and next to ``detect-secrets``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cclens.redact import Redactor
from tests.conftest import corpus_files, sampled
from tests.data import fake_secrets as fake
from tests.test_redact_secrets import CONTEXTS, HEADER_CONTEXTS, URL_SHAPED


def records_of(path: Path) -> list[Any]:
    records = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            continue  # the corpus holds deliberately malformed lines
    return records


@pytest.mark.slow
def test_every_corpus_record_redacts_without_error_and_without_false_alarms(
    corpus: Path,
) -> None:
    """The shared corpus holds no credentials, so anything found there is a false positive.

    (Thinking signatures, images and other base64 payload fields are passed through by
    ``json()``; see ``test_redact_false_positives.py`` for the structures.)
    """
    redactor = Redactor()
    records = 0
    for path in corpus_files():
        for record in records_of(path):
            redacted = redactor.json(record)
            assert Redactor().json(redacted) == redacted
            records += 1
    assert records > 1000
    assert dict(redactor.counts) == {}


@pytest.mark.slow
def test_raw_corpus_lines_redact_without_error(corpus: Path) -> None:
    """As text, whole JSONL lines only lose their opaque thinking signatures."""
    for path in corpus_files():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            redactor = Redactor()
            redacted = redactor.text(line)
            assert Redactor().text(redacted) == redacted
            assert set(redactor.counts) <= {"high-entropy"}, (path, dict(redactor.counts))


HOSTILE = {
    "one letter": "a" * 1_000_000,
    "keywords": "token: " * 50_000,
    "assignments": "password=" * 50_000,
    "begin lines": "-----BEGIN RSA PRIVATE KEY-----" * 10_000,
    "open key block": "-----BEGIN RSA PRIVATE KEY-----\n" + ("A" * 64 + "\n") * 5_000,
    "scheme and colons": "://" + ":" * 100_000,
    "password without host": "https://u:" + "p" * 200_000,
    "prefixes": "sk-" * 100_000,
    "jwt starts": "eyJ" * 100_000,
    "suffixes": "API" + "_KEY" * 50_000 + "=abc",
    "base64": "Ab0+" * 500_000,
    "bearer": "Bearer " * 50_000,
    "quotes": '"password": "' + "a" * 100_000,
    "xml": "<password>" * 50_000,
    "yaml on one line": "password: abc1 " * 50_000,
    "headers on one line": "Authorization: Bearer abc " * 30_000,
    "curl users on one line": " -u a:b" * 50_000,
    "putty headers": "PuTTY-User-Key-File-2: " * 30_000,
    "cookies on one line": "Cookie: " * 50_000,
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("text", sampled(HOSTILE.values(), quick=4), ids=list(HOSTILE))
def test_hostile_input_finishes(text: str) -> None:
    """A rule that backtracks catastrophically never finishes on these; linear ones take
    seconds. The timeout guards against a hang; the speed itself is measured by
    ``benchmarks/redact.py``, not asserted here."""
    redacted = Redactor().text(text)
    assert isinstance(redacted, str)


CROSS_CHECK_CONTEXTS = ("bare", "dotenv", "curl header", "json text", "python", "yaml")
detect_secrets_cases = [
    pytest.param(secret, CONTEXTS[name], id=f"{secret.kind}-{index}-{name}")
    for index, secret in enumerate(fake.provider_secrets())
    for name in CROSS_CHECK_CONTEXTS
    if not (secret.kind in URL_SHAPED and name in HEADER_CONTEXTS)
]


@pytest.mark.slow
@pytest.mark.parametrize(("secret", "template"), detect_secrets_cases)
def test_whatever_detect_secrets_finds_is_redacted(
    secret: fake.FakeSecret, template: str, tmp_path: Path
) -> None:
    """Cross-check with Yelp's detect-secrets when it is installed (it is not a dependency):
    every secret its detectors report, after its own false-positive filters, is gone here."""
    collection = pytest.importorskip("detect_secrets.core.secrets_collection")
    settings = pytest.importorskip("detect_secrets.settings")
    text = template.format(secret=secret.value)
    sample = tmp_path / "sample.txt"
    sample.write_text(text, encoding="utf-8")
    with settings.default_settings():
        found = collection.SecretsCollection()
        found.scan_file(str(sample))
    redacted = Redactor().text(text)
    for secrets in found.data.values():
        for item in secrets:
            assert item.secret_value not in redacted, (item.type, item.secret_value)
