"""Attribute names of the OpenTelemetry GenAI semantic conventions that the traces use.

Names as in the semantic conventions registry (``gen_ai.*``, development status); the
``opentelemetry-semantic-conventions`` package only has them in a private ``_incubating``
module, so they are spelled out here, once. Attributes of cclens's own start with
``cclens.``.
"""

from __future__ import annotations

from typing import Final

OPERATION_NAME: Final = "gen_ai.operation.name"
PROVIDER_NAME: Final = "gen_ai.provider.name"
#: Deprecated name of ``gen_ai.provider.name``; still read by many backends.
SYSTEM: Final = "gen_ai.system"
CONVERSATION_ID: Final = "gen_ai.conversation.id"
AGENT_NAME: Final = "gen_ai.agent.name"
AGENT_ID: Final = "gen_ai.agent.id"
AGENT_DESCRIPTION: Final = "gen_ai.agent.description"
REQUEST_MODEL: Final = "gen_ai.request.model"
RESPONSE_MODEL: Final = "gen_ai.response.model"
RESPONSE_ID: Final = "gen_ai.response.id"
RESPONSE_FINISH_REASONS: Final = "gen_ai.response.finish_reasons"
USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
USAGE_OUTPUT_TOKENS: Final = "gen_ai.usage.output_tokens"
USAGE_CACHE_READ: Final = "gen_ai.usage.cache_read.input_tokens"
USAGE_CACHE_CREATION: Final = "gen_ai.usage.cache_creation.input_tokens"
TOOL_NAME: Final = "gen_ai.tool.name"
TOOL_CALL_ID: Final = "gen_ai.tool.call.id"
TOOL_TYPE: Final = "gen_ai.tool.type"
TOOL_DESCRIPTION: Final = "gen_ai.tool.description"
ERROR_TYPE: Final = "error.type"

# Content (opt-in in the conventions; sent redacted unless turned off).
INPUT_MESSAGES: Final = "gen_ai.input.messages"
OUTPUT_MESSAGES: Final = "gen_ai.output.messages"
TOOL_CALL_ARGUMENTS: Final = "gen_ai.tool.call.arguments"
TOOL_CALL_RESULT: Final = "gen_ai.tool.call.result"

#: Every attribute (on spans and events) that carries content from the transcript.
CONTENT_ATTRIBUTES: Final = frozenset(
    {
        INPUT_MESSAGES,
        OUTPUT_MESSAGES,
        TOOL_CALL_ARGUMENTS,
        TOOL_CALL_RESULT,
        "cclens.session.title",
        "cclens.session.cwd",
        "cclens.subagent.description",
        "cclens.event.text",
    }
)

# Values.
CHAT: Final = "chat"
EXECUTE_TOOL: Final = "execute_tool"
INVOKE_AGENT: Final = "invoke_agent"
ANTHROPIC: Final = "anthropic"
#: Claude Code runs its built-in tools itself, on the user's machine.
TOOL_TYPE_FUNCTION: Final = "function"
#: MCP tools run in a server outside the agent.
TOOL_TYPE_EXTENSION: Final = "extension"
AGENT: Final = "claude-code"
#: ``gen_ai.agent.name`` by agent (:data:`cclens.readers.agents.READERS`): Claude Code's is
#: ``claude-code``, another agent's its name (``codex``).
AGENT_NAMES: Final = {"claude": AGENT}


def agent_name(agent: str) -> str:
    """The ``gen_ai.agent.name`` of an agent's sessions."""
    return AGENT_NAMES.get(agent, agent)


SERVICE_NAME: Final = "claude-code"
MACHINE: Final = "cclens.machine"
