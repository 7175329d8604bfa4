"""What a Codex ``response_item`` holds: the items of the OpenAI Responses API, as Codex keeps them.

A ``response_item`` line's ``payload`` is one of these, tagged by its ``type`` (``message``,
``reasoning``, ``function_call``, ``function_call_output``, ``custom_tool_call``,
``custom_tool_call_output``, ``local_shell_call``, ``web_search_call``, ``image_generation_call``,
``tool_search_call``, ``tool_search_output``, ``ghost_snapshot``, ``compaction``...). The files of
mid-2025 write the same items bare, one per line, without the ``{timestamp, type, payload}``
wrapper. An item of a kind not known yet decodes as :class:`UnknownItem` with its raw JSON.

Source: ``codex-rs/protocol/src/models.rs`` (``ResponseItem``, ``ContentItem``) of openai/codex.
"""

from typing import Any, TypeAlias, Union

import msgspec

from .._base import RAW_KEY, UNKNOWN_TAG, UNSET, Model, Opt


class Unknown(Model):
    """Base of the ``Unknown…`` members: ``raw`` is the value's JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)

    @property
    def kind(self) -> str:
        """The value's own ``type``, or ``"(none)"``."""
        if isinstance(self.raw, dict):
            kind = self.raw.get("type")
            return str(kind) if kind is not None else "(none)"
        return "(not an object)"


# -- message content ---------------------------------------------------------------------------


class InputText(Model, tag="input_text"):
    text: Opt[str] = UNSET


class InputImage(Model, tag="input_image"):
    #: A ``data:`` URI or an address (``null`` in some trimmed files).
    image_url: Opt[str] = UNSET
    detail: Opt[str] = UNSET
    file_id: Opt[str] = UNSET


class OutputText(Model, tag="output_text"):
    text: Opt[str] = UNSET
    annotations: Any = UNSET
    logprobs: Any = UNSET


class UnknownContent(Unknown, tag=UNKNOWN_TAG):
    """A content part of a kind cclens does not know."""


ContentItem: TypeAlias = Union[InputText, InputImage, OutputText, UnknownContent]  # noqa: UP007


class SummaryText(Model, tag="summary_text"):
    text: Opt[str] = UNSET


class UnknownSummary(Unknown, tag=UNKNOWN_TAG):
    """A reasoning summary part of a kind cclens does not know."""


SummaryPart: TypeAlias = Union[SummaryText, UnknownSummary]  # noqa: UP007


class ReasoningText(Model, tag="reasoning_text"):
    text: Opt[str] = UNSET


class ReasoningPlainText(Model, tag="text"):
    text: Opt[str] = UNSET


class UnknownReasoningContent(Unknown, tag=UNKNOWN_TAG):
    """A reasoning content part of a kind cclens does not know."""


ReasoningContentPart: TypeAlias = Union[  # noqa: UP007
    ReasoningText, ReasoningPlainText, UnknownReasoningContent
]


# -- items ---------------------------------------------------------------------------------------


class Item(Model):
    """Base of every response item: the fields Codex may add to any of them."""

    id: Opt[str] = UNSET
    internal_chat_message_metadata_passthrough: Any = UNSET
    metadata: Any = UNSET

    @property
    def kind(self) -> str:
        """The item's ``type`` as written."""
        return str(self.__struct_config__.tag)


class MessageItem(Item, tag="message"):
    """A message: the user's input (and context Codex injects), the developer's instructions, or
    the assistant's answer. ``phase`` (``commentary``, ``final_answer``) marks newer answers."""

    role: Opt[str] = UNSET
    content: Opt[list[ContentItem]] = UNSET
    end_turn: Opt[bool] = UNSET
    phase: Opt[str] = UNSET

    @property
    def text(self) -> str:
        """The text parts joined."""
        parts = self.content if isinstance(self.content, list) else []
        return "\n\n".join(
            part.text
            for part in parts
            if isinstance(part, InputText | OutputText) and isinstance(part.text, str)
        )


class ReasoningItem(Item, tag="reasoning"):
    """The model's reasoning: readable ``summary`` parts, sometimes ``content``, and the full
    reasoning as ``encrypted_content`` only the API can read."""

    summary: Opt[list[SummaryPart]] = UNSET
    content: Opt[list[ReasoningContentPart]] = UNSET
    encrypted_content: Opt[str] = UNSET

    @property
    def summary_text(self) -> str:
        parts = self.summary if isinstance(self.summary, list) else []
        return "\n\n".join(
            part.text
            for part in parts
            if isinstance(part, SummaryText) and isinstance(part.text, str)
        )

    @property
    def content_text(self) -> str:
        parts = self.content if isinstance(self.content, list) else []
        return "\n\n".join(
            part.text
            for part in parts
            if isinstance(part, ReasoningText | ReasoningPlainText) and isinstance(part.text, str)
        )


class LocalShellCallItem(Item, tag="local_shell_call"):
    """A command the model ran with the built-in local shell tool (``action.command``)."""

    call_id: Opt[str] = UNSET
    status: Opt[str] = UNSET
    action: Any = UNSET


class FunctionCallItem(Item, tag="function_call"):
    """A call of a function tool (``shell``, ``exec_command``, ``update_plan``, an MCP tool...):
    ``arguments`` is the JSON text the model wrote."""

    name: Opt[str] = UNSET
    arguments: Any = UNSET
    call_id: Opt[str] = UNSET
    namespace: Opt[str] = UNSET


class FunctionCallOutputItem(Item, tag="function_call_output"):
    """The output of a function call: a string, or a list of content parts (text, images)."""

    call_id: Opt[str] = UNSET
    output: Any = UNSET
    name: Opt[str] = UNSET


class CustomToolCallItem(Item, tag="custom_tool_call"):
    """A call of a free-form tool (``apply_patch``): ``input`` is the raw text the model wrote."""

    call_id: Opt[str] = UNSET
    name: Opt[str] = UNSET
    input: Any = UNSET
    status: Opt[str] = UNSET


class CustomToolCallOutputItem(Item, tag="custom_tool_call_output"):
    call_id: Opt[str] = UNSET
    output: Any = UNSET
    name: Opt[str] = UNSET


class WebSearchCallItem(Item, tag="web_search_call"):
    """A web search the API ran for the model (``action``: ``search``, ``open_page``,
    ``find_in_page``)."""

    status: Opt[str] = UNSET
    action: Any = UNSET
    call_id: Opt[str] = UNSET


class ImageGenerationCallItem(Item, tag="image_generation_call"):
    status: Opt[str] = UNSET
    revised_prompt: Opt[str] = UNSET
    result: Opt[str] = UNSET


class ToolSearchCallItem(Item, tag="tool_search_call"):
    call_id: Opt[str] = UNSET
    status: Opt[str] = UNSET
    execution: Opt[str] = UNSET
    arguments: Any = UNSET


class ToolSearchOutputItem(Item, tag="tool_search_output"):
    call_id: Opt[str] = UNSET
    status: Opt[str] = UNSET
    execution: Opt[str] = UNSET
    tools: Any = UNSET


class GhostSnapshotItem(Item, tag="ghost_snapshot"):
    """A snapshot of the working tree Codex took (a git commit) so a turn can be undone."""

    ghost_commit: Any = UNSET


class CompactionItem(Item, tag="compaction"):
    """The history compacted by the API: only the API can read ``encrypted_content``."""

    encrypted_content: Opt[str] = UNSET
    summary: Any = UNSET


class CompactionSummaryItem(CompactionItem, tag="compaction_summary"):
    """The former name of :class:`CompactionItem`."""


class ContextCompactionItem(Item, tag="context_compaction"):
    encrypted_content: Opt[str] = UNSET
    summary: Any = UNSET


class CompactionTriggerItem(Item, tag="compaction_trigger"):
    reason: Any = UNSET


class AgentMessageItem(Item, tag="agent_message"):
    """A message between agents of a multi-agent thread."""

    author: Any = UNSET
    recipient: Any = UNSET
    content: Any = UNSET


class ConfigurationUpdateItem(Item, tag="configuration_update"):
    configuration: Any = UNSET


class AdditionalToolsItem(Item, tag="additional_tools"):
    tools: Any = UNSET


class UnknownItem(Unknown, tag=UNKNOWN_TAG):
    """A response item of a kind cclens does not know."""


#: Every kind of response item cclens knows (a mid-2025 file's line may be one, bare).
KnownItem: TypeAlias = Union[  # noqa: UP007
    MessageItem,
    ReasoningItem,
    LocalShellCallItem,
    FunctionCallItem,
    FunctionCallOutputItem,
    CustomToolCallItem,
    CustomToolCallOutputItem,
    WebSearchCallItem,
    ImageGenerationCallItem,
    ToolSearchCallItem,
    ToolSearchOutputItem,
    GhostSnapshotItem,
    CompactionItem,
    CompactionSummaryItem,
    ContextCompactionItem,
    CompactionTriggerItem,
    AgentMessageItem,
    ConfigurationUpdateItem,
    AdditionalToolsItem,
]

ResponseItem: TypeAlias = Union[KnownItem, UnknownItem]  # noqa: UP007

#: The items that are a tool call.
CALL_ITEMS: tuple[type[Item], ...] = (
    FunctionCallItem,
    CustomToolCallItem,
    LocalShellCallItem,
    WebSearchCallItem,
    ToolSearchCallItem,
    ImageGenerationCallItem,
)
#: The items that carry a call's output.
OUTPUT_ITEMS: tuple[type[Item], ...] = (
    FunctionCallOutputItem,
    CustomToolCallOutputItem,
    ToolSearchOutputItem,
)


__all__ = [
    "CALL_ITEMS",
    "OUTPUT_ITEMS",
    "AdditionalToolsItem",
    "AgentMessageItem",
    "CompactionItem",
    "CompactionSummaryItem",
    "CompactionTriggerItem",
    "ConfigurationUpdateItem",
    "ContentItem",
    "ContextCompactionItem",
    "CustomToolCallItem",
    "CustomToolCallOutputItem",
    "FunctionCallItem",
    "FunctionCallOutputItem",
    "GhostSnapshotItem",
    "ImageGenerationCallItem",
    "InputImage",
    "InputText",
    "Item",
    "KnownItem",
    "LocalShellCallItem",
    "MessageItem",
    "OutputText",
    "ReasoningContentPart",
    "ReasoningItem",
    "ReasoningPlainText",
    "ReasoningText",
    "ResponseItem",
    "SummaryPart",
    "SummaryText",
    "ToolSearchCallItem",
    "ToolSearchOutputItem",
    "Unknown",
    "UnknownContent",
    "UnknownItem",
    "UnknownReasoningContent",
    "UnknownSummary",
    "WebSearchCallItem",
]
