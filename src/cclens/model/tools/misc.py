"""The other built-ins: worktrees, settings, Artifacts, Projects, Claude Design, review findings
and skill proposals."""

from typing import Any

import msgspec

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ._spec import ToolSpec
from .files import ArtifactRef

# Worktrees -------------------------------------------------------------------------------------


class EnterWorktreeInput(Model):
    """Input of ``EnterWorktree``: a name for a new git worktree, or the path of one."""

    name: Opt[str] = UNSET
    path: Opt[str] = UNSET


class EnterWorktreeResult(CamelModel):
    """Result of ``EnterWorktree``."""

    worktree_path: Opt[str] = UNSET
    worktree_branch: Opt[str] = UNSET
    message: Opt[str] = UNSET


class ExitWorktreeInput(Model):
    """Input of ``ExitWorktree``: ``keep`` or ``remove`` the worktree."""

    action: Opt[str] = UNSET
    discard_changes: Opt[bool] = UNSET


class ExitWorktreeResult(CamelModel):
    """Result of ``ExitWorktree``."""

    action: Opt[str] = UNSET
    original_cwd: Opt[str] = UNSET
    worktree_path: Opt[str] = UNSET
    worktree_branch: Opt[str] = UNSET
    tmux_session_name: Opt[str] = UNSET
    discarded_files: Opt[Int] = UNSET
    discarded_commits: Opt[Int] = UNSET
    message: Opt[str] = UNSET


# Settings --------------------------------------------------------------------------------------


class ConfigInput(Model):
    """Input of the removed ``Config``: read a setting, or set it to ``value``."""

    setting: Opt[str] = UNSET
    value: Opt[str | bool | Number] = UNSET


# Artifacts, Projects, Claude Design ------------------------------------------------------------


class ArtifactInput(Model):
    """Input of ``Artifact``: publish an HTML file as a claude.ai page, or manage published ones."""

    action: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    file_paths: Opt[list[str]] = UNSET
    favicon: Opt[str] = UNSET
    icon: Opt[str] = UNSET
    limit: Opt[Int] = UNSET
    page_token: Opt[str] = UNSET
    scope: Opt[str] = UNSET
    title: Opt[str] = UNSET
    description: Opt[str] = UNSET
    label: Opt[str] = UNSET
    url: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    force: Opt[bool] = UNSET
    pin: Opt[bool] = UNSET
    out_dir: Opt[str] = UNSET
    asset_id: Opt[str] = UNSET
    after: Opt[str] = UNSET
    capabilities: Opt[dict[str, Any]] = UNSET
    contract: Opt[str] = UNSET


def _camel(name: str) -> Any:
    return msgspec.field(default=UNSET, name=name)


class ArtifactStored(Model):
    """What the published artifact's runtime stored for it."""

    contract: Opt[str] = UNSET
    preferred_contract: Opt[str] = _camel("preferredContract")
    capabilities: Opt[dict[str, Any]] = UNSET
    carried: Opt[bool] = UNSET
    read: Opt[str] = UNSET


class ArtifactListing(Model):
    """One artifact of a ``list``."""

    title: Opt[str] = UNSET
    url: Opt[str] = UNSET
    favicon: Opt[str] = UNSET
    updated_at: Opt[str] = _camel("updatedAt")
    rel: Opt[str] = UNSET
    external: Opt[bool] = UNSET
    role: Opt[str] = UNSET


class ArtifactReading(Model):
    """What a ``read`` of a shared artifact extracted."""

    url: Opt[str] = UNSET
    bytes: Opt[Int] = UNSET
    code: Opt[Int] = UNSET
    code_text: Opt[str] = _camel("codeText")
    result: Opt[str] = UNSET
    duration_ms: Opt[Number] = _camel("durationMs")
    title: Opt[str] = UNSET


class ArtifactWatch(Model):
    """A ``watch`` of an artifact's changes."""

    url: Opt[str] = UNSET
    watching: Opt[bool] = UNSET
    outcome: Opt[str] = UNSET
    reason: Opt[str] = UNSET
    durable_skip_reason: Opt[str] = UNSET
    task_id: Opt[str] = UNSET
    since: Opt[Number] = UNSET
    token_expires_at: Opt[Number] = UNSET


class ArtifactUnwatch(Model):
    """An ``unwatch``."""

    url: Opt[str] = UNSET
    was_watching: Opt[bool] = UNSET


class ArtifactWatching(Model):
    """One watch a ``status`` lists."""

    url: Opt[str] = UNSET
    task_id: Opt[str] = UNSET
    since: Opt[Number] = UNSET
    explicit: Opt[bool] = UNSET
    connected: Opt[bool] = UNSET
    connecting: Opt[bool] = UNSET
    token_expires_at: Opt[Number] = UNSET


class ArtifactArm(Model):
    """The connection state of one watch (its ``rail``)."""

    url: Opt[str] = UNSET
    rail: Opt[str] = UNSET
    state: Opt[str] = UNSET
    reconnect: Opt[bool] = UNSET
    failures: Opt[Int] = UNSET
    max_failures: Opt[Int] = UNSET
    next_in_s: Opt[Number] = UNSET


class ArtifactWritten(Model):
    """The artifact an asset change was written to."""

    url: Opt[str] = UNSET


class ArtifactAsset(Model):
    """An asset (image, font, script…) uploaded to an artifact."""

    id: Opt[str] = UNSET
    url: Opt[str] = UNSET
    path: Opt[str] = UNSET
    file_name: Opt[str] = UNSET
    size_bytes: Opt[Int] = UNSET
    content_type: Opt[str] = UNSET
    sha256: Opt[str] = UNSET
    created_at: Opt[str] = UNSET
    cowritten: Opt[bool] = UNSET
    outside_writer: Opt[bool] = UNSET
    deleted: Opt[bool] = UNSET


class ArtifactAssetUploads(Model):
    """An ``upload_asset`` of several files: one result each."""

    url: Opt[str] = UNSET
    results: Opt[list[Any]] = UNSET


class ArtifactAssetList(Model):
    """A ``list_assets``."""

    url: Opt[str] = UNSET
    assets: Opt[list[ArtifactAsset]] = UNSET


class ArtifactPin(Model):
    """A ``pin`` or ``unpin`` of an artifact in the claude.ai sidebar."""

    action: Opt[str] = UNSET
    url: Opt[str] = UNSET
    pinned: Opt[bool] = UNSET
    title: Opt[str] = UNSET


class ArtifactResult(Model):
    """Result of ``Artifact``; each action fills its own fields (``url`` for a publish,
    ``artifacts`` for a list, ``read``, ``watch``, ``asset_upload``, … for the others)."""

    url: Opt[str] = UNSET
    path: Opt[str] = UNSET
    artifact_id: Opt[str] = UNSET
    title: Opt[str] = UNSET
    version: Opt[str] = UNSET
    capabilities: Any = UNSET
    stored: Opt[ArtifactStored] = UNSET
    warnings: Opt[list[str]] = UNSET
    publishes_remaining: Opt[Int] = _camel("publishesRemaining")
    publishes_reset_at: Opt[Number] = _camel("publishesResetAt")
    contract: Opt[str] = UNSET
    updated: Opt[bool] = UNSET
    owned: Opt[bool] = UNSET
    icon: Opt[str] = UNSET
    favicon_sent: Opt[bool] = _camel("faviconSent")
    icon_dropped: Opt[bool] = _camel("iconDropped")
    mcp_dropped: Any = _camel("mcpDropped")
    audience: Opt[str] = UNSET
    folder_audience: Opt[str] = UNSET
    seq: Opt[Int] = UNSET
    unchanged: Opt[bool] = UNSET
    live_subscription: Opt[str] = _camel("liveSubscription")
    pinned: Opt[bool] = UNSET
    artifacts: Opt[list[ArtifactListing]] = UNSET
    truncated: Opt[bool] = UNSET
    total: Opt[Int] = UNSET
    total_at_least: Opt[bool] = UNSET
    next_page_token: Opt[str] = UNSET
    pins_enabled: Opt[bool] = UNSET
    scope: Opt[str] = UNSET
    external_listed: Opt[bool] = UNSET
    read: Opt[ArtifactReading] = UNSET
    artifact_read: Opt[ArtifactRef] = _camel("artifactRead")
    watch: Opt[ArtifactWatch] = UNSET
    unwatch: Opt[ArtifactUnwatch] = UNSET
    watches: Opt[list[ArtifactWatching]] = UNSET
    filter_url: Opt[str] = UNSET
    arms: Opt[list[ArtifactArm]] = UNSET
    written: Opt[ArtifactWritten] = UNSET
    asset_upload: Opt[ArtifactAsset] = UNSET
    asset_uploads: Opt[ArtifactAssetUploads] = UNSET
    asset_list: Opt[ArtifactAssetList] = UNSET
    asset_read: Opt[ArtifactAsset] = UNSET
    asset_delete: Opt[ArtifactAsset] = UNSET
    pin: Opt[ArtifactPin] = UNSET


class ProjectsInput(Model):
    """Input of ``Projects``: read, search or write the docs of a claude.ai project."""

    method: Opt[str] = UNSET
    path: Opt[str] = UNSET
    content: Opt[str] = UNSET
    local_path: Opt[str] = UNSET
    present_to_user: Opt[bool] = UNSET
    query: Opt[str] = UNSET
    n: Opt[Int] = UNSET
    force: Opt[bool] = UNSET


class ProjectDocument(Model):
    """A document (or memory file) of a project."""

    path: Opt[str] = UNSET
    file_kind: Opt[str] = UNSET
    created_at: Opt[str] = UNSET
    updated_at: Opt[str] = UNSET
    size_bytes: Opt[Int] = UNSET
    truncated: Opt[bool] = UNSET


class ProjectSyncSource(Model):
    """Where a project's knowledge is synced from."""

    type: Opt[str] = UNSET
    config: Opt[dict[str, Any]] = UNSET


class ProjectKnowledge(Model):
    """How much of its knowledge base a project uses."""

    knowledge_size: Opt[Number] = UNSET
    max_knowledge_size: Opt[Number] = UNSET


class ProjectHit(Model):
    """One hit of a ``project_search``."""

    name: Opt[str] = UNSET
    doc_uuid: Opt[str] = UNSET
    text: Opt[str] = UNSET
    image_attached: Opt[bool] = UNSET
    page: Opt[Int] = UNSET


class ProjectsResult(Model):
    """Result of ``Projects``; ``method`` tells which of its fields are set."""

    method: Opt[str] = UNSET
    notice: Opt[str] = UNSET
    name: Opt[str] = UNSET
    description: Opt[str] = UNSET
    instructions: Opt[str] = UNSET
    #: Documents (``project_info``) or their names (``project_search``).
    docs: Opt[list[str | ProjectDocument]] = UNSET
    files: Opt[list[ProjectDocument]] = UNSET
    sync_sources: Opt[list[ProjectSyncSource]] = UNSET
    knowledge: Opt[ProjectKnowledge] = UNSET
    path: Opt[str] = UNSET
    file_kind: Opt[str] = UNSET
    content: Opt[str] = UNSET
    local_file: Opt[str] = UNSET
    local_path: Opt[str] = UNSET
    created_at: Opt[str] = UNSET
    updated_at: Opt[str] = UNSET
    rag: Opt[bool] = UNSET
    hits: Opt[list[ProjectHit]] = UNSET
    doc_uuid: Opt[str] = UNSET
    replaced: Opt[bool] = UNSET
    present_to_user: Opt[bool] = UNSET
    deleted: Opt[bool] = UNSET
    truncated: Opt[bool] = UNSET
    size_bytes: Opt[Int] = UNSET


class ClaudeDesignInput(Model):
    """Input of ``ClaudeDesign``: an operation and its arguments."""

    operation: Opt[str] = UNSET
    arguments: Opt[dict[str, Any]] = UNSET


class ClaudeDesignResult(CamelModel):
    """Result of ``ClaudeDesign``."""

    operation: Opt[str] = UNSET
    content: Opt[list[Any]] = UNSET
    is_error: Opt[bool] = UNSET


# Review findings, skill proposals --------------------------------------------------------------


class Finding(Model):
    """One verified problem a code review found."""

    file: Opt[str] = UNSET
    line: Opt[Int] = UNSET
    summary: Opt[str] = UNSET
    short_summary: Opt[str] = UNSET
    failure_scenario: Opt[str] = UNSET
    category: Opt[str] = UNSET
    severity: Opt[str] = UNSET


class ReportFindingsInput(Model):
    """Input of ``ReportFindings``: a review's findings, most severe first."""

    level: Opt[str] = UNSET
    findings: Opt[list[Finding]] = UNSET


class ReportFindingsResult(Model):
    """Result of ``ReportFindings``."""

    count: Opt[Int] = UNSET
    level: Opt[str] = UNSET
    findings: Opt[list[Finding]] = UNSET


class SkillProposal(Model):
    """A new skill, or an improvement to one."""

    name: Opt[str] = UNSET
    kind: Opt[str] = UNSET
    target: Opt[str] = UNSET
    description: Opt[str] = UNSET
    evidence: Opt[list[str]] = UNSET
    edits: Opt[list[Any]] = UNSET


class ProposeSkillsInput(Model):
    """Input of ``propose_skills``."""

    proposals: Opt[list[SkillProposal]] = UNSET


class ProposeSkillsResult(CamelModel):
    """Result of ``propose_skills``: how many proposals the review card shows."""

    proposal_count: Opt[Int] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="EnterWorktree",
        aliases=(),
        input_type=EnterWorktreeInput,
        result_type=EnterWorktreeResult,
        description="Move the session into a new or existing git worktree",
        family="worktree",
    ),
    ToolSpec(
        name="ExitWorktree",
        aliases=(),
        input_type=ExitWorktreeInput,
        result_type=ExitWorktreeResult,
        description="Leave the worktree, keeping or removing it",
        family="worktree",
    ),
    ToolSpec(
        name="Config",
        aliases=(),
        input_type=ConfigInput,
        result_type=None,
        description="Read or change a Claude Code setting",
        family="other",
        removed=True,
    ),
    ToolSpec(
        name="Artifact",
        aliases=(),
        input_type=ArtifactInput,
        result_type=ArtifactResult,
        description="Publish an HTML file as a claude.ai Artifact, or manage published ones",
        family="other",
    ),
    ToolSpec(
        name="Projects",
        aliases=(),
        input_type=ProjectsInput,
        result_type=ProjectsResult,
        description="Read, search and write the documents of a claude.ai project",
        family="other",
    ),
    ToolSpec(
        name="ClaudeDesign",
        aliases=(),
        input_type=ClaudeDesignInput,
        result_type=ClaudeDesignResult,
        description="Run a Claude Design operation",
        family="other",
    ),
    ToolSpec(
        name="ReportFindings",
        aliases=(),
        input_type=ReportFindingsInput,
        result_type=ReportFindingsResult,
        description="Report the verified findings of a code review",
        family="other",
    ),
    ToolSpec(
        name="propose_skills",
        aliases=(),
        input_type=ProposeSkillsInput,
        result_type=ProposeSkillsResult,
        description="Propose new skills or improvements to existing ones",
        family="other",
    ),
)
