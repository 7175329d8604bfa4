"""``cclens serve``: browse and search every session in a local web app."""

from __future__ import annotations

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
def command(
    host: str,
    port: int,
    open_browser: bool,
    claude_dir: tuple[Path, ...],
    db: Path | None,
    demo: bool,
    no_watch: bool,
) -> None:
    """Serve projects, sessions and search at http://127.0.0.1:8765/.

    With no Claude Code folder on this machine (and no --claude-dir), it serves the bundled
    demo sessions instead, and says so.

    The server answers at once with what the index holds, reads what changed in the
    background, then watches the Claude folders: new sessions and new messages appear in open
    pages without a reload. It listens on 127.0.0.1 only unless --host says otherwise (it warns
    then: anyone who can reach it can read every session), answers GET and HEAD only, refuses
    requests naming another host, and serves nothing but what is in its index.
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
    if not settings.loopback:
        click.echo(
            f"cclens: warning: listening on {host}, not only on this machine: anyone who can "
            "reach this address can read every session",
            err=True,
        )
    try:
        sock = bind(host, port)
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}:{port}: {error.strerror}") from error
    settings.port = int(sock.getsockname()[1])
    address = url(settings)
    click.echo(f"cclens: serving {path} at {address} (Ctrl-C to stop)", err=True)
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
