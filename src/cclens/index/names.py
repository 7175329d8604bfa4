"""What the index's search offers a command line's options: the kinds of documents, where a
document comes from, the time budget and the most hits shown. Defined here, apart from the
search and the extraction that use them, so that ``cclens search --help`` loads neither."""

from __future__ import annotations

from typing import Literal

DocumentKind = Literal["prompt", "assistant", "thinking", "tool_input", "tool_output"]
#: Every kind of content search can be narrowed to.
DOCUMENT_KINDS: tuple[DocumentKind, ...] = (
    "prompt",
    "assistant",
    "thinking",
    "tool_input",
    "tool_output",
)

#: The processor time one search may take by default (ranking and snippets), in seconds: with
#: SQLite's steps that cannot be interrupted (up to ~0.2 s), any search answers or refuses
#: within 1 s on a machine that is not busy with other work.
DEFAULT_SECONDS = 0.75
#: The most hits one search shows (each gets a snippet).
MAX_SHOWN = 1000

Origin = Literal["main", "subagent"]
ORIGINS: tuple[Origin, ...] = ("main", "subagent")

__all__ = ["DEFAULT_SECONDS", "DOCUMENT_KINDS", "MAX_SHOWN", "ORIGINS", "DocumentKind", "Origin"]
