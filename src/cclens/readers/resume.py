"""The commands that take you back into a session with Claude Code.

Claude Code looks a session id up among the sessions of the directory it runs in, so a resume
command names that directory: ``cd '/home/me/app' && claude --resume 0d3a8e6f-…``.
:func:`resume_command` builds it, for every surface (pages, lists, the JSON API,
``cclens resume``, exports). What the ``claude`` command line accepts (Claude Code 2.x):

* ``--resume <session id>`` continues the session, appending to its transcript;
* ``--fork-session`` (with ``--resume``) continues in a new session with a copy of the history,
  leaving the original untouched;
* ``--resume-session-at=<message uuid>`` (with ``--resume``) loads the conversation only up to
  and including that message. ``claude --help`` does not list it; it is the flag the official
  Agent SDK passes for its ``resume_session_at`` option. cclens offers it only together with
  ``--fork-session``, so the original session never loses what came after the message.

:func:`fork_points` says which uuid to fork at for each message of a session: the last record
of the message, or of the tool results it received, so that a tool call is never separated
from its result.
"""

from __future__ import annotations

import shlex

import msgspec

from .claude import AssistantItem, Item, Session, UserItem
from .claude.resume import CLAUDE, claude_argv

#: The program that runs Claude Code.


def _quote(text: str) -> str:
    """``text`` in single quotes for a POSIX shell (always quoted, so it reads the same way
    whatever the path holds)."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


class ResumeCommand(msgspec.Struct, frozen=True):
    """A command that goes back into a session: run ``argv`` in ``cwd`` (the directory the
    session ran in, when known), or paste :attr:`shell` into a terminal."""

    session_id: str
    cwd: str | None
    #: ``--fork-session``: continue in a new session, the original untouched.
    fork: bool = False
    #: ``--resume-session-at``: the uuid of the last message kept (always with ``fork``).
    at: str | None = None
    #: The agent whose session it is (its own command: see :mod:`cclens.readers.agents`).
    agent: str = "claude"

    @property
    def argv(self) -> list[str]:
        """The agent's command and its arguments (``claude --resume <id>``, ``codex resume
        <id>``)."""
        from .agents import reader

        return reader(self.agent).resume_argv(self.session_id, self.fork, self.at)

    @property
    def shell(self) -> str:
        """One line for a POSIX shell: ``cd '<cwd>' && claude --resume <id> …``."""
        command = shlex.join(self.argv)
        return f"cd {_quote(self.cwd)} && {command}" if self.cwd else command

    def at_message(self, uuid: str) -> ResumeCommand:
        """The command that forks this session at message ``uuid`` (see :func:`fork_points`)."""
        return ResumeCommand(self.session_id, self.cwd, fork=True, at=uuid, agent=self.agent)

    def as_json(self) -> dict[str, object]:
        """The JSON form the API gives."""
        return {"command": self.shell, "cwd": self.cwd, "argv": self.argv}


def resume_command(
    session_id: str,
    cwd: str | None = None,
    *,
    fork: bool = False,
    at: str | None = None,
    agent: str = "claude",
) -> ResumeCommand:
    """The command that resumes session ``session_id`` (in ``cwd``, when known).

    ``fork``: continue in a new session instead; ``at`` (a message uuid from
    :func:`fork_points`): fork the session at that message (``fork`` is then implied).
    """
    return ResumeCommand(session_id, cwd or None, fork=fork or at is not None, at=at, agent=agent)


def _last_uuid(item: Item) -> tuple[int, str] | None:
    """The line and uuid of the last record of ``item`` (and of the results of its calls)."""
    found: tuple[int, str] | None = None
    entries = list(item.entries)
    if isinstance(item, AssistantItem):
        entries.extend(call.result_entry for call in item.tool_calls if call.result_entry)
    for entry in entries:
        uuid = getattr(entry.record, "uuid", None)
        if isinstance(uuid, str) and uuid and (found is None or entry.line > found[0]):
            found = (entry.line, uuid)
    return found


def fork_points(session: Session) -> dict[str, str]:
    """For each prompt and response on the session's main line, by its anchor: the uuid to
    fork at so that the fork keeps the conversation up to and including that message (with
    the results of the tool calls it made). Subagents' messages are not points: a subagent is
    not resumed on its own. An agent that cannot fork at a message (Codex CLI) has none."""
    from .agents import reader

    points: dict[str, str] = {}
    if not reader(session.agent).fork_at_message:
        return points
    for item in session.main_line:
        if item.is_sidechain:
            continue
        if not (
            isinstance(item, AssistantItem)
            or (isinstance(item, UserItem) and item.kind in ("prompt", "command"))
        ):
            continue
        last = _last_uuid(item)
        if last is not None:
            points[item.anchor] = last[1]
    return points


__all__ = ["CLAUDE", "ResumeCommand", "claude_argv", "fork_points", "resume_command"]
