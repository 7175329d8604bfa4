"""The README and --help texts are part of the product: every command is documented and helps."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_exists_helps_and_is_in_the_readme(name: str) -> None:
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"Usage: main {name}" in result.output or f"Usage: cclens {name}" in result.output
    assert re.search(rf"\bcclens {name}\b", README), f"README does not show `cclens {name}`"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_listed_line_is_the_commands_own(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert COMMANDS[name][1] == command.get_short_help_str(limit=1000)


def test_group_help_imports_no_command() -> None:
    code = (
        "import sys\nfrom cclens.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('cclens.')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()[-1]
    assert found == "['cclens._lazy', 'cclens.cli', 'cclens.cli.main']", found


def test_group_help_lists_every_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", result.output, re.MULTILINE), name


def test_readme_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links to missing {target}"


def test_readme_test_command_is_what_ci_runs() -> None:
    assert "./scripts/test.sh" in README
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
