"""``cclens resume``: go back into a session with Claude Code, in the directory it ran in."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .index import claude_dir_option, db_option, open_index, resolve_db, resolve_roots

if TYPE_CHECKING:
    from ..index import Index
    from ..readers.claude import Session
    from ..readers.resume import ResumeCommand


def _from_index(index: Index, name: str) -> Session | None:
    """The indexed session ``name`` names (``None`` when the index has none)."""
    found = index.find(name)
    if len(found) > 1:
        names = "; ".join(f"{s.key} ({s.title[:40]})" for s in found[:5])
        raise click.ClickException(
            f"{name!r} matches {len(found)} sessions ({names}); give more of the id"
        )
    return index.load(found[0].key) if found else None


def _fork_at(session: Session, message: str) -> str:
    """The uuid to fork at for ``message`` (a message's anchor or any record uuid)."""
    from ..readers.resume import fork_points

    points = fork_points(session)
    if message in points:
        return points[message]
    for entry in session.entries:
        if getattr(entry.record, "uuid", None) == message:
            return message
    raise click.ClickException(
        f"{session.session_id} has no message {message!r}; "
        "copy a message's id from its link (#…) on the session page"
    )


def _command(session: Session, fork: bool, at: str | None) -> ResumeCommand:
    from ..readers.agents import reader
    from ..readers.resume import resume_command

    agent = reader(session.agent)
    if at and not agent.fork_at_message:
        raise click.ClickException(
            f"{agent.label} cannot fork a session at a message; use --fork to fork it whole"
        )
    uuid = _fork_at(session, at) if at else None
    command = resume_command(session.session_id, session.cwd, fork=fork, at=uuid, agent=agent.name)
    try:
        command.argv  # noqa: B018 - the agent's reader refuses what its agent cannot do
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    return command


def _run(command: ResumeCommand) -> int:
    from ..readers.agents import label

    if shutil.which(command.argv[0]) is None:
        raise click.ClickException(
            f"`{command.argv[0]}` is not on PATH; install {label(command.agent)}, or run: "
            f"{command.shell}"
        )
    if command.cwd is None:
        raise click.ClickException(
            f"the session does not say which directory it ran in; run it yourself: {command.shell}"
        )
    if not os.path.isdir(command.cwd):
        raise click.ClickException(
            f"the session's directory {command.cwd} no longer exists; recreate it and run: "
            f"{command.shell}"
        )
    return subprocess.run(command.argv, cwd=command.cwd, check=False).returncode


@click.command("resume")
@click.argument("session")
@click.option(
    "--print", "print_only", is_flag=True, help="Print the command instead of running it."
)
@click.option(
    "--fork",
    is_flag=True,
    help="Continue in a new session (claude --fork-session, codex fork), the original kept.",
)
@click.option(
    "--at",
    "message",
    help="Fork at this message (its id, as in the session page's #link): "
    "the new session keeps the conversation up to it.",
)
@claude_dir_option
@db_option
def command(
    session: str,
    print_only: bool,
    fork: bool,
    message: str | None,
    dirs: tuple[Path, ...],
    db: Path | None,
) -> None:
    """Resume SESSION with the agent that wrote it, in the directory it ran in.

    SESSION is a session id (or its start), a key shown by cclens, or a transcript path.
    Runs the agent's own command in the session's working directory: `claude --resume <id>`
    (Claude Code finds sessions by directory) or `codex resume <id>`; --print shows the command
    instead: cd '<dir>' && claude --resume <id>. --fork continues in a new session, the
    original untouched (claude --resume <id> --fork-session, codex fork <id>); --at MESSAGE
    forks a Claude Code session at a message, keeping the conversation up to it
    (--resume-session-at, a flag Claude Code accepts without listing it in its help; the
    official Agent SDK uses it). Codex CLI cannot fork at a message.
    """
    from ._session import load_session_argument

    roots = resolve_roots(dirs)
    with open_index(resolve_db(db, roots)) as index:
        found = _from_index(index, session)
    if found is None:
        found = load_session_argument(session, tuple(roots))
    chosen = _command(found, fork, message)
    if print_only:
        click.echo(chosen.shell)
        return
    raise SystemExit(_run(chosen))
