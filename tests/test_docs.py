"""The README and --help texts are part of the product: every command is documented and helps."""

from __future__ import annotations

import re
from pathlib import Path

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
