"""Views of talking with the user: AskUserQuestion, EnterPlanMode, ExitPlanMode, SetGoal,
notifications, feedback and onboarding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.session import ToolCall
from ...model.tools import interaction, plans
from ..views import ViewHelpers
from ._common import Fields, as_type, base, fields_view, first_line, list_of, text_of

_REJECTION_REASON = "The user provided the following reason for the rejection:"


def _chosen(answer: str, labels: list[str]) -> tuple[set[str], str]:
    """The option labels an answer picked, and the rest of it (the user's own words).

    Multi-select answers join the labels with commas, and a label may itself hold a comma, so
    whole labels are matched first.
    """
    if not answer:
        return set(), ""
    if answer in labels:
        return {answer}, ""
    picked = {label for label in labels if label and label in answer}
    rest = answer
    for label in sorted(picked, key=len, reverse=True):
        rest = rest.replace(label, "")
    rest = rest.strip(" ,")
    return picked, rest


def prepare_ask_user_question(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """AskUserQuestion: each question with its options, the user's answers highlighted."""
    v = base(call, interaction.AskUserQuestionResult)
    request = as_type(call.input, interaction.AskUserQuestionInput)
    result: interaction.AskUserQuestionResult | None = v["r"]
    questions = list_of(result.questions if result else None) or list_of(
        request.questions if request else None
    )
    answers: dict[str, str] = {}
    notes: dict[str, interaction.Annotation] = {}
    for source in (request, result):
        if source is not None:
            answers.update(source.answers if isinstance(source.answers, dict) else {})
            notes.update(source.annotations if isinstance(source.annotations, dict) else {})
    rows: list[dict[str, Any]] = []
    for question in questions:
        if not isinstance(question, interaction.Question):
            continue
        text = text_of(question.question)
        answer = answers.get(text, "")
        options = [
            o for o in list_of(question.options) if isinstance(o, interaction.QuestionOption)
        ]
        picked, own = _chosen(answer, [text_of(o.label) for o in options])
        note = notes.get(text)
        rows.append(
            {
                "header": text_of(question.header),
                "text": text,
                "multi": question.multi_select is True,
                "options": [
                    {
                        "label": text_of(o.label),
                        "description": text_of(o.description),
                        "preview": text_of(o.preview),
                        "chosen": text_of(o.label) in picked,
                    }
                    for o in options
                ],
                "own": own,
                "answered": bool(answer),
                "notes": text_of(note.notes) if note else "",
            }
        )
    response = text_of(result.response) if result else ""
    legacy = text_of(request.question) if request else ""
    v.update(
        questions=rows,
        legacy=legacy,
        response=response,
        answered=result is not None,
        summary=first_line(rows[0]["text"] if rows else legacy),
    )
    return v


def prepare_enter_plan_mode(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """EnterPlanMode: the switch to planning, and what Claude Code said about it."""
    v = fields_view(call, plans.EnterPlanModeResult)
    result: plans.EnterPlanModeResult | None = v["r"]
    v.update(lead="Entered plan mode: explore and plan before changing anything", lead_code=False)
    if result is not None:
        v["outcome"] = text_of(result.message)
    return v


def prepare_exit_plan_mode(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ExitPlanMode: the plan as markdown, and whether the user approved it."""
    v = base(call, plans.ExitPlanModeResult)
    request = as_type(call.input, plans.ExitPlanModeInput)
    result: plans.ExitPlanModeResult | None = v["r"]
    plan = (text_of(result.plan) if result else "") or (text_of(request.plan) if request else "")
    state = ""
    feedback = ""
    if call.status == "rejected":
        state = "rejected"
        text = v["error"] or ""
        if _REJECTION_REASON in text:
            feedback = text.split(_REJECTION_REASON, 1)[1].strip()
            v["error"] = None
    elif result is not None and result.awaiting_leader_approval:
        state = "awaiting approval"
    elif call.status == "ok":
        state = "approved"
    got = Fields(h)
    if result is not None:
        got.add("Plan file", result.file_path, "code").add(
            "Edited by the user", result.plan_was_edited
        )
        got.add("Request", result.request_id, "code")
    allowed = [
        f"{text_of(item.tool)}: {text_of(item.prompt)}"
        for item in list_of(request.allowed_prompts if request else None)
        if isinstance(item, plans.AllowedPrompt)
    ]
    v.update(
        plan=plan,
        state=state,
        feedback=feedback,
        allowed=allowed,
        got=got.rows,
        summary=first_line(plan.lstrip("# ")) if plan else "",
    )
    return v


def prepare_set_goal(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """SetGoal: the condition that completes the session's goal."""
    v = fields_view(call, plans.SetGoalResult)
    request = as_type(call.input, plans.SetGoalInput)
    result: plans.SetGoalResult | None = v["r"]
    condition = (text_of(request.condition) if request else "") or (
        text_of(result.condition) if result else ""
    )
    v.update(
        body=h.markdown(condition) if condition else None,
        asked=Fields(h).add("Ask the user first", request.ask_user if request else None).rows,
        summary=first_line(condition),
    )
    if result is not None:
        v["outcome"] = "Goal set."
    return v


def prepare_push_notification(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """PushNotification: the message and where it was delivered (or why not)."""
    v = fields_view(call, interaction.PushNotificationResult)
    request = as_type(call.input, interaction.PushNotificationInput)
    result: interaction.PushNotificationResult | None = v["r"]
    message = text_of(request.message) if request else ""
    v.update(
        lead=message,
        lead_code=False,
        asked=Fields(h).add("Status", request.status if request else None).rows,
        summary=first_line(message),
    )
    if result is not None:
        got = Fields(h).add("Sent to the phone", result.push_sent)
        got.add("Shown on this computer", result.local_sent).add(
            "Not sent because", result.disabled_reason
        )
        got.add("At", result.sent_at).add("Terminal focused", result.has_focus)
        v["got"] = got.add("Idle for", result.idle_sec).rows
    return v


def prepare_read_notifications(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ReadNotifications: the notifications taken from the session's queue."""
    v = fields_view(call, interaction.ReadNotificationsResult)
    result: interaction.ReadNotificationsResult | None = v["r"]
    if result is not None:
        got = Fields(h)
        for item in list_of(result.notifications):
            if isinstance(item, interaction.Notification):
                label = " · ".join(
                    part for part in (text_of(item.origin), text_of(item.queued_at)) if part
                )
                got.add(label or "Notification", text_of(item.content))
        got.add("Still queued", result.remaining).add("Read at", result.read_at)
        v["got"] = got.rows
        if not list_of(result.notifications):
            v["outcome"] = "No notifications."
    return v


def prepare_send_feedback(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """SendFeedback: the bug report or idea, as filed."""
    v = fields_view(call, interaction.SendFeedbackResult)
    request = as_type(call.input, interaction.SendFeedbackInput)
    result: interaction.SendFeedbackResult | None = v["r"]
    title = text_of(request.title) if request else ""
    if request is not None:
        asked = Fields(h).add("Kind", request.type).add("Area", request.area)
        asked.add("Failure", request.failure_mode).add("Task", request.task_category)
        v.update(
            asked=asked.rows, body=h.markdown(text_of(request.details)) if request.details else None
        )
    if result is not None:
        v.update(outcome=text_of(result.message), got=Fields(h).add("Sent", result.success).rows)
    v.update(lead=title, lead_code=False, summary=title)
    return v


def prepare_onboarding_role(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """ShowOnboardingRolePicker: the role the user picked, or that they dismissed it."""
    v = fields_view(call, interaction.ShowOnboardingRolePickerResult)
    result: interaction.ShowOnboardingRolePickerResult | None = v["r"]
    v.update(lead="Asked the user for their role", lead_code=False)
    if result is not None:
        v["got"] = Fields(h).add("Role", result.role).add("Dismissed", result.dismissed).rows
    return v


def prepare_chrome_setup(call: ToolCall, h: ViewHelpers) -> Mapping[str, Any]:
    """OfferChromeSetup: why Chrome was offered, and what the user chose."""
    v = fields_view(call, interaction.OfferChromeSetupResult)
    request = as_type(call.input, interaction.OfferChromeSetupInput)
    result: interaction.OfferChromeSetupResult | None = v["r"]
    v.update(
        lead="Offered to connect Chrome",
        lead_code=False,
        asked=Fields(h).add("Why", request.reason if request else None).rows,
    )
    if result is not None:
        v["got"] = Fields(h).add("Outcome", result.outcome).rows
    return v
