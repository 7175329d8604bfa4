"""``cclens serve``: browse and search every session in a local web app."""

from __future__ import annotations

import secrets
import tempfile
import threading
import webbrowser
from pathlib import Path

import click

from ..index import IndexUnusable
from .index import claude_dir_option, db_option, resolve_db, resolve_roots


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a browser.")
@claude_dir_option
@db_option
@click.option(
    "--demo",
    is_flag=True,
    help="Serve the bundled demo sessions (a temporary index). Also what happens when no "
    "Claude Code folder exists and --claude-dir is not given.",
)
@click.option("--no-watch", is_flag=True, help="Index once at start, then stop watching.")
@click.option(
    "--no-auth",
    is_flag=True,
    help="With a --host other than this machine's loopback address: serve without the access "
    "token (anyone who can reach the address reads every session).",
)
def command(
    host: str,
    port: int,
    open_browser: bool,
    claude_dir: tuple[Path, ...],
    db: Path | None,
    demo: bool,
    no_watch: bool,
    no_auth: bool,
) -> None:
    """Serve projects, sessions and search at http://127.0.0.1:8765/.

    With no Claude Code folder on this machine (and no --claude-dir), it serves the bundled
    demo sessions instead, and says so.

    The server answers at once with what the index holds, reads what changed in the
    background, then watches the Claude folders: new sessions and new messages appear in open
    pages without a reload. It listens on 127.0.0.1 only unless --host says otherwise; then
    every request needs an access token, printed once in the address to open (the first visit
    keeps it in a cookie and drops it from the address; scripts send "Authorization: Bearer
    TOKEN"), unless --no-auth is given. It answers GET and HEAD only, refuses requests naming
    another host and requests other web sites make, and serves nothing but what is in its index.
    """
    from ..demo import demo_dir
    from ..web.server import bind, run, url
    from ..web.settings import Settings

    temporary: tempfile.TemporaryDirectory[str] | None = None
    if not demo and not claude_dir and not resolve_roots(claude_dir):
        click.echo(
            "cclens: no Claude Code folder found (~/.claude, ~/.config/claude, "
            "$CLAUDE_CONFIG_DIR): serving the bundled demo sessions",
            err=True,
        )
        demo = True
    if demo:
        temporary = tempfile.TemporaryDirectory(prefix="cclens-demo-")
        roots = [demo_dir()]
        path = Path(temporary.name) / "index.db"
    else:
        # With no Claude folder yet, watch for ~/.claude to appear: the first session shows up
        # without a restart.
        roots = resolve_roots(claude_dir) or [Path.home() / ".claude"]
        path = resolve_db(db, roots)
    settings = Settings(
        db_path=path, claude_dirs=roots, host=host, port=port, demo=demo, watch=not no_watch
    )
    if not settings.loopback and no_auth:
        click.echo(
            f"cclens: warning: listening on {host} without an access token (--no-auth): anyone "
            "who can reach this address can read every session",
            err=True,
        )
    elif not settings.loopback:
        settings.token = secrets.token_urlsafe(32)
    try:
        sock = bind(host, port)
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}:{port}: {error.strerror}") from error
    settings.port = int(sock.getsockname()[1])
    address = settings.browser_url(url(settings))
    click.echo(f"cclens: serving {path} at {address} (Ctrl-C to stop)", err=True)
    if settings.token:
        elsewhere = " (with this machine's name or address in place of 127.0.0.1)"
        wildcard = host in ("0.0.0.0", "::", "[::]")
        click.echo(
            f"cclens: listening on {host}: open the address above with its token"
            f"{elsewhere if wildcard else ''}; requests without it are refused",
            err=True,
        )
    if open_browser:
        threading.Timer(0.5, webbrowser.open, [address]).start()
    try:
        run(settings, sock)
    except IndexUnusable as error:
        click.echo(f"cclens: {error}", err=True)
        raise SystemExit(2) from error
    finally:
        sock.close()
        if temporary is not None:
            temporary.cleanup()
