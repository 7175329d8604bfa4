"""Path patterns of ``Read(…)`` and ``Edit(…)`` rules, matched the gitignore way.

A pattern's start says where it is rooted:

==============  ====================================  =====================
pattern         root                                  example
==============  ====================================  =====================
``//path``      the filesystem root                   ``Read(//etc/hosts)``
``~/path``      the home directory                    ``Read(~/.zshrc)``
``/path``       the project root (settings' project)  ``Edit(/src/**)``
``./path``      the working directory                 ``Read(./src/**)``
``path``        the working directory, gitignore way  ``Read(*.env)``
==============  ====================================  =====================

The rest follows gitignore: ``*`` and ``?`` stay within one path segment, ``**`` spans any
number of segments, a bare pattern without a slash (``*.env``) matches at any depth below its
root, and a pattern that matches a directory matches everything inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .tools import absolute_path, is_within


@dataclass(frozen=True)
class RootedPattern:
    """A path pattern split into the directory it is rooted at and the gitignore pattern."""

    root: str
    pattern: str
    #: Whether the pattern is tied to the root; a bare name matches at any depth.
    anchored: bool


def root_pattern(content: str, *, cwd: str, project_dir: str, home: str) -> RootedPattern:
    """Resolve where a rule's path pattern is rooted (see the module table)."""
    if content.startswith("//"):
        return RootedPattern("/", content[2:], anchored=True)
    if content == "~" or content.startswith("~/"):
        return RootedPattern(home, content[2:], anchored=True)
    if content.startswith("/"):
        return RootedPattern(project_dir, content[1:], anchored=True)
    if content == "." or content.startswith("./"):
        return RootedPattern(cwd, content[2:], anchored=True)
    # gitignore: a slash at the start or in the middle anchors a pattern; one at the end only
    # says "directory".
    return RootedPattern(cwd, content, anchored="/" in content.rstrip("/"))


def _translate_segment_glob(text: str) -> str:
    """Translate ``*``, ``?``, ``[…]`` and ``\\x`` within path segments to a regex."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            out.append(re.escape(text[index + 1]))
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = text.find("]", index + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = text[index + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def _compile(pattern: str, anchored: bool) -> re.Pattern[str]:
    segments = pattern.split("/")
    pieces: list[str] = []
    # Whether the next segment needs a "/" before it; a `**/` already ends in one.
    need_separator = False
    for position, segment in enumerate(segments):
        first, last = position == 0, position == len(segments) - 1
        if segment == "**":
            if last:
                # `dir/**` is everything inside dir; we let it cover dir itself too, so a Glob
                # or Grep over `src` is covered by `Read(./src/**)`.
                pieces.append(".*" if first else "(?:/.*)?")
            else:
                pieces.append("(?:[^/]+/)*" if first else "/(?:[^/]+/)*")
            need_separator = False
            continue
        pieces.append(("/" if need_separator else "") + _translate_segment_glob(segment))
        need_separator = True
    body = "".join(pieces)
    if not anchored:
        body = "(?:.*/)?" + body
    return re.compile(body, re.DOTALL)


def _candidates(relative: str) -> list[str]:
    """The path and each of its ancestors: gitignore excludes a file whose directory matches."""
    parts = relative.split("/")
    return ["/".join(parts[: count + 1]) for count in range(len(parts))]


def path_matches(content: str, path: str, *, cwd: str, project_dir: str, home: str) -> bool:
    """Whether the rule pattern ``content`` covers the file or directory ``path``.

    ``path`` may be relative (to ``cwd``) or start with ``~``; it is normalised without
    touching the disk, so ``src/../.env`` is ``.env``.
    """
    target = absolute_path(path, cwd=cwd, home=home)
    rooted = root_pattern(content, cwd=cwd, project_dir=project_dir, home=home)
    root = absolute_path(rooted.root, cwd=cwd, home=home)
    if not is_within(target, root):
        return False
    relative = target[len(root) :].lstrip("/") if root != "/" else target.lstrip("/")
    pattern = rooted.pattern.rstrip("/")
    if pattern in ("", "**"):
        return True
    if not relative:
        return False
    try:
        regex = _compile(pattern, rooted.anchored)
    except re.error:
        return False  # A malformed character class (`[z-a]`) matches nothing.
    return any(regex.fullmatch(candidate) for candidate in _candidates(relative))
