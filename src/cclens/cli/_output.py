"""Output helpers shared by the commands: JSON to stdout, Rich for people."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import click
import msgspec
from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


def json_option(function: F) -> F:
    """The ``--json`` flag every reporting command takes."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document instead of tables."
    )(function)


def print_json(value: Any) -> None:
    """Write ``value`` as indented JSON to stdout."""
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n")


def console(stderr: bool = False) -> Console:
    """A Rich console; tables are not wrapped when the output is not a terminal."""
    return Console(stderr=stderr, soft_wrap=not sys.stdout.isatty(), highlight=False)


#: The exit status of a command some of whose inputs could not be read (README, "Exit status").
UNREADABLE_EXIT = 2


def report_unreadable(problems: Iterable[str | tuple[Path, str]]) -> bool:
    """Name each input that could not be read, one line each on stderr (``cclens: cannot read
    PATH: why``); whether there was any.

    The rule every command follows: what can be read is read, each path that cannot (missing,
    not a regular file, a dangling link, refused, or a file cclens failed on) is one such
    line, and a command that reads transcripts (check, tools, stats PATH, permissions, index,
    export, dataset, otel) then exits with :data:`UNREADABLE_EXIT`; one that answers from the
    index (sessions, search, stats, restore, resume) only names them.
    """
    found = False
    for problem in problems:
        text = problem if isinstance(problem, str) else f"{problem[0]}: {problem[1]}"
        click.echo(f"cclens: cannot read {text}", err=True)
        found = True
    return found


def writable_folder(path: Path, what: str) -> None:
    """Stop with one line when ``path`` cannot be a folder to write ``what`` into: it is a
    file, or one of the folders it would be made in is."""
    for candidate in [path, *path.parents]:
        if candidate.exists():
            if not candidate.is_dir():
                raise click.ClickException(
                    f"cannot write {what} to {path}: {candidate} is a file, not a folder; "
                    "choose another folder"
                )
            return


def need_extra(command: str, extra: str, *modules: str) -> None:
    """Stop with one line naming the extra to install when a module ``command`` needs is not
    installed (``cclens[dataset]`` and ``cclens[otel]`` are optional)."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # its parent package is missing
            found = False
        if not found:
            raise click.ClickException(
                f"{command} needs {module.split('.')[0]}; pip install 'cclens[{extra}]'"
            )
