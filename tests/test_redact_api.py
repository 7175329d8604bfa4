"""The public API of ``cclens.redact``: options, counts, custom patterns, path anonymisation."""

from __future__ import annotations

import dataclasses
import re

import pytest

import cclens.redact
from cclens.redact import KINDS, RedactionOptions, Redactor
from tests.data import fake_secrets as fake

TOKEN = "ghp_" + fake.pick(fake.ALNUM, 36)


def test_all_is_sorted_and_resolves() -> None:
    exported = list(cclens.redact.__all__)
    assert exported == sorted(exported, key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
    for name in exported:
        assert hasattr(cclens.redact, name)


def test_kinds_are_sorted_and_cover_every_provider_format() -> None:
    assert list(KINDS) == sorted(KINDS)
    for secret in fake.provider_secrets():
        assert secret.kind in KINDS
    for kind in ("private-key", "url-password", "env-assignment", "bearer-token", "secret-field"):
        assert kind in KINDS


def test_options_are_frozen_with_safe_defaults() -> None:
    options = RedactionOptions()
    assert options.enabled and not options.anonymize_paths and options.extra_patterns == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.enabled = False  # type: ignore[misc]


def test_disabled_redactor_changes_nothing() -> None:
    redactor = Redactor(RedactionOptions(enabled=False))
    text = f"export GITHUB_TOKEN={TOKEN}"
    assert redactor.text(text) is text
    assert dict(redactor.counts) == {}


def test_counts_add_up_across_calls_and_are_read_only() -> None:
    redactor = Redactor()
    counts = redactor.counts
    redactor.text(f"a {TOKEN} b {TOKEN}")
    redactor.json({"command": f"echo {TOKEN}", "password": "hunter2!x"})
    assert counts == {"github-token": 3, "secret-field": 1}  # a live view
    with pytest.raises(TypeError):
        counts["github-token"] = 0  # type: ignore[index]


def test_extra_patterns_are_redacted_as_custom() -> None:
    redactor = Redactor(
        RedactionOptions(extra_patterns=(r"ACME-\d{6}", r"project (?P<secret>\w+)"))
    )
    text = "ticket ACME-123456 for project zephyr and ACME-654321"
    assert redactor.text(text) == (
        "ticket [REDACTED:custom] for project [REDACTED:custom] and [REDACTED:custom]"
    )
    assert redactor.counts == {"custom": 3}


def test_extra_patterns_run_with_the_built_in_rules() -> None:
    redactor = Redactor(RedactionOptions(extra_patterns=(r"internal-\w+",)))
    assert redactor.text(f"internal-host {TOKEN}") == ("[REDACTED:custom] [REDACTED:github-token]")


@pytest.mark.parametrize(
    ("pattern", "message"),
    [("ACME-(", "invalid redaction pattern 'ACME-('"), ("x*", "matches the empty string")],
)
def test_bad_extra_patterns_are_refused_clearly(pattern: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Redactor(RedactionOptions(extra_patterns=("fine", pattern)))


def test_json_keeps_keys_types_and_containers() -> None:
    value = {
        "password": "hunter2!x",
        "tuple": ("a", 1, 2.5, None, True),
        "nested": [{"Authorization": "Bearer abc123def456"}],
        7: "seven",
    }
    redacted = Redactor().json(value)
    assert redacted == {
        "password": "[REDACTED:secret-field]",
        "tuple": ("a", 1, 2.5, None, True),
        "nested": [{"Authorization": "[REDACTED:secret-field]"}],
        7: "seven",
    }
    assert value["password"] == "hunter2!x"  # a copy is returned


def anonymizer(**options: object) -> Redactor:
    return Redactor(RedactionOptions(anonymize_paths=True, **options))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/Users/alice/src/app.py", "~/src/app.py"),
        ("cd /home/bob && ls", "cd ~ && ls"),
        (r"C:\Users\carol\repo\main.rs", r"~\repo\main.rs"),
        (r'{"cwd": "C:\\Users\\carol\\repo"}', r'{"cwd": "~\\repo"}'),
        ("C:/Users/carol/repo", "~/repo"),
        (
            "~/.claude/projects/-Users-alice-src-app/x.jsonl",
            "~/.claude/projects/-Users-user-src-app/x.jsonl",
        ),
        ("/Users/Shared/data.csv", "/Users/Shared/data.csv"),
        ("alice wrote /Users/alice/notes.md", "alice wrote ~/notes.md"),
    ],
)
def test_home_directories_become_tilde(text: str, expected: str) -> None:
    assert anonymizer().text(text) == expected


def test_given_home_and_user_name_are_hidden_in_paths_only() -> None:
    redactor = anonymizer(home="/srv/people/dave")
    text = "dave ran /srv/people/dave/bin/x and wrote /var/cache/dave-build/out.log"
    assert redactor.text(text) == "dave ran ~/bin/x and wrote /var/cache/user-build/out.log"
    assert redactor.counts == {"home-directory": 1, "user-name": 1}


def test_explicit_user_name() -> None:
    redactor = anonymizer(user="erin")
    assert redactor.text("/tmp/erin/cache and erin") == "/tmp/user/cache and erin"


def test_paths_are_left_alone_unless_asked() -> None:
    assert Redactor().text("/Users/alice/src") == "/Users/alice/src"


def test_secrets_and_paths_together() -> None:
    redactor = anonymizer()
    assert redactor.text(f"/Users/alice/.env: GITHUB_TOKEN={TOKEN}") == (
        "~/.env: GITHUB_TOKEN=[REDACTED:github-token]"
    )
