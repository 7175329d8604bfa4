"""``cclens restore``: write a session's transcript files back, byte for byte, from the index."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import plural
from ._output import console, json_option, print_json, writable_folder
from .index import claude_dir_option, db_option, open_index, resolve_db, resolve_roots

if TYPE_CHECKING:
    from ..index import SessionVersion


@click.command("restore")
@click.argument("session")
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder to write the files into (created if needed). Required unless --list-versions.",
)
@click.option("--force", is_flag=True, help="Replace files that already exist there.")
@click.option(
    "--version",
    "version",
    type=click.IntRange(1),
    default=None,
    help="Write this version of the session (see --list-versions); default: the newest.",
)
@click.option(
    "--list-versions", is_flag=True, help="List the versions of SESSION the index kept, and stop."
)
@claude_dir_option
@db_option
@json_option
def command(
    session: str,
    output: Path | None,
    force: bool,
    version: int | None,
    list_versions: bool,
    dirs: tuple[Path, ...],
    db: Path | None,
    as_json: bool,
) -> None:
    """Write SESSION's transcript, subagent transcripts and sidecars into a folder.

    SESSION is a session id (or the start of one), a key shown by cclens, or the transcript's
    original path. The files come from the index, so this works after Claude Code has deleted
    them; they are written exactly as they were read, in their original layout relative to the
    session's folder. cclens never writes inside a Claude Code folder: restore somewhere else
    and copy the files back yourself if you want Claude Code to see them again.

    When a file of the session changed other than by growing (edited in place, cut short,
    replaced), the index kept the bytes it had as an older version beside the new ones:
    --list-versions shows them, --version N writes version N back (the newest by default).
    """
    from ..index import WriteRefused, refuse_inside

    if output is None and not list_versions:
        raise click.UsageError("missing option -o/--output (or --list-versions)")
    roots = resolve_roots(dirs)
    try:
        if output is not None:
            refuse_inside(output, roots, "restored session")
    except WriteRefused as error:
        raise click.ClickException(str(error)) from error
    if output is not None:
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
        key = found[0].key
        if list_versions:
            _print_versions(key, index.versions(key), as_json)
            return
        assert output is not None
        try:
            written = index.restore(key, output, overwrite=force, version=version)
        except FileExistsError as error:
            raise click.ClickException(f"{error}; pass --force to replace it") from error
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--version") from error
        except OSError as error:
            full = error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
            advice = (
                "free some space and run it again (files already there are kept whole)"
                if full
                else "choose a folder you can write to"
            )
            raise click.ClickException(
                f"cannot write into {output}: {error.strerror or error}; {advice}"
            ) from error
    out = console()
    for path in written:
        out.print(str(path), markup=False, soft_wrap=True)


def _print_versions(key: str, versions: list[SessionVersion], as_json: bool) -> None:
    if as_json:
        print_json(
            [
                {
                    "version": v.number,
                    "newest": v.newest,
                    "replaced": v.replaced.isoformat() if v.replaced else None,
                    "changed": list(v.changed),
                    "bytes": v.size,
                    "lines": v.lines,
                }
                for v in versions
            ]
        )
        return
    out = console()
    for version in versions:
        when = (
            f"replaced {version.replaced:%Y-%m-%d %H:%M:%S} UTC" if version.replaced else "newest"
        )
        changed = f"; then {', '.join(version.changed)} changed" if version.changed else ""
        out.print(
            f"{key} version {version.number}: {when}, {plural(version.size, 'byte')}, "
            f"{plural(version.lines, 'line')}{changed}",
            markup=False,
        )
