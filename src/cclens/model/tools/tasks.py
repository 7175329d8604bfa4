"""The task list: TodoWrite and its successors TaskCreate, TaskGet, TaskUpdate and TaskList."""

from typing import Any

import msgspec

from .._base import UNSET, CamelModel, Model, Opt
from ._spec import ToolSpec


class TodoItem(CamelModel):
    """One todo; 1.0.x transcripts also give it an ``id`` and a ``priority``."""

    content: Opt[str] = UNSET
    status: Opt[str] = UNSET
    active_form: Opt[str] = UNSET
    id: Opt[str] = UNSET
    priority: Opt[str] = UNSET


class TodoWriteInput(Model):
    """Input of ``TodoWrite``: the whole new todo list."""

    todos: Opt[list[TodoItem]] = UNSET


class TodoWriteResult(CamelModel):
    """Result of ``TodoWrite``: the list before and after."""

    old_todos: Opt[list[TodoItem]] = UNSET
    new_todos: Opt[list[TodoItem]] = UNSET
    verification_nudge_needed: Opt[bool] = UNSET


class TaskCreateInput(CamelModel):
    """Input of ``TaskCreate``."""

    subject: Opt[str] = UNSET
    description: Opt[str] = UNSET
    active_form: Opt[str] = UNSET
    metadata: Opt[dict[str, Any]] = UNSET


class TaskRef(Model):
    """A task as ``TaskCreate`` reports it."""

    id: Opt[str] = UNSET
    subject: Opt[str] = UNSET
    description: Opt[str] = UNSET


class TaskCreateResult(Model):
    """Result of ``TaskCreate``: the new task's id."""

    task: Opt[TaskRef] = UNSET


class TaskGetInput(CamelModel):
    """Input of ``TaskGet``."""

    task_id: Opt[str] = UNSET


class TaskDetails(CamelModel):
    """A task with everything ``TaskGet`` tells about it."""

    id: Opt[str] = UNSET
    subject: Opt[str] = UNSET
    description: Opt[str] = UNSET
    status: Opt[str] = UNSET
    blocks: Opt[list[str]] = UNSET
    blocked_by: Opt[list[str]] = UNSET
    owner: Opt[str] = UNSET
    active_form: Opt[str] = UNSET
    metadata: Opt[dict[str, Any]] = UNSET


class TaskGetResult(Model):
    """Result of ``TaskGet``."""

    task: Opt[TaskDetails] = UNSET


class TaskUpdateInput(CamelModel):
    """Input of ``TaskUpdate``: the fields to change (``status: deleted`` deletes the task)."""

    task_id: Opt[str] = UNSET
    subject: Opt[str] = UNSET
    description: Opt[str] = UNSET
    active_form: Opt[str] = UNSET
    status: Opt[str] = UNSET
    add_blocks: Opt[list[str]] = UNSET
    add_blocked_by: Opt[list[str]] = UNSET
    owner: Opt[str] = UNSET
    metadata: Opt[dict[str, Any]] = UNSET


class StatusChange(Model):
    """A task's status before and after an update."""

    from_: Opt[str] = msgspec.field(default=UNSET, name="from")
    to: Opt[str] = UNSET


class TaskUpdateResult(CamelModel):
    """Result of ``TaskUpdate``."""

    success: Opt[bool] = UNSET
    task_id: Opt[str] = UNSET
    updated_fields: Opt[list[str]] = UNSET
    error: Opt[str] = UNSET
    status_change: Opt[StatusChange] = UNSET
    verification_nudge_needed: Opt[bool] = UNSET


class TaskListInput(Model):
    """Input of ``TaskList`` (no fields)."""


class TaskSummary(CamelModel):
    """A task as ``TaskList`` lists it."""

    id: Opt[str] = UNSET
    subject: Opt[str] = UNSET
    status: Opt[str] = UNSET
    owner: Opt[str] = UNSET
    blocked_by: Opt[list[str]] = UNSET


class TaskListResult(Model):
    """Result of ``TaskList``."""

    tasks: Opt[list[TaskSummary]] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="TodoWrite",
        aliases=(),
        input_type=TodoWriteInput,
        result_type=TodoWriteResult,
        description="Replace the session's todo list",
        family="task",
    ),
    ToolSpec(
        name="TaskCreate",
        aliases=(),
        input_type=TaskCreateInput,
        result_type=TaskCreateResult,
        description="Add a task to the task list",
        family="task",
    ),
    ToolSpec(
        name="TaskGet",
        aliases=(),
        input_type=TaskGetInput,
        result_type=TaskGetResult,
        description="Read one task of the task list",
        family="task",
    ),
    ToolSpec(
        name="TaskUpdate",
        aliases=(),
        input_type=TaskUpdateInput,
        result_type=TaskUpdateResult,
        description="Change a task's status, owner, dependencies or text",
        family="task",
    ),
    ToolSpec(
        name="TaskList",
        aliases=(),
        input_type=TaskListInput,
        result_type=TaskListResult,
        description="List the tasks of the task list",
        family="task",
    ),
)
