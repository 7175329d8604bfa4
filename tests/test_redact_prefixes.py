"""The redaction rules' literal prefixes are read from a table made in advance, and each rule's
expression is compiled only when one of its prefixes is found (start-up, issue 22)."""

from __future__ import annotations

import json

from cclens.redact import literals
from cclens.redact.rules import all_rules
from cclens.redact.scanner import Scanner


def test_the_table_is_current() -> None:
    regexes = [rule.regex for rule in all_rules()]
    assert literals.TABLE.read_text(encoding="utf-8") == literals.table_text(regexes), (
        "the rules changed: run python -m cclens.redact.prefix_table to write prefixes.json again"
    )


def test_the_table_gives_what_parsing_gives() -> None:
    table = json.loads(literals.TABLE.read_text(encoding="utf-8"))
    for rule in all_rules():
        assert tuple(table[rule.regex]) == literals.literal_prefixes(rule.regex), rule.regex
        assert literals.known_prefixes(rule.regex) == literals.literal_prefixes(rule.regex)


def test_an_expression_the_table_lacks_is_parsed() -> None:
    regex = r"zz-new-rule_[A-Za-z0-9]{20}"
    assert regex not in json.loads(literals.TABLE.read_text(encoding="utf-8"))
    assert literals.known_prefixes(regex) == ("zz-new",)


def test_a_rule_is_compiled_when_its_prefix_is_found() -> None:
    scanner = Scanner(all_rules())
    assert not any(scanner._patterns), "no rule found by its prefix is compiled up front"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    findings = scanner.scan(f"export GITHUB_TOKEN={token} and nothing else")
    assert [text for text in findings if text.kind == "github-token"], findings
    compiled = [number for number, pattern in enumerate(scanner._patterns) if pattern]
    assert compiled, "the rules whose prefixes were found are compiled"
    assert len(compiled) < len(all_rules()) // 4, compiled
    # The same scanner again: the same findings, from the patterns it compiled.
    assert scanner.scan(f"export GITHUB_TOKEN={token} and nothing else") == findings
