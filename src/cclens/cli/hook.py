"""``cclens hook``: archive the session a Claude Code hook names (JSON on stdin).

The work is in :mod:`cclens.setup.hook`, which the ``cclens`` entry point calls directly for
``cclens hook [--db FILE] [--wait]`` (Claude Code starts it when a session ends or compacts: the
command-line library is not even loaded); this is the same command for ``--help``.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..setup.hook import run
from .index import db_option


@click.command("hook", short_help="Archive the session a Claude Code hook names (JSON on stdin).")
@db_option
@click.option(
    "--wait",
    is_flag=True,
    help="Archive before returning (by default a process of its own does, and this returns).",
)
def command(db: Path | None, wait: bool) -> None:
    """Store what was appended to the transcript a Claude Code hook names (and to its
    subagents' files) in the index. `cclens setup` installs it for the SessionEnd and
    PreCompact events, so every session is archived before Claude Code's clean-up can
    delete it.

    The vectors of search by meaning are left to the next update (cclens index, search
    or serve): loading the model would cost the hook more than the rest of its work.

    Claude Code passes the hook's JSON on stdin (session_id, transcript_path, cwd,
    hook_event_name). Only transcripts under the configured Claude folders are read
    ($CLAUDE_CONFIG_DIR, ~/.claude, ~/.config/claude). It never fails or holds up Claude
    Code: the exit status is always 0; when the transcript holds something new, a process
    of its own archives it (cclens hook --wait, in a new session, so Claude Code's exit at
    SessionEnd cannot cut it short) and the hook returns at once. That process leaves the
    session to another update that holds the index, and stops after 10 seconds whatever
    happens. Problems go to cclens.log in cclens's data folder; `cclens setup --check`
    shows the last run.
    """
    raise SystemExit(run(db, wait=wait))
