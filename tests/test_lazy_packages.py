"""``cclens`` and ``cclens.index`` load their modules on first use (the status line is a new
process each time): every public name still resolves, and importing them loads no parser."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cclens
import cclens.index


@pytest.mark.parametrize("package", [cclens, cclens.index])
def test_every_public_name_resolves(package: object) -> None:
    names = getattr(package, "__all__")  # noqa: B009
    for name in names:
        assert getattr(package, name) is not None, name
    if package is cclens.index:
        # Every re-export is listed in both places (a name added to one only fails here).
        assert set(cclens.index._PLACES) == set(names)


def test_importing_the_packages_loads_no_parser() -> None:
    # The status line's own modules too: it is a new process each time Claude Code redraws it.
    code = (
        "import sys, cclens, cclens.index, cclens.index.read.live_usage, cclens.__main__, "
        "cclens._statusline, "
        "cclens.reports.live; "
        "print(sorted(m for m in sys.modules if m.startswith('cclens.')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "cclens.readers.claude" not in found and "cclens.model" not in found, found
    assert "cclens.cli" not in found, found  # nor the command line library
