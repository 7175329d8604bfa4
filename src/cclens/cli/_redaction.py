"""The redaction options every command that writes sessions out shares.

``--no-redact``, ``--redact-pattern REGEX`` and ``--anonymize-paths``, the
:class:`~cclens.redact.Redactor` they describe, and the one-line summary of what was removed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from ..redact import Redactor

F = TypeVar("F", bound=Callable[..., Any])


def redaction_options(function: F) -> F:
    """``--no-redact``, ``--redact-pattern`` and ``--anonymize-paths``."""
    options = [
        click.option(
            "--no-redact",
            is_flag=True,
            help="Keep secrets (API keys, tokens, passwords) as they are.",
        ),
        click.option(
            "--redact-pattern",
            "redact_patterns",
            multiple=True,
            metavar="REGEX",
            help="Also redact what this regular expression matches (repeatable).",
        ),
        click.option(
            "--anonymize-paths",
            is_flag=True,
            help="Replace the home directory with ~ and the user name in paths with 'user'.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def redactor(no_redact: bool, patterns: Sequence[str], anonymize_paths: bool) -> Redactor:
    """The redactor the options describe (a bad pattern is a usage error)."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as error:
            message = f"{pattern!r}: {error}"
            raise click.BadParameter(message, param_hint="--redact-pattern") from None
    from ..redact import RedactionOptions, Redactor

    return Redactor(
        RedactionOptions(
            enabled=not no_redact,
            extra_patterns=tuple(patterns),
            anonymize_paths=anonymize_paths,
        )
    )


def redaction_summary(redaction: Redactor, counts: Mapping[str, int] | None = None) -> str:
    """One line saying what was redacted (``counts``: when the work was done elsewhere, as by
    worker processes; else the redactor's own)."""
    if not redaction.options.enabled:
        return "Redaction was off (--no-redact)."
    counts = redaction.counts if counts is None else counts
    if not counts:
        return "No secrets found to redact."
    total = sum(counts.values())
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(counts.items()))
    return f"Redacted {total:,} secrets: {kinds}."
