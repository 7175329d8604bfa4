"""Views of prompts run later: CronCreate, CronDelete, CronList, ScheduleWakeup, RemoteTrigger."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from ...formats import duration, plural
from ...model.session import ToolCall
from ...model.tools import schedule
from ..prepared import PreparedView, TextPart
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    epoch,
    fields_base,
    list_of,
    number_of,
    text_of,
    typed_fields,
)

_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_STEP = re.compile(r"\*/(\d+)")
_NUMBER = re.compile(r"\d{1,2}")


def _days(field: str) -> str:
    """The days of a cron weekday field, in words that go before "at 09:30"."""
    if field == "1-5":
        return "on weekdays"
    if field in ("0,6", "6,0", "6,7"):
        return "on weekends"
    names = []
    for part in field.split(","):
        if not _NUMBER.fullmatch(part) or int(part) > 7:
            return ""
        names.append(_DAYS[int(part)])
    return "every " + ", ".join(names)


def describe_cron(expression: str) -> str:
    """A 5-field cron expression in words (``*/5 * * * *`` → ``every 5 minutes``).

    Only the shapes people write for reminders and loops are described; any other expression
    gives ``""`` and is shown as written.
    """
    fields = expression.split()
    if len(fields) != 5:
        return ""
    minute, hour, day, month, weekday = fields
    rest = (day, month, weekday)
    step = _STEP.fullmatch(minute)
    if minute == "*" and hour == "*" and rest == ("*", "*", "*"):
        return "every minute"
    if step and hour == "*" and rest == ("*", "*", "*"):
        return f"every {step.group(1)} minutes"
    if not _NUMBER.fullmatch(minute):
        return ""
    at_minute = f":{int(minute):02d}"
    hour_step = _STEP.fullmatch(hour)
    if hour == "*" and rest == ("*", "*", "*"):
        return f"every hour at {at_minute}"
    if hour_step and rest == ("*", "*", "*"):
        return f"every {hour_step.group(1)} hours at {at_minute}"
    if not _NUMBER.fullmatch(hour):
        return ""
    at = f"{int(hour):02d}{at_minute}"
    if rest == ("*", "*", "*"):
        return f"every day at {at}"
    if day == "*" and month == "*":
        days = _days(weekday)
        return f"{days} at {at}" if days else ""
    if weekday == "*" and _NUMBER.fullmatch(day):
        if month == "*":
            return f"on day {int(day)} of every month at {at}"
        if _NUMBER.fullmatch(month) and 1 <= int(month) <= 12:
            return f"on {_MONTHS[int(month) - 1]} {int(day)} at {at}"
    return ""


def prepare_cron_create(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """CronCreate: the schedule in words, the prompt it will run, when it fires next."""
    v, request, result = typed_fields(call, schedule.CronCreateInput, schedule.CronCreateResult)
    expression = text_of(request.cron) if request else ""
    words = (text_of(result.human_schedule) if result else "") or describe_cron(expression)
    asked = Fields().add("When", f"{words} (local time)" if words else "")
    if request is not None:
        asked.add("Repeats", request.recurring).add("Survives a restart", request.durable)
        asked.add("Prompt", request.prompt)
    got = Fields()
    if result is not None:
        got.add("Job", result.id, "code").add("Next run", epoch(result.next_fire_at))
        for other in list_of(result.other_one_shots):
            if isinstance(other, schedule.OneShot):
                got.add("Also scheduled", f"{other.id}: {other.human_schedule} — {other.prompt}")
    return FieldsView(
        **v, lead=expression, asked=asked.rows, got=got.rows, summary=words or expression
    )


def prepare_cron_delete(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """CronDelete: which scheduled prompt was cancelled."""
    v, request, result = typed_fields(call, schedule.CronDeleteInput, schedule.CronDeleteResult)
    job = text_of(request.id) if request else ""
    if result is None:
        return FieldsView(**v, lead=job, summary=f"cancel {job}" if job else "")
    return FieldsView(
        **v,
        lead=job,
        outcome="Cancelled.",
        got=Fields().add("Also ended the /loop wake-up", result.ended_loop_wakeup).rows,
        summary=f"cancel {job}" if job else "",
    )


class CronJob(msgspec.Struct, frozen=True):
    """A scheduled prompt: its ``id``, ``cron`` expression and ``when`` in words, its
    ``prompt``, whether it repeats (``recurring``) and survives a restart (``durable``), and
    when it runs ``next``."""

    id: str
    cron: str
    when: str
    prompt: str
    recurring: bool
    durable: bool
    next: str


class CronListView(PreparedView, frozen=True, kw_only=True):
    """The scheduled prompts (``tools/cron_list.html``); ``said``: the result text when it
    has no typed result."""

    jobs: Sequence[CronJob] = ()
    said: str = ""

    def parts(self) -> list[TextPart]:
        if self.r is None and not self.said:
            return []
        parts = [
            TextPart("field", f"{job.when or job.cron}: {job.prompt}", job.id, result=True)
            for job in self.jobs
        ]
        return parts or [TextPart("result", self.said or "No scheduled prompts.", result=True)]


def prepare_cron_list(call: ToolCall, h: ViewHelpers) -> CronListView:
    """CronList: the scheduled prompts, each with its schedule in words."""
    v = fields_base(call, schedule.CronListResult)
    result: schedule.CronListResult | None = v["r"]
    jobs = []
    for job in list_of(result.jobs if result else None):
        if isinstance(job, schedule.CronJob):
            expression = text_of(job.cron)
            jobs.append(
                CronJob(
                    id=text_of(job.id),
                    cron=expression,
                    when=text_of(job.human_schedule) or describe_cron(expression),
                    prompt=text_of(job.prompt),
                    recurring=job.recurring is True,
                    durable=job.durable is True,
                    next=epoch(job.next_fire_at),
                )
            )
    summary = plural(len(jobs), "job") if result is not None else ""
    return CronListView(**v, jobs=jobs, summary=summary)


def prepare_schedule_wakeup(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """ScheduleWakeup: when the loop runs next (or that it stops), and why."""
    v, request, result = typed_fields(
        call, schedule.ScheduleWakeupInput, schedule.ScheduleWakeupResult
    )
    delay = duration(number_of(request.delay_seconds)) if request else ""
    stop = bool(request and request.stop)
    asked = Fields()
    if request is not None:
        asked.add("Why", request.reason).add("Prompt", request.prompt).add(
            "Nothing to do", request.noop
        )
    got = Fields()
    if result is not None:
        got.add("At", epoch(result.scheduled_for)).add("Stopped", result.stopped)
        if result.was_clamped:
            got.add("Delay changed to", duration(number_of(result.clamped_delay_seconds)))
        got.add("Wake-ups cancelled", result.cancelled_wakeups)
    return FieldsView(
        **v,
        lead="Stop the loop" if stop else (f"Wake up in {delay}" if delay else ""),
        lead_code=False,
        asked=asked.rows,
        got=got.rows,
        summary="stop" if stop else (f"in {delay}" if delay else ""),
    )


def prepare_remote_trigger(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """RemoteTrigger: the action on a cloud routine, the HTTP status and the response body."""
    v, request, result = typed_fields(
        call, schedule.RemoteTriggerInput, schedule.RemoteTriggerResult
    )
    action = text_of(request.action) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Trigger", request.trigger_id, "code").add("Session", request.session_id, "code")
        asked.add("Cursor", request.cursor, "code").add("Body", request.body)
    got = Fields()
    badges: list[tuple[str, str]] = []
    if result is not None:
        body: Any = text_of(result.json)
        with contextlib.suppress(ValueError):
            body = json.loads(body) if body else body
        got.add("HTTP status", result.status).add("Summary", result.summary)
        got.add("Response", body)
        if isinstance(result.status, int) and result.status >= 400:
            badges = [(f"HTTP {result.status}", "error")]
    return FieldsView(
        **v,
        lead=action,
        asked=asked.rows,
        got=got.rows,
        badges=badges,
        summary=f"{action} {text_of(request.trigger_id) if request else ''}".strip(),
    )
