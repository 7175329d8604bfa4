"""Views of shell commands and background tasks: Bash, PowerShell, BashOutput, TaskOutput,
AgentOutputTool, TaskStop (KillShell, KillBash), Monitor and REPL."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from ...formats import duration
from ...model.session import ToolCall
from ...model.tools import agents, shell
from ..prepared import (
    Field,
    Image,
    Link,
    PreparedView,
    TextKind,
    TextPart,
    field_parts,
    text_part,
)
from ..views import ViewHelpers
from ._common import (
    Common,
    Fields,
    as_type,
    base,
    first_line,
    int_of,
    millis,
    number_of,
    said,
    size_of,
    tagged_sections,
    task_link,
    text_of,
    words,
)

_EXIT_CODE = re.compile(r"\AExit code (-?\d+)\n?")


class ShellView(PreparedView, frozen=True, kw_only=True):
    """A command (``tools/bash.html``): what ran (``command`` in ``language``), its
    ``timeout``, how it ended (``badges``: the exit code...), its ``stdout`` and ``stderr`` or
    the ``image`` it printed, the background ``task_id`` it runs as, Claude Code's
    ``interpretation`` of its exit code, and ``said``: the result text when it has no typed
    result (nor error)."""

    command: str = ""
    description: str = ""
    timeout: str = ""
    language: str = "bash"
    task_id: str = ""
    stdout: str = ""
    stderr: str = ""
    image: Image | None = None
    interpretation: str = ""
    said: str = ""

    error_label: ClassVar[str] = "Output"

    def parts(self) -> list[TextPart]:
        parts = [*text_part("command", self.command, language=self.language)]
        parts += text_part("field", self.timeout, "Timeout")
        if self.r is not None:
            both = bool(self.stdout and self.stderr)
            parts += text_part("stdout", self.stdout, "stdout" if both else "", result=True)
            parts += text_part("stderr", self.stderr, "stderr", result=True)
            if self.image is not None:
                parts.append(TextPart("result", self.image.note, result=True))
            if self.task_id:
                said = f"Running in the background as task {self.task_id}"
                parts.append(TextPart("note", said, result=True))
            elif not (self.stdout or self.stderr or self.image):
                parts.append(TextPart("result", "No output.", result=True))
        elif not self.error:
            parts += text_part("stdout", self.said, result=True)
        return parts + text_part("note", self.interpretation)


def _exit_code(common: Common, call: ToolCall) -> int | None:
    """The exit code a failed command reported ("Exit code 1" first), taken off its error text."""
    error = common["error"]
    for source in (error, call.result_text if call.is_error else None):
        match = _EXIT_CODE.match(source or "")
        if match:
            if error:
                common["error"] = error[match.end() :] or "(no output)"
            return int(match.group(1))
    return None


def prepare_bash(call: ToolCall, h: ViewHelpers) -> ShellView:
    """Bash and PowerShell: the command, its output streams and how it ended."""
    v = base(call, shell.BashResult)
    command = as_type(call.input, shell.BashInput)
    result: shell.BashResult | None = v["r"]
    badges: list[tuple[str, str]] = []
    exit_code = _exit_code(v, call)
    if exit_code is not None:
        badges.append((f"exit code {exit_code}", "error" if exit_code else "ok"))
    image: Image | None = None
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
            image = Image(data, header.removeprefix("data:").split(";", 1)[0])
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
    return ShellView(
        **v,
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
        said=said(call, v),
        summary=description or first_line(text),
    )


def _line_counts(stdout: Any, stderr: Any) -> str:
    counts = (("stdout", int_of(stdout)), ("stderr", int_of(stderr)))
    return ", ".join(f"{count} {name}" for name, count in counts if count is not None)


class AgentSnapshot(msgspec.Struct, frozen=True):
    """What a background agent had done when polled: its ``status``, ``output`` or ``error``."""

    link: Link | None
    id: str
    status: str
    description: str
    output: str
    error: str


class BackgroundOutputView(PreparedView, frozen=True, kw_only=True):
    """What a background task printed (``tools/background_output.html``): the ``task_id``
    (``link``: to the call that started it), the ``command`` it runs, the ``streams``
    (``(kind, text)``: stdout, stderr, error), an agent's ``snapshots``."""

    task_id: str = ""
    link: Link | None = None
    asked: Sequence[Field] = ()
    got: Sequence[Field] = ()
    command: str = ""
    streams: Sequence[tuple[str, str]] = ()
    snapshots: Sequence[AgentSnapshot] = ()
    has_result: bool = False

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.task_id, "Background task")]
        parts += text_part("command", self.command, language="bash")
        parts += field_parts(self.asked)
        if not self.has_result:
            return parts
        parts += field_parts(self.got, result=True)
        for kind, text in self.streams:
            label = kind if len(self.streams) > 1 else ""
            stream: TextKind = (
                "stderr" if kind == "stderr" else "error" if kind == "error" else "stdout"
            )
            parts.append(TextPart(stream, text, label, result=True))
        for agent in self.snapshots:
            parts.append(TextPart("field", agent.status, f"Agent {agent.id}", result=True))
            parts += text_part("note", agent.description)
            parts += text_part("markdown", agent.output, result=True)
            parts += text_part("error", agent.error, result=True)
        return parts


def prepare_background_output(call: ToolCall, h: ViewHelpers) -> BackgroundOutputView:
    """BashOutput, TaskOutput and AgentOutputTool: what a background task has printed so far."""
    v = base(call, shell.BashOutputResult, shell.TaskOutputResult, agents.AgentOutputResult)
    request = call.input
    asked = Fields()
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
    got = Fields()
    streams: list[tuple[str, str]] = []
    command = ""
    snapshots: list[AgentSnapshot] = []
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
                AgentSnapshot(
                    link=task_link(h, agent_id),
                    id=agent_id,
                    status=words(snapshot.status),
                    description=text_of(snapshot.description),
                    output=text_of(snapshot.result) or text_of(snapshot.output),
                    error=text_of(snapshot.error),
                )
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
    return BackgroundOutputView(
        **v,
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


class TaskStopView(PreparedView, frozen=True, kw_only=True):
    """A background task stopped (``tools/task_stop.html``): its ``task_id`` (``link``: to the
    call that started it), and the stopped ``command`` and Claude Code's ``message``."""

    task_id: str = ""
    link: Link | None = None
    got: Sequence[Field] = ()
    command: str = ""
    message: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.task_id, "Stop background task")]
        if self.r is not None:
            parts += text_part("result", self.message, result=True)
            parts += text_part("command", self.command, language="bash")
            parts += field_parts(self.got, result=True)
        return parts


def prepare_task_stop(call: ToolCall, h: ViewHelpers) -> TaskStopView:
    """TaskStop, KillShell and KillBash: which background task was stopped."""
    v = base(call, shell.TaskStopResult, shell.KillShellResult)
    request = call.input
    task_id = ""
    if isinstance(request, shell.TaskStopInput):
        task_id = text_of(request.task_id) or text_of(request.shell_id)
    elif isinstance(request, shell.KillShellInput):
        task_id = text_of(request.shell_id)
    result = v["r"]
    got = Fields()
    command = message = ""
    if isinstance(result, shell.TaskStopResult):
        task_id = task_id or text_of(result.task_id)
        got.add("Task type", words(result.task_type))
        command, message = text_of(result.command), text_of(result.message)
    elif isinstance(result, shell.KillShellResult):
        task_id = task_id or text_of(result.shell_id)
        got.add("Succeeded", result.success)
        message = text_of(result.message)
    return TaskStopView(
        **v,
        task_id=task_id,
        link=task_link(h, task_id),
        got=got.rows,
        command=command,
        message=message,
        summary=f"stop {task_id}" if task_id else "",
    )


class MonitorView(PreparedView, frozen=True, kw_only=True):
    """A command or WebSocket watched in the background (``tools/monitor.html``), as the
    background task ``task_id``."""

    command: str = ""
    description: str = ""
    asked: Sequence[Field] = ()
    got: Sequence[Field] = ()
    task_id: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("command", self.command, language="bash"), *field_parts(self.asked)]
        if self.r is not None:
            watching = f"Watching as background task {self.task_id}" if self.task_id else ""
            parts += text_part("note", watching, result=True)
            parts += field_parts(self.got, result=True)
        return parts


def prepare_monitor(call: ToolCall, h: ViewHelpers) -> MonitorView:
    """Monitor: the command or WebSocket watched in the background."""
    v = base(call, shell.MonitorResult)
    request = as_type(call.input, shell.MonitorInput)
    result: shell.MonitorResult | None = v["r"]
    asked = Fields()
    command = description = ""
    if request is not None:
        command, description = text_of(request.command), text_of(request.description)
        target = as_type(request.ws, shell.WebSocketTarget)
        if target is not None:
            asked.url("WebSocket", target.url).add("Protocols", target.protocols)
        asked.add("Timeout", millis(request.timeout_ms)).add("Persistent", request.persistent)
    got = Fields()
    if result is not None:
        if request is None or result.timeout_ms != request.timeout_ms:
            got.add("Timeout", millis(result.timeout_ms))
        if request is None or result.persistent != request.persistent:
            got.add("Persistent", result.persistent)
        got.add("Kept in the sandbox", result.kept_in_sandbox_by_check)
    return MonitorView(
        **v,
        command=command,
        description=description,
        asked=asked.rows,
        got=got.rows,
        task_id=text_of(result.task_id) if result else "",
        summary=description or first_line(command),
    )


class ReplView(PreparedView, frozen=True, kw_only=True):
    """JavaScript run in the REPL (``tools/repl.html``): the ``code`` and what it printed
    (``said``)."""

    code: str = ""
    description: str = ""
    asked: Sequence[Field] = ()
    said: str = ""

    def parts(self) -> list[TextPart]:
        code = text_part("command", self.code, language="javascript")
        return code + field_parts(self.asked) + text_part("stdout", self.said, result=True)


def prepare_repl(call: ToolCall, h: ViewHelpers) -> ReplView:
    """REPL: the JavaScript it ran."""
    v = base(call)
    request = as_type(call.input, shell.ReplInput)
    description = text_of(request.description) if request else ""
    return ReplView(
        **v,
        code=text_of(request.code) if request else "",
        description=description,
        asked=Fields().add("Timeout", millis(request.timeout) if request else "").rows,
        said=call.result_text if v["error"] is None else "",
        summary=description,
    )
