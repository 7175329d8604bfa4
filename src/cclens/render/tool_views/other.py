"""Views of the other built-ins: worktrees, Config, Artifact, Projects, ClaudeDesign,
ReportFindings and propose_skills."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...formats import plural
from ...model import UNSET, to_builtins
from ...model.session import ToolCall
from ...model.tools import misc
from ..prepared import PreparedView, Prose, TextPart, Tree, piece_part, text_part
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    int_of,
    list_of,
    text_of,
    typed_fields,
)


def prepare_enter_worktree(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """EnterWorktree: the git worktree the session moved into."""
    v, request, result = typed_fields(call, misc.EnterWorktreeInput, misc.EnterWorktreeResult)
    name = (text_of(request.name) or text_of(request.path)) if request else ""
    if result is None:
        return FieldsView(**v, lead=name, summary=name)
    got = Fields().add("Path", result.worktree_path, "code")
    got.add("Branch", result.worktree_branch, "code")
    return FieldsView(**v, lead=name, got=got.rows, outcome=text_of(result.message), summary=name)


def prepare_exit_worktree(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """ExitWorktree: whether the worktree was kept or removed, and what was thrown away."""
    v, request, result = typed_fields(call, misc.ExitWorktreeInput, misc.ExitWorktreeResult)
    action = text_of(request.action) if request else ""
    discard = bool(request and request.discard_changes)
    got = Fields()
    if result is not None:
        got.add("Worktree", result.worktree_path, "code")
        got.add("Branch", result.worktree_branch, "code").add(
            "Back in", result.original_cwd, "code"
        )
        got.add("Files discarded", result.discarded_files).add(
            "Commits discarded", result.discarded_commits
        )
        got.add("tmux session", result.tmux_session_name, "code")
    return FieldsView(
        **v,
        lead=f"{action} the worktree" if action else "",
        lead_code=False,
        badges=[("discard changes", "warn")] if discard else [],
        got=got.rows,
        outcome=text_of(result.message) if result else "",
        summary=action,
    )


def prepare_config(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """Config: a setting read, or set to a new value."""
    v = fields_base(call)
    request = as_type(call.input, misc.ConfigInput)
    setting = text_of(request.setting) if request else ""
    changing = request is not None and request.value is not UNSET
    value = to_builtins(request.value) if request and changing else None
    return FieldsView(
        **v,
        lead=setting,
        asked=Fields()
        .add("Set to", value if not isinstance(value, bool) else str(value).lower())
        .rows,
        badges=[("change", "warn")] if changing else [("read", "muted")],
        summary=f"{setting} = {value}" if changing else setting,
    )


# The Artifact fields drawn by name; every other field of a result is listed after them.
_ARTIFACT_SHOWN = ("url", "title", "version", "path", "artifact_id", "warnings")


def prepare_artifact(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """Artifact: the action on a claude.ai Artifact and what it returned."""
    v, request, result = typed_fields(call, misc.ArtifactInput, misc.ArtifactResult)
    action = text_of(request.action) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("File", request.file_path, "code").add("Files", request.file_paths)
        asked.add("Title", request.title).add("Description", request.description)
        asked.url("URL", request.url).add("Scope", request.scope).add("Label", request.label)
        asked.add("Prompt", request.prompt).add("Asset", request.asset_id, "code")
        asked.add("Output folder", request.out_dir, "code").add(
            "Capabilities", request.capabilities
        )
        asked.add("Pin", request.pin).add("Force", request.force).add("Limit", request.limit)
    got = Fields()
    if result is not None:
        got.url("URL", result.url)
        if request is None or result.title != request.title:
            got.add("Title", result.title)
        got.add("Version", result.version).add("Path", result.path, "code")
        got.add("Artifact", result.artifact_id, "code").add("Warnings", result.warnings)
        fields = to_builtins(result)
        for key, value in (fields if isinstance(fields, dict) else {}).items():
            if key not in _ARTIFACT_SHOWN and not key.startswith("__"):
                got.add(key, value)
    title = text_of(request.title) if request else ""
    return FieldsView(
        **v,
        lead=action,
        asked=asked.rows,
        got=got.rows,
        summary=" ".join(part for part in (action, title) if part),
    )


def prepare_projects(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """Projects: reading, searching or writing a claude.ai project's documents."""
    v, request, result = typed_fields(call, misc.ProjectsInput, misc.ProjectsResult)
    method = text_of(request.method) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Path", request.path, "code").add("Query", request.query).add(
            "Results", request.n
        )
        asked.add("Local file", request.local_path, "code").add(
            "Show the user", request.present_to_user
        )
        asked.add("Force", request.force).add("Content", request.content)
    got = Fields()
    body = ""
    if result is not None:
        got.add("Notice", result.notice).add("Project", result.name)
        got.add("Description", result.description).add("Path", result.path, "code")
        got.add("Kind", result.file_kind).add("Size", result.size_bytes)
        got.add("Saved to", result.local_file or result.local_path, "code")
        got.add("Created", result.created_at).add("Updated", result.updated_at)
        got.add("Replaced", result.replaced).add("Deleted", result.deleted).add(
            "Cut short", result.truncated
        )
        got.add("Documents", result.docs).add("Files", result.files).add("Hits", result.hits)
        got.add("Sources", result.sync_sources).add("Knowledge", result.knowledge)
        got.add("Content", result.content)
        body = text_of(result.instructions)
    query = text_of(request.query) or text_of(request.path) if request else ""
    return FieldsView(
        **v,
        lead=method,
        asked=asked.rows,
        got=got.rows,
        result_body=Prose(body) if body else None,
        summary=" ".join(part for part in (method, query) if part),
    )


def prepare_claude_design(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """ClaudeDesign: the operation, its arguments and the content it returned."""
    v, request, result = typed_fields(call, misc.ClaudeDesignInput, misc.ClaudeDesignResult)
    operation = text_of(request.operation) if request else ""
    asked = Fields()
    arguments = request.arguments if request and isinstance(request.arguments, dict) else {}
    for key, value in arguments.items():
        asked.add(str(key), value)
    got = Fields()
    for number, item in enumerate(list_of(result.content if result else None), 1):
        # Content items are the service's own JSON; text items are shown as text.
        text = item.get("text") if isinstance(item, dict) else None
        got.add(f"Part {number}", text if isinstance(text, str) else item)
    return FieldsView(
        **v,
        lead=operation,
        asked=asked.rows,
        got=got.rows,
        badges=[("failed", "error")] if result is not None and result.is_error else [],
        summary=operation,
    )


class Finding(msgspec.Struct, frozen=True):
    """A review's finding: its ``severity``, ``category``, ``where`` (``file:line``), its
    ``summary`` and the ``scenario`` in which it fails (markdown)."""

    severity: str
    category: str
    where: str
    summary: str
    scenario: str


def _findings(items: Any) -> list[Finding]:
    return [
        Finding(
            text_of(item.severity),
            text_of(item.category),
            text_of(item.file) + (f":{item.line}" if int_of(item.line) is not None else ""),
            text_of(item.summary) or text_of(item.short_summary),
            text_of(item.failure_scenario),
        )
        for item in list_of(items)
        if isinstance(item, misc.Finding)
    ]


class FindingsView(PreparedView, frozen=True, kw_only=True):
    """A code review's findings (``tools/findings.html``) at a ``level``; ``count``: how many
    the result says were reported."""

    level: str = ""
    findings: Sequence[Finding] = ()
    count: int | None = None

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.level, "Level")]
        for finding in self.findings:
            head = " ".join(p for p in (finding.severity, finding.where, finding.category) if p)
            parts.append(TextPart("field", finding.summary, head))
            parts += text_part("markdown", finding.scenario, "How it fails")
        if not self.findings:
            parts.append(TextPart("note", "No findings."))
        reported = f"{plural(self.count, 'finding')} reported." if self.count is not None else ""
        return parts + text_part("result", reported, result=True)


def prepare_report_findings(call: ToolCall, h: ViewHelpers) -> FindingsView:
    """ReportFindings: a code review's findings, each with its severity, place and scenario."""
    v = base(call, misc.ReportFindingsResult)
    request = as_type(call.input, misc.ReportFindingsInput)
    result: misc.ReportFindingsResult | None = v["r"]
    findings = _findings(request.findings if request else None) or _findings(
        result.findings if result else None
    )
    level = (text_of(request.level) if request else "") or (text_of(result.level) if result else "")
    return FindingsView(
        **v,
        level=level,
        findings=findings,
        count=(int_of(result.count) if result else None),
        summary=plural(len(findings), "finding") + (f" ({level})" if level else ""),
    )


class SkillProposal(msgspec.Struct, frozen=True):
    """A skill proposed: its ``name``, ``kind``, ``target``, ``description`` (markdown),
    ``evidence`` and ``edits``."""

    name: str
    kind: str
    target: str
    description: str
    evidence: Sequence[str]
    edits: Tree | None


class SkillProposalsView(PreparedView, frozen=True, kw_only=True):
    """Skills proposed for review (``tools/skill_proposals.html``); ``count``: how many the
    result says were shown."""

    proposals: Sequence[SkillProposal] = ()
    count: int | None = None

    def parts(self) -> list[TextPart]:
        parts: list[TextPart] = []
        for skill in self.proposals:
            head = " ".join(
                p for p in (skill.kind, f"for {skill.target}" if skill.target else "") if p
            )
            parts.append(TextPart("field", skill.name, head or "Skill"))
            parts += text_part("markdown", skill.description)
            parts += [TextPart("field", evidence, "Evidence") for evidence in skill.evidence]
            parts += [piece_part(skill.edits, "Edits")] if skill.edits else []
        if not self.proposals:
            parts.append(TextPart("note", "No proposals."))
        shown = (
            f"{plural(self.count, 'proposal')} shown for review." if self.count is not None else ""
        )
        return parts + text_part("result", shown, result=True)


def prepare_propose_skills(call: ToolCall, h: ViewHelpers) -> SkillProposalsView:
    """propose_skills: new skills or improvements, with the evidence for each."""
    v = base(call, misc.ProposeSkillsResult)
    request = as_type(call.input, misc.ProposeSkillsInput)
    result: misc.ProposeSkillsResult | None = v["r"]
    proposals = [
        SkillProposal(
            text_of(item.name),
            text_of(item.kind),
            text_of(item.target),
            text_of(item.description),
            [e for e in list_of(item.evidence) if isinstance(e, str)],
            Tree(item.edits) if list_of(item.edits) else None,
        )
        for item in list_of(request.proposals if request else None)
        if isinstance(item, misc.SkillProposal)
    ]
    return SkillProposalsView(
        **v,
        proposals=proposals,
        count=int_of(result.proposal_count) if result else None,
        summary=", ".join(p.name for p in proposals if p.name),
    )
