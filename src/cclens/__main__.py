"""The ``cclens`` program (and ``python -m cclens``): the command line, with a short way in for
the status line.

Claude Code starts ``cclens statusline`` anew each time it redraws its status bar, so that one
command skips loading the command-line library and the other commands' modules
(:mod:`cclens._statusline`); everything else goes to the click group of :mod:`cclens.cli`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path


def statusline_database(arguments: Sequence[str]) -> tuple[bool, Path | None]:
    """Whether ``arguments`` are ``statusline`` with at most ``--db FILE`` (the short way in),
    and that file."""
    if not arguments or arguments[0] != "statusline":
        return False, None
    rest = list(arguments[1:])
    if not rest:
        return True, None
    if len(rest) == 2 and rest[0] == "--db" and rest[1]:
        return True, Path(rest[1])
    if len(rest) == 1 and rest[0].startswith("--db=") and len(rest[0]) > len("--db="):
        return True, Path(rest[0].removeprefix("--db="))
    return False, None


def main() -> None:
    """Run ``cclens`` with the arguments the process was given."""
    short, database = statusline_database(sys.argv[1:])
    if short:
        from ._statusline import run

        run(database)
        return
    from .cli import main as group

    group()


__all__ = ["main", "statusline_database"]


if __name__ == "__main__":
    main()
