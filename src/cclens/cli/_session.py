"""The SESSION argument of ``cclens export`` and ``cclens show``."""

from __future__ import annotations

from pathlib import Path

import click

from ..export import AmbiguousSession, SessionNotFound, resolve_session
from ..model.session import Session
from ._folders import given


def load_session_argument(session: str, roots: tuple[Path, ...]) -> Session:
    """The session SESSION names (a path, an id or the start of one); a clear error if none."""
    folders = given(roots)
    try:
        return resolve_session(session, folders)
    except AmbiguousSession as error:
        raise click.ClickException(f"{error}\nGive more of the id.") from error
    except SessionNotFound as error:
        raise click.ClickException(str(error)) from error
    except OSError as error:
        raise click.ClickException(f"cannot read {session}: {error.strerror or error}") from error
