"""``cclens restore``: write a session's transcript files back, byte for byte, from the index."""

from __future__ import annotations

from pathlib import Path

import click

from ..index import WriteRefused, refuse_inside
from ._output import console, writable_folder
from .index import claude_dir_option, db_option, open_index, resolve_db, resolve_roots


@click.command("restore")
@click.argument("session")
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder to write the files into (created if needed).",
)
@click.option("--force", is_flag=True, help="Replace files that already exist there.")
@claude_dir_option
@db_option
def command(
    session: str, output: Path, force: bool, claude_dir: tuple[Path, ...], db: Path | None
) -> None:
    """Write SESSION's transcript, subagent transcripts and sidecars into a folder.

    SESSION is a session id (or the start of one), a key shown by cclens, or the transcript's
    original path. The files come from the index, so this works after Claude Code has deleted
    them; they are written exactly as they were read, in their original layout relative to the
    session's folder. cclens never writes inside a Claude Code folder: restore somewhere else
    and copy the files back yourself if you want Claude Code to see them again.
    """
    roots = resolve_roots(claude_dir)
    try:
        refuse_inside(output, roots, "restored session")
    except WriteRefused as error:
        raise click.ClickException(str(error)) from error
    writable_folder(output, "the restored files")
    with open_index(resolve_db(db, roots)) as index:
        found = index.find(session)
        if not found:
            raise click.ClickException(
                f"no indexed session matches {session!r}; `cclens search` or the web app "
                "shows the sessions the index holds"
            )
        if len(found) > 1:
            names = "\n".join(f"  {s.key}  {s.title}" for s in found[:20])
            raise click.ClickException(
                f"{session!r} matches {len(found)} sessions; give more of the id:\n{names}"
            )
        try:
            written = index.restore(found[0].key, output, overwrite=force)
        except FileExistsError as error:
            raise click.ClickException(f"{error}; pass --force to replace it") from error
        except OSError as error:
            raise click.ClickException(
                f"cannot write into {output}: {error.strerror or error}; choose a folder you "
                "can write to"
            ) from error
    out = console()
    for path in written:
        out.print(str(path), markup=False, soft_wrap=True)
