"""The ``message`` object of user and assistant records, and token usage."""

from typing import Any

from ._base import UNSET, Int, Model, Opt, value
from .blocks import ContentBlock


class CacheCreation(Model):
    """Cache writes split by time to live."""

    ephemeral_5m_input_tokens: Opt[Int] = UNSET
    ephemeral_1h_input_tokens: Opt[Int] = UNSET


class ServerToolUse(Model):
    web_search_requests: Opt[Int] = UNSET
    web_fetch_requests: Opt[Int] = UNSET
    code_execution_requests: Opt[Int] = UNSET
    tool_search_requests: Opt[Int] = UNSET


class OutputTokensDetails(Model):
    thinking_tokens: Opt[Int] = UNSET


class UsageIteration(Model):
    """One model call inside a response that the API ran in several iterations."""

    type: Opt[str] = UNSET
    input_tokens: Opt[Int] = UNSET
    output_tokens: Opt[Int] = UNSET
    cache_read_input_tokens: Opt[Int] = UNSET
    cache_creation_input_tokens: Opt[Int] = UNSET
    cache_creation: Opt[CacheCreation] = UNSET


class Usage(Model):
    """Token usage of one API response, as the Messages API reports it."""

    input_tokens: Opt[Int] = UNSET
    output_tokens: Opt[Int] = UNSET
    cache_creation_input_tokens: Opt[Int] = UNSET
    cache_read_input_tokens: Opt[Int] = UNSET
    cache_creation: Opt[CacheCreation] = UNSET
    service_tier: Opt[str] = UNSET
    server_tool_use: Opt[ServerToolUse] = UNSET
    inference_geo: Opt[str] = UNSET
    speed: Opt[str] = UNSET
    iterations: Opt[list[UsageIteration]] = UNSET
    output_tokens_details: Opt[OutputTokensDetails] = UNSET

    @property
    def total_tokens(self) -> int:
        """Every token counted in this response: input, output, cache writes and reads."""
        return (
            value(self.input_tokens, 0)
            + value(self.output_tokens, 0)
            + value(self.cache_creation_input_tokens, 0)
            + value(self.cache_read_input_tokens, 0)
        )


class StopDetails(Model):
    type: Opt[str] = UNSET


class CacheMissReason(Model):
    type: Opt[str] = UNSET
    cache_missed_input_tokens: Opt[Int] = UNSET


class Diagnostics(Model):
    cache_miss_reason: Opt[CacheMissReason] = UNSET


class Message(Model):
    """The API message inside a user or assistant record."""

    role: Opt[str] = UNSET
    content: Opt[str | list[ContentBlock]] = UNSET
    id: Opt[str] = UNSET
    type: Opt[str] = UNSET
    model: Opt[str] = UNSET
    stop_reason: Opt[str] = UNSET
    stop_sequence: Opt[str] = UNSET
    stop_details: Opt[StopDetails] = UNSET
    usage: Opt[Usage] = UNSET
    context_management: Any = UNSET
    diagnostics: Opt[Diagnostics] = UNSET
    container: Any = UNSET

    @property
    def blocks(self) -> list[ContentBlock]:
        """The content as a list of blocks (a plain string content gives no blocks)."""
        return self.content if isinstance(self.content, list) else []
