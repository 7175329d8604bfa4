"""Passwords given on a command line: ``docker login -p …``, ``mysql -p…``, ``sshpass -p …``.

``-p`` means a port to ``ssh``, "parents" to ``mkdir`` and a published port to ``docker run``;
a password only to some programs. Each rule is anchored on the flag and judged in Python by
the program that owns it: the first word of the command the flag is part of (after ``sudo``,
``env`` and ``VAR=value`` prefixes, from the start of the line or the last ``|``, ``;``,
``&&``, ``||``, ``(`` or backquote).

* ``-p VALUE`` and ``-pVALUE`` for a registry ``login`` (docker, podman, nerdctl, buildah,
  skopeo, helm, oras) and for ``sshpass``;
* ``-pVALUE`` (attached: ``-p`` alone prompts, and the next word is a database) for the MySQL
  and MariaDB tools;
* ``-a VALUE`` for ``redis-cli``; ``-U user%pass`` for ``smbclient``; ``pass:VALUE`` after
  ``-passin``, ``-passout``, ``-pass`` or ``-k`` for ``openssl``; the last word of
  ``htpasswd -b``.

``--password VALUE`` and ``--password=VALUE`` are secret-named assignments
(:mod:`cclens.redact.assignments`).
"""

from __future__ import annotations

import re
from typing import Final

from cclens.redact.patterns import classify
from cclens.redact.scanner import Hit, Outcome, Rule
from cclens.redact.values import is_inert

COMMAND_PASSWORD: Final = "command-password"

_LOGIN_PROGRAMS: Final = frozenset(
    {"docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "finch"}
)
_MYSQL_PROGRAMS: Final = frozenset(
    {
        "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck",
        "mysqlpump", "mysqlsh", "mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import",
        "mariadb-show", "mariadb-check",
    }
)  # fmt: skip
#: How far back the command a flag belongs to is looked for (a long line costs no more).
_LOOK_BACK: Final = 512
_SEGMENT_START: Final = re.compile(r"(?:\|\|?|&&|;|\(|`|\$\(|\n)")
_WRAPPERS: Final = frozenset({"sudo", "env", "time", "exec", "command", "nohup", "doas", "!"})
#: Options of sudo and its kind that take a value (``sudo -u root docker login …``).
_WRAPPER_OPTIONS: Final = frozenset({"-u", "-g", "-C", "-D", "-h", "-U", "-r", "-t"})
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# A value: quoted, or a run of characters a shell word holds unquoted.
_VALUE: Final = (
    r"(?:'(?P<single>[^'\n]{1,512})'"
    r'|"(?P<double>[^"\n]{1,512})"'
    r"""|(?P<bare>[^\s'"`;&|<>()]{1,512}))"""
)


def _words(hit: Hit) -> list[str]:
    """The words of the command ``hit`` is in, from its program up to the hit."""
    text = hit.text
    start = max(hit.floor, hit.start - _LOOK_BACK)
    segment = text[start : hit.start]
    ends = [found.end() for found in _SEGMENT_START.finditer(segment)]
    if ends:
        segment = segment[ends[-1] :]
    words = segment.split()
    wrapped = False
    while words:
        first = words[0]
        if first in _WRAPPERS or _ASSIGNMENT.match(first):
            wrapped = True
        elif wrapped and first in _WRAPPER_OPTIONS and len(words) > 1:
            words.pop(0)  # sudo -u root: the user goes with it
        elif not (wrapped and first.startswith("-")):
            break
        words.pop(0)
    return words


def _program(words: list[str]) -> str:
    if not words:
        return ""
    return words[0].rsplit("/", 1)[-1].strip("'\"")


def _value_span(hit: Hit) -> tuple[int, int] | None:
    for group in ("single", "double", "bare"):
        span = hit.span(group)
        if span[0] >= 0:
            return span
    return None


def _redact_value(hit: Hit) -> Outcome:
    span = _value_span(hit)
    if span is None:
        return hit.decline()
    value = hit.text[span[0] : span[1]]
    if is_inert(value) or value.startswith("-"):
        return hit.decline(span[0])
    return hit.redact(classify(value) or COMMAND_PASSWORD, span)


def _dash_p(hit: Hit) -> Outcome:
    """``-p VALUE`` / ``-pVALUE``: a password for a registry login, sshpass, or (attached only)
    the MySQL tools."""
    text = hit.text
    if hit.start > 0 and not text[hit.start - 1].isspace():
        return hit.decline()
    words = _words(hit)
    program = _program(words)
    attached = hit.group("gap") == ""
    if program in _LOGIN_PROGRAMS and "login" in words[1:]:
        return _redact_value(hit)
    if program == "sshpass" or (program in _MYSQL_PROGRAMS and attached):
        return _redact_value(hit)
    return hit.decline()


def _dash_a(hit: Hit) -> Outcome:
    """``redis-cli -a VALUE``."""
    if hit.start > 0 and not hit.text[hit.start - 1].isspace():
        return hit.decline()
    if _program(_words(hit)) not in ("redis-cli", "valkey-cli", "keydb-cli"):
        return hit.decline()
    return _redact_value(hit)


def _smb_user(hit: Hit) -> Outcome:
    """``smbclient -U user%pass`` (and ``rpcclient``, ``smbmap``…): what follows ``%``."""
    if _program(_words(hit)) not in ("smbclient", "rpcclient", "smbcacls", "smbget", "net"):
        return hit.decline()
    secret = hit.group("secret") or ""
    if is_inert(secret):
        return hit.decline(hit.span("secret")[0])
    return hit.redact(COMMAND_PASSWORD, hit.span("secret"))


def _openssl_pass(hit: Hit) -> Outcome:
    """``openssl … -passin pass:VALUE`` (``-passout``, ``-pass``, ``-k`` alike)."""
    if _program(_words(hit)) != "openssl":
        return hit.decline()
    return _redact_value(hit)


def _htpasswd(hit: Hit) -> Outcome:
    """``htpasswd -b [options] FILE USER PASSWORD``: the last word."""
    words = hit.group("arguments") or ""
    if not re.search(r"(?:^|\s)-[a-zA-Z]*b", words):
        return hit.decline()
    return _redact_value(hit)


#: In order: at one position the first rule that matches is the one judged (``-passin`` before
#: ``-p``).
FLAG_RULES: Final[tuple[Rule, ...]] = (
    Rule(rf"-pass(?:in|out)?[ \t]+pass:{_VALUE}", _openssl_pass),
    Rule(rf"-k[ \t]+pass:{_VALUE}", _openssl_pass),
    Rule(rf"-p(?P<gap>[ \t]+|=|)(?!-){_VALUE}", _dash_p),
    Rule(rf"-a[ \t]+(?!-){_VALUE}", _dash_a),
    Rule(r"-U[ \t]+[\"']?(?P<user>[^\s%'\"]+)%(?P<secret>[^\s'\"]{1,512})", _smb_user),
    Rule(
        rf"htpasswd(?P<arguments>(?:[ \t]+-[A-Za-z]+)+)(?:[ \t]+[^\s-][^\s]*){{2}}[ \t]+{_VALUE}",
        _htpasswd,
    ),
)


__all__ = ["COMMAND_PASSWORD", "FLAG_RULES"]
