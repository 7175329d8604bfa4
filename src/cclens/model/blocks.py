"""Content blocks of user and assistant messages, and of tool results.

Claude Code stores the Messages API content blocks as it received or sent them. Every block kind
the API defines has a type here; a block of a kind not known yet decodes as
:class:`UnknownBlock` and keeps its raw JSON.
"""

from typing import Any, TypeAlias, Union

import msgspec

from ._base import RAW_KEY, UNKNOWN_TAG, UNSET, Int, Model, Opt
from ._shape import known_tags


class Block(Model):
    """Base of every content block."""


class CacheControl(Model):
    type: Opt[str] = UNSET
    ttl: Opt[str] = UNSET


class Citation(Model):
    """A citation attached to a text block (document, web search or search result location)."""

    type: Opt[str] = UNSET
    cited_text: Opt[str] = UNSET
    document_index: Opt[Int] = UNSET
    document_title: Opt[str] = UNSET
    start_char_index: Opt[Int] = UNSET
    end_char_index: Opt[Int] = UNSET
    start_page_number: Opt[Int] = UNSET
    end_page_number: Opt[Int] = UNSET
    start_block_index: Opt[Int] = UNSET
    end_block_index: Opt[Int] = UNSET
    search_result_index: Opt[Int] = UNSET
    source: Opt[str] = UNSET
    title: Opt[str] = UNSET
    url: Opt[str] = UNSET
    encrypted_index: Opt[str] = UNSET
    file_id: Opt[str] = UNSET


class TextBlock(Block, tag="text"):
    text: str
    citations: Opt[list[Citation]] = UNSET
    cache_control: Opt[CacheControl] = UNSET
    #: Set by Claude Code on text inside tool results it produced itself.
    tool_name: Opt[str] = UNSET
    source: Opt[str] = UNSET


class ThinkingBlock(Block, tag="thinking"):
    """Extended thinking. ``thinking`` is empty when only the signature was kept."""

    thinking: str
    signature: Opt[str] = UNSET


class RedactedThinkingBlock(Block, tag="redacted_thinking"):
    data: Opt[str] = UNSET


class ToolCaller(Model):
    """Who issued a tool call (``direct`` or programmatic tool calling from code execution)."""

    type: Opt[str] = UNSET
    tool_id: Opt[str] = UNSET


class ToolUseBlock(Block, tag="tool_use"):
    """A tool call. ``input`` stays raw JSON here; :mod:`cclens.model.tools` types it by name."""

    name: str
    input: Any
    id: Opt[str] = UNSET
    caller: Opt[ToolCaller] = UNSET
    cache_control: Opt[CacheControl] = UNSET


class MediaSource(Model):
    """Where an image or document comes from: base64 data, a URL, a file id or plain text."""

    type: Opt[str] = UNSET
    media_type: Opt[str] = UNSET
    data: Opt[str] = UNSET
    url: Opt[str] = UNSET
    file_id: Opt[str] = UNSET
    content: Any = UNSET


class ImageBlock(Block, tag="image"):
    source: Opt[MediaSource] = UNSET
    cache_control: Opt[CacheControl] = UNSET


class DocumentBlock(Block, tag="document"):
    source: Opt[MediaSource] = UNSET
    title: Opt[str] = UNSET
    context: Opt[str] = UNSET
    citations: Any = UNSET
    cache_control: Opt[CacheControl] = UNSET


class ToolReferenceBlock(Block, tag="tool_reference"):
    """A deferred tool loaded by ToolSearch, inside a tool result."""

    tool_name: Opt[str] = UNSET


class SearchResultBlock(Block, tag="search_result"):
    source: Opt[str] = UNSET
    title: Opt[str] = UNSET
    content: Any = UNSET
    citations: Any = UNSET


class UnknownBlock(Block, tag=UNKNOWN_TAG):
    """A content block of a kind cclens does not know; ``raw`` is its JSON."""

    raw: Any = msgspec.field(default=None, name=RAW_KEY)

    @property
    def kind(self) -> str:
        """The block's own ``type`` value, or ``"(none)"``."""
        if isinstance(self.raw, dict):
            return str(self.raw.get("type", "(none)"))
        return "(not an object)"


#: What a tool result's list content may hold.
ResultContentBlock: TypeAlias = Union[  # noqa: UP007
    TextBlock,
    ImageBlock,
    DocumentBlock,
    ToolReferenceBlock,
    SearchResultBlock,
    UnknownBlock,
]


class ToolResultBlock(Block, tag="tool_result"):
    """The result of a tool call, as the model saw it."""

    tool_use_id: Opt[str] = UNSET
    content: Opt[str | list[ResultContentBlock]] = UNSET
    is_error: Opt[bool] = UNSET
    cache_control: Opt[CacheControl] = UNSET

    @property
    def text(self) -> str:
        """The result's text: the string content, or its text blocks joined."""
        if isinstance(self.content, str):
            return self.content
        if isinstance(self.content, list):
            return "\n".join(b.text for b in self.content if isinstance(b, TextBlock))
        return ""


class ServerToolUseBlock(Block, tag="server_tool_use"):
    """A tool the API ran itself (web search, web fetch, code execution)."""

    name: str
    input: Any
    id: Opt[str] = UNSET
    caller: Opt[ToolCaller] = UNSET


class _ServerToolResult(Block):
    tool_use_id: Opt[str] = UNSET
    content: Any = UNSET
    caller: Opt[ToolCaller] = UNSET


class WebSearchToolResultBlock(_ServerToolResult, tag="web_search_tool_result"):
    pass


class WebFetchToolResultBlock(_ServerToolResult, tag="web_fetch_tool_result"):
    pass


class CodeExecutionToolResultBlock(_ServerToolResult, tag="code_execution_tool_result"):
    pass


class BashCodeExecutionToolResultBlock(_ServerToolResult, tag="bash_code_execution_tool_result"):
    pass


class TextEditorCodeExecutionToolResultBlock(
    _ServerToolResult, tag="text_editor_code_execution_tool_result"
):
    pass


class ToolSearchToolResultBlock(_ServerToolResult, tag="tool_search_tool_result"):
    pass


class McpToolUseBlock(Block, tag="mcp_tool_use"):
    name: str
    input: Any
    id: Opt[str] = UNSET
    server_name: Opt[str] = UNSET


class McpToolResultBlock(Block, tag="mcp_tool_result"):
    tool_use_id: Opt[str] = UNSET
    is_error: Opt[bool] = UNSET
    content: Any = UNSET


class ContainerUploadBlock(Block, tag="container_upload"):
    file_id: Opt[str] = UNSET


class ModelRef(Model):
    model: Opt[str] = UNSET


class FallbackBlock(Block, tag="fallback"):
    """Claude Code switched models mid-response (for example after a refusal)."""

    from_: Opt[ModelRef] = msgspec.field(default=UNSET, name="from")
    to: Opt[ModelRef] = UNSET


#: Every block a message's content list may hold.
ContentBlock: TypeAlias = Union[  # noqa: UP007
    TextBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ToolResultBlock,
    ImageBlock,
    DocumentBlock,
    ToolReferenceBlock,
    SearchResultBlock,
    ServerToolUseBlock,
    WebSearchToolResultBlock,
    WebFetchToolResultBlock,
    CodeExecutionToolResultBlock,
    BashCodeExecutionToolResultBlock,
    TextEditorCodeExecutionToolResultBlock,
    ToolSearchToolResultBlock,
    McpToolUseBlock,
    McpToolResultBlock,
    ContainerUploadBlock,
    FallbackBlock,
    UnknownBlock,
]

#: The ``type`` value of every block kind the model knows.
BLOCK_KINDS: frozenset[str] = known_tags(ContentBlock)


def block_kind(block: ContentBlock) -> str:
    """The ``type`` of a block as it was written (an unknown block reports its own)."""
    if isinstance(block, UnknownBlock):
        return block.kind
    return str(block.__struct_config__.tag)
