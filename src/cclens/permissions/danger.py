"""Recognising commands and paths that must never be allowed by a suggested rule.

These checks guard :mod:`cclens.permissions.suggest`; they are deliberately broad (any ``rm``
counts, not only ``rm -rf``) because a missed case would turn into a standing permission.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .shell import normalize_command, parse_command

_ALWAYS_DESTRUCTIVE = frozenset(
    {
        "dd",
        "doas",
        "fdisk",
        "halt",
        "mkfs",
        "parted",
        "poweroff",
        "reboot",
        "rm",
        "shred",
        "shutdown",
        "su",
        "sudo",
        "wipefs",
    }
)
_DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c"})
# Programs that run whatever text they are fed: `curl … | sh` executes a download unseen.
_INTERPRETERS = re.compile(r"(?:ba|z|da|k|c|tc|fi)?sh|python[0-9.]*|perl|ruby|node|php|deno|bun")
_PERMISSIVE_MODES = re.compile(r"0?[0-7]?[67][67][67]|[ugoa]*\+[rwx]*w[rwx]*")
_BLOCK_DEVICE = re.compile(r">\s*/dev/(?:sd|hd|nvme|disk|mmcblk|xvd|vd)")


def _git_is_destructive(arguments: Sequence[str]) -> bool:
    words = [word for word in arguments if not word.startswith("-")]
    if not words:
        return False
    subcommand, flags = words[0], [word for word in arguments if word.startswith("-")]
    if subcommand == "push":
        # Forcing rewrites the remote's history; deleting or mirroring removes branches.
        rewriting = {"-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror"}
        removing = {"-d", "--delete", "--prune"}
        return any(flag.split("=")[0] in rewriting | removing for flag in flags) or any(
            word.startswith("+") or word.startswith(":") for word in words[1:]
        )
    if subcommand == "reset":
        return "--hard" in flags or "--merge" in flags
    if subcommand == "clean":
        return any(
            flag == "--force" or (not flag.startswith("--") and "f" in flag[1:]) for flag in flags
        )
    if subcommand == "branch":
        return "-D" in flags or ("--delete" in flags and "--force" in flags)
    if subcommand in ("checkout", "restore"):
        return "--" in arguments or "." in words[1:] or "-f" in flags or "--force" in flags
    return subcommand in ("filter-branch", "filter-repo")


def _words_are_destructive(words: Sequence[str]) -> bool:
    if not words:
        return False
    head = words[0].rsplit("/", 1)[-1]
    arguments = words[1:]
    if head in _ALWAYS_DESTRUCTIVE or head.startswith("mkfs."):
        return True
    if head == "git":
        return _git_is_destructive(arguments)
    if head in ("chmod", "chown", "chgrp"):
        recursive = any(word in ("-R", "--recursive") or word.startswith("-R") for word in words)
        permissive = head == "chmod" and any(_PERMISSIVE_MODES.fullmatch(w) for w in arguments)
        return recursive or permissive
    if head == "find":
        return "-delete" in arguments or any(
            word in ("-exec", "-execdir", "-ok")
            and index + 1 < len(arguments)
            and arguments[index + 1].rsplit("/", 1)[-1] in ("rm", "shred", "mv")
            for index, word in enumerate(arguments)
        )
    return False


def is_destructive_command(command: str) -> bool:
    """Whether a shell command line deletes, overwrites or escalates in a way never to allow.

    Covers ``rm`` of any kind, ``git push --force``/``-f``, ``git reset --hard``, ``git clean
    -f``, ``git checkout -- .``, ``sudo``/``su``/``doas``, ``chmod -R``/``chmod 777``, ``dd``,
    ``mkfs``, ``find -delete``, writes to block devices, and downloads piped into a shell
    (``curl … | sh``, ``bash <(wget …)``). A line that cannot be parsed counts as destructive.
    """
    if _BLOCK_DEVICE.search(command):
        return True
    parsed = parse_command(command)
    if parsed is None:
        return True
    downloads = False
    interprets_stdin = False
    for part in (*parsed.parts, *parsed.nested):
        normalized = normalize_command(part.text, strip_environment=True)
        if normalized is None:
            return True
        words = normalized.words
        if _words_are_destructive(words):
            return True
        if not words:
            continue
        head = words[0].rsplit("/", 1)[-1]
        if head in _DOWNLOADERS:
            downloads = True
        # An interpreter given no script file reads its program from stdin or from -c; a
        # shell next to a download is never trusted, whatever its arguments.
        if _INTERPRETERS.fullmatch(head) and (
            len(words) == 1
            or words[1] in ("-", "-s", "-c")
            or part.has_substitution
            or head.endswith("sh")
        ):
            interprets_stdin = True
    return downloads and interprets_stdin


_SECRET_NAMES = re.compile(
    r"\.env(?:\..*)?|.*\.(?:pem|key|p12|pfx|keystore|jks)|id_(?:rsa|dsa|ecdsa|ed25519).*"
    r"|\.netrc|\.pgpass|credentials(?:\..*)?|.*secret.*|\.npmrc|\.pypirc"
)
_SECRET_DIRECTORIES = frozenset({".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure"})


def is_sensitive_path(path: str) -> bool:
    """Whether a path looks like credentials or keys (``.env``, ``~/.ssh/…``, ``*.pem``)."""
    parts = [part for part in path.split("/") if part]
    if any(part in _SECRET_DIRECTORIES for part in parts[:-1]):
        return True
    return bool(parts) and _SECRET_NAMES.fullmatch(parts[-1].lower()) is not None
