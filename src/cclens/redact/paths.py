"""Home directories and user names in paths, for exports that should not say who made them.

``/Users/alice/src`` → ``~/src``, ``C:\\Users\\alice\\src`` → ``~\\src``, and Claude Code's
project folder names (``-Users-alice-src``) → ``-Users-user-src``. When the user name is known
(given, or the last component of the given home) it is also replaced by ``user`` wherever it is
a whole component of a path: ``/var/folders/alice-cache/x`` → ``/var/folders/user-cache/x``.
Outside paths the name is left alone: prose that mentions a person is not a path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

HOME_DIRECTORY: Final = "home-directory"
USER_NAME: Final = "user-name"
REPLACEMENT_USER: Final = "user"

_NOT_HOMES: Final = frozenset(
    {"Shared", "Public", "Default", "All Users", "Default User", "linuxbrew"}
)
_POSIX_HOME: Final = re.compile(r"(?<![\w.~-])/(?:Users|home)/(?P<name>[A-Za-z0-9._-]+)(?![\w.-])")
_WINDOWS_HOME: Final = re.compile(
    r"(?<![\w])[A-Za-z]:(?P<separator>\\\\|\\|/)Users(?P=separator)"
    r"(?P<name>[^\\/\s\"':*?<>|]+)(?![^\\/\s\"':*?<>|])"
)
_PROJECT_SLUG: Final = re.compile(
    r"(?<![A-Za-z0-9])-(?P<root>Users|home)-(?P<name>[A-Za-z0-9_]+)(?=-|\b)"
)
_PATH_RUN: Final = re.compile(r"[^\s\"'<>|]*[/\\][^\s\"'<>|]*")

Count = Callable[[str], None]


class PathAnonymizer:
    """Replaces home directories and the user's name in paths; stateless between calls."""

    def __init__(self, home: str | None = None, user: str | None = None) -> None:
        home = home.rstrip("/\\") if home else None
        if user is None and home:
            user = re.split(r"[/\\]", home)[-1] or None
        self._user = user if user and len(user) >= 2 and user != REPLACEMENT_USER else None
        self._home: re.Pattern[str] | None = None
        if home:
            variants = {home, home.replace("\\", "\\\\")}
            alternatives = "|".join(re.escape(v) for v in sorted(variants, key=len, reverse=True))
            self._home = re.compile(rf"(?:{alternatives})(?![\w.-])")
        self._user_word: re.Pattern[str] | None = None
        if self._user:
            self._user_word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(self._user)}(?![A-Za-z0-9])")

    def apply(self, text: str, count: Count) -> str:
        """``text`` with homes and the user name anonymised; ``count`` hears each change."""

        def home(match: re.Match[str]) -> str:
            if match.group("name") in _NOT_HOMES:
                return match.group()
            count(HOME_DIRECTORY)
            return "~"

        def slug(match: re.Match[str]) -> str:
            if match.group("name") == REPLACEMENT_USER:
                return match.group()
            count(USER_NAME)
            return f"-{match.group('root')}-{REPLACEMENT_USER}"

        def given_home(match: re.Match[str]) -> str:
            count(HOME_DIRECTORY)
            return "~"

        if self._home is not None:
            text = self._home.sub(given_home, text)
        text = _WINDOWS_HOME.sub(home, text)  # first: C:/Users/x also looks like /Users/x
        text = _POSIX_HOME.sub(home, text)
        text = _PROJECT_SLUG.sub(slug, text)
        if self._user_word is not None:
            text = _PATH_RUN.sub(lambda run: self._replace_user(run.group(), count), text)
        return text

    def _replace_user(self, run: str, count: Count) -> str:
        assert self._user_word is not None
        replaced, changes = self._user_word.subn(REPLACEMENT_USER, run)
        for _ in range(changes):
            count(USER_NAME)
        return replaced
