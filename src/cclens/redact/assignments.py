"""Secrets assigned to a secret-named field: ``.env`` lines, shell exports, YAML, JSON, code.

The scan is anchored on the secret word itself (``password``, ``token``, ``key`` …, each in
lower, Capitalized and UPPER case so every rule starts with a literal), followed by a
separator. The rest of the name is read backwards in Python, and the value is judged there
too, because what separates a secret from code is context a regular expression states badly:

* ``API_KEY=abc123`` and ``password: hunter2`` are secrets;
* ``token = tokenizer.next()``, ``password: str``, ``f(password=password)``,
  ``apiKey: process.env.API_KEY`` and ``password: ${{ secrets.DB }}`` are code or references;
* ``Authorization: Bearer …`` keeps its scheme, ``Cookie: …`` loses the whole header value.

Only the value is replaced, so ``API_KEY=[REDACTED:env-assignment]`` stays readable. When the
value is itself a known credential format the marker names that format instead.
"""

from __future__ import annotations

import re
from typing import Final

from cclens.redact.names import name_words, secret_word
from cclens.redact.patterns import classify
from cclens.redact.scanner import Hit, Outcome, Rule
from cclens.redact.values import MARKER_PREFIX, is_inert, is_plausible_secret, is_reference

ENV_ASSIGNMENT: Final = "env-assignment"
AWS_SECRET_ACCESS_KEY: Final = "aws-secret-access-key"
BEARER_TOKEN: Final = "bearer-token"
BASIC_AUTH: Final = "basic-auth"
COOKIE: Final = "cookie"
PRIVATE_KEY: Final = "private-key"

KEYWORDS: Final = (
    "password", "passwd", "passphrase", "passcode", "pass", "pwd", "secret", "token", "key",
    "authorization", "auth", "credentials", "credential", "creds", "dsn", "cookie",
)  # fmt: skip

_MAX_VALUE: Final = 4096
_SEPARATOR_AND_VALUE: Final = (
    r"(?P<suffix>(?:_[A-Z0-9]+){0,3})"  # SECRET_KEY_BASE: the secret word need not come last
    r"(?P<close>\\?[\"']\]?)?"  # closing quote of "apiKey", or ENV['TOKEN']
    r"(?P<sep>[ \t]*(?::=|=>|[?+]?=(?![=~>])|:(?![:/\\]))|[ \t]+(?=[^\s=:]))"
    r"[ \t]*"
    r"(?:"
    rf"\\\"(?P<escaped>(?:[^\"\\\n]|\\[^\"\n]){{0,{_MAX_VALUE}}})\\\""  # \"…\" inside JSON text
    rf"|\"(?P<double>(?:[^\"\\\n]|\\.){{0,{_MAX_VALUE}}})\""
    rf"|'(?P<single>(?:[^'\\\n]|\\.){{0,{_MAX_VALUE}}})'"
    rf"|`(?P<backtick>[^`\n]{{0,{_MAX_VALUE}}})`"
    rf"|(?P<bare>[^\s'\"`;&|<>(){{}}\[\],\\]{{1,{_MAX_VALUE}}})"
    r")?"
)
_QUOTED_GROUPS: Final = ("escaped", "double", "single", "backtick")

_NAME_CHARACTERS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$"
)
_MAX_NAME: Final = 128
_IDENTIFIER: Final = re.compile(r"[A-Za-z_$][\w$]*")
_DOTTED_IDENTIFIER: Final = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
# ${x}, {{ x }}, #{x}, {% x %}, and the {name} fields of f-strings and str.format.
_INTERPOLATION: Final = re.compile(r"\$\{|\{\{|#\{|\{%|\{[A-Za-z_][\w.\[\]'\"]*\}")
# Function words that give prose away: "Enter your password", "Invalid token".
_PROSE_WORDS: Final = frozenset(
    {
        "the", "a", "an", "to", "for", "of", "your", "is", "be", "must", "with", "and", "or",
        "not", "in", "on", "use", "enter", "this", "that", "please", "will", "should", "can",
        "invalid", "required", "missing", "from", "are", "here", "if", "no",
    }
)  # fmt: skip
_AUTH_SCHEMES: Final = frozenset(
    {
        "bearer", "basic", "token", "bot", "digest", "negotiate", "ntlm", "hmac", "jwt",
        "apikey", "api-key", "key", "oauth", "ssws", "dsn", "splunk", "sso-key", "otp",
    }
)  # fmt: skip
_AUTH_VALUE: Final = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9-]*)[ \t]+)?(?P<credential>[^\s\"'\\,;`]+)"
)
_HEADER_VALUE: Final = re.compile(rf"[^\r\n\"'\\`]{{0,{_MAX_VALUE}}}")
_SECRETISH_WORDS: Final = ("token", "key", "secret", "pass", "pwd", "auth", "cred", "cookie")


def assignment_rules() -> tuple[Rule, ...]:
    """One rule per spelling of each secret word, all judged by the same handler."""
    spellings: list[str] = []
    for keyword in KEYWORDS:
        for spelling in (keyword, keyword.capitalize(), keyword.upper()):
            if spelling not in spellings:
                spellings.append(spelling)
    return tuple(Rule(re.escape(spelling) + _SEPARATOR_AND_VALUE, _judge) for spelling in spellings)


def _judge(hit: Hit) -> Outcome:
    text = hit.text
    name_end = hit.span("suffix")[1]
    name_start = hit.start
    limit = max(hit.floor, hit.start - _MAX_NAME)
    while name_start > limit and text[name_start - 1] in _NAME_CHARACTERS:
        name_start -= 1
    name = text[name_start:name_end]
    if text.endswith(MARKER_PREFIX, 0, name_start):
        return hit.decline(name_end)  # the kind inside a marker, [REDACTED:github-token]
    separator = hit.group("sep") or ""
    if not separator.strip() and not name.startswith("--"):
        return hit.decline(name_end)  # "password is", not a --password flag
    word = secret_word(name)
    if word is None:
        return hit.decline(name_end)
    value_group = next(
        (group for group in (*_QUOTED_GROUPS, "bare") if hit.group(group) is not None), None
    )
    if value_group is None:
        return hit.decline(name_end)
    value_start, value_end = hit.span(value_group)
    words = name_words(name)
    if word == "authorization":
        return _authorization(hit, value_start, value_end, quoted=value_group != "bare")
    if word == "cookie":
        return _cookie(hit, value_start, value_end, quoted=value_group != "bare")
    value = text[value_start:value_end]
    if not is_plausible_secret(word, value):
        secret = False
    elif value_group == "bare":
        secret = _bare_value_is_secret(hit, name_start, value, value_start, value_end)
    else:
        secret = _quoted_value_is_secret(value)
    if secret and "://" in value and word != "dsn":
        secret = False  # let the URL rule redact just the password inside
    if not secret:
        return hit.decline(value_start)
    return hit.redact(_kind_of(value, words), (value_start, value_end))


def _kind_of(value: str, words: list[str]) -> str:
    found = classify(value)
    if found is not None:
        return found
    if "PRIVATE KEY" in value or value.startswith("PuTTY-User-Key-File"):
        return PRIVATE_KEY
    if "secret" in words and words[-1] == "key" and ("aws" in words or "access" in words):
        return AWS_SECRET_ACCESS_KEY
    return ENV_ASSIGNMENT


def _quoted_value_is_secret(value: str) -> bool:
    if is_inert(value) or _INTERPOLATION.search(value):
        return False
    words = value.split()
    prose = len(words) >= 2 and any(
        word.lower().strip(".,:;!?()") in _PROSE_WORDS for word in words
    )
    return not prose


def _bare_value_is_secret(
    hit: Hit, name_start: int, value: str, value_start: int, value_end: int
) -> bool:
    text = hit.text
    if is_inert(value):
        return False
    following = text[value_end : value_end + 1]
    if following in ("(", "["):
        return False  # a call or an index: getpass(), os.environ["X"]
    if _DOTTED_IDENTIFIER.fullmatch(value) and classify(value) is None:
        return False  # attribute access: self.token, process.env.X, settings.SECRET
    separator = hit.group("sep") or ""
    if _IDENTIFIER.fullmatch(value) and not _random_looking(value):
        if any(word in value.lower() for word in _SECRETISH_WORDS):
            return False  # a variable named for the secret: api_key=api_key
        if separator.strip() == ":" and value[0].isupper() and not any(c.isdigit() for c in value):
            return False  # a type: Optional, String, SecretStr
        spaced = separator != separator.strip() or value_start > hit.span("sep")[1]
        if "=" in separator and spaced:
            return False  # token = tok: code, where a literal secret would be quoted
        if _neighbour(text, name_start, step=-1) in ("(", ","):
            return False  # a keyword argument: login(user, password=pw)
        if _neighbour(text, value_end, step=1) in (",", "}", ")"):
            return False  # an object literal: { password: pw }
    if separator.strip() == ":":
        # YAML or prose: "Password: enter it below" goes on with words, a YAML value does not.
        following = _neighbour(text, value_end, step=1, newlines=False)
        if following not in ("", "\n", "\r", "#", ",", "}"):
            return False
    return True


def _random_looking(value: str) -> bool:
    """A generated string rather than a name someone typed: ``aws_secret_access_key = wJalr…``
    holds a literal even though it is spelled like ``token = tok``."""
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    return len(value) >= 12 and has_digit and ((has_upper and has_lower) or len(value) >= 20)


def _neighbour(text: str, position: int, *, step: int, newlines: bool = True) -> str:
    """The first non-blank character before (``step=-1``) or from (``step=1``) ``position``
    (line breaks count as blank unless ``newlines`` is false); looks no further than
    ``_MAX_NAME`` characters, so that no text makes the scan quadratic."""
    blank = " \t\r\n" if newlines else " \t"
    index = position - 1 if step < 0 else position
    stop = index + step * _MAX_NAME
    while 0 <= index < len(text) and index != stop and text[index] in blank:
        index += step
    return text[index] if 0 <= index < len(text) else ""


def _authorization(hit: Hit, value_start: int, value_end: int, *, quoted: bool) -> Outcome:
    """``Authorization: Bearer abc`` → keep the scheme, redact the credential."""
    text = hit.text
    end = value_end if quoted else _line_end(text, value_start)
    found = _AUTH_VALUE.match(text, value_start, end)
    if found is None:
        return hit.decline(value_start)
    scheme = found.group("scheme")
    credential = found.group("credential")
    if scheme is not None and scheme.lower() not in _AUTH_SCHEMES:
        return hit.decline(value_start)  # prose: "Authorization: the act of …"
    if is_reference(credential) or _INTERPOLATION.search(credential):
        return hit.decline(found.end())
    if scheme is None and not (len(credential) >= 12 or any(c.isdigit() for c in credential)):
        return hit.decline(value_start)
    if len(credential) < 4 or credential.lower() in ("true", "false", "null", "none"):
        return hit.decline(value_start)
    kind = classify(credential)
    if kind is None:
        kind = BASIC_AUTH if scheme is not None and scheme.lower() == "basic" else BEARER_TOKEN
    return hit.redact(kind, found.span("credential"))


def _cookie(hit: Hit, value_start: int, value_end: int, *, quoted: bool) -> Outcome:
    """``Cookie: a=1; b=2``: every cookie of the header is sensitive."""
    text = hit.text
    end = value_end if quoted else _line_end(text, value_start)
    value = text[value_start:end].rstrip()
    if is_inert(value) or "=" not in value:
        return hit.decline(value_start)
    return hit.redact(COOKIE, (value_start, value_start + len(value)))


def _line_end(text: str, start: int) -> int:
    """End of the header value that starts at ``start``: the line, a quote or an escape (and
    at most ``_MAX_VALUE`` characters on)."""
    found = _HEADER_VALUE.match(text, start)
    return found.end() if found else start
