"""Finding things: Glob, Grep, LSP and ToolSearch."""

import msgspec

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ._spec import ToolSpec


class GlobInput(Model):
    """Input of ``Glob``: a pattern, and the directory to search (the cwd by default)."""

    pattern: str
    path: Opt[str] = UNSET


class GlobResult(CamelModel):
    """Result of ``Glob``: the matching paths, most recently modified first."""

    filenames: Opt[list[str]] = UNSET
    num_files: Opt[Int] = UNSET
    duration_ms: Opt[Number] = UNSET
    truncated: Opt[bool] = UNSET
    total_matches: Opt[Int] = UNSET
    count_is_complete: Opt[bool] = UNSET
    timed_out: Opt[bool] = UNSET


class GrepInput(Model):
    """Input of ``Grep`` (ripgrep); the ``-A``-style keys are spelled as on the command line."""

    pattern: str
    path: Opt[str] = UNSET
    glob: Opt[str] = UNSET
    output_mode: Opt[str] = UNSET
    before: Opt[Int] = msgspec.field(default=UNSET, name="-B")
    after: Opt[Int] = msgspec.field(default=UNSET, name="-A")
    context_short: Opt[Int] = msgspec.field(default=UNSET, name="-C")
    context: Opt[Int] = UNSET
    line_numbers: Opt[bool] = msgspec.field(default=UNSET, name="-n")
    case_insensitive: Opt[bool] = msgspec.field(default=UNSET, name="-i")
    only_matching: Opt[bool] = msgspec.field(default=UNSET, name="-o")
    type: Opt[str] = UNSET
    head_limit: Opt[Int] = UNSET
    offset: Opt[Int] = UNSET
    multiline: Opt[bool] = UNSET
    #: Old name of ``glob``.
    include: Opt[str] = UNSET
    #: Sent by some models instead of ``path``.
    file_path: Opt[str] = UNSET


class GrepResult(CamelModel):
    """Result of ``Grep``; which fields are set depends on ``mode`` (the output mode)."""

    mode: Opt[str] = UNSET
    num_files: Opt[Int] = UNSET
    filenames: Opt[list[str]] = UNSET
    content: Opt[str] = UNSET
    num_lines: Opt[Int] = UNSET
    num_matches: Opt[Int] = UNSET
    total_files: Opt[Int] = UNSET
    total_lines: Opt[Int] = UNSET
    applied_limit: Opt[Int] = UNSET
    applied_offset: Opt[Int] = UNSET
    timed_out: Opt[bool] = UNSET


class LspInput(CamelModel):
    """Input of ``LSP``: a language-server operation at a position in a file."""

    operation: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    line: Opt[Int] = UNSET
    character: Opt[Int] = UNSET


class LspResult(CamelModel):
    """Result of ``LSP``: the operation's answer as text."""

    operation: Opt[str] = UNSET
    result: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    result_count: Opt[Int] = UNSET
    file_count: Opt[Int] = UNSET


class ToolSearchInput(Model):
    """Input of ``ToolSearch``: a query (or ``select:Name,…``) over the deferred tools."""

    query: Opt[str] = UNSET
    max_results: Opt[Int] = UNSET


class ToolSearchResult(Model):
    """Result of ``ToolSearch``: the names of the tools it loaded."""

    matches: Opt[list[str]] = UNSET
    query: Opt[str] = UNSET
    total_deferred_tools: Opt[Int] = UNSET


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
