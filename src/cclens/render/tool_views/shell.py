"""Views of shell commands and background tasks: Bash, PowerShell, BashOutput, TaskOutput,
AgentOutputTool, TaskStop (KillShell, KillBash), Monitor and REPL."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...formats import duration
from ...model.session import ToolCall
from ...model.tools import agents, shell
from ..views import ViewHelpers
from ._common import (
    Fields,
    as_type,
    base,
    first_line,
    int_of,
    millis,
    number_of,
    size_of,
    tagged_sections,
    task_link,
    text_of,
    words,
)

_EXIT_CODE = re.compile(r"\AExit code (-?\d+)\n?")


def _exit_code(v: dict[str, Any], call: ToolCall) -> int | None:
    """The exit code a failed command reported ("Exit code 1" first), taken off its error text."""
    for source in (v["error"], call.result_text if call.is_error else None):
        match = _EXIT_CODE.match(source or "")
        if match:
            if v["error"]:
                v["error"] = v["error"][match.end() :] or "(no output)"
            return int(match.group(1))
    return None


def prepare_bash(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Bash and PowerShell: the command, its output streams and how it ended."""
    v = base(call, shell.BashResult)
    command = as_type(call.input, shell.BashInput)
    result: shell.BashResult | None = v["r"]
    badges: list[tuple[str, str]] = []
    exit_code = _exit_code(v, call)
    if exit_code is not None:
        badges.append((f"exit code {exit_code}", "error" if exit_code else "ok"))
    image: tuple[str, str] | None = None
    notes: list[str] = []
    if result is not None:
        if result.timed_out_after_ms:
            badges.append((f"timed out after {millis(result.timed_out_after_ms)}", "warn"))
        if result.backgrounded_by_user:
            badges.append(("sent to the background by the user", "info"))
        if result.assistant_auto_backgrounded:
            badges.append(("moved to the background automatically", "info"))
        if result.sandbox is True:
            badges.append(("sandboxed", "muted"))
        if result.no_output_expected:
            badges.append(("no output expected", "muted"))
        stdout = text_of(result.stdout)
        if result.is_image and stdout.startswith("data:image/"):
            header, _, data = stdout.partition(",")
            image = (header.removeprefix("data:").split(";", 1)[0], data)
        if result.persisted_output_path:
            size = size_of(result.persisted_output_size)
            notes.append(
                f"Full output saved to {result.persisted_output_path}"
                + (f" ({size})" if size else "")
            )
        if result.raw_output_path:
            notes.append(f"Raw output at {result.raw_output_path}")
        notes.extend(
            text_of(hint) for hint in (result.stale_read_file_state_hint, result.gh_rate_limit_hint)
        )
    if (command is not None and command.dangerously_disable_sandbox) or (
        result is not None and result.dangerously_disable_sandbox
    ):
        badges.append(("sandbox disabled", "warn"))
    description = text_of(command.description) if command else ""
    text = command.command if command else ""
    v.update(
        command=text,
        description=description,
        timeout=millis(command.timeout) if command else "",
        language="powershell" if call.name == "PowerShell" else "bash",
        badges=badges,
        task_id=text_of(result.background_task_id) if result else "",
        stdout="" if image else (text_of(result.stdout) if result else ""),
        stderr=text_of(result.stderr) if result else "",
        image=image,
        notes=[note for note in notes if note],
        interpretation=text_of(result.return_code_interpretation) if result else "",
        summary=description or first_line(text),
    )
    return v


def _line_counts(stdout: Any, stderr: Any) -> str:
    counts = (("stdout", int_of(stdout)), ("stderr", int_of(stderr)))
    return ", ".join(f"{count} {name}" for name, count in counts if count is not None)


def prepare_background_output(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """BashOutput, TaskOutput and AgentOutputTool: what a background task has printed so far."""
    v = base(call, shell.BashOutputResult, shell.TaskOutputResult, agents.AgentOutputResult)
    request = call.input
    asked = Fields(h)
    task_id = ""
    if isinstance(request, shell.BashOutputInput):
        task_id = text_of(request.bash_id)
        asked.add("Filter", request.filter, "code")
    elif isinstance(request, shell.TaskOutputInput):
        task_id = text_of(request.task_id)
        asked.add("Wait for it", request.block).add("Timeout", millis(request.timeout))
    elif isinstance(request, agents.AgentOutputInput):
        task_id = text_of(request.agent_id)
        asked.add("Wait for it", request.block)
        asked.add("Wait up to", duration(number_of(request.wait_up_to)))
    result = v["r"]
    got = Fields(h)
    streams: list[tuple[str, str]] = []
    command = ""
    snapshots: list[dict[str, Any]] = []
    if isinstance(result, shell.BashOutputResult):
        command = text_of(result.command)
        got.add("Status", words(result.status)).add("Exit code", result.exit_code)
        got.add("Lines", _line_counts(result.stdout_lines, result.stderr_lines))
        got.add("At", result.timestamp)
        streams = [
            ("stdout", text_of(result.stdout) or text_of(result.output)),
            ("stderr", text_of(result.stderr)),
        ]
    elif isinstance(result, shell.TaskOutputResult):
        got.add("Retrieval", result.retrieval_status)
        task = as_type(result.task, shell.BackgroundTask)
        if task is not None:
            task_id = task_id or text_of(task.task_id)
            got.add("Task type", words(task.task_type)).add("Status", words(task.status))
            got.add("Exit code", task.exit_code).add("Description", task.description)
            streams = [
                ("stdout", text_of(task.output) or text_of(task.result)),
                ("error", text_of(task.error)),
            ]
    elif isinstance(result, agents.AgentOutputResult):
        got.add("Retrieval", result.retrieval_status)
        for agent_id, snapshot in (
            result.agents if isinstance(result.agents, dict) else {}
        ).items():
            snapshots.append(
                {
                    "link": task_link(h, agent_id),
                    "id": agent_id,
                    "status": words(snapshot.status),
                    "description": text_of(snapshot.description),
                    "output": text_of(snapshot.result) or text_of(snapshot.output),
                    "error": text_of(snapshot.error),
                }
            )
    elif v["error"] is None:
        # Without a toolUseResult the model saw <status>…</status> sections: read them back.
        sections = tagged_sections(call.result_text)
        task_id = task_id or sections.get("task_id", "")
        got.add("Retrieval", sections.get("retrieval_status"))
        got.add("Task type", words(sections.get("task_type"))).add(
            "Status", words(sections.get("status"))
        )
        got.add("Exit code", sections.get("exit_code")).add("At", sections.get("timestamp"))
        streams = [
            ("stdout", sections.get("output") or sections.get("stdout", "")),
            ("stderr", sections.get("stderr", "")),
            ("error", sections.get("error", "")),
        ]
    streams = [(kind, text) for kind, text in streams if text]
    v.update(
        task_id=task_id,
        link=task_link(h, task_id),
        asked=asked.rows,
        got=got.rows,
        command=command,
        streams=streams,
        snapshots=snapshots,
        has_result=bool(got.rows or streams or snapshots),
        summary=f"output of {task_id}" if task_id else "",
    )
    return v


def prepare_task_stop(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TaskStop, KillShell and KillBash: which background task was stopped."""
    v = base(call, shell.TaskStopResult, shell.KillShellResult)
    request = call.input
    task_id = ""
    if isinstance(request, shell.TaskStopInput):
        task_id = text_of(request.task_id) or text_of(request.shell_id)
    elif isinstance(request, shell.KillShellInput):
        task_id = text_of(request.shell_id)
    result = v["r"]
    got = Fields(h)
    command = message = ""
    if isinstance(result, shell.TaskStopResult):
        task_id = task_id or text_of(result.task_id)
        got.add("Task type", words(result.task_type))
        command, message = text_of(result.command), text_of(result.message)
    elif isinstance(result, shell.KillShellResult):
        task_id = task_id or text_of(result.shell_id)
        got.add("Succeeded", result.success)
        message = text_of(result.message)
    v.update(
        task_id=task_id,
        link=task_link(h, task_id),
        got=got.rows,
        command=command,
        message=message,
        summary=f"stop {task_id}" if task_id else "",
    )
    return v


def prepare_monitor(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """Monitor: the command or WebSocket watched in the background."""
    v = base(call, shell.MonitorResult)
    request = as_type(call.input, shell.MonitorInput)
    result: shell.MonitorResult | None = v["r"]
    asked = Fields(h)
    command = description = ""
    if request is not None:
        command, description = text_of(request.command), text_of(request.description)
        target = as_type(request.ws, shell.WebSocketTarget)
        if target is not None:
            asked.url("WebSocket", target.url).add("Protocols", target.protocols)
        asked.add("Timeout", millis(request.timeout_ms)).add("Persistent", request.persistent)
    got = Fields(h)
    if result is not None:
        if request is None or result.timeout_ms != request.timeout_ms:
            got.add("Timeout", millis(result.timeout_ms))
        if request is None or result.persistent != request.persistent:
            got.add("Persistent", result.persistent)
        got.add("Kept in the sandbox", result.kept_in_sandbox_by_check)
    v.update(
        command=command,
        description=description,
        asked=asked.rows,
        got=got.rows,
        task_id=text_of(result.task_id) if result else "",
        summary=description or first_line(command),
    )
    return v


def prepare_repl(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """REPL: the JavaScript it ran."""
    v = base(call)
    request = as_type(call.input, shell.ReplInput)
    description = text_of(request.description) if request else ""
    v.update(
        code=text_of(request.code) if request else "",
        description=description,
        asked=Fields(h).add("Timeout", millis(request.timeout) if request else "").rows,
        summary=description,
    )
    return v
