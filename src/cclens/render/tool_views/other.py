"""Views of the other built-ins: worktrees, Config, Artifact, Projects, ClaudeDesign,
ReportFindings and propose_skills."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import UNSET, to_builtins
from ...model.session import ToolCall
from ...model.tools import misc
from ..views import ViewHelpers
from ._common import Fields, as_type, base, fields_view, int_of, list_of, text_of


def prepare_enter_worktree(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """EnterWorktree: the git worktree the session moved into."""
    v = fields_view(call, misc.EnterWorktreeResult)
    request = as_type(call.input, misc.EnterWorktreeInput)
    result: misc.EnterWorktreeResult | None = v["r"]
    name = (text_of(request.name) or text_of(request.path)) if request else ""
    v.update(lead=name, summary=name)
    if result is not None:
        got = Fields(h).add("Path", result.worktree_path, "code")
        v.update(
            got=got.add("Branch", result.worktree_branch, "code").rows,
            outcome=text_of(result.message),
        )
    return v


def prepare_exit_worktree(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ExitWorktree: whether the worktree was kept or removed, and what was thrown away."""
    v = fields_view(call, misc.ExitWorktreeResult)
    request = as_type(call.input, misc.ExitWorktreeInput)
    result: misc.ExitWorktreeResult | None = v["r"]
    action = text_of(request.action) if request else ""
    discard = bool(request and request.discard_changes)
    v.update(
        lead=f"{action} the worktree" if action else "",
        lead_code=False,
        badges=[("discard changes", "warn")] if discard else [],
        summary=action,
    )
    if result is not None:
        got = Fields(h).add("Worktree", result.worktree_path, "code")
        got.add("Branch", result.worktree_branch, "code").add(
            "Back in", result.original_cwd, "code"
        )
        got.add("Files discarded", result.discarded_files).add(
            "Commits discarded", result.discarded_commits
        )
        got.add("tmux session", result.tmux_session_name, "code")
        v.update(got=got.rows, outcome=text_of(result.message))
    return v


def prepare_config(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Config: a setting read, or set to a new value."""
    v = fields_view(call)
    request = as_type(call.input, misc.ConfigInput)
    setting = text_of(request.setting) if request else ""
    changing = request is not None and request.value is not UNSET
    value = to_builtins(request.value) if request and changing else None
    v.update(
        lead=setting,
        asked=Fields(h)
        .add("Set to", value if not isinstance(value, bool) else str(value).lower())
        .rows,
        badges=[("change", "warn")] if changing else [("read", "muted")],
        summary=f"{setting} = {value}" if changing else setting,
    )
    return v


# The Artifact fields drawn by name; every other field of a result is listed after them.
_ARTIFACT_SHOWN = ("url", "title", "version", "path", "artifact_id", "warnings")


def prepare_artifact(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Artifact: the action on a claude.ai Artifact and what it returned."""
    v = fields_view(call, misc.ArtifactResult)
    request = as_type(call.input, misc.ArtifactInput)
    result: misc.ArtifactResult | None = v["r"]
    action = text_of(request.action) if request else ""
    asked = Fields(h)
    if request is not None:
        asked.add("File", request.file_path, "code").add("Files", request.file_paths)
        asked.add("Title", request.title).add("Description", request.description)
        asked.url("URL", request.url).add("Scope", request.scope).add("Label", request.label)
        asked.add("Prompt", request.prompt).add("Asset", request.asset_id, "code")
        asked.add("Output folder", request.out_dir, "code").add(
            "Capabilities", request.capabilities
        )
        asked.add("Pin", request.pin).add("Force", request.force).add("Limit", request.limit)
    v.update(lead=action, asked=asked.rows)
    if result is not None:
        got = Fields(h).url("URL", result.url)
        if request is None or result.title != request.title:
            got.add("Title", result.title)
        got.add("Version", result.version).add("Path", result.path, "code")
        got.add("Artifact", result.artifact_id, "code").add("Warnings", result.warnings)
        fields = to_builtins(result)
        for key, value in (fields if isinstance(fields, dict) else {}).items():
            if key not in _ARTIFACT_SHOWN and not key.startswith("__"):
                got.add(key, value)
        v["got"] = got.rows
    title = text_of(request.title) if request else ""
    v["summary"] = " ".join(part for part in (action, title) if part)
    return v


def prepare_projects(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Projects: reading, searching or writing a claude.ai project's documents."""
    v = fields_view(call, misc.ProjectsResult)
    request = as_type(call.input, misc.ProjectsInput)
    result: misc.ProjectsResult | None = v["r"]
    method = text_of(request.method) if request else ""
    asked = Fields(h)
    if request is not None:
        asked.add("Path", request.path, "code").add("Query", request.query).add(
            "Results", request.n
        )
        asked.add("Local file", request.local_path, "code").add(
            "Show the user", request.present_to_user
        )
        asked.add("Force", request.force).add("Content", request.content)
    v.update(lead=method, asked=asked.rows)
    if result is not None:
        got = Fields(h).add("Notice", result.notice).add("Project", result.name)
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
        v.update(got=got.rows, result_body=h.markdown(body) if body else None)
    query = text_of(request.query) or text_of(request.path) if request else ""
    v["summary"] = " ".join(part for part in (method, query) if part)
    return v


def prepare_claude_design(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ClaudeDesign: the operation, its arguments and the content it returned."""
    v = fields_view(call, misc.ClaudeDesignResult)
    request = as_type(call.input, misc.ClaudeDesignInput)
    result: misc.ClaudeDesignResult | None = v["r"]
    operation = text_of(request.operation) if request else ""
    asked = Fields(h)
    arguments = request.arguments if request and isinstance(request.arguments, dict) else {}
    for key, value in arguments.items():
        asked.add(str(key), value)
    v.update(lead=operation, asked=asked.rows, summary=operation)
    if result is not None:
        got = Fields(h)
        for number, item in enumerate(list_of(result.content), 1):
            # Content items are the service's own JSON; text items are shown as text.
            text = item.get("text") if isinstance(item, dict) else None
            got.add(f"Part {number}", text if isinstance(text, str) else item)
        v["got"] = got.rows
        if result.is_error:
            v["badges"] = [("failed", "error")]
    return v


def _findings(items: Any) -> list[dict[str, Any]]:
    return [
        {
            "severity": text_of(item.severity),
            "category": text_of(item.category),
            "where": text_of(item.file)
            + (f":{item.line}" if int_of(item.line) is not None else ""),
            "summary": text_of(item.summary) or text_of(item.short_summary),
            "scenario": text_of(item.failure_scenario),
        }
        for item in list_of(items)
        if isinstance(item, misc.Finding)
    ]


def prepare_report_findings(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ReportFindings: a code review's findings, each with its severity, place and scenario."""
    v = base(call, misc.ReportFindingsResult)
    request = as_type(call.input, misc.ReportFindingsInput)
    result: misc.ReportFindingsResult | None = v["r"]
    findings = _findings(request.findings if request else None) or _findings(
        result.findings if result else None
    )
    level = (text_of(request.level) if request else "") or (text_of(result.level) if result else "")
    v.update(
        level=level,
        findings=findings,
        count=(int_of(result.count) if result else None),
        summary=f"{len(findings)} finding{'' if len(findings) == 1 else 's'}"
        + (f" ({level})" if level else ""),
    )
    return v


def prepare_propose_skills(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """propose_skills: new skills or improvements, with the evidence for each."""
    v = base(call, misc.ProposeSkillsResult)
    request = as_type(call.input, misc.ProposeSkillsInput)
    result: misc.ProposeSkillsResult | None = v["r"]
    proposals: list[dict[str, Any]] = []
    for item in list_of(request.proposals if request else None):
        if isinstance(item, misc.SkillProposal):
            proposals.append(
                {
                    "name": text_of(item.name),
                    "kind": text_of(item.kind),
                    "target": text_of(item.target),
                    "description": text_of(item.description),
                    "evidence": [e for e in list_of(item.evidence) if isinstance(e, str)],
                    "edits": h.json(item.edits) if list_of(item.edits) else None,
                }
            )
    v.update(
        proposals=proposals,
        count=int_of(result.proposal_count) if result else None,
        summary=", ".join(p["name"] for p in proposals if p["name"]) or "",
    )
    return v
