"""The README and --help texts are part of the product: every command is documented and helps."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.cli.main import COMMANDS

from .fresh import loaded_by_help

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
    found = sorted(m for m in loaded_by_help() if m.startswith("cclens."))
    assert found == ["cclens._lazy", "cclens.cli", "cclens.cli.main"], found


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


PAGES = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]


def _sections(text: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of every section of a Markdown page (headings in code blocks aside)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"#{1,6} ", line):
            sections.append((line, []))
        else:
            sections[-1][1].append(line)
    return [(heading, "\n".join(body).strip()) for heading, body in sections]


def test_no_page_repeats_a_section() -> None:
    # A section's text is said once across the docs (a page that says it again drifts).
    seen: dict[str, str] = {}
    for page in PAGES:
        for heading, body in _sections(page.read_text(encoding="utf-8")):
            if body.count("\n") < 2:
                continue
            where = f"{page.relative_to(ROOT)} {heading}"
            assert body not in seen, f"{where} repeats {seen[body]}"
            seen[body] = where


def test_every_page_a_doc_links_to_exists() -> None:
    for page in PAGES:
        for target in re.findall(
            r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")
        ):
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}"


def test_every_benchmark_is_listed() -> None:
    listed = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        assert f"`{script.name}`" in listed, f"benchmarks/README.md does not list {script.name}"
