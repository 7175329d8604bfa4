"""Secrets written in hexadecimal: ``echo -n $KEY | xxd -p``, a ``0x…`` literal, a hex dump.

A run of hex digits long enough to hold a credential is decoded; when its bytes are printable
text (a hash or a random key is not: its bytes are anything) and the rules find a secret in
that text, the whole run is redacted, as the kind found. Hashes, ids and hex colours decode
to bytes that are not text and are left alone at the cost of one ``bytes.fromhex``.

A pass of its own rather than a scanner rule: a rule must start with something rare, and hex
digits are everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from cclens.redact.scanner import KEEP, Finding

#: The shortest provider credential is 20 characters: 40 hex digits.
_SHORTEST: Final = 40
_LONGEST: Final = 8192
_RUN: Final = re.compile(
    rf"(?<![0-9A-Za-z_])(?:0[xX])?(?P<run>[0-9A-Fa-f]{{{_SHORTEST},{_LONGEST}}})(?![0-9A-Za-z_])"
)
_ANY_RUN: Final = re.compile(rf"[0-9A-Fa-f]{{{_SHORTEST}}}")
_PRINTABLE: Final = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D}

Scan = Callable[[str], list[Finding]]


def find_hex_secrets(text: str, findings: list[Finding], scan: Scan) -> list[Finding]:
    """Hex runs of ``text`` that hold a secret ``scan`` finds once decoded, and that no
    finding of ``findings`` (sorted) already touches; sorted."""
    if _ANY_RUN.search(text) is None:
        return []
    found: list[Finding] = []
    taken = [(finding.start, finding.end) for finding in findings]
    for match in _RUN.finditer(text):
        start, end = match.span("run")
        if len(match.group("run")) % 2 or _overlaps(taken, start, end):
            continue
        data = bytes.fromhex(match.group("run"))
        if not _PRINTABLE.issuperset(data):
            continue
        inner = [finding for finding in scan(data.decode("ascii")) if finding.kind != KEEP]
        if inner:
            found.append(Finding(start, end, inner[0].kind))
    return found


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(low < end and start < high for low, high in taken)


__all__ = ["find_hex_secrets"]
