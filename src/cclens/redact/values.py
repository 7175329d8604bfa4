"""Predicates on candidate secret values that every detector shares.

A value that merely *refers* to a secret (``$TOKEN``, ``${{ secrets.X }}``, ``{{ vault_pw }}``,
``<your-key>``) or that was already redacted is left alone: redacting it would hide nothing and
would make the output less readable, and skipping markers keeps redaction idempotent.
"""

from __future__ import annotations

import re
from typing import Final

from cclens.redact.ids import is_generated_id

MARKER_PREFIX: Final = "[REDACTED:"


def marker(kind: str) -> str:
    """The text that replaces a secret of ``kind``."""
    return f"{MARKER_PREFIX}{kind}]"


# Anchored at the start of a value: shell and CI expansions, template engines, angle-bracket
# placeholders, printf-style fields, masked or elided values, and our own markers.
_REFERENCE: Final = re.compile(
    r"""
    \$\{ | \$\( | \$[A-Za-z_] | \$\$         # ${VAR} $(cmd) $VAR
    | \{\{ | \{% | <%= | \#\{                  # {{ jinja }} {% tag %} <%= erb %> #{ruby}
    | <[A-Za-z_][\w .-]*> | <\.\.\.>           # <your-api-key>
    | %\([A-Za-z_]\w*\)[sd] | %[A-Z_]+% | %s\b  # %(name)s %VAR% %s
    | \*{3,} | x{4,} | X{4,} | \.{3} | …       # masked or elided
    | \[REDACTED: | \[redacted\] | REDACTED\b
    | your[_-] | YOUR[_-]
    | process\.env\b | os\.environ\b | os\.getenv\b | ENV\[ | env\(
    """,
    re.VERBOSE,
)

# Literals that are configuration words or types, not secrets (``credentials: "include"`` in a
# fetch call, ``password: str`` in a signature, ``token: null`` in JSON).
IGNORED_VALUES: Final = frozenset(
    {
        "true", "false", "yes", "no", "on", "off", "none", "null", "nil", "undefined",
        "include", "same-origin", "omit", "required", "optional", "default", "empty",
        "str", "string", "int", "integer", "number", "bool", "boolean", "bytes", "any", "object",
        "unknown", "secretstr", "secret", "password", "token", "changeme", "example", "test",
        "dummy", "placeholder", "redacted", "hidden", "masked", "n/a", "tbd", "todo",
    }
)  # fmt: skip

_NUMBER: Final = re.compile(r"[+-]?\d+(?:\.\d+)?")
_PATH: Final = re.compile(r"(?:~|\.{1,2})?/[\w.@+-]|[A-Za-z]:[\\/]|\\\\[\w.-]")
_PUBLIC_KEY: Final = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-|sk-(?:ssh|ecdsa)-)\S*\s+AAAA"
    r"|-----BEGIN (?:PUBLIC KEY|CERTIFICATE|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK)-----"
)


def is_reference(value: str) -> bool:
    """True when ``value`` names a secret held elsewhere, or was already redacted."""
    return _REFERENCE.match(value) is not None or MARKER_PREFIX in value


def is_inert(value: str) -> bool:
    """True when ``value`` cannot be a secret worth hiding: empty, a reference, a config word,
    a short number, a filesystem path, a public key or an id Claude Code or a model API
    generated (``toolu_…``, ``msg_…``, ``req_…``: see ``ids.py``)."""
    stripped = value.strip()
    if len(stripped) < 3 or is_reference(stripped) or not any(c.isalnum() for c in stripped):
        return True
    if is_generated_id(stripped):
        return True
    if stripped.lower() in IGNORED_VALUES:
        return True
    # Short numbers are counts, ports and limits; long digit strings can be PINs or ids.
    if _NUMBER.fullmatch(stripped) and len(stripped) < 8:
        return True
    return is_path(stripped) or _PUBLIC_KEY.match(stripped) is not None


# Names whose values are machine-made credentials. A value under them must look like one: the
# "token" of a tokenizer ("[PAD]", "music") or an "auth" mode ("oauth2") is not a secret, while
# a password may well be a plain word.
_MACHINE_MADE: Final = frozenset({"token", "key", "auth", "credential"})


def is_plausible_secret(word: str, value: str) -> bool:
    """True when ``value``, stored under a name of secret kind ``word`` (see
    :func:`cclens.redact.names.secret_word`), can be the secret itself."""
    if is_inert(value):
        return False
    if word not in _MACHINE_MADE:
        return True
    stripped = value.strip()
    has_digit = any(c.isdigit() for c in stripped)
    mixed_case = any(c.isupper() for c in stripped) and any(c.islower() for c in stripped)
    return len(stripped) >= 8 and (has_digit or mixed_case or len(stripped) >= 16)


def is_path(value: str) -> bool:
    """True when ``value`` looks like a filesystem path rather than a token.

    A long base64 secret may start with ``/`` too, so a value with a long mixed-case-and-digit
    stretch is not taken for a path.
    """
    if _PATH.match(value) is None:
        return False
    return not any(_looks_random(part) for part in re.split(r"[/\\]", value))


def _looks_random(part: str) -> bool:
    return (
        len(part) >= 20
        and any(c.isdigit() for c in part)
        and any(c.isupper() for c in part)
        and any(c.islower() for c in part)
    )
