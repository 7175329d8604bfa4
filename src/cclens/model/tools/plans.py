"""Planning: EnterPlanMode, ExitPlanMode (once ``exit_plan_mode``) and SetGoal."""

from .._base import UNSET, CamelModel, Model, Opt
from ._spec import ToolSpec


class EnterPlanModeInput(Model):
    """Input of ``EnterPlanMode`` (no fields)."""


class EnterPlanModeResult(Model):
    """Result of ``EnterPlanMode``."""

    message: Opt[str] = UNSET


class AllowedPrompt(Model):
    """A kind of command the plan asks permission for (deprecated)."""

    tool: Opt[str] = UNSET
    prompt: Opt[str] = UNSET


class ExitPlanModeInput(CamelModel):
    """Input of ``ExitPlanMode``: the plan (1.0.x), or, in current builds, where the plan file
    is (``planFilePath``) and the plan read from it."""

    plan: Opt[str] = UNSET
    plan_file_path: Opt[str] = UNSET
    allowed_prompts: Opt[list[AllowedPrompt]] = UNSET


class ExitPlanModeResult(CamelModel):
    """Result of ``ExitPlanMode``: the plan the user approved."""

    plan: Opt[str] = UNSET
    is_agent: Opt[bool] = UNSET
    file_path: Opt[str] = UNSET
    has_task_tool: Opt[bool] = UNSET
    plan_was_edited: Opt[bool] = UNSET
    awaiting_leader_approval: Opt[bool] = UNSET
    request_id: Opt[str] = UNSET


class SetGoalInput(Model):
    """Input of ``SetGoal``: a completion condition an evaluator can check."""

    condition: Opt[str] = UNSET
    ask_user: Opt[bool] = UNSET


class SetGoalResult(CamelModel):
    """Result of ``SetGoal``."""

    condition: Opt[str] = UNSET
    ask_user: Opt[bool] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="EnterPlanMode",
        aliases=(),
        input_type=EnterPlanModeInput,
        result_type=EnterPlanModeResult,
        description="Switch to plan mode: explore and plan before changing anything",
        family="plan",
    ),
    ToolSpec(
        name="ExitPlanMode",
        aliases=("exit_plan_mode",),
        input_type=ExitPlanModeInput,
        result_type=ExitPlanModeResult,
        description="Present the plan for approval and leave plan mode",
        family="plan",
    ),
    ToolSpec(
        name="SetGoal",
        aliases=(),
        input_type=SetGoalInput,
        result_type=SetGoalResult,
        description="Set (or propose) the condition that completes the session's goal",
        family="plan",
    ),
)
