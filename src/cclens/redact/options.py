"""What a caller can ask of the redaction engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RedactionOptions:
    """Settings for one :class:`~cclens.redact.Redactor`.

    Attributes:
        enabled: when false the redactor hands every value back unchanged (an explicit
            ``--no-redact`` in an export; never the default).
        extra_patterns: the user's own regular expressions; every match is replaced by
            ``[REDACTED:custom]``. A pattern with a group named ``secret`` has only that group
            replaced, so ``r"corp_id=(?P<secret>\\w+)"`` keeps ``corp_id=`` readable.
        anonymize_paths: replace home directories with ``~`` and the user name elsewhere in
            paths with ``user``.
        home: the home directory to replace, on top of the usual ``/Users/<name>``,
            ``/home/<name>`` and ``C:\\Users\\<name>`` shapes.
        user: the user name to hide inside paths; defaults to the last component of ``home``.
    """

    enabled: bool = True
    extra_patterns: tuple[str, ...] = ()
    anonymize_paths: bool = False
    home: str | None = None
    user: str | None = None
