"""The permission audit: what today's rules decide for every tool call a session recorded.

For each project (the working directory sessions ran in), the rules come from the settings
files Claude Code reads — user (``<claude dir>/settings.json``), project
(``<project>/.claude/settings.json``) and local (``<project>/.claude/settings.local.json``) —
read, never written. Each recorded call is decided by :func:`cclens.permissions.evaluate` in the
permission mode the session recorded at that point (``permission-mode`` records and the
``permissionMode`` of user records; a subagent inherits the mode of the call that spawned it;
with nothing recorded, the settings' ``defaultMode``, else ``default``). Calls the user rejected
are listed, and :func:`cclens.permissions.suggest` proposes ``addRules`` updates for the calls
today's rules would still ask about, ranked by the prompts they would have saved.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

import msgspec

from ..figures.inventory import owned_calls
from ..figures.period import Period
from ..model.records import PermissionModeRecord, UserRecord
from ..model.session import Session, ToolCall, ToolStatus
from ..permissions import (
    MODES,
    Decision,
    DecisionSource,
    PermissionBehavior,
    PermissionMode,
    PermissionSettings,
    PermissionUpdateDestination,
    RecordedCall,
    Suggestion,
    claude_config_dir,
    evaluate,
    load_settings,
    suggest,
)
from ..readers.claude import discover
from .stats import load_period

ModeSource: TypeAlias = Literal["recorded", "settings", "default"]

_SUMMARY_LENGTH = 120
#: The input field that says best what a call of each tool acted on.
_SUBJECT_FIELDS = ("command", "file_path", "notebook_path", "url", "pattern", "path", "query")


class AuditedCall(msgspec.Struct, kw_only=True):
    """One recorded tool call and what today's rules decide for it.

    ``subject`` is what the call acted on (its command, path, URL or pattern), shortened.
    ``mode`` is the permission mode it was decided in and ``mode_source`` where that came from;
    ``recorded_mode`` is the mode the session recorded as written (even one cclens does not
    know). ``behavior`` is ``allow``, ``ask`` or ``deny``; ``decided_by`` is ``rule`` or
    ``mode``; ``rule``, ``destination`` and ``settings_path`` name the deciding rule.
    ``status`` is how the call ended (``rejected``: the user said no).
    """

    session_id: str
    agent_id: str | None
    tool_use_id: str
    tool: str
    subject: str
    timestamp: str | None
    cwd: str
    status: ToolStatus
    mode: PermissionMode
    mode_source: ModeSource
    recorded_mode: str | None
    behavior: PermissionBehavior
    decided_by: DecisionSource
    rule: str | None
    rules: list[str]
    destination: PermissionUpdateDestination | None
    settings_path: str | None
    explanation: str


class SettingsFileReport(msgspec.Struct, kw_only=True):
    """One settings file that was read: where, whether it exists, and what it holds."""

    destination: PermissionUpdateDestination
    path: str
    exists: bool
    rules: list[str]
    default_mode: PermissionMode | None
    problems: list[str]


class RuleUse(msgspec.Struct, kw_only=True):
    """A rule that decided recorded calls, and how many."""

    rule: str
    behavior: PermissionBehavior
    destination: PermissionUpdateDestination
    settings_path: str | None
    calls: int


class ToolDecisions(msgspec.Struct, kw_only=True):
    """Per tool: how many recorded calls today's rules allow, ask about or deny."""

    tool: str
    calls: int = 0
    allow: int = 0
    ask: int = 0
    deny: int = 0
    rejected: int = 0


class ProjectAudit(msgspec.Struct, kw_only=True):
    """The audit of one project: its settings, its calls, and the suggested updates."""

    project: str
    project_dir: str | None
    sessions: list[str]
    settings: list[SettingsFileReport]
    tools: list[ToolDecisions]
    rules_used: list[RuleUse]
    calls: list[AuditedCall]
    rejected: list[AuditedCall]
    suggestions: list[Suggestion]


class PermissionAudit(msgspec.Struct, kw_only=True):
    """What ``cclens permissions --json`` prints.

    ``claude_dir`` is where the user settings were read; ``diagnostics`` lists malformed
    transcript lines (``path:line: reason``), ``unreadable`` the paths that could not be read
    (``path: reason``).
    """

    claude_dir: str
    projects: list[ProjectAudit]
    diagnostics: list[str] = msgspec.field(default_factory=list)
    unreadable: list[str] = msgspec.field(default_factory=list)


@dataclass(slots=True)
class _ModeAt:
    """The permission mode in effect at one point, and where it came from."""

    mode: PermissionMode | None
    raw: str | None


def _mode_changes(session: Session) -> list[tuple[int, str]]:
    """``(line, mode)`` for each mode the file recorded, in file order."""
    changes: list[tuple[int, str]] = []
    for entry in session.entries:
        record = entry.record
        if isinstance(record, PermissionModeRecord | UserRecord) and record.permission_mode:
            changes.append((entry.line, record.permission_mode))
    return changes


def _known(mode: str | None) -> PermissionMode | None:
    for known in MODES:
        if mode == known:
            return known
    return None


def _modes_of_calls(session: Session, inherited: _ModeAt) -> dict[str, _ModeAt]:
    """The mode each call of ``session`` (and its subagents) ran in, by tool-use id."""
    changes = _mode_changes(session)
    found: dict[str, _ModeAt] = {}
    for call in session.tool_calls.values():
        at = inherited
        for line, raw in changes:
            if line > call.entry.line:
                break
            at = _ModeAt(_known(raw), raw)
        found.setdefault(call.id, at)
        for agent in call.subagents:
            for key, value in _modes_of_calls(agent, at).items():
                found.setdefault(key, value)
    for agent in session.subagents:
        if agent.parent_tool_use_id is None:  # not attached to a call: the file's last mode
            last = _ModeAt(_known(changes[-1][1]), changes[-1][1]) if changes else inherited
            for key, value in _modes_of_calls(agent, last).items():
                found.setdefault(key, value)
    return found


def _input_of(call: ToolCall) -> dict[str, Any]:
    raw = call.block.input
    return raw if isinstance(raw, dict) else {}


def _subject(tool_input: Mapping[str, Any]) -> str:
    for key in _SUBJECT_FIELDS:
        text = tool_input.get(key)
        if isinstance(text, str) and text:
            break
    else:
        text = next((v for v in tool_input.values() if isinstance(v, str) and v), "")
    text = " ".join(text.split())
    return text if len(text) <= _SUMMARY_LENGTH else text[: _SUMMARY_LENGTH - 1] + "…"


def _settings_report(settings: PermissionSettings) -> list[SettingsFileReport]:
    return [
        SettingsFileReport(
            destination=file.destination,
            path=file.path,
            exists=file.exists,
            rules=[f"{rule.behavior} {rule.text}" for rule in file.rules],
            default_mode=file.default_mode,
            problems=[d.reason for d in file.diagnostics if d.kind != "missing"],
        )
        for file in settings.files
    ]


@dataclass(slots=True)
class _Project:
    """Sessions of one project gathered before auditing."""

    project: str
    project_dir: str | None
    sessions: list[Session] = field(default_factory=list)


def _audit_call(
    call: ToolCall,
    session: Session,
    agent_id: str | None,
    project_dir: str | None,
    settings: PermissionSettings,
    at: _ModeAt,
) -> tuple[AuditedCall, Decision]:
    record = call.entry.record
    cwd = getattr(record, "cwd", None) or project_dir or session.cwd or "/"
    raw_input = _input_of(call)
    source: ModeSource
    if at.mode is not None:
        mode, source = at.mode, "recorded"
    elif settings.default_mode is not None:
        mode, source = settings.default_mode, "settings"
    else:
        mode, source = "default", "default"
    decision = evaluate(
        call.name,
        raw_input,
        cwd=cwd,
        rules=settings.rules,
        mode=mode,
        project_dir=project_dir or cwd,
        additional_directories=settings.additional_directories,
    )
    rule = decision.rule
    audited = AuditedCall(
        session_id=session.session_id,
        agent_id=agent_id,
        tool_use_id=call.id,
        tool=call.name,
        subject=_subject(raw_input),
        timestamp=getattr(record, "timestamp", None) or None,
        cwd=cwd,
        status=call.status,
        mode=mode,
        mode_source=source,
        recorded_mode=at.raw,
        behavior=decision.behavior,
        decided_by=decision.source,
        rule=decision.rule_text,
        rules=[r.text for r in decision.rules],
        destination=decision.destination,
        settings_path=rule.path if rule is not None else None,
        explanation=decision.explanation,
    )
    return audited, decision


def _audit_project(
    project: _Project,
    claude_dir: str,
    home: str | None,
    counted: dict[int, list[ToolCall]],
) -> ProjectAudit:
    settings = load_settings(claude_dir=claude_dir, project_dir=project.project_dir)
    calls: list[AuditedCall] = []
    recorded: list[RecordedCall] = []
    used: dict[tuple[str, str, str], RuleUse] = {}
    tools: dict[str, ToolDecisions] = {}
    for top in project.sessions:
        modes = _modes_of_calls(top, _ModeAt(None, None))
        agents = {
            call.id: session.agent_id
            for session in reversed(top.all_sessions())
            for call in session.tool_calls.values()
        }
        for call in counted.get(id(top), []):
            at = modes.get(call.id, _ModeAt(None, None))
            audited, decision = _audit_call(
                call, top, agents.get(call.id), project.project_dir, settings, at
            )
            calls.append(audited)
            row = tools.setdefault(call.name, ToolDecisions(tool=call.name))
            row.calls += 1
            setattr(row, audited.behavior, getattr(row, audited.behavior) + 1)
            row.rejected += audited.status == "rejected"
            for rule in decision.rules:
                key = (rule.text, rule.behavior, rule.destination)
                use = used.setdefault(
                    key,
                    RuleUse(
                        rule=rule.text,
                        behavior=rule.behavior,
                        destination=rule.destination,
                        settings_path=rule.path,
                        calls=0,
                    ),
                )
                use.calls += 1
            recorded.append(
                RecordedCall(
                    tool_name=call.name,
                    tool_input=_input_of(call),
                    cwd=audited.cwd,
                    project_dir=project.project_dir or audited.cwd,
                    asked=decision.behavior == "ask",
                    rejected=audited.status == "rejected",
                )
            )
    paths = {file.destination: file.path for file in settings.files}
    return ProjectAudit(
        project=project.project,
        project_dir=project.project_dir,
        sessions=[session.session_id for session in project.sessions],
        settings=_settings_report(settings),
        tools=sorted(tools.values(), key=lambda t: (-t.calls, t.tool)),
        rules_used=sorted(used.values(), key=lambda u: (-u.calls, u.rule)),
        calls=calls,
        rejected=[call for call in calls if call.status == "rejected"],
        suggestions=[
            _placed(s, paths.get(s.update.destination))
            for s in suggest(recorded, rules=settings.rules, home=home)
        ],
    )


def _placed(suggestion: Suggestion, path: str | None) -> Suggestion:
    """``suggestion`` naming the settings file it goes in."""
    return msgspec.structs.replace(
        suggestion, settings_path=path, settings_paths=(path,) if path else ()
    )


def permission_audit(
    sessions: Iterable[Session], *, claude_dir: str, home: str | None = None
) -> PermissionAudit:
    """Audit the tool calls of ``sessions`` against today's settings, project by project.

    Sessions are grouped by their working directory (the project whose ``.claude`` settings
    apply); ``claude_dir`` holds the user settings; ``home`` (default the current user's) is
    what ``~`` means in rules. Settings files are only read. Each call is audited once, for
    the session that counts it (:func:`cclens.figures.inventory.owned_calls`).
    """
    projects: dict[tuple[str, str | None], _Project] = {}
    sessions_seen = list(sessions)
    for session in sessions_seen:
        project_dir = session.cwd or None
        key = (session.project, project_dir)
        projects.setdefault(key, _Project(session.project, project_dir)).sessions.append(session)
    home = home if home is not None else os.path.expanduser("~")
    # Each call once, for the session that counts it (cclens.figures.inventory).
    counted: dict[int, list[ToolCall]] = {}
    for top, call in owned_calls(list(sessions_seen)):
        counted.setdefault(id(top), []).append(call)
    audits = [
        _audit_project(project, claude_dir, home, counted)
        for _, project in sorted(projects.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))
    ]
    return PermissionAudit(claude_dir=claude_dir, projects=audits)


def audit_transcripts(
    paths: Sequence[Path | str] = (),
    *,
    claude_dir: str | None = None,
    project: str | None = None,
    home: str | None = None,
) -> PermissionAudit:
    """Read the transcripts under ``paths`` (Claude's folders when empty) and audit them.

    ``project`` keeps one project (see :func:`cclens.figures.projects.project_matches`), chosen
    before any file is parsed. ``claude_dir`` holds the user settings (default
    ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``).
    """
    home = home if home is not None else os.path.expanduser("~")
    settings_dir = (
        claude_dir if claude_dir is not None else claude_config_dir(os.environ, home=home)
    )
    loaded = load_period(discover(*paths), Period(), project)
    audit = permission_audit(loaded.sessions, claude_dir=settings_dir, home=home)
    audit.diagnostics = loaded.problems
    audit.unreadable = loaded.unreadable
    return audit


def rejected_calls(audit: PermissionAudit) -> Sequence[AuditedCall]:
    """Every call the user rejected, across projects."""
    return [call for project in audit.projects for call in project.rejected]


__all__ = [
    "AuditedCall",
    "PermissionAudit",
    "ProjectAudit",
    "RuleUse",
    "SettingsFileReport",
    "ToolDecisions",
    "audit_transcripts",
    "permission_audit",
    "rejected_calls",
]
