"""Views of the task list: TodoWrite and TaskCreate, TaskUpdate, TaskGet and TaskList."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...model.session import ToolCall
from ...model.tools import tasks
from ..views import ViewHelpers
from ._common import Fields, as_type, base, list_of, text_of

#: How each task status is drawn.
STATUS_ICONS = {"pending": "○", "in_progress": "◐", "completed": "●", "deleted": "✕"}
STATUS_LABELS = {"pending": "pending", "in_progress": "in progress", "completed": "done"}
_TASK_NUMBER = re.compile(r"#(\w+)")


def status_icon(status: str) -> str:
    """The checklist icon of a task status (``○`` for one cclens does not know)."""
    return STATUS_ICONS.get(status, "○")


def _label(status: str) -> str:
    return STATUS_LABELS.get(status, status.replace("_", " "))


def _todo_key(item: tasks.TodoItem) -> str:
    return text_of(item.id) or text_of(item.content)


def todo_rows(new: list[tasks.TodoItem], old: list[tasks.TodoItem] | None) -> list[dict[str, Any]]:
    """Checklist rows of ``new``, each saying what changed since ``old`` (when it is known)."""
    before = {_todo_key(item): item for item in old or []}
    rows: list[dict[str, Any]] = []

    def row(item: tasks.TodoItem, change: str, kind: str) -> dict[str, Any]:
        status = text_of(item.status) or "pending"
        return {
            "status": status,
            "icon": status_icon(status),
            "label": _label(status),
            "content": text_of(item.content),
            "active": text_of(item.active_form),
            "priority": text_of(item.priority),
            "change": change,
            "change_kind": kind,
        }

    for item in new:
        prior = before.pop(_todo_key(item), None)
        if old is None:
            rows.append(row(item, "", ""))
        elif prior is None:
            rows.append(row(item, "new", "info"))
        elif text_of(prior.status) != text_of(item.status):
            status = text_of(item.status)
            kind = "ok" if status == "completed" else "info"
            rows.append(row(item, "started" if status == "in_progress" else _label(status), kind))
        else:
            rows.append(row(item, "", ""))
    for item in before.values():
        removed = row(item, "removed", "muted")
        removed["status"] = "removed"
        rows.append(removed)
    return rows


def prepare_todo_write(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    rows = todo_rows(new, old)
    done = sum(1 for r in rows if r["status"] == "completed")
    current = next((r for r in rows if r["status"] == "in_progress"), None)
    v.update(
        todos=rows,
        done=done,
        total=sum(1 for r in rows if r["status"] != "removed"),
        current=(current["active"] or current["content"]) if current else "",
        changed=sum(1 for r in rows if r["change"]),
        summary=f"{done}/{len(new)} done" + (f" · {current['content']}" if current else ""),
    )
    return v


def _task(
    task_id: str,
    subject: Any = None,
    status: Any = None,
    description: Any = None,
    owner: Any = None,
) -> dict[str, Any]:
    state = text_of(status)
    return {
        "id": task_id,
        "subject": text_of(subject),
        "status": state,
        "icon": status_icon(state) if state else "",
        "label": _label(state) if state else "",
        "description": text_of(description),
        "owner": text_of(owner),
    }


def prepare_task_create(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
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
    asked = Fields(h)
    if request is not None:
        asked.add("While working", request.active_form).add("Metadata", request.metadata)
    v.update(
        task=_task(task_id, subject, "pending", request.description if request else None),
        asked=asked.rows,
        change=None,
        got=[],
        done=result is not None or bool(task_id),
        summary=subject,
    )
    return v


def prepare_task_update(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TaskUpdate: which task changed, its status before and after, and the other changes."""
    v = base(call, tasks.TaskUpdateResult)
    request = as_type(call.input, tasks.TaskUpdateInput)
    result: tasks.TaskUpdateResult | None = v["r"]
    task_id = (text_of(request.task_id) if request else "") or (
        text_of(result.task_id) if result else ""
    )
    asked = Fields(h)
    if request is not None:
        asked.add("Subject", request.subject).add("While working", request.active_form)
        asked.add("Owner", request.owner, "code").add("Blocks", request.add_blocks)
        asked.add("Blocked by", request.add_blocked_by).add("Metadata", request.metadata)
    change = as_type(result.status_change, tasks.StatusChange) if result else None
    before = text_of(change.from_) if change else ""
    after = (text_of(change.to) if change else "") or (text_of(request.status) if request else "")
    got = Fields(h)
    if result is not None:
        got.add("Updated", result.success).add("Fields", result.updated_fields)
        if result.error:
            v["error"] = text_of(result.error)
    v.update(
        task=_task(task_id, None, after, request.description if request else None),
        asked=asked.rows,
        change={"from": before, "from_icon": status_icon(before), "from_label": _label(before)}
        if before and before != after
        else None,
        got=got.rows,
        done=result is not None,
        summary=f"#{task_id} → {_label(after)}" if after else f"#{task_id}",
    )
    return v


def prepare_task_get(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TaskGet: one task with its status, owner and dependencies."""
    v = base(call, tasks.TaskGetResult)
    request = as_type(call.input, tasks.TaskGetInput)
    result: tasks.TaskGetResult | None = v["r"]
    details = as_type(result.task, tasks.TaskDetails) if result else None
    task_id = (text_of(request.task_id) if request else "") or (
        text_of(details.id) if details else ""
    )
    got = Fields(h)
    task = _task(task_id)
    if details is not None:
        task = _task(task_id, details.subject, details.status, details.description, details.owner)
        got.add("Blocks", details.blocks).add("Blocked by", details.blocked_by)
        got.add("While working", details.active_form).add("Metadata", details.metadata)
    v.update(
        task=task,
        asked=[],
        change=None,
        got=got.rows,
        done=details is not None,
        said=call.result_text if result is None and v["error"] is None else "",
        summary=f"#{task_id}",
    )
    return v


def prepare_task_list(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """TaskList: every task of the list as a checklist, with owners and blockers."""
    v = base(call, tasks.TaskListResult)
    result: tasks.TaskListResult | None = v["r"]
    rows = []
    for item in list_of(result.tasks if result else None):
        if isinstance(item, tasks.TaskSummary):
            row = _task(text_of(item.id), item.subject, item.status or "pending", None, item.owner)
            row["blocked_by"] = [b for b in list_of(item.blocked_by) if isinstance(b, str)]
            rows.append(row)
    done = sum(1 for row in rows if row["status"] == "completed")
    v.update(
        tasks=rows,
        said=call.result_text if result is None and v["error"] is None else "",
        summary=f"{done}/{len(rows)} done" if rows else "",
    )
    return v
