"""Copilot CLI's token counts as the session model's usage, each counted once.

Copilot CLI reports a model call's tokens in an ``assistant.usage`` event that it emits but
does not write to the log (it is *ephemeral*); what the log keeps is, at the end of each run
(``session.shutdown``), the run's tokens per model (``modelMetrics``). So a Copilot session's
usage is one usage record per model and run, holding that run's totals, keyed by the shutdown
event's id and the model (a copy of the log counts it once): every surface counts it, prices
it and sums it like any response's, and shows it as such ("one response per model and run").
Where ``assistant.usage`` events are in the log (a log written with them), each is a response
of its own and that run's totals are not counted again.

The counts are the API's: ``inputTokens`` is the whole prompt (its cached part included),
``outputTokens`` the completion (reasoning included). As Messages-API usage: cache reads are
``cacheReadTokens``, cache writes ``cacheWriteTokens``, input the rest of the prompt, output
the completion with its reasoning kept apart (``output_tokens_details.thinking_tokens``).
"""

from __future__ import annotations

from typing import Any

from ...model import Usage
from ...model.messages import OutputTokensDetails


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def usage_of(
    input_tokens: Any, output_tokens: Any, cache_read: Any, cache_write: Any, reasoning: Any
) -> Usage:
    """Copilot's counts (prompt, completion, cached, cache writes, reasoning) as usage."""
    cached, written = _number(cache_read), _number(cache_write)
    usage = Usage(
        input_tokens=max(_number(input_tokens) - cached - written, 0),
        output_tokens=_number(output_tokens),
        cache_read_input_tokens=cached,
        cache_creation_input_tokens=written,
    )
    if _number(reasoning):
        usage.output_tokens_details = OutputTokensDetails(thinking_tokens=_number(reasoning))
    return usage


__all__ = ["usage_of"]
