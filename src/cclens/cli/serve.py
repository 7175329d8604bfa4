"""``cclens serve``: browse and search every session in a local web app."""

from __future__ import annotations

import gc
import secrets
import signal
import tempfile
import threading
import webbrowser
from pathlib import Path
from types import FrameType

import click

from ._folders import NO_FOLDER
from ._serving import serving
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
    dirs: tuple[Path, ...],
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
    from ..index import IndexUnusable
    from ..web.server import bind, run, url
    from ..web.settings import Settings

    # Every way out goes through the `finally` below, a SIGTERM before the server takes the
    # signals over included: the temporary demo index is never left behind.
    previous = signal.signal(signal.SIGTERM, _stop)
    temporary: tempfile.TemporaryDirectory[str] | None = None
    stopped_by: list[int] = []
    try:
        if not demo and not dirs and not resolve_roots(dirs):
            click.echo(f"cclens: {NO_FOLDER}; serving the bundled demo sessions", err=True)
            demo = True
        if demo:
            temporary = tempfile.TemporaryDirectory(prefix="cclens-demo-")
            roots = [demo_dir()]
            path = Path(temporary.name) / "index.db"
        else:
            # With no Claude folder yet, watch for ~/.claude to appear: the first session shows
            # up without a restart.
            roots = resolve_roots(dirs) or [Path.home() / ".claude"]
            path = resolve_db(db, roots)
        settings = Settings(
            db_path=path, claude_dirs=roots, host=host, port=port, demo=demo, watch=not no_watch
        )
        if not settings.loopback and no_auth:
            click.echo(
                f"cclens: warning: listening on {host} without an access token (--no-auth): "
                "anyone who can reach this address can read every session",
                err=True,
            )
        elif not settings.loopback:
            settings.token = secrets.token_urlsafe(32)
        try:
            sock = bind(host, port)
        except OSError as error:
            raise click.ClickException(
                f"cannot listen on {host}:{port} ({error.strerror}); pass --port with another "
                "port, or --port 0 for any free one"
            ) from error
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
            threading.Timer(0.5, _open, [address]).start()
        try:
            with serving(path, url(settings)):
                stopped_by = run(settings, sock)
        except IndexUnusable as error:
            raise click.ClickException(str(error)) from error
        finally:
            sock.close()
    except KeyboardInterrupt:
        raise SystemExit(130) from None  # Ctrl-C before the server took the signals over
    finally:
        signal.signal(signal.SIGTERM, previous)
        if temporary is not None:
            temporary.cleanup()
        if stopped_by:
            # The process ends now: the collector's last full pass over everything the server
            # loaded (parsed sessions, templates) would only delay the exit.
            gc.freeze()


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM while the server is not running yet: leave through the clean-up."""
    del frame
    raise SystemExit(128 + signum)


def _open(address: str) -> None:
    """Open ``address`` in a browser, or say that none could be opened."""
    try:
        opened = webbrowser.open(address)
    except webbrowser.Error:
        opened = False
    if not opened:
        click.echo(f"cclens: no browser could be opened; open {address} yourself", err=True)
