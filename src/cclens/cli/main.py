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

#: Command name → module under ``cclens.cli`` that defines it, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "serve": "serve",
    "index": "index",
    "sessions": "sessions",
    "search": "search",
    "resume": "resume",
    "show": "show",
    "export": "export",
    "restore": "restore",
    "stats": "stats",
    "statusline": "statusline",
    "mcp": "mcp",
    "permissions": "permissions",
    "tools": "tools",
    "check": "check",
    "dataset": "dataset",
    "otel": "otel",
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
        return [name for name, module in COMMANDS.items() if _available(module)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None or not _available(module):
            return None
        command = importlib.import_module(f"{__package__}.{module}").command
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an index that cannot be used now (damaged, on a read-only or full
        disk…) is one line saying what failed and what to do, never a traceback."""
        from ..index import IndexUnusable

        try:
            return super().invoke(ctx)
        except IndexUnusable as error:
            click.echo(f"cclens: {error}", err=True)
            raise SystemExit(2) from error

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=formatter.width - 20)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cclens")
def main() -> None:
    """See, search, measure and share everything Claude Code did.

    cclens reads the transcripts Claude Code writes under ~/.claude/projects (or
    $CLAUDE_CONFIG_DIR) and never writes there.
    """
