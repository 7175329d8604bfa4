"""Secrets written in hexadecimal: ``echo -n $KEY | xxd -p``, a ``0x…`` literal, a hex dump.

A run of hex digits long enough to hold a credential is decoded; when its bytes are printable
text (a hash or a random key is not: its bytes are anything) and the rules find a secret in
that text, the whole run is redacted, as the kind found. Hashes, ids and hex colours decode
to bytes that are not text and are left alone at the cost of one ``bytes.fromhex``.

A pass of its own rather than a scanner rule: a rule must start with something rare, and hex
digits are everywhere.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from typing import Final

from cclens.redact.entropy import candidate_runs
from cclens.redact.scanner import KEEP, Finding

#: The shortest provider credential is 20 characters: 40 hex digits.
_SHORTEST: Final = 40
_LONGEST: Final = 8192
_RUN: Final = re.compile(
    rf"(?<![0-9A-Za-z_])(?:0[xX])?(?P<run>[0-9A-Fa-f]{{{_SHORTEST},{_LONGEST}}})(?![0-9A-Za-z_])"
)
#: Hex of printable ASCII: every byte from 0x20 to 0x7E. A hash fails this at once.
_TEXT_HEX: Final = re.compile(r"(?:[2-7][0-9A-Fa-f])+")

Scan = Callable[[str], list[Finding]]


def find_hex_secrets(
    text: str,
    findings: list[Finding],
    scan: Scan,
    runs: Iterable[tuple[int, int]] | None = None,
) -> list[Finding]:
    """Hex runs of ``text`` that hold a secret ``scan`` finds once decoded, and that no
    finding of ``findings`` (sorted) already touches; sorted. ``runs``:
    ``candidate_runs(text)`` when the caller has them already."""
    found: list[Finding] = []
    starts = [finding.start for finding in findings]
    # Hex runs are runs of base64 characters: looked for only inside those (found in C).
    matches = (
        match
        for low, high in (candidate_runs(text) if runs is None else runs)
        if high - low >= _SHORTEST
        for match in _RUN.finditer(text, low, high)
    )
    for match in matches:
        run = match.group("run")
        if _TEXT_HEX.fullmatch(run) is None:
            continue
        start, end = match.span("run")
        at = bisect.bisect_left(starts, end) - 1
        if at >= 0 and findings[at].end > start:
            continue  # a finding already touches it
        decoded = bytes.fromhex(run).decode("ascii")
        inner = [finding for finding in scan(decoded) if finding.kind != KEEP]
        if inner:
            found.append(Finding(start, end, inner[0].kind))
    return found


__all__ = ["find_hex_secrets"]
