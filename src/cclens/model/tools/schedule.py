"""Running prompts later: CronCreate, CronDelete, CronList, ScheduleWakeup and RemoteTrigger."""

from typing import Any

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ._spec import ToolSpec


class CronCreateInput(Model):
    """Input of ``CronCreate``: a 5-field cron expression (local time) and the prompt to run."""

    cron: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    recurring: Opt[bool] = UNSET
    durable: Opt[bool] = UNSET


class OneShot(CamelModel):
    """A one-shot scheduled prompt that has yet to fire."""

    id: Opt[str] = UNSET
    human_schedule: Opt[str] = UNSET
    prompt: Opt[str] = UNSET


class CronCreateResult(CamelModel):
    """Result of ``CronCreate``."""

    id: Opt[str] = UNSET
    human_schedule: Opt[str] = UNSET
    recurring: Opt[bool] = UNSET
    durable: Opt[bool] = UNSET
    next_fire_at: Opt[Number] = UNSET
    other_one_shots: Opt[list[OneShot]] = UNSET


class CronDeleteInput(Model):
    """Input of ``CronDelete``."""

    id: Opt[str] = UNSET


class CronDeleteResult(CamelModel):
    """Result of ``CronDelete``."""

    id: Opt[str] = UNSET
    ended_loop_wakeup: Opt[bool] = UNSET


class CronListInput(Model):
    """Input of ``CronList`` (no fields)."""


class CronJob(CamelModel):
    """A scheduled prompt."""

    id: Opt[str] = UNSET
    cron: Opt[str] = UNSET
    human_schedule: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    recurring: Opt[bool] = UNSET
    durable: Opt[bool] = UNSET
    next_fire_at: Opt[Number] = UNSET


class CronListResult(Model):
    """Result of ``CronList``."""

    jobs: Opt[list[CronJob]] = UNSET


class ScheduleWakeupInput(CamelModel):
    """Input of ``ScheduleWakeup``: when a ``/loop`` should run again (or ``stop``)."""

    delay_seconds: Opt[Number] = UNSET
    reason: Opt[str] = UNSET
    prompt: Opt[str] = UNSET
    stop: Opt[bool] = UNSET
    noop: Opt[bool] = UNSET


class ScheduleWakeupResult(CamelModel):
    """Result of ``ScheduleWakeup``."""

    scheduled_for: Opt[Number] = UNSET
    clamped_delay_seconds: Opt[Number] = UNSET
    was_clamped: Opt[bool] = UNSET
    stopped: Opt[bool] = UNSET
    cancelled_wakeups: Opt[Int] = UNSET


class RemoteTriggerInput(Model):
    """Input of ``RemoteTrigger``: an action on the user's remote (cloud) triggers."""

    action: Opt[str] = UNSET
    trigger_id: Opt[str] = UNSET
    session_id: Opt[str] = UNSET
    cursor: Opt[str] = UNSET
    body: Opt[dict[str, Any]] = UNSET


class RemoteTriggerResult(Model):
    """Result of ``RemoteTrigger``: the HTTP status and the response body as JSON text."""

    status: Opt[Int] = UNSET
    json: Opt[str] = UNSET
    summary: Opt[str] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="CronCreate",
        aliases=(),
        input_type=CronCreateInput,
        result_type=CronCreateResult,
        description="Schedule a prompt on a cron expression",
        family="schedule",
    ),
    ToolSpec(
        name="CronDelete",
        aliases=(),
        input_type=CronDeleteInput,
        result_type=CronDeleteResult,
        description="Delete a scheduled prompt",
        family="schedule",
    ),
    ToolSpec(
        name="CronList",
        aliases=(),
        input_type=CronListInput,
        result_type=CronListResult,
        description="List the scheduled prompts",
        family="schedule",
    ),
    ToolSpec(
        name="ScheduleWakeup",
        aliases=(),
        input_type=ScheduleWakeupInput,
        result_type=ScheduleWakeupResult,
        description="Choose when a dynamic /loop runs next, or stop it",
        family="schedule",
    ),
    ToolSpec(
        name="RemoteTrigger",
        aliases=(),
        input_type=RemoteTriggerInput,
        result_type=RemoteTriggerResult,
        description="List, create, update or run remote triggers (cloud routines)",
        family="schedule",
    ),
)
