"""``cclens statusline``: one line for Claude Code's status bar, from the index.

The work is in :mod:`cclens._statusline`, which the ``cclens`` entry point calls directly
for ``cclens statusline [--db FILE]`` (a new process each time Claude Code redraws the status
bar: the command-line library is not even loaded); this is the same command for ``--help`` and
the rest of the command line.
"""

from __future__ import annotations

from pathlib import Path

import click

from .._statusline import run, status_line


@click.command("statusline", short_help="One status line for Claude Code (JSON on stdin).")
@click.option(
    "--db",
    "db",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Index file (default: $CCLENS_DB, else index.db in the user data folder).",
)
@click.option(
    "--chain",
    metavar="COMMAND",
    default=None,
    help="Run your own status line COMMAND first (with the same input) and show its output, "
    "then cclens's line (cclens setup sets this up).",
)
def command(db: Path | None, chain: str | None) -> None:
    """Print one line for Claude Code's status bar: the model, this session's cost and tokens,
    today's cost, the active 5-hour block (its cost, the time left and the burn rate), how
    much of the context window the last response used, and, for Pro and Max plans, the share
    of the 5-hour limit used and its pace (the use it heads for by the reset).

    Claude Code passes the session as JSON on stdin (session_id, transcript_path, model,
    rate_limits, …). The figures come from the index, plus the lines appended to the
    transcript since it was last updated (read here; a background update then stores them).
    Each new plan-limit sample (rate_limits) is stored in the index: `cclens limits` shows
    their history. Any problem prints a short line instead, and the exit status is always 0,
    so the status bar never breaks. `cclens setup` sets it up in ~/.claude/settings.json:

        "statusLine": {"type": "command", "command": "cclens statusline"}
    """
    run(db, chain)


__all__ = ["command", "status_line"]
