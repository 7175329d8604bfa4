"""The SESSION argument of ``cclens export``, ``show`` and ``resume``: found in the index, where
it has the figures every other surface gives it (and where archived sessions are kept), else
read from its file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ._folders import given
from .index import open_index, report_problems, resolve_db, resolve_roots, update

if TYPE_CHECKING:
    from ..figures.counts import SessionCounts
    from ..index import Index
    from ..model.session import Session


@dataclass(frozen=True, slots=True)
class FoundSession:
    """A session to show or export, and its figures as the index counts them (``None``: it
    is not in the index, and is counted on its own)."""

    session: Session
    counts: SessionCounts | None


def load_session_argument(session: str, roots: tuple[Path, ...]) -> Session:
    """The session SESSION names (a path, an id or the start of one), read from its file; a
    clear error if none."""
    from ..export import AmbiguousSession, SessionNotFound, resolve_session

    folders = given(roots)
    try:
        return resolve_session(session, folders)
    except AmbiguousSession as error:
        raise click.ClickException(f"{error}\nGive more of the id.") from error
    except SessionNotFound as error:
        raise click.ClickException(str(error)) from error
    except OSError as error:
        raise click.ClickException(f"cannot read {session}: {error.strerror or error}") from error


def _in_index(index: Index, session: str) -> FoundSession | None:
    path = Path(session).expanduser()
    found = index.find(str(path.absolute()) if path.is_file() else session)
    if len(found) > 1:
        names = "\n".join(f"  {s.key}  ({s.project})  {s.path}" for s in found[:20])
        raise click.ClickException(
            f"{session!r} matches {len(found)} sessions:\n{names}\nGive more of the id."
        )
    if not found:
        return None
    key = found[0].key
    loaded = index.load(key)
    return FoundSession(loaded, index.counts(key)) if loaded is not None else None


def find_session(
    session: str, claude_dir: tuple[Path, ...], db: Path | None, *, no_update: bool
) -> FoundSession:
    """The session SESSION names, from the index (brought up to date with the Claude folders
    first, unless ``no_update``): archived sessions too, with the figures every surface gives
    them. A transcript path with no index to compare it with (no ``--db``, and no index at the
    default place yet) is read from its file and counted on its own; so is one the index does
    not hold."""
    roots = resolve_roots(claude_dir)
    db_path = resolve_db(db, roots)
    if not (db is None and Path(session).expanduser().is_file() and not db_path.exists()):
        with open_index(db_path) as index:
            if not no_update and not index.read_only:
                report_problems(update(index, roots, show_progress=True))
            found = _in_index(index, session)
        if found is not None:
            return found
        if not roots:  # no agent folder (said already): the index was the only place to look
            raise click.ClickException(
                f"no indexed session matches {session!r}; `cclens search` or the web app shows "
                "the sessions the index holds"
            )
    return FoundSession(load_session_argument(session, tuple(roots)), None)


__all__ = ["FoundSession", "find_session", "load_session_argument"]
