"""``cclens export``: one session as a single HTML file, Markdown or JSON."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..export import (
    FORMATS,
    AmbiguousSession,
    SessionNotFound,
    export_html,
    export_json,
    export_markdown,
    resolve_session,
)
from ..parse import claude_dirs
from ..render import RenderOptions
from ..render.options import THEMES
from ._output import human_bytes


def _inside_claude_dir(path: Path) -> Path | None:
    target = path.expanduser().resolve()
    for directory in claude_dirs():
        root = directory.resolve()
        if target == root or target.is_relative_to(root):
            return directory
    return None


@click.command("export")
@click.argument("session")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="html",
    show_default=True,
    help="html: one self-contained file; md: GitHub Markdown; json: the normalized session.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="File to write ('-': stdout). Default: <session-id>.html here for html, else stdout.",
)
@click.option(
    "--theme", type=click.Choice(THEMES), default="auto", show_default=True, help="HTML theme."
)
@click.option("--no-branches", is_flag=True, help="Leave abandoned branches out of the HTML page.")
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Where to look up session ids (default: ~/.claude, ~/.config/claude, $CLAUDE_CONFIG_DIR).",
)
def command(
    session: str,
    fmt: str,
    output: Path | None,
    theme: str,
    no_branches: bool,
    roots: tuple[Path, ...],
) -> None:
    """Export SESSION: a transcript path, a session id, or the start of one.

    The HTML file works offline (open it from disk: CSS, script and images are inside) and
    carries a Content-Security-Policy; nothing in it loads from the network. Lines of the
    transcript that cannot be read are reported on stderr and the rest is exported.
    """
    try:
        loaded = resolve_session(session, roots)
    except AmbiguousSession as error:
        raise click.ClickException(f"{error}\nGive more of the id.") from error
    except SessionNotFound as error:
        raise click.ClickException(str(error)) from error
    except OSError as error:
        raise click.ClickException(f"cannot read {session}: {error.strerror or error}") from error
    for diagnostic in loaded.diagnostics:
        click.echo(f"cclens: {diagnostic} (skipped)", err=True)

    if fmt == "html":
        options = RenderOptions(standalone=True, theme=theme, show_branches=not no_branches)
        text = export_html(loaded, options=options)
    elif fmt == "md":
        text = export_markdown(loaded)
    else:
        text = export_json(loaded)

    if output is None and fmt == "html":
        output = Path(f"{loaded.session_id}.html")
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    inside = _inside_claude_dir(output)
    if inside is not None:
        raise click.ClickException(f"refusing to write inside Claude Code's directory {inside}")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from error
    size = human_bytes(len(text.encode("utf-8")))
    click.echo(f"Wrote {output.resolve()} ({size})", err=True)
