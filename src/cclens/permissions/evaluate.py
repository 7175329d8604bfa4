"""Deciding one recorded tool call against a set of rules and a permission mode.

The order is Claude Code's: a matching deny rule wins, then a matching ask rule, then an allow
rule; specificity never changes that order. When no rule decides, the mode does
(:mod:`cclens.permissions.modes`). A compound shell command is allowed by rules only when every
simple command in it is allowed, each possibly by a different rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias

import msgspec

from .match import rule_matches, simple_command_matches
from .modes import (
    ToolCategory,
    WorkingDirectories,
    is_file_command_inside,
    is_navigation,
    is_protected_path,
    mode_outcome,
)
from .shell import SimpleCommand, parse_command
from .tools import (
    EDIT_TOOLS,
    NO_PERMISSION_TOOLS,
    READ_TOOLS,
    SHELL_TOOLS,
    absolute_path,
    canonical_tool_name,
    rule_covers_tool,
    target_path,
)
from .types import PermissionBehavior, PermissionMode, PermissionUpdateDestination, SourcedRule

#: What decided: a rule, or the mode because no rule matched.
DecisionSource: TypeAlias = Literal["rule", "mode"]


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome for one tool call and what led to it.

    ``rule`` is the deciding rule (for a compound command allowed part by part, the first of
    ``rules``, which lists one rule per part that a rule allowed). With ``source="mode"`` no rule
    decided and ``explanation`` says what the mode implies.
    """

    behavior: PermissionBehavior
    source: DecisionSource
    mode: PermissionMode
    explanation: str
    rule: SourcedRule | None = None
    rules: tuple[SourcedRule, ...] = ()

    @property
    def rule_text(self) -> str | None:
        """The deciding rule as written, if a rule decided."""
        return self.rule.text if self.rule is not None else None

    @property
    def destination(self) -> PermissionUpdateDestination | None:
        """Where the deciding rule is configured, if a rule decided."""
        return self.rule.destination if self.rule is not None else None


def _category(tool_name: str) -> ToolCategory:
    if tool_name in NO_PERMISSION_TOOLS:
        return "free"
    if tool_name in READ_TOOLS:
        return "read"
    if tool_name in EDIT_TOOLS:
        return "edit"
    if tool_name in SHELL_TOOLS:
        return "shell"
    return "other"


def _working_directories(
    *, cwd: str, project_dir: str, home: str, additional: Sequence[str]
) -> WorkingDirectories:
    resolved = [absolute_path(directory, cwd=cwd, home=home) for directory in additional]
    directories = dict.fromkeys([cwd, project_dir, *resolved])
    return WorkingDirectories(tuple(directories), home)


def _rule_decision(
    behavior: PermissionBehavior, rule: SourcedRule, mode: PermissionMode
) -> Decision:
    return Decision(
        behavior=behavior,
        source="rule",
        mode=mode,
        rule=rule,
        rules=(rule,),
        explanation=f"{behavior} rule {rule.text} in {rule.destination}",
    )


def _shell_parts_allowed(
    parts: Sequence[SimpleCommand],
    allow_rules: Sequence[SourcedRule],
    *,
    tool_name: str,
    cwd: str,
    mode: PermissionMode,
    directories: WorkingDirectories,
) -> tuple[bool, tuple[SourcedRule, ...], list[str]]:
    """Check each simple command; return (all covered, rules used, commands not covered)."""
    used: list[SourcedRule] = []
    uncovered: list[str] = []
    for part in parts:
        rule = next(
            (
                candidate
                for candidate in allow_rules
                if rule_covers_tool(candidate.rule.tool_name, tool_name)
                and (
                    candidate.rule.rule_content is None
                    or simple_command_matches(candidate.rule.rule_content, part, behavior="allow")
                )
            ),
            None,
        )
        if rule is not None:
            if rule not in used:
                used.append(rule)
            continue
        # `cd` into a working directory never asks; acceptEdits also takes mkdir, touch, mv
        # and cp on working files.
        navigates = is_navigation(part, cwd=cwd, directories=directories)
        edits_files = mode == "acceptEdits" and is_file_command_inside(
            part, cwd=cwd, directories=directories
        )
        if not (navigates or edits_files):
            uncovered.append(part.text)
    return not uncovered, tuple(used), uncovered


def evaluate(
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    cwd: str,
    rules: Sequence[SourcedRule],
    mode: PermissionMode | None,
    project_dir: str | None = None,
    home: str | None = None,
    additional_directories: Sequence[str] = (),
) -> Decision:
    """Decide a call of ``tool_name`` with ``tool_input`` the way Claude Code would.

    ``cwd`` is the session's working directory; ``project_dir`` (default ``cwd``) is the root
    of ``/path`` rules; ``home`` (default the current user's) is what ``~`` means;
    ``additional_directories`` extend the working directories as
    ``permissions.additionalDirectories`` does. ``mode=None`` means ``default``. Never raises
    for odd input: an input without the expected fields simply matches no content rule.
    """
    effective_mode: PermissionMode = mode or "default"
    project = project_dir or cwd
    home_dir = home if home is not None else os.path.expanduser("~")
    name = canonical_tool_name(tool_name)
    context = {"cwd": cwd, "project_dir": project, "home": home_dir}

    for behavior in ("deny", "ask"):
        for rule in rules:
            if rule.behavior == behavior and rule_matches(
                rule.rule, name, tool_input, behavior=behavior, **context
            ):
                return _rule_decision(behavior, rule, effective_mode)

    allow_rules = [rule for rule in rules if rule.behavior == "allow"]
    for rule in allow_rules:
        if rule_matches(rule.rule, name, tool_input, behavior="allow", **context):
            return _rule_decision("allow", rule, effective_mode)

    directories = _working_directories(
        cwd=cwd, project_dir=project, home=home_dir, additional=additional_directories
    )
    category = _category(name)
    command = tool_input.get("command")
    if category == "shell" and isinstance(command, str):
        parsed = parse_command(command)
        if parsed is not None and parsed.parts:
            covered, used, uncovered = _shell_parts_allowed(
                parsed.parts,
                allow_rules,
                tool_name=name,
                cwd=cwd,
                mode=effective_mode,
                directories=directories,
            )
            if covered:
                return Decision(
                    behavior="allow",
                    source="rule" if used else "mode",
                    mode=effective_mode,
                    rule=used[0] if used else None,
                    rules=used,
                    explanation=(
                        "every command is allowed: " + ", ".join(rule.text for rule in used)
                        if used
                        else "every command only changes directory or edits working files"
                    ),
                )
            if used:
                outcome = mode_outcome(category, mode=effective_mode, tool_name=name)
                return Decision(
                    behavior=outcome.behavior,
                    source="mode",
                    mode=effective_mode,
                    explanation=(f"{outcome.explanation}; no allow rule covers {uncovered[0]!r}"),
                )

    path = target_path(name, tool_input, cwd=cwd)
    outcome = mode_outcome(
        category,
        mode=effective_mode,
        tool_name=name,
        inside=path is not None and directories.contains(path),
        protected=path is not None and is_protected_path(path),
    )
    return Decision(
        behavior=outcome.behavior,
        source="mode",
        mode=effective_mode,
        explanation=outcome.explanation,
    )
