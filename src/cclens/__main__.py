"""The ``cclens`` program (and ``python -m cclens``): the command line, with short ways in for
the status line and the hook.

Claude Code starts ``cclens statusline`` anew each time it redraws its status bar, and ``cclens
hook`` when a session ends or compacts, so those two skip loading the command-line library and
the other commands' modules (:mod:`cclens._statusline`, :mod:`cclens.setup.hook`); everything
else goes to the click group of :mod:`cclens.cli`.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from pathlib import Path


def statusline_database(arguments: Sequence[str]) -> tuple[bool, Path | None, str | None]:
    """Whether ``arguments`` are ``statusline`` with at most ``--db FILE`` and ``--chain
    COMMAND`` (the short way in), that file and that command."""
    if not arguments or arguments[0] != "statusline":
        return False, None, None
    rest = list(arguments[1:])
    found: dict[str, str] = {}
    while rest:
        option = rest.pop(0)
        name, equals, value = option.partition("=")
        if name not in ("--db", "--chain") or name in found:
            return False, None, None
        if not equals:
            if not rest:
                return False, None, None
            value = rest.pop(0)
        if not value:
            return False, None, None
        found[name] = value
    database = found.get("--db")
    return True, Path(database) if database else None, found.get("--chain")


def main() -> None:
    """Run ``cclens`` with the arguments the process was given."""
    short, database, chain = statusline_database(sys.argv[1:])
    if short:
        from ._statusline import run

        run(database, chain)
        return
    if sys.argv[1:2] == ["hook"]:
        from .setup.hook import main as hook
        from .setup.hook import options

        if options(sys.argv[2:]) is not None:
            sys.exit(hook(sys.argv[2:]))
    from .cli import main as group

    try:
        group()
    finally:
        # What the command built lives until the process ends: the collector's last passes at
        # exit would walk all of it (a tenth of a second after exporting a session of MBs).
        gc.freeze()


__all__ = ["main", "statusline_database"]


if __name__ == "__main__":
    main()
