"""The ``cclens`` command group.

Each command lives in its own module ``cclens.cli.<module>`` exposing a click command named
``command``; they are imported only when used, so ``cclens --help`` stays fast and a command's
heavy dependencies (the web server, Arrow, OpenTelemetry) load only for that command.
"""

from __future__ import annotations

import importlib
import importlib.util

import click

from .. import __version__

#: Command name → module under ``cclens.cli`` that defines it, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "serve": "serve",
    "index": "index",
    "search": "search",
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


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

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
