"""Load a Gemini CLI session: its recording, assembled, with its subagents under their calls."""

from __future__ import annotations

from pathlib import Path

from ...model.entries import Diagnostic
from ...model.session import Session, ToolCall
from .assemble import assemble_chat
from .chat import read_chat, read_chat_data
from .discover import ChatFileInfo, Located, Projects, locate, read_projects


def load_file(path: Path, where: Located, mtime: float = 0.0, data: bytes | None = None) -> Session:
    """The session in the recording at ``path`` (or in ``data``, its bytes), without
    subagents. Raises ``OSError`` only when the file cannot be read."""
    chat = read_chat(path) if data is None else read_chat_data(path, data)
    return assemble_chat(chat, where, mtime)


def load(info: ChatFileInfo, projects: Projects | None = None) -> Session:
    """The session of a recording found by :func:`.discover.discover`, subagents attached.

    A subagent recording that cannot be read is left out with a diagnostic on the session.
    """
    if projects is None:
        projects = read_projects(_home_of(info.path))
    where = locate(info, projects)
    session = load_file(info.path, where, info.mtime)
    if info.parent_session_id is not None:
        session.agent_id = session.session_id
        session.orphan = True
        session.parent_session_id = info.parent_session_id
    for sub in info.subagents:
        try:
            agent = load_file(sub.path, Located(info.project, where.cwd), sub.mtime)
        except OSError as error:
            session.diagnostics.append(Diagnostic(sub.path, 0, f"cannot read: {error}"))
            continue
        agent.agent_id = agent.session_id
        attach(session, agent)
        session.subagents.append(agent)
    return session


def attach(session: Session, agent: Session) -> bool:
    """Put ``agent`` under the call that ran it: the call recording its id (``agentId``,
    gemini-cli 0.38 and later), else the latest call without a subagent that started before
    it and whose result names it; ``False`` when none does (it stays a subagent of the
    session, under no call)."""
    calls = list(session.tool_calls.values())
    chosen: ToolCall | None = next(
        (
            call
            for call in calls
            if isinstance(call.raw_result, dict)
            and call.raw_result.get("agentId") == agent.agent_id
        ),
        None,
    )
    if chosen is None and agent.agent_id:
        chosen = next((c for c in calls if agent.agent_id in c.result_text), None)
    if chosen is None:
        return False
    agent.parent_tool_use_id = chosen.id
    chosen.subagents.append(agent)
    return True


def _home_of(path: Path) -> Path:
    """The Gemini CLI folder a recording lies in (``<home>/tmp/<project>/chats/...``)."""
    for parent in path.parents:
        if parent.name == "tmp":
            return parent.parent
    return path.parent
