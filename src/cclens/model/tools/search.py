"""Finding things: Glob, Grep, LSP and ToolSearch."""

from __future__ import annotations

import msgspec

from .._base import UNSET, CamelModel, Model, Opt
from ._spec import ToolSpec
from .generic import Number


class GlobInput(Model):
    """Input of ``Glob``: a pattern, and the directory to search (the cwd by default)."""

    pattern: str
    path: Opt[str] = UNSET


class GlobResult(CamelModel):
    """Result of ``Glob``: the matching paths, most recently modified first."""

    filenames: Opt[list[str]] = UNSET
    num_files: Opt[int] = UNSET
    duration_ms: Opt[Number] = UNSET
    truncated: Opt[bool] = UNSET
    total_matches: Opt[int] = UNSET
    count_is_complete: Opt[bool] = UNSET
    timed_out: Opt[bool] = UNSET


class GrepInput(Model):
    """Input of ``Grep`` (ripgrep); the ``-A``-style keys are spelled as on the command line."""

    pattern: str
    path: Opt[str] = UNSET
    glob: Opt[str] = UNSET
    output_mode: Opt[str] = UNSET
    before: Opt[int] = msgspec.field(default=UNSET, name="-B")
    after: Opt[int] = msgspec.field(default=UNSET, name="-A")
    context_short: Opt[int] = msgspec.field(default=UNSET, name="-C")
    context: Opt[int] = UNSET
    line_numbers: Opt[bool] = msgspec.field(default=UNSET, name="-n")
    case_insensitive: Opt[bool] = msgspec.field(default=UNSET, name="-i")
    only_matching: Opt[bool] = msgspec.field(default=UNSET, name="-o")
    type: Opt[str] = UNSET
    head_limit: Opt[int] = UNSET
    offset: Opt[int] = UNSET
    multiline: Opt[bool] = UNSET
    #: Old name of ``glob``.
    include: Opt[str] = UNSET
    #: Sent by some models instead of ``path``.
    file_path: Opt[str] = UNSET


class GrepResult(CamelModel):
    """Result of ``Grep``; which fields are set depends on ``mode`` (the output mode)."""

    mode: Opt[str] = UNSET
    num_files: Opt[int] = UNSET
    filenames: Opt[list[str]] = UNSET
    content: Opt[str] = UNSET
    num_lines: Opt[int] = UNSET
    num_matches: Opt[int] = UNSET
    total_files: Opt[int] = UNSET
    total_lines: Opt[int] = UNSET
    applied_limit: Opt[int] = UNSET
    applied_offset: Opt[int] = UNSET
    timed_out: Opt[bool] = UNSET


class LspInput(CamelModel):
    """Input of ``LSP``: a language-server operation at a position in a file."""

    operation: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    line: Opt[int] = UNSET
    character: Opt[int] = UNSET


class LspResult(CamelModel):
    """Result of ``LSP``: the operation's answer as text."""

    operation: Opt[str] = UNSET
    result: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    result_count: Opt[int] = UNSET
    file_count: Opt[int] = UNSET


class ToolSearchInput(Model):
    """Input of ``ToolSearch``: a query (or ``select:Name,…``) over the deferred tools."""

    query: Opt[str] = UNSET
    max_results: Opt[int] = UNSET


class ToolSearchResult(Model):
    """Result of ``ToolSearch``: the names of the tools it loaded."""

    matches: Opt[list[str]] = UNSET
    query: Opt[str] = UNSET
    total_deferred_tools: Opt[int] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="Glob",
        aliases=(),
        input_type=GlobInput,
        result_type=GlobResult,
        description="Find files whose path matches a glob pattern",
        family="search",
    ),
    ToolSpec(
        name="Grep",
        aliases=(),
        input_type=GrepInput,
        result_type=GrepResult,
        description="Search file contents with a regular expression (ripgrep)",
        family="search",
    ),
    ToolSpec(
        name="LSP",
        aliases=(),
        input_type=LspInput,
        result_type=LspResult,
        description="Ask a language server: definitions, references, hover, symbols",
        family="search",
    ),
    ToolSpec(
        name="ToolSearch",
        aliases=(),
        input_type=ToolSearchInput,
        result_type=ToolSearchResult,
        description="Find and load deferred tools by name or keyword",
        family="search",
    ),
)
