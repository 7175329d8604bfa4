"""The ``cclens`` command group.

Each command lives in its own module ``cclens.cli.<module>`` exposing a click command named
``command``; they are imported only when used, so ``cclens --help`` stays fast and a command's
heavy dependencies (the web server, Arrow, OpenTelemetry) load only for that command.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from .. import __version__

#: Command name → the module under ``cclens.cli`` that defines it, and the one line ``cclens
#: --help`` shows for it (so that listing the commands imports none of them; a test checks the
#: line is the command's own), in the order ``--help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("serve", "Serve projects, sessions and search at http://127.0.0.1:8765/."),
    "index": (
        "index",
        "Read the agents' transcripts (Claude Code, Codex CLI) into the local index.",
    ),
    "sessions": ("sessions", "List sessions across every project, the most recently active first."),
    "search": (
        "search",
        "Search prompts, answers, thinking, tool inputs and tool outputs of every session.",
    ),
    "resume": (
        "resume",
        "Resume SESSION with the agent that wrote it, in the directory it ran in.",
    ),
    "show": (
        "show",
        "Show SESSION (a transcript path, a session id, or the start of one) in the terminal.",
    ),
    "export": ("export", "Export SESSION: a transcript path, a session id, or the start of one."),
    "restore": (
        "restore",
        "Write SESSION's transcript, subagent transcripts and sidecars into a folder.",
    ),
    "stats": (
        "stats",
        "Tokens and cost of every API response, by day, week, month, project, session, model, "
        "agent, tool or 5-hour block.",
    ),
    "statusline": ("statusline", "One status line for Claude Code (JSON on stdin)."),
    "limits": ("limits", "Your plan's usage windows: use, reset, pace, history."),
    "mcp": ("mcp", "Serve the index over MCP, for Claude Code to read its history."),
    "setup": ("setup", "Make cclens part of Claude Code (hooks, status line, MCP)."),
    "hook": ("hook", "Archive the session a Claude Code hook names (JSON on stdin)."),
    "permissions": (
        "permissions",
        "Audit every Claude Code tool call recorded against today's permission rules.",
    ),
    "tools": ("tools", "List every tool called in the transcripts under PATHS, most-called first."),
    "check": ("check", "Read every transcript under PATHS and report what was found."),
    "dataset": ("dataset", "Write the transcripts to DIRECTORY as a Parquet dataset."),
    "otel": ("otel", "Send sessions to an OpenTelemetry collector as traces."),
}


def _available(module: str) -> bool:
    return importlib.util.find_spec(f"{__package__}.{module}") is not None


#: The exit status of every error (a usage mistake, a path that cannot be read or written, …).
ERROR_STATUS = 2


def fail(message: str) -> NoReturn:
    """Print ``cclens: <message>`` on stderr and exit with :data:`ERROR_STATUS`."""
    click.echo(f"cclens: {message}", err=True)
    sys.exit(ERROR_STATUS)


def _usage_mistake(error: click.UsageError) -> NoReturn:
    """A usage mistake: the command's usage line, where to get help, and the one-line error."""
    ctx = error.ctx
    if ctx is not None:
        click.echo(ctx.get_usage(), err=True)
        command = ctx.command_path
        option = ctx.help_option_names[0] if ctx.help_option_names else "--help"
        click.echo(f"Try '{command} {option}' for help.\n", err=True)
    fail(error.format_message())


def _os_error(error: OSError) -> NoReturn:
    """A file that could not be read or written, reported as a user's mistake (the commands
    name their own; this is the last resort)."""
    where = error.filename if error.filename is not None else "a file"
    reason = (error.strerror or str(error)).lower()
    if isinstance(error, NotADirectoryError):
        advice = "a part of that path is a file, not a folder: choose another path"
    elif isinstance(error, PermissionError):
        advice = "check its permissions, or choose another path"
    elif isinstance(error, FileNotFoundError):
        advice = "check the path"
    else:
        advice = "check the path and try again"
    fail(f"{where}: {reason}; {advice}")


class LazyGroup(click.Group):
    """A group whose commands are imported on first use, and that reports every error the same
    way: one line, ``cclens: what failed; what to do``, exit status 2.

    Commands raise :class:`click.ClickException` with that one line (never printing ``Error:``
    themselves); a usage mistake (:class:`click.UsageError`: a bad option, a missing argument)
    also shows the command's usage line. An ``OSError`` a command did not handle is reported
    the same way rather than as a traceback.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as error:
            _usage_mistake(error)
        except click.ClickException as error:
            fail(error.format_message())
        except click.Abort:
            click.echo(err=True)
            fail("stopped")
        except OSError as error:
            if error.errno == errno.EPIPE:  # the reader went away (| head): nothing to say
                sys.exit(1)
            _os_error(error)
        sys.exit(result if isinstance(result, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (module, _) in COMMANDS.items() if _available(module)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module, _ = COMMANDS.get(cmd_name, ("", ""))
        if not module or not _available(module):
            return None
        command = importlib.import_module(f"{__package__}.{module}").command
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an index that cannot be used now (damaged, on a read-only or full
        disk…) or a filter too long to be one is one line saying what failed and what to do,
        never a traceback."""
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:
            # Imported only now: a command that opened no index (``--help``) loads none of it.
            from ..index import FilterTooLong, IndexUnusable

            if not isinstance(error, (IndexUnusable, FilterTooLong)):
                raise
            click.echo(f"cclens: {error}", err=True)
            raise SystemExit(2) from error

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 20
        rows = [(name, _shortened(COMMANDS[name][1], limit)) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _shortened(line: str, limit: int) -> str:
    """``line`` cut to ``limit`` characters at a word, as click shortens a command's help."""
    if len(line) <= limit:
        return line
    return line[: limit - 3].rsplit(" ", 1)[0].rstrip(",;") + "..."


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="cclens")
@click.pass_context
def main(ctx: click.Context) -> None:
    """See, search, measure and share everything your coding agents did.

    cclens reads the transcripts Claude Code writes under ~/.claude/projects (or
    $CLAUDE_CONFIG_DIR) and Codex CLI under ~/.codex/sessions (or $CODEX_HOME), or those
    under --dir DIR, and never writes there.
    """
    if ctx.invoked_subcommand is None:  # `cclens` alone: what it can do, not a mistake
        click.echo(ctx.get_help())
