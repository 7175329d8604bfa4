"""The high-entropy detector: calibrated on random keys, quiet on identifiers."""

from __future__ import annotations

import random
import string
import uuid

import pytest

from cclens.redact import Redactor
from cclens.redact.entropy import (
    MAX_WORDINESS,
    MIN_CLASS_CHANGES,
    class_changes,
    entropy_threshold,
    looks_random,
    shannon_entropy,
    wordiness,
)

from .conftest import sampled

ALPHABETS = {
    "base64": string.ascii_letters + string.digits + "+/",
    "base64url": string.ascii_letters + string.digits + "-_",
    "base62": string.ascii_letters + string.digits,
}


def test_shannon_entropy() -> None:
    assert shannon_entropy("") == 0.0
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abab") == 1.0
    assert shannon_entropy("abcdefgh") == 3.0


@pytest.mark.parametrize("alphabet", ALPHABETS)
@pytest.mark.parametrize("length", sampled([32, 40, 48, 64, 100, 200, 500], quick=3))
def test_random_keys_are_caught(alphabet: str, length: int) -> None:
    """The thresholds let through at most a few per thousand random keys of each shape."""
    rng = random.Random(f"{alphabet}-{length}")
    characters = ALPHABETS[alphabet]
    samples = ["".join(rng.choice(characters) for _ in range(length)) for _ in range(1000)]
    # Keys without one of the three classes are out of scope by design (checked below).
    mixed = [s for s in samples if _has_all_classes(s)]
    missed = [s for s in mixed if not looks_random(s)]
    assert len(missed) <= 0.005 * len(mixed), missed[:5]


def test_threshold_sits_below_random_strings() -> None:
    rng = random.Random(1)
    for length in (32, 48, 64, 128):
        values = sorted(
            shannon_entropy("".join(rng.choice(ALPHABETS["base64"]) for _ in range(length)))
            for _ in range(2000)
        )
        assert values[2] >= entropy_threshold(length) - 0.05  # the first per-mille


def _has_all_classes(value: str) -> bool:
    return (
        any(c.isdigit() for c in value)
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
    )


IDENTIFIERS = [
    "3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",  # git commit
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # sha-256
    str(uuid.UUID(int=0x1234567890ABCDEF1234567890ABCDEF)),
    "toolu_01A09q90qw90lq917835lq9XyZ7Abc",
    "msg_01XFDUDYJgAACzvnptvVoYELabcdef12",
    "req_011CUAbcdEFGhijKLmnoPQRs4567890",
    "handleUserAuthenticationRequestWithTimeout2024",
    "getServerSidePropsForDashboardPage2Component",
    "Qwen3-Next-80B-A3B-Instruct-2507-FP8-dynamic",
    "claude-3-5-sonnet-20241022-with-extended-thinking",
    "MAX_CONCURRENT_REQUESTS_PER_CONNECTION_2",
    "test_redaction_of_nested_json_structures_is_idempotent",
    "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
    "k3b5fnw91x6gdv9yvs5y9pm0000gnk3b5fnw91x6",  # base32-ish lowercase
]


@pytest.mark.parametrize("value", IDENTIFIERS)
def test_identifiers_are_not_random(value: str) -> None:
    assert not looks_random(value)
    assert Redactor().text(f"see {value} here") == f"see {value} here"


def test_the_measures_separate_names_from_keys() -> None:
    assert class_changes("claude-3-5-sonnet-20241022") < MIN_CLASS_CHANGES
    assert wordiness("getServerSidePropsForDashboardPage2Component") >= MAX_WORDINESS
    key = "Xk9Qm2Lp7Rt4Vn8Bw3Hj6Fd1Sg5Zc0Ya"
    assert class_changes(key) >= MIN_CLASS_CHANGES and wordiness(key) < MAX_WORDINESS


def test_a_token_inside_a_url_path_goes_and_the_rest_stays() -> None:
    token = "Xk9Qm2Lp7Rt4Vn8Bw3Hj6Fd1Sg5Zc0YaUe4Wi"
    text = f"https://files.example.com/share/{token}/download"
    assert Redactor().text(text) == (
        "https://files.example.com/share/[REDACTED:high-entropy]/download"
    )


def test_blobs_longer_than_a_key_are_left_alone() -> None:
    rng = random.Random(3)
    blob = "".join(rng.choice(ALPHABETS["base64"]) for _ in range(5000))
    assert Redactor().text(blob) == blob
