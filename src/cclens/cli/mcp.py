"""``cclens mcp``: serve the index to Claude Code (or any MCP client) over MCP."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from ._folders import note_no_folder
from .index import claude_dir_option, db_option, resolve_db, resolve_roots


@click.command("mcp", short_help="Serve the index over MCP, for Claude Code to read its history.")
@claude_dir_option
@db_option
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Serve Streamable HTTP on 127.0.0.1:PORT (at /mcp) instead of stdio.",
)
@click.option("--no-redact", is_flag=True, help="Return secrets as written (default: redacted).")
@click.option("--no-update", is_flag=True, help="Serve the index as it is; do not read new lines.")
@click.option("--no-watch", is_flag=True, help="Update the index once at start, then no more.")
@click.option(
    "--serve-url",
    default="http://127.0.0.1:8765",
    show_default=True,
    metavar="URL",
    help="Where `cclens serve` runs: the links answers give point there.",
)
def command(
    dirs: tuple[Path, ...],
    db: Path | None,
    port: int | None,
    no_redact: bool,
    no_update: bool,
    no_watch: bool,
    serve_url: str,
) -> None:
    """Serve the local index as a Model Context Protocol server, read-only, on stdio (or on
    Streamable HTTP at 127.0.0.1 with --port), so Claude Code can search and read its own past
    sessions:

        claude mcp add cclens -- cclens mcp

    Tools: search, list_sessions, get_session, get_messages, read_message, get_tool_calls,
    get_session_files, usage_summary and permission_audit (see docs/mcp.md). The index is
    brought up to date in the background when the server starts and whenever a transcript
    changes. Secrets are redacted in every answer unless --no-redact; answers are bounded in
    size and paged. Needs the mcp extra: pip install 'cclens[mcp]'.
    """
    if importlib.util.find_spec("mcp") is None:
        raise click.ClickException(
            "the MCP server needs the mcp package; install it with: pip install 'cclens[mcp]'"
        )
    from ..mcp.server import ServerOptions, serve

    roots = resolve_roots(dirs)
    note_no_folder(roots)
    options = ServerOptions(
        db_path=resolve_db(db, roots),
        claude_dirs=roots,
        redact=not no_redact,
        watch=not no_watch,
        update=not no_update,
        serve_url=serve_url,
    )
    serve(options, port=port)
