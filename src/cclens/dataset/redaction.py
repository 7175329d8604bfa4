"""What the dataset and trace exports need from a redactor.

:class:`cclens.redact.Redactor` provides it; the exports only depend on this protocol, so they
can be given any redactor (one with extra patterns, one that anonymizes paths, or one built
with ``RedactionOptions(enabled=False)`` for ``--no-redact``).
"""

from __future__ import annotations

from typing import Any, Protocol


class Redaction(Protocol):
    """Replaces secrets in text and in JSON values."""

    def text(self, value: str) -> str:
        """``value`` with every secret replaced by a ``[REDACTED:<kind>]`` marker."""
        ...

    def json(self, value: Any) -> Any:
        """A copy of the JSON ``value`` with every string redacted."""
        ...


__all__ = ["Redaction"]
