"""Views of the task list: TodoWrite and TaskCreate, TaskUpdate, TaskGet and TaskList."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from ...model.session import ToolCall
from ...model.tools import tasks
from ..prepared import Field, PreparedView, TextPart, field_parts, text_part
from ..views import ViewHelpers
from ._common import Common, Fields, as_type, base, list_of, said, text_of

#: How each task status is drawn.
STATUS_ICONS = {"pending": "○", "in_progress": "◐", "completed": "●", "deleted": "✕"}
STATUS_LABELS = {"pending": "pending", "in_progress": "in progress", "completed": "done"}
_TASK_NUMBER = re.compile(r"#(\w+)")


def status_icon(status: str) -> str:
    """The checklist icon of a task status (``○`` for one cclens does not know)."""
    return STATUS_ICONS.get(status, "○")


def status_label(status: str) -> str:
    """A task status in words (``in_progress`` → ``in progress``, ``completed`` → ``done``)."""
    return STATUS_LABELS.get(status, status.replace("_", " "))


class TodoRow(msgspec.Struct, frozen=True):
    """One entry of a checklist: its ``status`` (``removed`` for an entry the list dropped),
    the ``icon`` and ``label`` of its status, its ``content``, what is shown while it is in
    progress (``active``), its ``priority``, and the ``change`` it went through since the
    list before (``change_kind``: the badge's kind)."""

    status: str
    icon: str
    label: str
    content: str
    active: str = ""
    priority: str = ""
    change: str = ""
    change_kind: str = ""


def todo_row(status: str, content: str, change: str = "", change_kind: str = "") -> TodoRow:
    """A :class:`TodoRow` of ``status``, its icon and its label in words."""
    icon, label = status_icon(status), status_label(status)
    return TodoRow(status, icon, label, content, change=change, change_kind=change_kind)


class TodoView(PreparedView, frozen=True, kw_only=True):
    """A checklist (``tools/todo.html``): its rows (``todos``), how many are ``done`` of
    ``total``, the one in progress (``current``), and the
    ``explanation`` that came with it (Codex's plans)."""

    todos: Sequence[TodoRow] = ()
    done: int = 0
    total: int = 0
    current: str = ""
    explanation: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("markdown", self.explanation)]
        progress = f"{self.done} of {self.total} done" + (
            f" · now: {self.current}" if self.current else ""
        )
        answered = self.r is not None
        parts.append(TextPart("note", progress, result=answered))
        for row in self.todos:
            # A change its status says already (started, done, removed) is not said twice.
            told = row.change not in ("", "started", "done", "removed")
            said = row.content + (f" ({row.change})" if told else "")
            parts.append(TextPart("item", said, row.status, result=answered))
        return parts


def _todo_key(item: tasks.TodoItem) -> str:
    return text_of(item.id) or text_of(item.content)


def todo_rows(new: list[tasks.TodoItem], old: list[tasks.TodoItem] | None) -> list[TodoRow]:
    """Checklist rows of ``new``, each saying what changed since ``old`` (when it is known)."""
    before = {_todo_key(item): item for item in old or []}
    rows: list[TodoRow] = []

    def row(item: tasks.TodoItem, change: str, kind: str) -> TodoRow:
        status = text_of(item.status) or "pending"
        row = todo_row(status, text_of(item.content), change, kind)
        return replace(row, active=text_of(item.active_form), priority=text_of(item.priority))

    for item in new:
        prior = before.pop(_todo_key(item), None)
        if old is None:
            rows.append(row(item, "", ""))
        elif prior is None:
            rows.append(row(item, "new", "info"))
        elif text_of(prior.status) != text_of(item.status):
            status = text_of(item.status)
            kind = "ok" if status == "completed" else "info"
            rows.append(
                row(item, "started" if status == "in_progress" else status_label(status), kind)
            )
        else:
            rows.append(row(item, "", ""))
    for item in before.values():
        removed = row(item, "removed", "muted")
        rows.append(replace(removed, status="removed"))
    return rows


def prepare_todo_write(call: ToolCall, h: ViewHelpers) -> TodoView:
    """TodoWrite: the new todo list as a checklist, and what changed since the last one."""
    v = base(call, tasks.TodoWriteResult)
    request = as_type(call.input, tasks.TodoWriteInput)
    result: tasks.TodoWriteResult | None = v["r"]
    new = list_of(result.new_todos if result else None) or list_of(
        request.todos if request else None
    )
    new = [item for item in new if isinstance(item, tasks.TodoItem)]
    old_raw = result.old_todos if result else None
    old = (
        [i for i in old_raw if isinstance(i, tasks.TodoItem)] if isinstance(old_raw, list) else None
    )
    return todo_view(v, todo_rows(new, old), len(new))


def todo_view(common: Common, rows: list[TodoRow], count: int, explanation: str = "") -> TodoView:
    """The :class:`TodoView` of ``rows`` (of ``count`` entries asked for, the removed ones
    left out): how many are done and which one is in progress, its summary ``2/5 done · <the
    entry in progress>``."""
    done = sum(1 for row in rows if row.status == "completed")
    current = next((row for row in rows if row.status == "in_progress"), None)
    return TodoView(
        **common,
        todos=rows,
        done=done,
        total=sum(1 for row in rows if row.status != "removed"),
        current=(current.active or current.content) if current else "",
        explanation=explanation,
        summary=f"{done}/{count} done" + (f" · {current.content}" if current else ""),
    )


class TaskRow(msgspec.Struct, frozen=True):
    """One task of the list: its ``id``, ``subject``, ``status`` (its ``icon`` and
    ``label``), ``description``, ``owner`` and the tasks it is ``blocked_by``."""

    id: str
    subject: str = ""
    status: str = ""
    description: str = ""
    owner: str = ""
    blocked_by: Sequence[str] = ()

    @property
    def icon(self) -> str:
        return status_icon(self.status) if self.status else ""

    @property
    def label(self) -> str:
        return status_label(self.status) if self.status else ""


def _task(
    task_id: str,
    subject: Any = None,
    status: Any = None,
    description: Any = None,
    owner: Any = None,
) -> TaskRow:
    return TaskRow(task_id, text_of(subject), text_of(status), text_of(description), text_of(owner))


class TaskChange(msgspec.Struct, frozen=True):
    """The status a task had before a change (``from_``), its icon and label."""

    from_: str

    @property
    def from_icon(self) -> str:
        return status_icon(self.from_)

    @property
    def from_label(self) -> str:
        return status_label(self.from_)


class TaskView(PreparedView, frozen=True, kw_only=True):
    """One task created, changed or read (``tools/task.html``): the ``task``, the ``change``
    of its status, whether the call was ``done``, and ``said``: the result text when it has no
    typed result."""

    task: TaskRow
    asked: Sequence[Field] = ()
    change: TaskChange | None = None
    got: Sequence[Field] = ()
    done: bool = False
    said: str = ""

    def parts(self) -> list[TextPart]:
        task = self.task
        status = task.label
        if self.change is not None:
            status = f"{self.change.from_label} → {task.label}"
        head = " ".join(part for part in (f"#{task.id}" if task.id else "", task.subject) if part)
        parts = [
            *text_part("item", head, task.status, result=self.done),
            *text_part("field", status, "Status", result=self.done),
            *text_part("field", task.owner, "Owner", result=self.done),
            *text_part("markdown", task.description, result=self.done),
            *field_parts(self.asked, result=self.done),
        ]
        if self.done:
            return parts + field_parts(self.got, result=True)
        return parts + text_part("result", self.said, result=True)


def prepare_task_create(call: ToolCall, h: ViewHelpers) -> TaskView:
    """TaskCreate: the new task, numbered as the list numbered it."""
    v = base(call, tasks.TaskCreateResult)
    request = as_type(call.input, tasks.TaskCreateInput)
    result: tasks.TaskCreateResult | None = v["r"]
    created = as_type(result.task, tasks.TaskRef) if result else None
    task_id = text_of(created.id) if created else ""
    if not task_id and v["error"] is None:
        number = _TASK_NUMBER.search(call.result_text)
        task_id = number.group(1) if number else ""
    subject = (text_of(request.subject) if request else "") or (
        text_of(created.subject) if created else ""
    )
    asked = Fields()
    if request is not None:
        asked.add("While working", request.active_form).add("Metadata", request.metadata)
    return TaskView(
        **v,
        task=_task(task_id, subject, "pending", request.description if request else None),
        asked=asked.rows,
        done=result is not None or bool(task_id),
        summary=subject,
    )


def prepare_task_update(call: ToolCall, h: ViewHelpers) -> TaskView:
    """TaskUpdate: which task changed, its status before and after, and the other changes."""
    v = base(call, tasks.TaskUpdateResult)
    request = as_type(call.input, tasks.TaskUpdateInput)
    result: tasks.TaskUpdateResult | None = v["r"]
    task_id = (text_of(request.task_id) if request else "") or (
        text_of(result.task_id) if result else ""
    )
    asked = Fields()
    if request is not None:
        asked.add("Subject", request.subject).add("While working", request.active_form)
        asked.add("Owner", request.owner, "code").add("Blocks", request.add_blocks)
        asked.add("Blocked by", request.add_blocked_by).add("Metadata", request.metadata)
    change = as_type(result.status_change, tasks.StatusChange) if result else None
    before = text_of(change.from_) if change else ""
    after = (text_of(change.to) if change else "") or (text_of(request.status) if request else "")
    got = Fields()
    if result is not None:
        got.add("Updated", result.success).add("Fields", result.updated_fields)
        if result.error:
            v["error"] = text_of(result.error)
    return TaskView(
        **v,
        task=_task(task_id, None, after, request.description if request else None),
        asked=asked.rows,
        change=TaskChange(before) if before and before != after else None,
        got=got.rows,
        done=result is not None,
        summary=f"#{task_id} → {status_label(after)}" if after else f"#{task_id}",
    )


def prepare_task_get(call: ToolCall, h: ViewHelpers) -> TaskView:
    """TaskGet: one task with its status, owner and dependencies."""
    v = base(call, tasks.TaskGetResult)
    request = as_type(call.input, tasks.TaskGetInput)
    result: tasks.TaskGetResult | None = v["r"]
    details = as_type(result.task, tasks.TaskDetails) if result else None
    task_id = (text_of(request.task_id) if request else "") or (
        text_of(details.id) if details else ""
    )
    got = Fields()
    task = _task(task_id)
    if details is not None:
        task = _task(task_id, details.subject, details.status, details.description, details.owner)
        got.add("Blocks", details.blocks).add("Blocked by", details.blocked_by)
        got.add("While working", details.active_form).add("Metadata", details.metadata)
    return TaskView(
        **v,
        task=task,
        got=got.rows,
        done=details is not None,
        said=said(call, v),
        summary=f"#{task_id}",
    )


class TaskListView(PreparedView, frozen=True, kw_only=True):
    """Every task of the list (``tools/task_list.html``), and ``said``: the result text when
    it has no typed result."""

    tasks: Sequence[TaskRow] = ()
    said: str = ""

    def parts(self) -> list[TextPart]:
        if self.r is None and not self.said:
            return []
        parts = [
            TextPart("item", f"#{task.id} {task.subject}", task.status, result=True)
            for task in self.tasks
        ]
        return parts or [TextPart("result", self.said or "No tasks.", result=True)]


def prepare_task_list(call: ToolCall, h: ViewHelpers) -> TaskListView:
    """TaskList: every task of the list as a checklist, with owners and blockers."""
    v = base(call, tasks.TaskListResult)
    result: tasks.TaskListResult | None = v["r"]
    rows = [
        replace(
            _task(text_of(item.id), item.subject, item.status or "pending", None, item.owner),
            blocked_by=[b for b in list_of(item.blocked_by) if isinstance(b, str)],
        )
        for item in list_of(result.tasks if result else None)
        if isinstance(item, tasks.TaskSummary)
    ]
    done = sum(1 for row in rows if row.status == "completed")
    return TaskListView(
        **v,
        tasks=rows,
        said=said(call, v),
        summary=f"{done}/{len(rows)} done" if rows else "",
    )
