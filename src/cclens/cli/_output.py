"""Output helpers shared by the commands: JSON to stdout, Rich for people."""

from __future__ import annotations

import sys
from collections.abc import Callable
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


def human_bytes(size: int) -> str:
    """``1.2 MB`` style sizes."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"
