"""Views of talking with the user: AskUserQuestion, EnterPlanMode, ExitPlanMode, SetGoal,
notifications, feedback and onboarding."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ...model.session import ToolCall
from ...model.tools import interaction, plans
from ..prepared import Field, PreparedView, Prose, TextPart, field_parts, text_part
from ..views import ViewHelpers
from ._common import (
    Fields,
    FieldsView,
    as_type,
    base,
    fields_base,
    first_line,
    list_of,
    text_of,
    typed_fields,
)

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


class Choice(msgspec.Struct, frozen=True):
    """An option of a question: its ``label``, ``description``, ``preview``, and whether the
    user ``chosen`` it."""

    label: str
    description: str = ""
    preview: str = ""
    chosen: bool = False


class Question(msgspec.Struct, frozen=True):
    """A question put to the user: its ``header`` and ``text``, whether it took several
    answers (``multi``), its ``options``, the user's ``own`` answer (none of the options),
    whether it was ``answered`` and the user's ``notes``."""

    text: str
    options: Sequence[Choice] = ()
    header: str = ""
    multi: bool = False
    own: str = ""
    answered: bool = False
    notes: str = ""


class QuestionsView(PreparedView, frozen=True, kw_only=True):
    """Questions put to the user (``tools/ask_user_question.html``), the answers chosen;
    ``legacy``: a question of the old single-text shape; ``response``: the answer as text."""

    questions: Sequence[Question] = ()
    legacy: str = ""
    response: str = ""
    answered: bool = False

    def parts(self) -> list[TextPart]:
        answered = self.answered
        parts = [*text_part("markdown", self.legacy, "Question", result=answered)]
        for question in self.questions:
            parts.append(
                TextPart("field", question.text, question.header or "Question", result=answered)
            )
            for option in question.options:
                said = option.label + (f" — {option.description}" if option.description else "")
                parts.append(
                    TextPart(
                        "item", said, "completed" if option.chosen else "pending", result=answered
                    )
                )
            parts += text_part("field", question.own, "The user's own answer", result=answered)
            parts += text_part("field", question.notes, "Notes", result=answered)
        return parts + text_part("result", self.response, "Response", result=answered)


def prepare_ask_user_question(call: ToolCall, h: ViewHelpers) -> QuestionsView:
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
    rows: list[Question] = []
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
            Question(
                header=text_of(question.header),
                text=text,
                multi=question.multi_select is True,
                options=[
                    Choice(
                        text_of(o.label),
                        text_of(o.description),
                        text_of(o.preview),
                        text_of(o.label) in picked,
                    )
                    for o in options
                ],
                own=own,
                answered=bool(answer),
                notes=text_of(note.notes) if note else "",
            )
        )
    response = text_of(result.response) if result else ""
    legacy = text_of(request.question) if request else ""
    return QuestionsView(
        **v,
        questions=rows,
        legacy=legacy,
        response=response,
        answered=result is not None,
        summary=first_line(rows[0].text if rows else legacy),
    )


def prepare_enter_plan_mode(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """EnterPlanMode: the switch to planning, and what Claude Code said about it."""
    v = fields_base(call, plans.EnterPlanModeResult)
    result: plans.EnterPlanModeResult | None = v["r"]
    return FieldsView(
        **v,
        lead="Entered plan mode: explore and plan before changing anything",
        lead_code=False,
        outcome=text_of(result.message) if result else "",
    )


class PlanView(PreparedView, frozen=True, kw_only=True):
    """A plan put to the user (``tools/exit_plan_mode.html``): the ``plan`` (markdown), its
    ``state`` (approved, rejected, awaiting approval), the user's ``feedback`` on rejecting
    it, and the prompts it asks permission for (``allowed``)."""

    plan: str = ""
    state: str = ""
    feedback: str = ""
    allowed: Sequence[str] = ()
    got: Sequence[Field] = ()

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.state, "Plan")]
        parts += text_part("markdown", self.plan, "Plan") or [
            TextPart("note", "The plan was read from the plan file.")
        ]
        parts += [TextPart("field", item, "Asks permission for") for item in self.allowed]
        parts += text_part(
            "error", self.feedback, "The user's reason for rejecting it", result=True
        )
        return parts + field_parts(self.got, result=True)


def prepare_exit_plan_mode(call: ToolCall, h: ViewHelpers) -> PlanView:
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
    got = Fields()
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
    return PlanView(
        **v,
        plan=plan,
        state=state,
        feedback=feedback,
        allowed=allowed,
        got=got.rows,
        summary=first_line(plan.lstrip("# ")) if plan else "",
    )


def prepare_set_goal(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """SetGoal: the condition that completes the session's goal."""
    v, request, result = typed_fields(call, plans.SetGoalInput, plans.SetGoalResult)
    condition = (text_of(request.condition) if request else "") or (
        text_of(result.condition) if result else ""
    )
    return FieldsView(
        **v,
        body=Prose(condition) if condition else None,
        asked=Fields().add("Ask the user first", request.ask_user if request else None).rows,
        outcome="Goal set." if result is not None else "",
        summary=first_line(condition),
    )


def prepare_push_notification(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """PushNotification: the message and where it was delivered (or why not)."""
    v, request, result = typed_fields(
        call, interaction.PushNotificationInput, interaction.PushNotificationResult
    )
    message = text_of(request.message) if request else ""
    got = Fields()
    if result is not None:
        got.add("Sent to the phone", result.push_sent)
        got.add("Shown on this computer", result.local_sent).add(
            "Not sent because", result.disabled_reason
        )
        got.add("At", result.sent_at).add("Terminal focused", result.has_focus)
        got.add("Idle for", result.idle_sec)
    return FieldsView(
        **v,
        lead=message,
        lead_code=False,
        asked=Fields().add("Status", request.status if request else None).rows,
        got=got.rows,
        summary=first_line(message),
    )


def prepare_read_notifications(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """ReadNotifications: the notifications taken from the session's queue."""
    v = fields_base(call, interaction.ReadNotificationsResult)
    result: interaction.ReadNotificationsResult | None = v["r"]
    if result is None:
        return FieldsView(**v)
    got = Fields()
    for item in list_of(result.notifications):
        if isinstance(item, interaction.Notification):
            label = " · ".join(
                part for part in (text_of(item.origin), text_of(item.queued_at)) if part
            )
            got.add(label or "Notification", text_of(item.content))
    got.add("Still queued", result.remaining).add("Read at", result.read_at)
    outcome = "" if list_of(result.notifications) else "No notifications."
    return FieldsView(**v, got=got.rows, outcome=outcome)


def prepare_send_feedback(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """SendFeedback: the bug report or idea, as filed."""
    v, request, result = typed_fields(
        call, interaction.SendFeedbackInput, interaction.SendFeedbackResult
    )
    title = text_of(request.title) if request else ""
    asked = Fields()
    if request is not None:
        asked.add("Kind", request.type).add("Area", request.area)
        asked.add("Failure", request.failure_mode).add("Task", request.task_category)
    details = text_of(request.details) if request else ""
    return FieldsView(
        **v,
        lead=title,
        lead_code=False,
        asked=asked.rows,
        body=Prose(details) if details else None,
        outcome=text_of(result.message) if result else "",
        got=Fields().add("Sent", result.success).rows if result else [],
        summary=title,
    )


def prepare_onboarding_role(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """ShowOnboardingRolePicker: the role the user picked, or that they dismissed it."""
    v = fields_base(call, interaction.ShowOnboardingRolePickerResult)
    result: interaction.ShowOnboardingRolePickerResult | None = v["r"]
    got = Fields()
    if result is not None:
        got.add("Role", result.role).add("Dismissed", result.dismissed)
    return FieldsView(**v, lead="Asked the user for their role", lead_code=False, got=got.rows)


def prepare_chrome_setup(call: ToolCall, h: ViewHelpers) -> FieldsView:
    """OfferChromeSetup: why Chrome was offered, and what the user chose."""
    v, request, result = typed_fields(
        call, interaction.OfferChromeSetupInput, interaction.OfferChromeSetupResult
    )
    return FieldsView(
        **v,
        lead="Offered to connect Chrome",
        lead_code=False,
        asked=Fields().add("Why", request.reason if request else None).rows,
        got=Fields().add("Outcome", result.outcome).rows if result else [],
    )
