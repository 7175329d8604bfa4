"""Output helpers shared by the commands: JSON to stdout, Rich for people.

Rich and msgspec are imported when first used, so that ``cclens X --help`` loads neither.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import click

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

F = TypeVar("F", bound=Callable[..., Any])


def json_option(function: F) -> F:
    """The ``--json`` flag every reporting command takes."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document instead of tables."
    )(function)


def print_json(value: Any) -> None:
    """Write ``value`` as indented JSON to stdout."""
    import msgspec

    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n")


def console(stderr: bool = False) -> Console:
    """A Rich console as wide as the terminal (``$COLUMNS``, else 80 columns when the output is
    not a terminal): lines are wrapped to it and tables fit it (see :func:`fitted_table`)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


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


@dataclass(slots=True)
class Column:
    """A column of a table that must fit the terminal (see :func:`fitted_table`).

    ``keep``: when the table is too wide, the columns with the lowest ``keep`` are left out
    first (0: never left out). ``shrink_to``: the narrowest a column may become, its text cut
    short with an ellipsis (0: never cut): a column that is kept (``keep`` 0) is cut only
    when nothing is left to leave out, unless ``cut_first``.
    """

    name: str
    cells: list[str]
    footer: str = ""
    justify: Literal["left", "right"] = "right"
    keep: int = 0
    shrink_to: int = 0
    #: Cut this column short (to ``shrink_to``) before leaving any column out.
    cut_first: bool = False

    @property
    def width(self) -> int:
        """The cells of the widest of its lines (header, cells and footer)."""
        from rich.cells import cell_len

        return max([cell_len(self.name), cell_len(self.footer), *map(cell_len, self.cells)])

    @property
    def narrowest(self) -> int:
        return min(self.width, self.shrink_to) if self.shrink_to else self.width


#: What a column costs besides its text: a space either side and a rule (plus one rule).
_COLUMN_EDGES = 3


#: The narrowest the folded notes column of :func:`fitted_table` gets.
NOTES_WIDTH = 12


def fitted_table(
    title: str,
    columns: list[Column],
    width: int,
    row_styles: list[str | None] | None = None,
    notes: list[str] | None = None,
) -> tuple[Table, list[str]]:
    """A table of ``columns`` no wider than ``width``: the columns with the lowest ``keep``
    are left out until the others fit, narrowed no more than their ``shrink_to``; the footer
    row (the totals) is kept. ``notes``: a last, untitled column taking the room left, its
    text folded over several lines. Returns the table and the names of the columns left out."""
    from rich.table import Table

    kept = list(columns)
    dropped: list[str] = []
    reserved = NOTES_WIDTH + _COLUMN_EDGES if notes is not None else 0

    def needed(chosen: list[Column]) -> int:
        # A column always kept (the key) is cut short only when nothing is left to leave out.
        texts = sum(c.narrowest if c.keep or c.cut_first else c.width for c in chosen)
        return texts + _COLUMN_EDGES * len(chosen) + 1 + reserved

    while needed(kept) > width and any(c.keep for c in kept):
        lowest = min((c for c in kept if c.keep), key=lambda c: c.keep)
        kept.remove(lowest)
        dropped.append(lowest.name)
    fixed = sum(c.width for c in kept if not c.shrink_to) + _COLUMN_EDGES * len(kept) + 1
    fixed += reserved
    shrinking = [c for c in kept if c.shrink_to]
    room = max(width - fixed, 0)
    table = Table(title=title, title_justify="left", show_footer=any(c.footer for c in kept))
    for column in kept:
        if column.shrink_to:
            share = max(room // max(len(shrinking), 1), column.narrowest)
            table.add_column(
                column.name,
                footer=column.footer,
                justify=column.justify,
                no_wrap=True,
                overflow="ellipsis",
                min_width=min(column.width, share),
                max_width=min(column.width, share),
            )
        else:
            table.add_column(
                column.name,
                footer=column.footer,
                justify=column.justify,
                no_wrap=True,
                min_width=column.width,
            )
    if notes is not None:
        table.add_column("", overflow="fold", min_width=NOTES_WIDTH)
    count = max((len(c.cells) for c in columns), default=0)
    styles = row_styles or [None] * count
    for position in range(count):
        extra = [notes[position]] if notes is not None else []
        table.add_row(*[c.cells[position] for c in kept], *extra, style=styles[position])
    return table, dropped


def print_wrapped(out: Console, text: str) -> None:
    """Print ``text`` wrapped to the terminal at spaces, its continuation lines indented; a
    word longer than a line (a path, a URL) is kept whole, so it can still be copied."""
    for line in text.splitlines() or [""]:
        lead = line[: len(line) - len(line.lstrip(" "))]
        wrapped = textwrap.fill(
            line,
            width=out.width,
            subsequent_indent=lead + "  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        out.print(wrapped or line, markup=False, highlight=False, soft_wrap=True)
