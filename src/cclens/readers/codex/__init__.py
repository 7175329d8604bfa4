"""Codex CLI's rollout files to the session model: find threads, read their lines, assemble.

* :mod:`.discover`: ``$CODEX_HOME`` or ``~/.codex``, ``sessions/YYYY/MM/DD/`` and
  ``archived_sessions/``; subagent threads under the thread that spawned them;
* :mod:`.read`: each line typed (:mod:`cclens.model.codex`), with its byte offset;
* :mod:`.translate`: the lines as the session model's records (prompts, responses with their
  token counts, tool calls with their results and status, compactions, errors);
* :mod:`.assemble`: the session, subagent threads attached under their spawning calls;
* :mod:`.limits`: the plan-limit reports of ``token_count`` events;
* :mod:`.resume`: ``codex resume <id>`` and ``codex fork <id>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import lazy_names
from .discover import (
    codex_homes,
    group,
    is_rollout_name,
    looks_like_rollout,
    read_head,
    transcript_roots,
)

if TYPE_CHECKING:
    from .assemble import AGENT, assemble_read, load, records, whole_read
    from .limits import rate_limit_events
    from .read import CodexEntry, CodexRead, read_data, read_file
    from .resume import resume_argv
    from .translate import Thread

__all__ = [
    "AGENT",
    "CodexEntry",
    "CodexRead",
    "Thread",
    "assemble_read",
    "codex_homes",
    "group",
    "is_rollout_name",
    "load",
    "looks_like_rollout",
    "rate_limit_events",
    "read_data",
    "read_file",
    "read_head",
    "records",
    "resume_argv",
    "transcript_roots",
    "whole_read",
]

#: Reading, translating and assembling rollouts are imported when first used: telling a
#: Codex CLI file apart (:mod:`.discover`) is all the agent registry needs to load.
__getattr__ = lazy_names(
    __name__,
    {
        **dict.fromkeys(["AGENT", "assemble_read", "load", "records", "whole_read"], ".assemble"),
        "rate_limit_events": ".limits",
        **dict.fromkeys(["CodexEntry", "CodexRead", "read_data", "read_file"], ".read"),
        "resume_argv": ".resume",
        "Thread": ".translate",
    },
)
