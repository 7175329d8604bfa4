"""What is known about a subagent besides its transcript."""

from __future__ import annotations

from ..model.tools.agents import AgentCompletedResult, AgentInput
from ..readers.claude import Session, ToolCall


def subagent_type(agent: Session, call: ToolCall | None) -> str | None:
    """A subagent's type: from its ``.meta.json``, the Agent/Task input or the call's result."""
    found = (agent.agent_meta or {}).get("agentType")
    if not found and call is not None:
        spawn, result = call.input, call.result
        if isinstance(spawn, AgentInput) and spawn.subagent_type:
            found = spawn.subagent_type
        elif isinstance(result, AgentCompletedResult) and result.agent_type:
            found = result.agent_type
    return found if isinstance(found, str) and found else None


__all__ = ["subagent_type"]
