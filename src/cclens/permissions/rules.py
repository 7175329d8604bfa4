"""Rule strings: ``Tool`` or ``Tool(content)``, parsed into and formatted from rule values.

Inside the parentheses a backslash escapes ``(``, ``)`` and itself, so a rule can hold a command
with parentheses of its own: ``Bash(python -c "print\\(1\\)")``. A backslash before any other
character is kept as written (``Bash(grep a\\.b)`` means the command ``grep a\\.b``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from .types import PermissionBehavior, PermissionRuleValue, PermissionUpdateDestination, SourcedRule

_ESCAPABLE = "()\\"
# MCP tool names carry hyphens and dots from server names; `mcp__server__*` carries a star.
_TOOL_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-*]*")


class RuleParseError(msgspec.Struct, frozen=True, kw_only=True):
    """A rule string that could not be parsed: the text and a reason a person can act on."""

    text: str
    reason: str


def unescape_rule_content(content: str) -> str:
    """Undo :func:`escape_rule_content`: ``\\(`` → ``(``, ``\\)`` → ``)``, ``\\\\`` → ``\\``."""
    out: list[str] = []
    index = 0
    while index < len(content):
        char = content[index]
        if char == "\\" and index + 1 < len(content) and content[index + 1] in _ESCAPABLE:
            out.append(content[index + 1])
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def escape_rule_content(content: str) -> str:
    """Escape ``content`` so that it survives inside ``Tool(...)`` and parses back unchanged."""
    out: list[str] = []
    for index, char in enumerate(content):
        if char in "()":
            out.append("\\" + char)
        elif char == "\\":
            following = content[index + 1] if index + 1 < len(content) else ""
            # Only a backslash that would otherwise read as an escape needs doubling; a final
            # one would escape the closing parenthesis.
            out.append("\\\\" if following in _ESCAPABLE else "\\")
        else:
            out.append(char)
    return "".join(out)


def _first_unescaped_open(text: str) -> int:
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] in _ESCAPABLE:
            index += 2
            continue
        if char == "(":
            return index
        index += 1
    return -1


def _ends_with_unescaped_close(text: str) -> bool:
    if not text.endswith(")"):
        return False
    backslashes = len(text) - 1 - len(text[:-1].rstrip("\\"))
    return backslashes % 2 == 0


def parse_rule(text: str) -> PermissionRuleValue | RuleParseError:
    """Parse ``Tool`` or ``Tool(content)`` into a :class:`PermissionRuleValue`.

    ``Tool()`` and ``Tool(*)`` mean every use of the tool, as in Claude Code, and parse to a
    value without content. Returns a :class:`RuleParseError` instead of raising.
    """
    stripped = text.strip()
    if not stripped:
        return RuleParseError(text=text, reason="empty rule")
    open_at = _first_unescaped_open(stripped)
    if open_at == -1:
        tool_name, content = stripped, None
        if ")" in stripped:
            return RuleParseError(text=text, reason="')' without a matching '('")
    else:
        if not _ends_with_unescaped_close(stripped):
            return RuleParseError(
                text=text, reason="a rule with '(' must end with ')': Tool(content)"
            )
        tool_name = stripped[:open_at].strip()
        content = unescape_rule_content(stripped[open_at + 1 : -1])
    if not tool_name:
        return RuleParseError(text=text, reason="missing tool name before '('")
    if not _TOOL_NAME.fullmatch(tool_name):
        return RuleParseError(text=text, reason=f"invalid tool name {tool_name!r}")
    if content is not None and content.strip() in ("", "*"):
        content = None
    return PermissionRuleValue(tool_name=tool_name, rule_content=content)


def format_rule(rule: PermissionRuleValue) -> str:
    """Format a rule value the way settings files write it: ``Tool`` or ``Tool(content)``."""
    if rule.rule_content is None:
        return rule.tool_name
    return f"{rule.tool_name}({escape_rule_content(rule.rule_content)})"


def sourced_rules(
    texts: Iterable[str],
    *,
    behavior: PermissionBehavior,
    destination: PermissionUpdateDestination,
    path: str | None = None,
) -> tuple[list[SourcedRule], list[RuleParseError]]:
    """Parse rule strings into :class:`SourcedRule` values, collecting the ones that fail."""
    rules: list[SourcedRule] = []
    errors: list[RuleParseError] = []
    for text in texts:
        parsed = parse_rule(text)
        if isinstance(parsed, RuleParseError):
            errors.append(parsed)
            continue
        rules.append(
            SourcedRule(
                rule=parsed, behavior=behavior, destination=destination, text=text, path=path
            )
        )
    return rules, errors
