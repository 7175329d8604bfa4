"""Find the session a person named: a transcript path, a session id, or the start of one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..model.session import Session
from ..readers.agents import agent_of, discover, homes, load, load_path
from ..readers.claude import load_session
from ..readers.discovery import SessionFile

__all__ = ["AmbiguousSession", "SessionNotFound", "find_session_file", "resolve_session"]


class SessionNotFound(LookupError):
    """No session matches what was asked for."""


class AmbiguousSession(LookupError):
    """Several sessions match an id prefix; ``candidates`` lists them."""

    def __init__(self, key: str, candidates: Sequence[SessionFile]) -> None:
        self.key = key
        self.candidates = list(candidates)
        names = "\n".join(f"  {c.session_id}  ({c.project})  {c.path}" for c in candidates[:20])
        more = f"\n  … and {len(candidates) - 20} more" if len(candidates) > 20 else ""
        super().__init__(f"{key!r} matches {len(candidates)} sessions:\n{names}{more}")


def find_session_file(key: str, roots: Sequence[Path | str] = ()) -> SessionFile:
    """The discovered session whose id is ``key`` or starts with it.

    ``roots`` default to every agent's folders (:func:`cclens.readers.agents.homes`).
    """
    search = list(roots) or homes()
    if not search:
        raise SessionNotFound(
            f"no session {key!r}: no agent folder was found "
            "($CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex, ~/.gemini, "
            "$COPILOT_HOME or ~/.copilot)"
        )
    found = discover(*search)
    matches = found.find(key)
    if not matches:
        where = ", ".join(str(p) for p in search)
        raise SessionNotFound(f"no session with id or prefix {key!r} under {where}")
    if len(matches) > 1:
        raise AmbiguousSession(key, matches)
    return matches[0]


def resolve_session(key: str, roots: Sequence[Path | str] = ()) -> Session:
    """Load the session ``key`` names: an existing ``.jsonl`` path, a session id or an id prefix.

    Raises :class:`SessionNotFound`, :class:`AmbiguousSession`, or ``OSError`` when the file
    cannot be read.
    """
    path = Path(key).expanduser()
    if path.exists() and not path.is_dir():  # a FIFO or a device too: named as unreadable
        agent = agent_of(path)
        if agent is None or agent.name == "claude":
            return load_session(path)
        try:
            return load_path(path)
        except LookupError as error:
            raise SessionNotFound(str(error)) from None
    if key.endswith(".jsonl") or "/" in key or "\\" in key:
        raise SessionNotFound(f"no such file: {key}")
    if not key.strip():
        raise SessionNotFound("no session given")
    return load(find_session_file(key, roots))
