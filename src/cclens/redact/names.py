"""Which field and variable names hold secrets.

One judgement serves assignments in text (``API_KEY=…``, ``"client_secret": "…"``,
``--token …``) and keys of JSON objects (``{"apiKey": …}``). A name is split into words across
``snake_case``, ``kebab-case``, ``dotted.paths`` and ``camelCase``; it names a secret when its
last secret word is followed only by harmless qualifiers (``SECRET_KEY_BASE``,
``password_hash``). Counting fields stay out: ``max_tokens``, ``input_tokens``, ``token_type``,
``primary_key``, ``publicKey``, ``tokenizer``.
"""

from __future__ import annotations

import re
from typing import Final

_WORD: Final = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

# Words that make a name secret on their own, wherever they stand.
_SECRET_WORDS: Final = frozenset(
    {
        "password", "passwd", "passphrase", "passcode", "secret", "token", "credential",
        "credentials", "creds", "authorization", "cookie", "pass", "auth", "dsn",
    }
)  # fmt: skip
# Glued compounds (``csrftoken``, ``dbpassword``, ``clientsecret``) end in one of these.
_SECRET_ENDINGS: Final = ("password", "passwd", "passphrase", "secret", "token")
# A bare ``key`` is a secret only next to one of these (``api_key``, ``privateKey``): ``key``
# alone is a dictionary key, a sort key, a React key.
_KEY_QUALIFIERS: Final = frozenset(
    {
        "api", "access", "secret", "private", "signing", "sign", "encryption", "enc", "encrypt",
        "master", "client", "app", "application", "auth", "license", "licence", "account",
        "consumer", "webhook", "deploy", "ssh", "gpg", "pgp", "admin", "hmac", "jwt", "crypto",
        "cipher", "aes", "rsa", "sas", "subscription", "service", "shared", "write",
    }
)  # fmt: skip
# ``<word>_KEY`` in an UPPER_CASE environment name is taken for a secret unless ``<word>`` is
# one of these.
_KEY_NOT_SECRET: Final = frozenset(
    {
        "primary", "foreign", "sort", "partition", "cache", "hot", "lookup", "routing", "object",
        "idempotency", "dedup", "dedupe", "group", "row", "map", "hash", "public", "pub",
        "publishable", "unique", "composite", "index", "bucket", "item", "dict", "shortcut",
        "state", "query", "list", "label", "translation", "message", "locale", "column", "field",
        "attribute", "metadata", "config", "setting", "settings", "registry", "mapping", "kms",
        "storage", "session", "menu", "react", "s",
    }
)  # fmt: skip
# A ``token`` after one of these is a position in a list, not a credential: an API's
# ``next_page_token``, ``continuation_token``, ``sync_token``, ``cursor_token``.
_TOKEN_NOT_SECRET: Final = frozenset({"page", "continuation", "sync", "cursor", "pagination"})
# Words that may follow the secret word without changing what the name holds.
_HARMLESS_AFTER: Final = frozenset(
    {
        "base", "hash", "value", "data", "string", "str", "b64", "base64", "hex", "raw", "plain",
        "plaintext", "old", "new", "prod", "production", "dev", "development", "test",
        "staging", "live", "primary", "secondary", "current", "confirmation", "confirm",
        "encrypted", "json",
    }
)  # fmt: skip


def name_words(name: str) -> list[str]:
    """The lower-cased words of an identifier, header or key.

    >>> name_words("AWS_SECRET_ACCESS_KEY"), name_words("x-api-key"), name_words("APIKey")
    (['aws', 'secret', 'access', 'key'], ['x', 'api', 'key'], ['api', 'key'])
    """
    return [word.lower() for word in _WORD.findall(name)]


def secret_word(name: str) -> str | None:
    """The kind of secret ``name`` holds, or ``None`` when it holds none.

    The answer is one of ``"password"`` (also passwd, passphrase, passcode, pass, pwd),
    ``"secret"``, ``"token"``, ``"key"``, ``"auth"``, ``"authorization"``, ``"credential"``,
    ``"dsn"`` and ``"cookie"``.

    >>> [secret_word(n) for n in ("apiKey", "DB_PASSWORD", "max_tokens", "publicKey")]
    ['key', 'password', None, None]
    """
    words = name_words(name)
    upper = not any(character.islower() for character in name)
    for index in range(len(words) - 1, -1, -1):
        if _is_secret_word(words, index, upper=upper, name=name):
            if all(word in _HARMLESS_AFTER or word.isdigit() for word in words[index + 1 :]):
                return _canonical(words[index])
            return None
    return None


def is_secret_name(name: str) -> bool:
    """True when a value stored under ``name`` is a secret.

    >>> [is_secret_name(n) for n in ("client_secret", "x-api-key", "token_type", "tokenizer")]
    [True, True, False, False]
    """
    return secret_word(name) is not None


def _canonical(word: str) -> str:
    if word in ("pass", "pwd") or word.endswith(("password", "passwd", "passphrase", "passcode")):
        return "password"
    if word in ("credential", "credentials", "creds"):
        return "credential"
    if word in ("auth", "authorization", "cookie", "dsn"):
        return word
    if word.endswith("secret"):
        return "secret"
    if word.endswith("token"):
        return "token"
    return "key"


def _is_secret_word(words: list[str], index: int, *, upper: bool, name: str) -> bool:
    word = words[index]
    previous = words[index - 1] if index > 0 else None
    if word == "pwd":
        # ``PWD`` alone is the shell's working directory; ``DB_PWD`` and ADO.NET ``Pwd=`` are not.
        return previous is not None or name.lstrip("-$.") == "Pwd"
    if word == "pass":
        # "if the tests pass: …" is prose; ``DB_PASS``, ``dbPass`` and ``PASS`` are not.
        return previous is not None or name.lstrip("-$.") == "PASS"
    if word == "token" and previous in _TOKEN_NOT_SECRET:
        return False
    if word in _SECRET_WORDS:
        return True
    if word == "key":
        if previous is None or previous in _KEY_NOT_SECRET:
            return False
        return upper or previous in _KEY_QUALIFIERS
    if word.endswith("key") and word[:-3] in _KEY_QUALIFIERS:
        return True  # apikey, APIKEY, privatekey
    return word.endswith(_SECRET_ENDINGS)
