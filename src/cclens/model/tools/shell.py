"""Shell commands and background tasks: Bash, PowerShell, BashOutput, TaskOutput, KillShell,
TaskStop, Monitor and REPL."""

from typing import Any

import msgspec

from .._base import UNSET, CamelModel, Int, Model, Number, Opt, value
from ._spec import ToolSpec


class BashInput(Model):
    """Input of ``Bash`` (and of ``PowerShell``, which takes the same fields)."""

    command: str
    description: Opt[str] = UNSET
    timeout: Opt[Number] = UNSET
    run_in_background: Opt[bool] = UNSET
    dangerously_disable_sandbox: Opt[bool] = msgspec.field(
        default=UNSET, name="dangerouslyDisableSandbox"
    )


class GitCommit(Model):
    """A commit the command made: ``kind`` is ``committed``, ``amended`` or ``cherry-picked``."""

    sha: Opt[str] = UNSET
    kind: Opt[str] = UNSET
    branch: Opt[str] = UNSET


class GitPush(Model):
    """A push of ``branch``."""

    branch: Opt[str] = UNSET


class GitBranchChange(Model):
    """A branch ``ref`` merged or rebased (``action``)."""

    ref: Opt[str] = UNSET
    action: Opt[str] = UNSET


class GitPullRequest(Model):
    """A pull request the command acted on (``created``, ``merged``, ``commented``…)."""

    number: Opt[Int] = UNSET
    url: Opt[str] = UNSET
    action: Opt[str] = UNSET


class GitOperation(Model):
    """The git and ``gh`` operations Claude Code recognised in a command."""

    commit: Opt[GitCommit] = UNSET
    push: Opt[GitPush] = UNSET
    branch: Opt[GitBranchChange] = UNSET
    pr: Opt[GitPullRequest] = UNSET


class BashResult(CamelModel):
    """Result of ``Bash`` and ``PowerShell``: the command's output and how it ended."""

    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    interrupted: Opt[bool] = UNSET
    is_image: Opt[bool] = UNSET
    raw_output_path: Opt[str] = UNSET
    background_task_id: Opt[str] = UNSET
    backgrounded_by_user: Opt[bool] = UNSET
    assistant_auto_backgrounded: Opt[bool] = UNSET
    timed_out_after_ms: Opt[Number] = UNSET
    background_cwd_hint: Opt[str] = UNSET
    background_ends_with_final_response: Opt[bool] = UNSET
    background_wakes_owner: Opt[bool] = UNSET
    dangerously_disable_sandbox: Opt[bool] = UNSET
    sandbox: Opt[bool] = UNSET
    return_code_interpretation: Opt[str] = UNSET
    no_output_expected: Opt[bool] = UNSET
    structured_content: Opt[list[Any]] = UNSET
    persisted_output_path: Opt[str] = UNSET
    persisted_output_size: Opt[Int] = UNSET
    stale_read_file_state_hint: Opt[str] = UNSET
    gh_rate_limit_hint: Opt[str] = UNSET
    git_operation: Opt[GitOperation] = UNSET

    @property
    def output(self) -> str:
        """Standard output and standard error, joined by a newline when both are non-empty."""
        return "\n".join(part for part in (value(self.stdout, ""), value(self.stderr, "")) if part)

    @property
    def outcome(self) -> str:
        """How the command ended: ``interrupted``, ``timed out``, ``background`` or ``done``."""
        if value(self.interrupted, False):
            return "interrupted"
        if self.timed_out_after_ms not in (None, UNSET):
            return "timed out"
        if self.background_task_id not in (None, UNSET):
            return "background"
        return "done"


class BashOutputInput(Model):
    """Input of the removed ``BashOutput``: which background shell to read."""

    bash_id: Opt[str] = UNSET
    filter: Opt[str] = UNSET


class BashOutputResult(CamelModel):
    """Result of the removed ``BashOutput``: a background shell's new output and status."""

    shell_id: Opt[str] = UNSET
    command: Opt[str] = UNSET
    status: Opt[str] = UNSET
    exit_code: Opt[Int] = UNSET
    stdout: Opt[str] = UNSET
    stderr: Opt[str] = UNSET
    stdout_lines: Opt[Int] = UNSET
    stderr_lines: Opt[Int] = UNSET
    timestamp: Opt[str] = UNSET
    output: Opt[str] = UNSET


class KillShellInput(Model):
    """Input of the removed ``KillShell``/``KillBash``."""

    shell_id: Opt[str] = UNSET


class KillShellResult(Model):
    """Result of the removed ``KillShell``/``KillBash``."""

    message: Opt[str] = UNSET
    shell_id: Opt[str] = UNSET
    success: Opt[bool] = UNSET


class TaskStopInput(Model):
    """Input of ``TaskStop``; ``shell_id`` is the deprecated spelling of ``task_id``."""

    task_id: Opt[str] = UNSET
    shell_id: Opt[str] = UNSET


class TaskStopResult(Model):
    """Result of ``TaskStop``."""

    message: Opt[str] = UNSET
    task_id: Opt[str] = UNSET
    task_type: Opt[str] = UNSET
    command: Opt[str] = UNSET


class TaskOutputInput(Model):
    """Input of the removed ``TaskOutput``: which background task to read, and how long to wait."""

    task_id: Opt[str] = UNSET
    block: Opt[bool] = UNSET
    timeout: Opt[Number] = UNSET


class BackgroundTask(Model):
    """A background shell or agent as ``TaskOutput`` reports it."""

    task_id: Opt[str] = UNSET
    task_type: Opt[str] = UNSET
    status: Opt[str] = UNSET
    description: Opt[str] = UNSET
    output: Opt[str] = UNSET
    exit_code: Opt[Int] = msgspec.field(default=UNSET, name="exitCode")
    prompt: Opt[str] = UNSET
    result: Opt[str] = UNSET
    error: Opt[str] = UNSET


class TaskOutputResult(Model):
    """Result of the removed ``TaskOutput``."""

    retrieval_status: Opt[str] = UNSET
    task: Opt[BackgroundTask] = UNSET


class WebSocketTarget(Model):
    """A WebSocket that ``Monitor`` opens."""

    url: Opt[str] = UNSET
    protocols: Opt[list[str]] = UNSET


class MonitorInput(Model):
    """Input of ``Monitor``: a command (or WebSocket) whose events are streamed back."""

    description: Opt[str] = UNSET
    timeout_ms: Opt[Number] = UNSET
    command: Opt[str] = UNSET
    ws: Opt[WebSocketTarget] = UNSET
    persistent: Opt[bool] = UNSET


class MonitorResult(CamelModel):
    """Result of ``Monitor``: the background task that watches."""

    task_id: Opt[str] = UNSET
    timeout_ms: Opt[Number] = UNSET
    persistent: Opt[bool] = UNSET
    kept_in_sandbox_by_check: Opt[bool] = UNSET


class ReplInput(Model):
    """Input of the removed ``REPL``: JavaScript to run."""

    code: Opt[str] = UNSET
    description: Opt[str] = UNSET
    timeout: Opt[Number] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="Bash",
        aliases=(),
        input_type=BashInput,
        result_type=BashResult,
        description="Run a shell command, in the foreground or in the background",
        family="shell",
    ),
    ToolSpec(
        name="PowerShell",
        aliases=(),
        input_type=BashInput,
        result_type=BashResult,
        description="Run a PowerShell command (Windows), like Bash",
        family="shell",
    ),
    ToolSpec(
        name="BashOutput",
        aliases=(),
        input_type=BashOutputInput,
        result_type=BashOutputResult,
        description="Read the new output of a background shell (replaced by TaskOutput)",
        family="shell",
        removed=True,
    ),
    ToolSpec(
        name="KillShell",
        aliases=("KillBash",),
        input_type=KillShellInput,
        result_type=KillShellResult,
        description="Kill a background shell (renamed TaskStop)",
        family="shell",
        removed=True,
    ),
    ToolSpec(
        name="TaskStop",
        aliases=(),
        input_type=TaskStopInput,
        result_type=TaskStopResult,
        description="Stop a background task (shell, agent or monitor)",
        family="shell",
    ),
    ToolSpec(
        name="TaskOutput",
        aliases=(),
        input_type=TaskOutputInput,
        result_type=TaskOutputResult,
        description="Read the output of a background task, optionally waiting for it",
        family="shell",
        removed=True,
    ),
    ToolSpec(
        name="Monitor",
        aliases=(),
        input_type=MonitorInput,
        result_type=MonitorResult,
        description="Watch a command or WebSocket in the background and report its events",
        family="shell",
    ),
    ToolSpec(
        name="REPL",
        aliases=(),
        input_type=ReplInput,
        result_type=None,
        description="Run JavaScript in a persistent REPL",
        family="shell",
        removed=True,
    ),
)
