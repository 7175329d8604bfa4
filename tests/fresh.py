"""What a fresh interpreter loads to do one thing: a command's help, for start-up tests."""

from __future__ import annotations

import subprocess
import sys

_HELP = (
    "import sys\nfrom cclens.cli.main import main\n"
    "try:\n    main([*sys.argv[1:], '--help'])\nexcept SystemExit:\n    pass\n"
    "print(' '.join(sorted(sys.modules)))"
)


def loaded_by_help(*command: str) -> set[str]:
    """The modules a new Python process holds after ``cclens COMMAND --help`` (the group's own
    help when no command is given)."""
    done = subprocess.run(
        [sys.executable, "-c", _HELP, *command], capture_output=True, text=True, check=True
    )
    return set(done.stdout.splitlines()[-1].split())
