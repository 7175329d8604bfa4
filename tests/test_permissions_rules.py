"""Rule strings parse into rule values, format back, and fail as values rather than raising."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cclens.permissions import PermissionRuleValue, RuleParseError, format_rule, parse_rule
from cclens.permissions.rules import sourced_rules


@pytest.mark.parametrize(
    ("text", "tool", "content"),
    [
        ("Bash", "Bash", None),
        ("Bash(npm run test:*)", "Bash", "npm run test:*"),
        ("Bash(git status)", "Bash", "git status"),
        ("Read(./src/**)", "Read", "./src/**"),
        ("Edit(//etc/hosts)", "Edit", "//etc/hosts"),
        ("Read(~/.zshrc)", "Read", "~/.zshrc"),
        ("WebFetch(domain:example.com)", "WebFetch", "domain:example.com"),
        ("mcp__github", "mcp__github", None),
        ("mcp__github__*", "mcp__github__*", None),
        ("mcp__my-server__get_issue", "mcp__my-server__get_issue", None),
        ("Agent(Explore)", "Agent", "Explore"),
        ("  Bash(ls)  ", "Bash", "ls"),
        # Escaped parentheses belong to the content.
        (r'Bash(python -c "print\(1\)")', "Bash", 'python -c "print(1)"'),
        # Unescaped inner parentheses are tolerated too.
        ("Bash(echo (hi))", "Bash", "echo (hi)"),
        # A doubled backslash is one backslash; other backslashes stay.
        (r"Bash(grep a\.b)", "Bash", r"grep a\.b"),
        ("Bash(echo a\\\\)", "Bash", "echo a\\"),
        # `Tool()` and `Tool(*)` mean every use of the tool.
        ("Bash()", "Bash", None),
        ("Bash(*)", "Bash", None),
    ],
)
def test_parse_rule(text: str, tool: str, content: str | None) -> None:
    assert parse_rule(text) == PermissionRuleValue(tool_name=tool, rule_content=content)


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("Bash(npm test", "must end with ')'"),
        ("Bash(x)y", "must end with ')'"),
        ("Bash foo)", "without a matching '('"),
        ("(npm test)", "missing tool name"),
        ("Ba sh", "invalid tool name"),
        ("Bash(x\\)", "must end with ')'"),
    ],
)
def test_invalid_rules_give_an_error_value(text: str, reason_part: str) -> None:
    result = parse_rule(text)
    assert isinstance(result, RuleParseError)
    assert result.text == text
    assert reason_part in result.reason


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        (PermissionRuleValue("Bash"), "Bash"),
        (PermissionRuleValue("Bash", "npm run test:*"), "Bash(npm run test:*)"),
        (PermissionRuleValue("Bash", 'python -c "print(1)"'), r'Bash(python -c "print\(1\)")'),
        (PermissionRuleValue("Bash", r"grep a\.b"), r"Bash(grep a\.b)"),
        (PermissionRuleValue("Bash", "echo a\\"), "Bash(echo a\\\\)"),
        (PermissionRuleValue("mcp__github__get_issue"), "mcp__github__get_issue"),
    ],
)
def test_format_rule(rule: PermissionRuleValue, text: str) -> None:
    assert format_rule(rule) == text
    assert parse_rule(text) == rule


@pytest.mark.slow
@given(
    tool=st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True),
    content=st.text(min_size=1, max_size=40).filter(lambda text: text.strip() not in ("", "*")),
)
def test_format_then_parse_is_identity(tool: str, content: str) -> None:
    rule = PermissionRuleValue(tool_name=tool, rule_content=content)
    assert parse_rule(format_rule(rule)) == rule


@given(st.text(max_size=60))
def test_parse_rule_never_raises(text: str) -> None:
    assert isinstance(parse_rule(text), PermissionRuleValue | RuleParseError)


def test_sourced_rules_keep_text_and_collect_errors() -> None:
    rules, errors = sourced_rules(
        ["Bash(npm test:*)", "Bash(oops", "Read"],
        behavior="deny",
        destination="projectSettings",
        path="/p/.claude/settings.json",
    )
    assert [rule.text for rule in rules] == ["Bash(npm test:*)", "Read"]
    assert {rule.behavior for rule in rules} == {"deny"}
    assert {rule.destination for rule in rules} == {"projectSettings"}
    assert rules[0].path == "/p/.claude/settings.json"
    assert [error.text for error in errors] == ["Bash(oops"]
