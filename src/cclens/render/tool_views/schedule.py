"""Views of prompts run later: CronCreate, CronDelete, CronList, ScheduleWakeup, RemoteTrigger."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any

from ...formats import duration
from ...model.session import ToolCall
from ...model.tools import schedule
from ..views import ViewHelpers
from ._common import (
    Fields,
    as_type,
    epoch,
    fields_view,
    list_of,
    number_of,
    text_of,
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


def prepare_cron_create(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """CronCreate: the schedule in words, the prompt it will run, when it fires next."""
    v = fields_view(call, schedule.CronCreateResult)
    request = as_type(call.input, schedule.CronCreateInput)
    result: schedule.CronCreateResult | None = v["r"]
    expression = text_of(request.cron) if request else ""
    words = (text_of(result.human_schedule) if result else "") or describe_cron(expression)
    asked = Fields(h).add("When", f"{words} (local time)" if words else "")
    if request is not None:
        asked.add("Repeats", request.recurring).add("Survives a restart", request.durable)
        asked.add("Prompt", request.prompt)
    v.update(lead=expression, asked=asked.rows, summary=words or expression)
    if result is not None:
        got = Fields(h).add("Job", result.id, "code").add("Next run", epoch(result.next_fire_at))
        for other in list_of(result.other_one_shots):
            if isinstance(other, schedule.OneShot):
                got.add("Also scheduled", f"{other.id}: {other.human_schedule} — {other.prompt}")
        v["got"] = got.rows
    return v


def prepare_cron_delete(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """CronDelete: which scheduled prompt was cancelled."""
    v = fields_view(call, schedule.CronDeleteResult)
    request = as_type(call.input, schedule.CronDeleteInput)
    result: schedule.CronDeleteResult | None = v["r"]
    job = text_of(request.id) if request else ""
    v.update(lead=job, summary=f"cancel {job}" if job else "")
    if result is not None:
        v["outcome"] = "Cancelled."
        v["got"] = Fields(h).add("Also ended the /loop wake-up", result.ended_loop_wakeup).rows
    return v


def prepare_cron_list(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """CronList: the scheduled prompts, each with its schedule in words."""
    v = fields_view(call, schedule.CronListResult)
    result: schedule.CronListResult | None = v["r"]
    jobs = []
    for job in list_of(result.jobs if result else None):
        if isinstance(job, schedule.CronJob):
            expression = text_of(job.cron)
            jobs.append(
                {
                    "id": text_of(job.id),
                    "cron": expression,
                    "when": text_of(job.human_schedule) or describe_cron(expression),
                    "prompt": text_of(job.prompt),
                    "recurring": job.recurring is True,
                    "durable": job.durable is True,
                    "next": epoch(job.next_fire_at),
                }
            )
    count = f"{len(jobs)} job" + ("" if len(jobs) == 1 else "s")
    v.update(jobs=jobs, summary=count if result is not None else "")
    return v


def prepare_schedule_wakeup(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ScheduleWakeup: when the loop runs next (or that it stops), and why."""
    v = fields_view(call, schedule.ScheduleWakeupResult)
    request = as_type(call.input, schedule.ScheduleWakeupInput)
    result: schedule.ScheduleWakeupResult | None = v["r"]
    delay = duration(number_of(request.delay_seconds)) if request else ""
    stop = bool(request and request.stop)
    asked = Fields(h)
    if request is not None:
        asked.add("Why", request.reason).add("Prompt", request.prompt).add(
            "Nothing to do", request.noop
        )
    v.update(
        lead="Stop the loop" if stop else (f"Wake up in {delay}" if delay else ""),
        lead_code=False,
        asked=asked.rows,
        summary="stop" if stop else (f"in {delay}" if delay else ""),
    )
    if result is not None:
        got = Fields(h).add("At", epoch(result.scheduled_for)).add("Stopped", result.stopped)
        if result.was_clamped:
            got.add("Delay changed to", duration(number_of(result.clamped_delay_seconds)))
        v["got"] = got.add("Wake-ups cancelled", result.cancelled_wakeups).rows
    return v


def prepare_remote_trigger(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """RemoteTrigger: the action on a cloud routine, the HTTP status and the response body."""
    v = fields_view(call, schedule.RemoteTriggerResult)
    request = as_type(call.input, schedule.RemoteTriggerInput)
    result: schedule.RemoteTriggerResult | None = v["r"]
    action = text_of(request.action) if request else ""
    asked = Fields(h)
    if request is not None:
        asked.add("Trigger", request.trigger_id, "code").add("Session", request.session_id, "code")
        asked.add("Cursor", request.cursor, "code").add("Body", request.body)
    v.update(
        lead=action,
        asked=asked.rows,
        summary=f"{action} {text_of(request.trigger_id) if request else ''}".strip(),
    )
    if result is not None:
        body: Any = text_of(result.json)
        with contextlib.suppress(ValueError):
            body = json.loads(body) if body else body
        got = Fields(h).add("HTTP status", result.status).add("Summary", result.summary)
        v["got"] = got.add("Response", body).rows
        if isinstance(result.status, int) and result.status >= 400:
            v["badges"] = [(f"HTTP {result.status}", "error")]
    return v
