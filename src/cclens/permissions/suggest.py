"""Suggesting allow rules that would have saved the prompts seen in recorded tool calls.

Each suggestion is an ``addRules`` :class:`~cclens.permissions.types.AddRules` update with one
allow rule, ranked by how many prompts it would have saved. Rules are generalised where that is
safe: several ``npm run test …`` commands give ``Bash(npm run test:*)``, reads under ``src``
give ``Read(./src/**)``, fetches give ``WebFetch(domain:host)``, MCP calls give the exact
``mcp__server__tool``. A single distinct command gives an exact rule (``Bash(git status)``).

Never suggested: anything for a destructive command (see
:func:`~cclens.permissions.danger.is_destructive_command`), prefix rules whose prefix also
starts destructive commands (``git push:*`` would cover ``git push --force``), edits outside
the project or to ``.git``/``.claude``, reads of credentials, and any rule that would have
allowed a call the user rejected. Rejected calls never count as prompts saved.

Destination: ``projectSettings`` for rules a whole team shares (project commands without
absolute or home paths; file rules inside the project, written relative to it);
``localSettings`` for everything personal (paths outside the project, web domains, web search,
MCP tools, skills), which is also where Claude Code itself saves "don't ask again" approvals.

Every suggested rule is one Claude Code reads back as written: it is checked with the rule
parser (:func:`~cclens.permissions.rules.parse_rule` gives back the same rule), holds no line
break, and a file rule holds no backslash. Windows paths (``C:\\repo\\src\\app.cs``) are
read as such: inside the project they give the same relative rules as anywhere
(``Edit(./src/**)``); outside it they get no rule.

Ranking (:func:`rank`): by prompts saved, the most first; of rules saving as many, a general
one (a shared command prefix, a whole directory, a web domain or a whole tool: it also covers
the next call of its kind) before an exact command or file. Suggestions of the same rule are
one suggestion (:func:`merge_same`), whichever working directories of the project asked.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import msgspec

from .danger import is_destructive_command, is_sensitive_path
from .match import rule_matches, simple_command_matches
from .modes import WorkingDirectories, is_navigation, is_protected_path
from .rules import format_rule, parse_rule
from .shell import SimpleCommand, literal_word, normalize_command, parse_command
from .tools import (
    EDIT_TOOLS,
    READ_TOOLS,
    SHELL_TOOLS,
    canonical_tool_name,
    is_within,
    rule_covers_tool,
    target_path,
)
from .types import (
    AddRules,
    PermissionBehavior,
    PermissionRuleValue,
    PermissionUpdateDestination,
    SourcedRule,
)


@dataclass(frozen=True)
class RecordedCall:
    """One tool call from a transcript, with how the user's prompt for it went.

    ``asked`` means today's rules would prompt for it (compute it with
    :func:`~cclens.permissions.evaluate.evaluate`); ``rejected`` means the user said no.
    """

    tool_name: str
    tool_input: Mapping[str, Any]
    cwd: str
    project_dir: str
    asked: bool
    rejected: bool


class Suggestion(msgspec.Struct, frozen=True, kw_only=True):
    """One suggested allow rule, ready to apply as ``update``."""

    update: AddRules
    #: The rule as a settings file writes it.
    rule: str
    #: Prompts it would have saved: asked, not rejected calls it (with the other suggestions,
    #: for compound commands) would have allowed.
    prompts_saved: int
    #: A few of the commands, paths, hosts or tools it covers.
    examples: tuple[str, ...]
    #: Why this shape and this destination.
    reason: str
    #: Whether the rule covers more than the calls seen (a prefix, a directory, a domain, a
    #: whole tool) rather than one exact command or file.
    general: bool = False
    #: The settings file the rule goes in, when known (the audit names it).
    settings_path: str | None = None
    #: Every settings file it would go in, when several working directories of a project
    #: suggest it (see :func:`merge_same`); ``settings_path`` is the first.
    settings_paths: tuple[str, ...] = ()

    @property
    def rule_line(self) -> str:
        """The rule as it goes in the ``permissions.allow`` list of its file (a JSON string)."""
        return msgspec.json.encode(self.rule).decode()


# Commands that never get a prefix rule: each runs arbitrary code, reaches the network, moves
# files anywhere, or hides the real command.
_NEVER_GENERALISED = frozenset(
    {
        ".",
        "bash",
        "chgrp",
        "chmod",
        "chown",
        "cp",
        "curl",
        "dash",
        "env",
        "eval",
        "exec",
        "find",
        "fish",
        "kill",
        "killall",
        "ksh",
        "ln",
        "mv",
        "nc",
        "pkill",
        "rsync",
        "scp",
        "sh",
        "source",
        "ssh",
        "tee",
        "wget",
        "xargs",
        "zsh",
    }
)
# Tools whose first argument is a subcommand: `git status`, `cargo test`, `make build`.
_SUBCOMMAND_TOOLS = frozenset(
    {
        "apt",
        "brew",
        "bun",
        "bundle",
        "cabal",
        "cargo",
        "composer",
        "conda",
        "docker",
        "dotnet",
        "gh",
        "git",
        "go",
        "gradle",
        "helm",
        "just",
        "kubectl",
        "make",
        "mix",
        "mvn",
        "nix",
        "npm",
        "pdm",
        "pip",
        "pip3",
        "pnpm",
        "poetry",
        "pre-commit",
        "rake",
        "rustup",
        "stack",
        "swift",
        "terraform",
        "tox",
        "uv",
        "yarn",
        "zig",
    }
)
# `<tool> run <script>`: the script is part of the prefix.
_SCRIPT_RUNNERS = frozenset(
    {"bun", "hatch", "npm", "pdm", "pipenv", "pnpm", "poetry", "uv", "yarn"}
)
_RUN_WORDS = frozenset({"run", "exec", "x", "dlx", "run-script"})
# Tools with two levels of subcommand: `gh pr view`, `docker compose up`.
_TWO_LEVEL = {"gh": None, "docker": frozenset({"compose", "buildx", "image", "container"})}
_INTERPRETER = re.compile(r"python[0-9.]*|node|ruby|perl|php|deno")
_SCRIPT = re.compile(r"[A-Za-z0-9_\-./]+\.(?:py|js|mjs|cjs|ts|rb|pl|php)")
# Prefixes that also begin commands suggestions must never allow.
_DANGEROUS_PREFIXES = frozenset(
    {
        ("docker", "rm"),
        ("docker", "system"),
        ("gh", "repo"),
        ("git", "branch"),
        ("git", "checkout"),
        ("git", "clean"),
        ("git", "filter-branch"),
        ("git", "push"),
        ("git", "rebase"),
        ("git", "reset"),
        ("git", "restore"),
        ("git", "stash"),
        ("kubectl", "delete"),
        ("npm", "publish"),
        ("cargo", "publish"),
        ("terraform", "apply"),
        ("terraform", "destroy"),
    }
)
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+=,.:/\-]+")
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9:_\-]*")
_NEVER_SUGGESTED_TOOLS = frozenset({"AskUserQuestion", "EnterPlanMode", "ExitPlanMode"})
#: Input fields of the file tools that hold a path.
_PATH_KEYS = frozenset({"file_path", "notebook_path", "path"})


def _paths_in(tool_input: Mapping[str, Any]) -> list[str]:
    return [v for k, v in tool_input.items() if k in _PATH_KEYS and isinstance(v, str)]


_MAX_EXAMPLES = 3


def natural_prefix(words: Sequence[str]) -> tuple[str, ...] | None:
    """The words a prefix rule for this command should keep, or ``None`` for none at all.

    ``npm run test -- -k x`` → ``npm run test``; ``git status -s`` → ``git status``;
    ``python -m pytest -q`` → ``python -m pytest``; ``pytest tests`` → ``pytest``;
    ``curl …``, ``python -c …`` and ``git push …`` → ``None``.
    """
    if not words or not _PLAIN_WORD.fullmatch(words[0]):
        return None
    head = words[0]
    if head in _NEVER_GENERALISED or ("/" in head and not head.startswith("./")):
        return None
    depth: int | None = 1
    if head in _SCRIPT_RUNNERS and len(words) >= 3 and words[1] in _RUN_WORDS:
        depth = 3
    elif _INTERPRETER.fullmatch(head):
        if len(words) >= 3 and words[1] == "-m":
            depth = 3
        elif len(words) >= 2 and _SCRIPT.fullmatch(words[1]) and ".." not in words[1]:
            depth = 2
        else:
            depth = None
    elif head in _TWO_LEVEL and len(words) >= 3 and _SUBCOMMAND.fullmatch(words[2]):
        second_levels = _TWO_LEVEL[head]
        depth = 3 if second_levels is None or words[1] in second_levels else 2
    elif head in _SUBCOMMAND_TOOLS:
        depth = 2 if len(words) >= 2 and _SUBCOMMAND.fullmatch(words[1]) else None
    if depth is None or len(words) < depth:
        return None
    prefix = tuple(words[:depth])
    if not all(_PLAIN_WORD.fullmatch(word) for word in prefix):
        return None  # Quotes, globs or variables in the prefix would not match as written.
    if any(prefix[: len(dangerous)] == dangerous for dangerous in _DANGEROUS_PREFIXES):
        return None
    return prefix


def _is_personal_text(text: str) -> bool:
    """Whether a command mentions absolute or home paths, which differ between people."""
    return any(
        word.startswith(("/", "~", "$HOME")) or "/home/" in word or "/Users/" in word
        for word in text.split()
    )


@dataclass
class _Need:
    """One thing a call needs allowed: a whole call, or one part of a compound command."""

    call: int
    tool: str
    #: Grouping key: calls with the same key may share a generalised rule.
    group: tuple[str, ...] | None
    #: The specific rule content (exact command or file) if generalising is not possible.
    exact: PermissionRuleValue
    #: The generalised rule, if any (may be the same as exact).
    general: PermissionRuleValue | None
    destination: PermissionUpdateDestination
    example: str
    reason: str
    distinct: str = ""


@dataclass
class _Plan:
    """Rules chosen so far and the calls that use each."""

    calls_by_rule: dict[PermissionRuleValue, set[int]] = field(default_factory=dict)
    info: dict[PermissionRuleValue, tuple[PermissionUpdateDestination, str]] = field(
        default_factory=dict
    )
    examples: dict[PermissionRuleValue, list[str]] = field(default_factory=dict)

    def add(self, rule: PermissionRuleValue, need: _Need, reason: str) -> None:
        self.calls_by_rule.setdefault(rule, set()).add(need.call)
        destination = need.destination
        if need.tool in SHELL_TOOLS:
            # A shared prefix drops the arguments, so judge the rule's own text.
            personal = _is_personal_text(rule.rule_content or "")
            destination = "localSettings" if personal else "projectSettings"
        self.info.setdefault(rule, (destination, reason))
        examples = self.examples.setdefault(rule, [])
        if need.example not in examples:
            examples.append(need.example)


class _Suggester:
    def __init__(
        self, calls: Sequence[RecordedCall], rules: Sequence[SourcedRule], home: str
    ) -> None:
        self.calls = calls
        self.home = home
        self.allow_rules = [rule for rule in rules if rule.behavior == "allow"]
        self.ask_rules = [rule for rule in rules if rule.behavior == "ask"]
        self.rejected = [call for call in calls if call.rejected]

    def _matches(
        self, rule: PermissionRuleValue, call: RecordedCall, behavior: PermissionBehavior = "allow"
    ) -> bool:
        return rule_matches(
            rule,
            call.tool_name,
            call.tool_input,
            cwd=call.cwd,
            project_dir=call.project_dir,
            home=self.home,
            behavior=behavior,
        )

    def safe(self, rule: PermissionRuleValue) -> bool:
        """A rule is safe to suggest if it would not have allowed any rejected call."""
        return not any(self._matches(rule, call) for call in self.rejected)

    def _asked_by_rule(self, call: RecordedCall) -> bool:
        # An ask rule beats any allow rule: no suggestion can save these prompts.
        return any(self._matches(rule.rule, call, "ask") for rule in self.ask_rules)

    def needs(self, index: int, call: RecordedCall) -> list[_Need] | None:
        """What must be allowed for this call to run unasked; ``None`` if it never should."""
        tool = canonical_tool_name(call.tool_name)
        if self._asked_by_rule(call) or tool in _NEVER_SUGGESTED_TOOLS:
            return None
        if tool in SHELL_TOOLS:
            return self._shell_needs(index, tool, call)
        if tool in READ_TOOLS or tool in EDIT_TOOLS:
            need = self._path_need(index, tool, call)
        elif tool == "WebFetch":
            need = self._web_fetch_need(index, call)
        elif tool.startswith("mcp__") or tool not in ("Agent", "Skill"):
            need = _Need(
                call=index,
                tool=tool,
                group=None,
                exact=PermissionRuleValue(tool),
                general=None,
                destination="localSettings",
                example=tool,
                reason="a tool used personally",
            )
        else:
            need = self._named_need(index, tool, call)
        return None if need is None else [need]

    def _shell_needs(self, index: int, tool: str, call: RecordedCall) -> list[_Need] | None:
        command = call.tool_input.get("command")
        if not isinstance(command, str) or is_destructive_command(command):
            return None
        parsed = parse_command(command)
        if parsed is None:
            return None
        directories = WorkingDirectories((call.cwd, call.project_dir), self.home)
        needs: list[_Need] = []
        for part in parsed.parts:
            if self._already_allowed(tool, part) or is_navigation(
                part, cwd=call.cwd, directories=directories
            ):
                continue
            need = self._command_need(index, tool, part)
            if need is None:
                return None
            needs.append(need)
        return needs or None

    def _already_allowed(self, tool: str, part: SimpleCommand) -> bool:
        return any(
            rule_covers_tool(rule.rule.tool_name, tool)
            and (
                rule.rule.rule_content is None
                or simple_command_matches(rule.rule.rule_content, part, behavior="allow")
            )
            for rule in self.allow_rules
        )

    def _command_need(self, index: int, tool: str, part: SimpleCommand) -> _Need | None:
        if part.has_substitution:
            return None  # What runs is not in the text; no rule can be trusted with it.
        normalized = normalize_command(part.text, strip_environment=False)
        if normalized is None or not normalized.words or normalized.writes_elsewhere:
            return None
        text = normalized.text
        prefix = natural_prefix(normalized.words)
        personal = _is_personal_text(text)
        destination: PermissionUpdateDestination = (
            "localSettings" if personal else "projectSettings"
        )
        where = "mentions paths of this machine" if personal else "a project command"
        general = PermissionRuleValue(tool, " ".join(prefix) + ":*") if prefix is not None else None
        return _Need(
            call=index,
            tool=tool,
            group=(tool, *prefix) if prefix is not None else None,
            exact=PermissionRuleValue(tool, text),
            general=general,
            destination=destination,
            example=text,
            reason=where,
            distinct=text,
        )

    def _path_need(self, index: int, tool: str, call: RecordedCall) -> _Need | None:
        cwd, project_dir, tool_input = call.cwd, call.project_dir, call.tool_input
        windows = any(is_windows_path(p) for p in (cwd, project_dir, *_paths_in(tool_input)))
        if windows:
            cwd, project_dir = posix_from_windows(cwd), posix_from_windows(project_dir)
            tool_input = {
                key: posix_from_windows(value)
                if key in _PATH_KEYS and isinstance(value, str)
                else value
                for key, value in tool_input.items()
            }
        path = target_path(tool, tool_input, cwd=cwd)
        if path is None or is_sensitive_path(path):
            return None
        editing = tool in EDIT_TOOLS
        rule_tool = "Edit" if editing else "Read"
        inside_project = is_within(path, project_dir)
        if editing and (not inside_project or is_protected_path(path)):
            return None  # Writes outside the project, or to .git/.claude, stay prompted.
        if windows and not inside_project:
            return None  # No rule form for a Windows path outside the project is sure to match.
        is_directory = tool in ("Glob", "Grep", "LS")
        if inside_project:
            root, anchor = (cwd, "./") if is_within(path, cwd) else (project_dir, "/")
            relative = posixpath.relpath(path, root)
            parts = [] if relative == "." else relative.split("/")
            if parts and (is_directory or len(parts) > 1):
                general = f"{anchor}{parts[0]}/**"
            else:
                general = f"{anchor}**" if not parts else f"{anchor}{parts[0]}"
            exact = f"{anchor}{relative}" if parts else general
            destination: PermissionUpdateDestination = "projectSettings"
            reason = "files of this project"
        else:
            directory = path if is_directory else posixpath.dirname(path)
            home = self.home.rstrip("/") or "/"
            if is_within(path, home) and path != home:
                exact = "~/" + posixpath.relpath(path, home)
                general = "~/" + posixpath.relpath(directory, home) + "/**"
            else:
                exact = "/" + path
                general = "/" + directory.rstrip("/") + "/**"
            if directory in (home, "/"):
                general = exact  # Never the whole home directory or filesystem.
            destination = "localSettings"
            reason = "a directory outside the project, on this machine"
        return _Need(
            call=index,
            tool=rule_tool,
            group=(rule_tool, general),
            exact=PermissionRuleValue(rule_tool, exact),
            general=PermissionRuleValue(rule_tool, general),
            destination=destination,
            example=path,
            reason=reason,
        )

    def _web_fetch_need(self, index: int, call: RecordedCall) -> _Need | None:
        url = call.tool_input.get("url")
        if not isinstance(url, str):
            return None
        try:
            host = urlsplit(url).hostname
        except ValueError:
            return None
        if not host:
            return None
        rule = PermissionRuleValue("WebFetch", f"domain:{host}")
        return _Need(
            call=index,
            tool="WebFetch",
            group=None,
            exact=rule,
            general=None,
            destination="localSettings",
            example=host,
            reason="a web domain you fetch from",
        )

    def _named_need(self, index: int, tool: str, call: RecordedCall) -> _Need | None:
        key = "subagent_type" if tool == "Agent" else "skill"
        name = call.tool_input.get(key)
        if not isinstance(name, str) or literal_word(name) != name:
            return None
        return _Need(
            call=index,
            tool=tool,
            group=None,
            exact=PermissionRuleValue(tool, name),
            general=None,
            destination="localSettings",
            example=name,
            reason=f"a {tool.lower()} you use",
        )


def _choose(needs: Sequence[_Need], suggester: _Suggester) -> dict[int, PermissionRuleValue]:
    """Pick a rule for each need: the general one when it is shared and safe, else the exact."""
    by_group: dict[tuple[str, ...], tuple[PermissionRuleValue, list[int]]] = {}
    for position, need in enumerate(needs):
        if need.group is not None and need.general is not None:
            by_group.setdefault(need.group, (need.general, []))[1].append(position)
    chosen: dict[int, PermissionRuleValue] = {}
    for general, positions in by_group.values():
        is_command = needs[positions[0]].tool in SHELL_TOOLS
        distinct = {needs[position].distinct for position in positions}
        # A command prefix needs two different commands behind it; one command is exact.
        shared = not is_command or len(distinct) > 1
        if shared and valid_rule(general) and suggester.safe(general):
            for position in positions:
                chosen[position] = general
    for position, need in enumerate(needs):
        if position not in chosen and valid_rule(need.exact) and suggester.safe(need.exact):
            chosen[position] = need.exact
    return chosen


_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]|\\\\")
# A drive letter as a path component: a Windows path that slipped into a rule.
_DRIVE = re.compile(r"(?:^|/)[A-Za-z]:(?:/|$)")
_FILE_RULE_TOOLS = frozenset({"Read", "Edit"})


def is_windows_path(path: str) -> bool:
    """Whether ``path`` is written the Windows way (``C:\\x``, ``C:/x``, a UNC path)."""
    return _WINDOWS_PATH.match(path) is not None or ("\\" in path and "/" not in path)


def posix_from_windows(path: str) -> str:
    """A Windows path as a POSIX one the rule logic can compare: ``C:\\a\\b`` → ``/C:/a/b``."""
    path = path.replace("\\", "/")
    return "/" + path if re.match(r"[A-Za-z]:/", path) else path


def valid_rule(rule: PermissionRuleValue) -> bool:
    """Whether Claude Code reads ``rule`` back as written: the parser gives back the same rule,
    it holds no line break, and a file rule holds no backslash or drive letter (a Windows
    path written as it came)."""
    content = rule.rule_content
    if content is not None:
        if "\n" in content or "\r" in content:
            return False
        if rule.tool_name in _FILE_RULE_TOOLS and ("\\" in content or _DRIVE.search(content)):
            return False
    return parse_rule(format_rule(rule)) == rule


def _shape(rule: PermissionRuleValue, need: _Need) -> str:
    if rule == need.exact:
        return "exact"
    return "shared prefix" if need.tool in SHELL_TOOLS else "whole directory"


def suggest(
    calls: Iterable[RecordedCall],
    *,
    rules: Sequence[SourcedRule] = (),
    home: str | None = None,
) -> list[Suggestion]:
    """Suggest allow rules for the prompts in ``calls``, the most prompts saved first.

    ``rules`` are today's rules: parts of a compound command they already allow need nothing,
    and a call an ask rule matches is skipped (an allow rule cannot beat it). ``home`` (default
    the current user's) is where ``~/`` rules point. See the module docstring for what is never
    suggested and how destinations are chosen.
    """
    recorded = list(calls)
    suggester = _Suggester(recorded, rules, home if home is not None else os.path.expanduser("~"))
    needs_by_call: dict[int, list[_Need]] = {}
    for index, call in enumerate(recorded):
        if not call.asked or call.rejected:
            continue
        needs = suggester.needs(index, call)
        if needs:
            needs_by_call[index] = needs
    flat = [need for needs in needs_by_call.values() for need in needs]
    chosen = _choose(flat, suggester)

    plan = _Plan()
    exact: set[PermissionRuleValue] = set()
    position = 0
    for needs in needs_by_call.values():
        positions = range(position, position + len(needs))
        position += len(needs)
        # A call saves a prompt only if every part of it gets a rule.
        if all(index in chosen for index in positions):
            for index in positions:
                need = flat[index]
                rule = chosen[index]
                plan.add(rule, need, f"{_shape(rule, need)}; {need.reason}")
                if rule == need.exact and need.tool in (*SHELL_TOOLS, "Read", "Edit"):
                    exact.add(rule)  # one command or one file, not a kind of call

    existing = {rule.rule for rule in rules if rule.behavior == "allow"}
    suggestions = [
        Suggestion(
            update=AddRules(rules=(rule,), behavior="allow", destination=plan.info[rule][0]),
            rule=format_rule(rule),
            prompts_saved=len(call_indexes),
            examples=tuple(plan.examples[rule][:_MAX_EXAMPLES]),
            reason=plan.info[rule][1],
            general=rule not in exact,
        )
        for rule, call_indexes in plan.calls_by_rule.items()
        if rule not in existing
    ]
    suggestions.sort(key=rank)
    return suggestions


def rank(suggestion: Suggestion) -> tuple[int, bool, str]:
    """Where a suggestion goes in a list (see the module docstring): the more prompts saved,
    the earlier; of rules saving as many, a general one first."""
    return (-suggestion.prompts_saved, not suggestion.general, suggestion.rule)


def merge_same(suggestions: Iterable[Suggestion]) -> list[Suggestion]:
    """One suggestion per rule (their prompts added, their examples and settings files pooled),
    in :func:`rank` order: audits of several working directories of one project each suggest
    the same rule, each for the settings of its own directory. The merged suggestion names
    the settings file of the directory that would save most prompts first."""
    merged: dict[tuple[str, str], Suggestion] = {}
    for suggestion in sorted(suggestions, key=rank):
        key = (suggestion.rule, suggestion.update.destination)
        found = merged.get(key)
        if found is None:
            first: tuple[str, ...] = (suggestion.settings_path,) if suggestion.settings_path else ()
            merged[key] = msgspec.structs.replace(suggestion, settings_paths=first)
            continue
        examples = tuple(dict.fromkeys((*found.examples, *suggestion.examples)))[:_MAX_EXAMPLES]
        paths = found.settings_paths
        if suggestion.settings_path and suggestion.settings_path not in paths:
            paths = (*paths, suggestion.settings_path)
        merged[key] = msgspec.structs.replace(
            found,
            prompts_saved=found.prompts_saved + suggestion.prompts_saved,
            examples=examples,
            general=found.general or suggestion.general,
            settings_paths=paths,
        )
    return sorted(merged.values(), key=rank)


def merge_suggestions(suggestions: Iterable[Suggestion]) -> tuple[AddRules, ...]:
    """Combine suggestions into one ``addRules`` update per destination, ranks kept in order."""
    by_destination: dict[PermissionUpdateDestination, list[PermissionRuleValue]] = {}
    for suggestion in suggestions:
        by_destination.setdefault(suggestion.update.destination, []).extend(suggestion.update.rules)
    return tuple(
        AddRules(rules=tuple(rules), behavior="allow", destination=destination)
        for destination, rules in by_destination.items()
    )
