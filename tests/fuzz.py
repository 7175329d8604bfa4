"""Hostile transcript lines made from real ones: the fuzz suite's generator.

Each line is a line of the shared corpus changed by one mutation, chosen at random (seeded):
cut short, binary junk inserted, a byte changed, a value anywhere replaced by one of another
type or nested thousands of levels deep, a huge or empty string, the model's reserved keys, a
lone UTF-16 surrogate, a byte-order mark, a carriage return, a number no double holds, a line
that is not an object at all, or a string that holds a fake credential cut in two by what a
terminal or an editor inserts (a line break, an ANSI colour code, a zero-width character): each
planted one is listed in :data:`PLANTED`, so a test can check that no export shows it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from cclens.model import RECORD_TYPES

from .data.fake_secrets import provider_secrets

Mutation = Callable[[random.Random, bytes], bytes]

#: Credentials long enough to be cut anywhere, and what a terminal or an editor inserts.
_SPLIT_SECRETS = [
    secret.value
    for secret in provider_secrets()
    if len(secret.value) >= 32 and secret.value == secret.must_vanish
]
_INSERTIONS = ["\n", "\r\n", "\x1b[0m", "\x1b[1;31m", "\u200b", "\u00ad", "\ufeff", "\u2060"]
#: The two pieces of every credential planted cut in two (neither may survive redaction).
PLANTED: list[tuple[str, str]] = []


def _deep(rng: random.Random) -> bytes:
    depth = rng.choice([65, 100, 1000, 3000])
    if rng.random() < 0.5:
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


def _hostile(rng: random.Random) -> bytes:
    """A JSON value (as text) of a shape nobody expects."""
    choices: list[Callable[[], Any]] = [
        lambda: "x" * rng.choice([0, 1, 5000, 200_000]),
        lambda: rng.choice([0, -1, 2**53 + 1, 2**70, -(2**64), 1e308, 5e-324, 0.5]),
        lambda: rng.choice([True, False, None]),
        lambda: [],
        lambda: {},
        lambda: [rng.choice([1, "a", None, {}, []]) for _ in range(rng.randrange(5))],
        lambda: {"type": rng.choice([*sorted(RECORD_TYPES), "zzz", "__unknown__", ""])},
        lambda: {"__extra__": {"x": 1}},
        lambda: {"type": "__unknown__", "__raw__": [1]},
        lambda: "\u2028\u0000\ufeff😀\U0010ffff",
    ]
    if rng.random() < 0.1:
        return _deep(rng)
    return json.dumps(rng.choice(choices)(), ensure_ascii=rng.random() < 0.5).encode()


_PLACEHOLDER = "\x00hostile\x00"


def _places(value: Any) -> list[tuple[Any, Any]]:
    """Every ``(container, key)`` of a JSON value."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                found.append((node, key))
                stack.append(child)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                found.append((node, index))
                stack.append(child)
    return found


def _replace_value(rng: random.Random, line: bytes) -> bytes:
    value = json.loads(line)
    places = _places(value)
    if not places:
        return _hostile(rng)
    container, key = rng.choice(places)
    container[key] = _PLACEHOLDER
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()
    return text.replace(json.dumps(_PLACEHOLDER).encode(), _hostile(rng), 1)


def _split_secret(rng: random.Random, line: bytes) -> bytes:
    """A string of the line replaced by one holding a fake credential cut in two."""
    value = json.loads(line)
    places = [(c, k) for c, k in _places(value) if isinstance(c[k], str)]
    if not places:
        return line
    secret = rng.choice(_SPLIT_SECRETS)
    at = rng.randrange(10, len(secret) - 10)
    PLANTED.append((secret[:at], secret[at:]))
    container, key = rng.choice(places)
    cut = secret[:at] + rng.choice(_INSERTIONS) + secret[at:]
    template = rng.choice(["token: {}", "{}", "export API_TOKEN={} && run", "see {} now"])
    container[key] = template.format(cut)
    return json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()


def _drop_key(rng: random.Random, line: bytes) -> bytes:
    value = json.loads(line)
    places = [(c, k) for c, k in _places(value) if isinstance(c, dict)]
    if places:
        container, key = rng.choice(places)
        del container[key]
    return json.dumps(value).encode()


def _truncate(rng: random.Random, line: bytes) -> bytes:
    return line[: rng.randrange(len(line))] if line else line


def _junk(rng: random.Random, line: bytes) -> bytes:
    at = rng.randrange(len(line) + 1)
    junk = rng.randbytes(rng.randrange(1, 40)).replace(b"\n", b"")
    return line[:at] + junk + line[at:]


def _flip(rng: random.Random, line: bytes) -> bytes:
    if not line:
        return line
    at = rng.randrange(len(line))
    byte = rng.choice([b"\x00", b"{", b"}", b"[", b'"', b"\\", b"\xff", b"\xc3", b" "])
    return line[:at] + byte + line[at + 1 :]


def _surrogate(rng: random.Random, line: bytes) -> bytes:
    at = line.find(b'":"')
    escape = rng.choice([b"\\ud800", b"\\udfff", b"\\ud83d\\ude00", b"\\u0000", b"\\ud83d"])
    return line[: at + 3] + escape + line[at + 3 :] if at != -1 else line


def _number(rng: random.Random, line: bytes) -> bytes:
    at = line.find(b":0")
    if at == -1:
        at = line.find(b":1")
    text = rng.choice([b"1e400", b"-1e400", b"123456789012345678901234567890", b"NaN", b"1.5e"])
    return line[: at + 1] + text + line[at + 2 :] if at != -1 else line


def _wrap(rng: random.Random, line: bytes) -> bytes:
    depth = rng.choice([64, 65, 500, 5000])
    if rng.random() < 0.5:
        return b'{"type":"user","toolUseResult":' + b"[" * depth + line + b"]" * depth + b"}"
    return b"[" * depth + line + b"]" * depth


def _not_an_object(rng: random.Random, line: bytes) -> bytes:
    del line
    return rng.choice([b"[]", b"5", b"null", b'"x"', b"true", b"", b"   ", b"\t", b"\x00\x00"])


def _bom_or_return(rng: random.Random, line: bytes) -> bytes:
    return rng.choice([b"\xef\xbb\xbf" + line, line + b"\r", b"\xef\xbb\xbf", line + b"  "])


def _keep(rng: random.Random, line: bytes) -> bytes:
    del rng
    return line


MUTATIONS: tuple[Mutation, ...] = (
    _replace_value,
    _replace_value,
    _replace_value,
    _drop_key,
    _truncate,
    _junk,
    _flip,
    _surrogate,
    _number,
    _wrap,
    _not_an_object,
    _bom_or_return,
    _split_secret,
    _keep,
)


def fuzzed_lines(originals: list[bytes], count: int, seed: int) -> Iterator[bytes]:
    """``count`` lines, each an original changed by a mutation chosen with ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        line = rng.choice(originals)
        yield rng.choice(MUTATIONS)(rng, line)


def expected_malformed(data: bytes) -> set[int]:
    """The lines of a file that are surely malformed (not JSON for Python either, or not an
    object), by number; lines Python cannot judge (nested too deep for it) are left out."""
    malformed: set[int] = set()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for number, line in enumerate(data.split(b"\n")[:-1], start=1):
        line = line.removesuffix(b"\r")
        if not line.startswith(b"{") and not line.strip():
            continue
        try:
            value = json.loads(line.decode("utf-8"))
        except RecursionError:
            continue
        except ValueError:  # UnicodeDecodeError and JSONDecodeError
            malformed.add(number)
            continue
        if not isinstance(value, dict):
            malformed.add(number)
    return malformed
