"""Where commands read transcripts: ``--dir`` (and its synonym ``--claude-dir``), one rule.

Every command that reads transcripts takes ``--dir DIR`` (repeatable): an agent's folder
(``~/.claude``, ``~/.codex``), any folder holding transcripts of one or several agents, or a
single transcript file. Without it, every agent's folder that exists is read
(:func:`cclens.readers.agents.homes`). A folder the person named that does not exist is an
error (one line, exit status 2); it is never silently replaced by the default. No agent folder
at all is one line saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: What every command says when no agent folder exists and none was given.
NO_FOLDER = (
    "no agent folder found ($CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex, "
    "~/.gemini, $COPILOT_HOME or ~/.copilot); give one with --dir DIR"
)
#: The help of ``--dir``.
DIR_HELP = (
    "An agent's folder (~/.claude, ~/.codex), any folder holding transcripts, or a transcript "
    "file (repeatable; --claude-dir is the same). Default: every agent's folder that exists "
    "($CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex, ~/.gemini, $COPILOT_HOME or "
    "~/.copilot)."
)


def folder_option(dest: str, text: str = DIR_HELP) -> Callable[[F], F]:
    """``--dir DIR`` (and ``--claude-dir DIR``), repeatable, into the parameter ``dest``."""

    def decorate(target: F) -> F:
        decorated: F = click.option(
            "--dir",
            "--claude-dir",
            dest,
            multiple=True,
            type=click.Path(path_type=Path),
            metavar="DIR",
            help=text,
        )(target)
        return decorated

    return decorate


def dir_option(function: F) -> F:
    """``--dir DIR`` (and ``--claude-dir DIR``), repeatable, into the parameter ``dirs``."""
    return folder_option("dirs")(function)


def given(paths: Sequence[Path]) -> list[Path]:
    """The folders (or files) the person named, each of which must exist."""
    found = [path.expanduser() for path in paths]
    for path in found:
        if not path.exists():
            raise click.ClickException(
                f"{path}: no such file or folder; give an agent's folder (~/.claude, ~/.codex) "
                "or a folder holding transcripts"
            )
    return found


def folders(paths: Sequence[Path]) -> list[Path]:
    """The folders to read: those named (each must exist), else every agent's that exists
    (possibly none)."""
    if paths:
        return given(paths)
    from ..readers.agents import homes

    return homes()


def required_folders(paths: Sequence[Path]) -> list[Path]:
    """:func:`folders`, at least one: a command that reads only transcripts stops with
    :data:`NO_FOLDER` when there are none."""
    found = folders(paths)
    if not found:
        raise click.ClickException(NO_FOLDER)
    return found


def note_no_folder(roots: Sequence[Path]) -> None:
    """Say, in one line on stderr, that no agent folder was found (the index is used as it
    is)."""
    if not roots:
        click.echo(f"cclens: {NO_FOLDER}; using the index as it is", err=True)


__all__ = [
    "DIR_HELP",
    "NO_FOLDER",
    "dir_option",
    "folder_option",
    "folders",
    "given",
    "note_no_folder",
    "required_folders",
]
