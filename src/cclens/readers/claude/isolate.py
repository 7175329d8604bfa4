"""One session's failure is that session's diagnostic, never the whole command's or page's.

Every command and page that reads many sessions goes through :func:`each_isolated`: a session
whose file cannot be read (``OSError``), or whose work raises anything else (a defect in
cclens met on an input nobody foresaw), is left out, and a :class:`Diagnostic` naming its file
says why; the other sessions are processed as usual. Assembly itself never raises for what a
file holds (:func:`failed_session` stands in for a session that could not be assembled).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from ...model.entries import Diagnostic

T = TypeVar("T")
R = TypeVar("R")


def failure(path: Path, error: BaseException, line: int = 0) -> Diagnostic:
    """The diagnostic of work on ``path`` that raised ``error``."""
    if isinstance(error, OSError):
        return Diagnostic(path, line, f"cannot read: {error.strerror or error}")
    reason = f"cclens failed on this file ({type(error).__name__}: {error}); it was left out"
    return Diagnostic(path, line, reason)


def unreadable_reasons(failures: Iterable[Diagnostic]) -> list[str]:
    """Files that could not be read (or that cclens failed on), as ``path: reason``: what every
    command lists as unreadable (see :func:`failure`)."""
    return [f"{each.path}: {each.reason.removeprefix('cannot read: ')}" for each in failures]


def each_isolated(
    items: Iterable[T],
    work: Callable[[T], R],
    path_of: Callable[[T], Path],
    problems: list[Diagnostic],
) -> Iterator[R]:
    """``work(item)`` for each of ``items``, in order; an item whose work raises is skipped and
    its diagnostic (naming ``path_of(item)``) added to ``problems``."""
    for item in items:
        try:
            result = work(item)
        except Exception as error:  # one session must not fail the others
            problems.append(failure(path_of(item), error))
            continue
        yield result


def isolated(work: Callable[[], R], path: Path, problems: list[Diagnostic]) -> R | None:
    """``work()``, or ``None`` (and a diagnostic naming ``path`` in ``problems``) when it
    raises."""
    return next(each_isolated([path], lambda _: work(), lambda found: found, problems), None)


__all__ = ["each_isolated", "failure", "isolated"]
