"""Talking with the user: AskUserQuestion, notifications, messages, files, feedback, onboarding
and the end of a conversation."""

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ._spec import ToolSpec
from .generic import FreeformInput


class QuestionOption(Model):
    """One choice of a question."""

    label: Opt[str] = UNSET
    description: Opt[str] = UNSET
    preview: Opt[str] = UNSET


class Question(CamelModel):
    """One multiple-choice question."""

    question: Opt[str] = UNSET
    header: Opt[str] = UNSET
    options: Opt[list[QuestionOption]] = UNSET
    multi_select: Opt[bool] = UNSET


class Annotation(Model):
    """The user's notes on one question."""

    preview: Opt[str] = UNSET
    notes: Opt[str] = UNSET
    unanswered: Opt[str] = UNSET


class QuestionMetadata(Model):
    """Where a question comes from (for analytics)."""

    source: Opt[str] = UNSET


class AskUserQuestionInput(Model):
    """Input of ``AskUserQuestion``; early versions asked one free-text ``question``."""

    questions: Opt[list[Question]] = UNSET
    answers: Opt[dict[str, str]] = UNSET
    annotations: Opt[dict[str, Annotation]] = UNSET
    metadata: Opt[QuestionMetadata] = UNSET
    question: Opt[str] = UNSET


class AskUserQuestionResult(CamelModel):
    """Result of ``AskUserQuestion``: answers by question text (multi-select comma-joined)."""

    questions: Opt[list[Question]] = UNSET
    answers: Opt[dict[str, str]] = UNSET
    response: Opt[str] = UNSET
    annotations: Opt[dict[str, Annotation]] = UNSET
    afk_timeout_ms: Opt[Number] = UNSET


class PushNotificationInput(Model):
    """Input of ``PushNotification``."""

    message: Opt[str] = UNSET
    status: Opt[str] = UNSET


class PushNotificationResult(CamelModel):
    """Result of ``PushNotification``: where the notification went, or why it did not."""

    message: Opt[str] = UNSET
    push_sent: Opt[bool] = UNSET
    local_sent: Opt[bool] = UNSET
    disabled_reason: Opt[str] = UNSET
    sent_at: Opt[str] = UNSET
    has_focus: Opt[bool] = UNSET
    idle_sec: Opt[Number] = UNSET


class ReadNotificationsInput(Model):
    """Input of ``ReadNotifications`` (no fields)."""


class Notification(Model):
    """One notification queued for the session."""

    notification_id: Opt[str] = UNSET
    origin: Opt[str] = UNSET
    queued_at: Opt[str] = UNSET
    content: Opt[str] = UNSET
    arrived_at: Opt[str] = UNSET


class ReadNotificationsResult(Model):
    """Result of ``ReadNotifications``: the notifications drained from the queue."""

    notifications: Opt[list[Notification]] = UNSET
    remaining: Opt[Int] = UNSET
    read_at: Opt[str] = UNSET


class SendFeedbackInput(Model):
    """Input of ``SendFeedback``: a bug report or idea about Claude Code."""

    type: Opt[str] = UNSET
    title: Opt[str] = UNSET
    details: Opt[str] = UNSET
    area: Opt[str] = UNSET
    failure_mode: Opt[str] = UNSET
    task_category: Opt[str] = UNSET


class SendFeedbackResult(Model):
    """Result of ``SendFeedback``."""

    success: Opt[bool] = UNSET
    message: Opt[str] = UNSET


class ShowOnboardingRolePickerInput(Model):
    """Input of ``ShowOnboardingRolePicker`` (no fields)."""


class ShowOnboardingRolePickerResult(Model):
    """Result of ``ShowOnboardingRolePicker``: the role picked, or a dismissal."""

    role: Opt[str] = UNSET
    dismissed: Opt[bool] = UNSET


class OfferChromeSetupInput(Model):
    """Input of ``OfferChromeSetup``."""

    reason: Opt[str] = UNSET


class OfferChromeSetupResult(Model):
    """Result of ``OfferChromeSetup``."""

    outcome: Opt[str] = UNSET


class SendUserMessageInput(FreeformInput):
    """Input of ``SendUserMessage`` (no declared schema)."""


class SendUserFileInput(FreeformInput):
    """Input of ``SendUserFile`` (no declared schema)."""


class ShareOnboardingGuideInput(FreeformInput):
    """Input of ``ShareOnboardingGuide`` (no declared schema)."""


class EndConversationInput(FreeformInput):
    """Input of ``EndConversation`` (no declared schema)."""


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="AskUserQuestion",
        aliases=(),
        input_type=AskUserQuestionInput,
        result_type=AskUserQuestionResult,
        description="Ask the user multiple-choice questions",
        family="user",
    ),
    ToolSpec(
        name="PushNotification",
        aliases=(),
        input_type=PushNotificationInput,
        result_type=PushNotificationResult,
        description="Send the user a desktop or phone notification",
        family="user",
    ),
    ToolSpec(
        name="ReadNotifications",
        aliases=(),
        input_type=ReadNotificationsInput,
        result_type=ReadNotificationsResult,
        description="Read the notifications queued for this session",
        family="user",
    ),
    ToolSpec(
        name="SendUserMessage",
        aliases=(),
        input_type=SendUserMessageInput,
        result_type=None,
        description="Send the user a message outside the reply",
        family="user",
    ),
    ToolSpec(
        name="SendUserFile",
        aliases=(),
        input_type=SendUserFileInput,
        result_type=None,
        description="Send the user a file",
        family="user",
    ),
    ToolSpec(
        name="SendFeedback",
        aliases=(),
        input_type=SendFeedbackInput,
        result_type=SendFeedbackResult,
        description="File a bug report or idea about Claude Code",
        family="user",
    ),
    ToolSpec(
        name="ShowOnboardingRolePicker",
        aliases=(),
        input_type=ShowOnboardingRolePickerInput,
        result_type=ShowOnboardingRolePickerResult,
        description="Ask a new user for their role during onboarding",
        family="user",
    ),
    ToolSpec(
        name="ShareOnboardingGuide",
        aliases=(),
        input_type=ShareOnboardingGuideInput,
        result_type=None,
        description="Share an onboarding guide with the user",
        family="user",
    ),
    ToolSpec(
        name="OfferChromeSetup",
        aliases=(),
        input_type=OfferChromeSetupInput,
        result_type=OfferChromeSetupResult,
        description="Offer to connect the user's Chrome browser",
        family="user",
    ),
    ToolSpec(
        name="EndConversation",
        aliases=(),
        input_type=EndConversationInput,
        result_type=None,
        description="End the conversation",
        family="user",
    ),
)
