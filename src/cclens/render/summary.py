"""What a folded tool row says the call did: :class:`ToolSummary`, one per call, from its view.

Every tool's view (:class:`cclens.render.views.ToolView`) may name a ``summarize`` function:
``summarize(call) -> ToolSummary``, worked out from the call's *typed* input (the
:mod:`cclens.model.tools` types, never dictionary keys), cheap enough to run for every row of
a page (a page draws every call folded, and only opened ones run the view's ``prepare``).
:func:`cclens.render.tool_views.tool_summary` picks the view's, and every output draws the
same summary: the page's
folded row (``tools/_frame.html``: the argument in monospace, the note beside it), the
terminal (``cclens show``) and Markdown (``cclens export -f md``) as one line
(:meth:`ToolSummary.line`).

A summary has three parts, each one line of untrusted text (templates escape it):

* ``argument``: what the call acted on, shown in monospace: a command's first line, a glob or
  grep pattern, a file, a URL, a subagent's type, an MCP call's first argument;
* ``label``: a word before the argument when it needs naming (an MCP argument's key);
* ``note``: words beside it: a command's description, where a search looked, a line range,
  a subagent's task.

To give a new tool (another agent's) a summary: write ``summarize_<tool>(call)`` next to its
``prepare`` and pass it to the view (``ToolView(..., summarize=summarize_<tool>)``). A view
without one gets :func:`fallback_summary` (the input's first telling string field).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from ..model.session import ToolCall

__all__ = ["SUMMARY_LENGTH", "ToolSummary", "fallback_summary", "first_line", "one_line"]

#: The longest argument or note a row shows (the rest is cut with "…").
SUMMARY_LENGTH = 140


def one_line(text: str, limit: int = SUMMARY_LENGTH) -> str:
    """``text`` on one line (runs of white space made one space), cut to ``limit``."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def first_line(text: str, limit: int = SUMMARY_LENGTH) -> str:
    """The first non-blank line of ``text``, with "…" when more lines follow."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    line = one_line(lines[0], limit)
    return line + " …" if len(lines) > 1 and not line.endswith("…") else line


class ToolSummary(msgspec.Struct, frozen=True):
    """What a folded tool row says: ``argument`` (monospace), ``label`` before it, ``note``
    beside it (see the module's docstring). Every part is one line, already cut."""

    argument: str = ""
    note: str = ""
    label: str = ""

    @classmethod
    def of(cls, argument: str = "", note: str = "", label: str = "") -> ToolSummary:
        """A summary of these texts, each made one line and cut (an argument keeps only its
        first line: a command's first line stands for the command)."""
        return cls(first_line(argument), one_line(note), one_line(label, 40))

    def __bool__(self) -> bool:
        return bool(self.argument or self.note)

    def line(self) -> str:
        """The summary as one line of plain text (terminal, Markdown): ``label argument —
        note``."""
        head = f"{self.label} {self.argument}".strip() if self.argument else ""
        if head and self.note:
            return f"{head} — {self.note}"
        return head or self.note


#: Input fields that say best what a call did, in order of preference, for tools without a
#: typed summary (unknown tools, other agents' tools not described yet).
_FALLBACK_KEYS = (
    "command",
    "file_path",
    "notebook_path",
    "path",
    "pattern",
    "url",
    "query",
    "description",
    "subject",
    "skill",
    "task_id",
    "taskId",
    "shell_id",
    "bash_id",
    "prompt",
    "plan",
    "cron",
    "script",
)
_CODE_KEYS = frozenset({"command", "file_path", "notebook_path", "path", "pattern", "url"})


def fallback_summary(call: ToolCall) -> ToolSummary:
    """The summary of a call whose view has none: its tool's own wording from the typed input
    (:attr:`~cclens.model.tools.ToolSpec.summary`, in monospace: a command, a path, a query),
    else its input's first telling string (in monospace when it is a command, path, pattern or
    URL)."""
    worded = call.spec.summary
    if worded is not None:
        said = worded(call.input)
        if said.strip():
            return ToolSummary.of(argument=said)
    raw = call.block.input
    if not isinstance(raw, Mapping):
        return ToolSummary()
    for key in _FALLBACK_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            if key in _CODE_KEYS:
                return ToolSummary.of(argument=value)
            return ToolSummary.of(note=value)
    return ToolSummary()
