"""Views of searches: Glob, Grep, LSP and ToolSearch."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...formats import plural
from ...model.blocks import ToolReferenceBlock
from ...model.session import ToolCall
from ...model.tools import search
from ..prepared import Field, PreparedView, TextPart, field_parts, text_part
from ..views import ViewHelpers
from ._common import Fields, as_type, base, int_of, list_of, millis, text_of

#: Grep output past this many lines (or lines past this length) is drawn without match marks.
MAX_MARKED_LINES = 3000
MAX_MARKED_LINE = 2000
# A group holding a quantifier that is itself repeated, like (a+)+: Python's backtracking engine
# can take exponential time on such patterns (ripgrep's cannot), so they are not re-run here.
_NESTED_QUANTIFIER = re.compile(r"\([^)]*[+*}][^)]*\)\s*[+*{]")
# "path:12:text" (a match), "path-12-text" (context), "12:text" (one file), or "path:text".
_NUMBERED = re.compile(r"^(?:(?P<file>.*?)(?P<fsep>[:-]))??(?P<n>\d+)(?P<sep>[:-])(?P<text>.*)$")
_COUNT = re.compile(r"^(?P<file>.*):(?P<count>\d+)$")
_FOUND = re.compile(r"^Found \d+ files?")


@dataclass
class GrepLine:
    """A line of Grep's content output, split into text and matched parts."""

    parts: list[tuple[str, bool]] = field(default_factory=list)
    number: str = ""
    file: str = ""
    context: bool = False
    separator: bool = False
    new_file: bool = False

    @property
    def text(self) -> str:
        """The line as grep printed it (``12:text``, ``12-context``), without its file."""
        if self.separator:
            return "--"
        number = f"{self.number}{'-' if self.context else ':'}" if self.number else ""
        return number + "".join(text for text, _ in self.parts)


def matcher(pattern: str, ignore_case: bool, multiline: bool) -> re.Pattern[str] | None:
    """``pattern`` compiled to mark matches, or ``None`` when it cannot be run safely here."""
    if not pattern or _NESTED_QUANTIFIER.search(pattern):
        return None
    flags = (re.IGNORECASE if ignore_case else 0) | (re.DOTALL if multiline else 0)
    try:
        return re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError, ValueError):
        return None


def marked(text: str, pattern: re.Pattern[str] | None) -> list[tuple[str, bool]]:
    """``text`` cut into (part, is_match) pairs."""
    if pattern is None or len(text) > MAX_MARKED_LINE:
        return [(text, False)]
    parts: list[tuple[str, bool]] = []
    position = 0
    for match in pattern.finditer(text):
        if match.end() == match.start():
            continue
        if match.start() > position:
            parts.append((text[position : match.start()], False))
        parts.append((match.group(0), True))
        position = match.end()
    if position < len(text):
        parts.append((text[position:], False))
    return parts or [(text, False)]


def grep_lines(content: str, pattern: re.Pattern[str] | None) -> list[GrepLine]:
    """Grep's content output as lines: file, line number, context or match, marked parts."""
    lines = content.split("\n")
    if len(lines) > MAX_MARKED_LINES:
        pattern = None
    out: list[GrepLine] = []
    last_file = ""
    for line in lines:
        if line == "--":
            out.append(GrepLine(separator=True))
            continue
        match = _NUMBERED.match(line)
        if match is None:
            out.append(GrepLine(parts=marked(line, pattern)))
            continue
        file = match.group("file") or ""
        out.append(
            GrepLine(
                parts=marked(match.group("text"), pattern),
                number=match.group("n"),
                file=file,
                context=match.group("sep") == "-",
                new_file=bool(file) and file != last_file,
            )
        )
        last_file = file or last_file
    return out


class GlobView(PreparedView, frozen=True, kw_only=True):
    """Files matched (``tools/glob.html``): the ``pattern`` and where (``path``), the
    ``files``, how many (``count``, of ``total`` when more matched) and how long it ``took``."""

    pattern: str = ""
    path: str = ""
    files: Sequence[str] = ()
    count: int = 0
    total: int | None = None
    took: str = ""

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.pattern, "Pattern"), *text_part("field", self.path, "In")]
        if self.r is not None or self.files:
            found = plural(self.count, "file")
            found += f" of {self.total}" if self.total and self.total != self.count else ""
            found += f" · {self.took}" if self.took else ""
            parts.append(TextPart("note", found, result=True))
            parts += text_part("result", "\n".join(self.files), result=True)
        return parts


def prepare_glob(call: ToolCall, h: ViewHelpers) -> GlobView:
    """Glob: the pattern and the files it matched."""
    v = base(call, search.GlobResult)
    request = as_type(call.input, search.GlobInput)
    result: search.GlobResult | None = v["r"]
    names = [
        name for name in list_of(result.filenames if result else None) if isinstance(name, str)
    ]
    notes: list[str] = []
    if result is not None:
        if result.truncated:
            notes.append("Truncated: more files matched than were returned.")
        if result.timed_out:
            notes.append("The search timed out; the list may be incomplete.")
    elif v["error"] is None and call.result_text and call.result_text != "No files found":
        names = [line for line in call.result_text.split("\n") if line.strip()]
    total = result.total_matches if result and result.total_matches else None
    return GlobView(
        **v,
        pattern=request.pattern if request else "",
        path=text_of(request.path) if request else "",
        files=names,
        count=(int_of(result.num_files) if result else None) or len(names),
        total=total,
        took=millis(result.duration_ms) if result else "",
        notes=notes,
        summary=request.pattern if request else "",
    )


class GrepView(PreparedView, frozen=True, kw_only=True):
    """A search in files (``tools/grep.html``): the ``pattern`` and its ``options``, then, by
    ``mode``, the ``files`` that match, the ``counts`` per file or the matching ``lines``
    (``empty``: it found nothing)."""

    pattern: str = ""
    options: Sequence[Field] = ()
    mode: str = ""
    files: Sequence[str] = ()
    counts: Sequence[tuple[str, str]] = ()
    lines: Sequence[GrepLine] = ()
    got: Sequence[Field] = ()
    empty: bool = False

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.pattern, "Pattern"), *field_parts(self.options)]
        if not (self.r is not None or self.files or self.lines or self.counts):
            return parts
        parts += field_parts(self.got, result=True)
        if self.counts:
            found = "\n".join(f"{file}: {count}" for file, count in self.counts)
        elif self.lines:
            found = "\n".join(
                f"{line.file}\n{line.text}" if line.new_file else line.text for line in self.lines
            )
        else:
            found = "\n".join(self.files) or ("No matches." if self.empty else "")
        return parts + text_part("result", found, result=True)


def prepare_grep(call: ToolCall, h: ViewHelpers) -> GrepView:
    """Grep: the search, then files, counts or matching lines with the matches marked."""
    v = base(call, search.GrepResult)
    request = as_type(call.input, search.GrepInput)
    result: search.GrepResult | None = v["r"]
    options = Fields()
    pattern = None
    if request is not None:
        options.add("In", text_of(request.path) or text_of(request.file_path), "code")
        options.add("Only files", text_of(request.glob) or text_of(request.include), "code")
        options.add("Type", request.type, "code").add("Mode", request.output_mode)
        context = request.context if int_of(request.context) is not None else request.context_short
        options.add("Context", context).add("Before", request.before).add("After", request.after)
        flags = [
            name
            for name, on in (
                ("ignore case", request.case_insensitive),
                ("line numbers", request.line_numbers),
                ("only matching", request.only_matching),
                ("multiline", request.multiline),
            )
            if on is True
        ]
        options.add("Options", flags).add("Limit", request.head_limit)
        options.add("Offset", request.offset)
        pattern = matcher(
            request.pattern, request.case_insensitive is True, request.multiline is True
        )
    mode = text_of(result.mode) if result else ""
    content = text_of(result.content) if result else ""
    names = [n for n in list_of(result.filenames if result else None) if isinstance(n, str)]
    if result is None and v["error"] is None and call.result_text:
        text = call.result_text
        if _FOUND.match(text):
            names, mode = text.split("\n")[1:], "files_with_matches"
        elif not text.startswith("No "):
            content, mode = text, "content"
    counts: list[tuple[str, str]] = []
    if mode == "count":
        for line in content.split("\n"):
            count = _COUNT.match(line)
            if count:
                counts.append((count.group("file"), count.group("count")))
    got = Fields()
    notes: list[str] = []
    if result is not None:
        got.add("Files", result.num_files if mode != "content" else None)
        got.add("Lines", result.num_lines).add("Matches", result.num_matches)
        got.add("Of files", result.total_files).add("Of lines", result.total_lines)
        if result.applied_limit:
            notes.append(f"Limited to {result.applied_limit} results.")
        if result.applied_offset:
            notes.append(f"Skipped the first {result.applied_offset} results.")
        if result.timed_out:
            notes.append("The search timed out; the results may be incomplete.")
    return GrepView(
        **v,
        pattern=request.pattern if request else "",
        options=options.rows,
        mode=mode or ("files_with_matches" if names else ""),
        files=names,
        counts=counts,
        lines=grep_lines(content, pattern) if content and not counts else [],
        got=got.rows,
        notes=notes,
        empty=result is not None and not names and not content,
        summary=request.pattern if request else "",
    )


class LspView(PreparedView, frozen=True, kw_only=True):
    """A language-server question (``tools/lsp.html``): the ``operation``, ``where``
    (``file:line:character``) and the ``answer``."""

    operation: str = ""
    where: str = ""
    answer: str = ""
    got: Sequence[Field] = ()

    def parts(self) -> list[TextPart]:
        parts = [
            *text_part("field", self.operation, "Operation"),
            TextPart("field", self.where, "At"),
        ]
        if self.r is not None:
            parts += field_parts(self.got, result=True)
            parts.append(TextPart("result", self.answer or "No answer.", result=True))
        return parts


def prepare_lsp(call: ToolCall, h: ViewHelpers) -> LspView:
    """LSP: the language-server question and its answer."""
    v = base(call, search.LspResult)
    request = as_type(call.input, search.LspInput)
    result: search.LspResult | None = v["r"]
    where = ""
    if request is not None and request.file_path:
        where = str(request.file_path)
        for position in (request.line, request.character):
            if int_of(position) is None:
                break
            where += f":{position}"
    got = Fields()
    if result is not None:
        got.add("Results", result.result_count).add("Files", result.file_count)
    operation = text_of(request.operation) if request else ""
    return LspView(
        **v,
        operation=operation or (text_of(result.operation) if result else ""),
        where=where,
        answer=text_of(result.result) if result else "",
        got=got.rows,
        summary=f"{operation} {where}".strip(),
    )


class ToolSearchView(PreparedView, frozen=True, kw_only=True):
    """Deferred tools looked up (``tools/tool_search.html``): the ``query``, at most ``limit``
    of them, the tools it loaded (``matches``) among ``deferred`` ones."""

    query: str = ""
    limit: int | None = None
    matches: Sequence[str] = ()
    answered: bool = False
    deferred: int | None = None

    def parts(self) -> list[TextPart]:
        parts = [*text_part("field", self.query, "Query")]
        parts += text_part("field", str(self.limit or ""), "At most")
        if self.answered:
            found = ", ".join(self.matches) or "No tools matched."
            parts.append(TextPart("result", found, result=True))
            searched = f"{self.deferred} deferred tools were searched." if self.deferred else ""
            parts += text_part("note", searched, result=True)
        return parts


def prepare_tool_search(call: ToolCall, h: ViewHelpers) -> ToolSearchView:
    """ToolSearch: the query and the deferred tools it loaded."""
    v = base(call, search.ToolSearchResult)
    request = as_type(call.input, search.ToolSearchInput)
    result: search.ToolSearchResult | None = v["r"]
    names = [n for n in list_of(result.matches if result else None) if isinstance(n, str)]
    block = call.result_block
    if result is None and block is not None and isinstance(block.content, list):
        # The model was sent tool_reference blocks naming the tools it can now call.
        names = [text_of(b.tool_name) for b in block.content if isinstance(b, ToolReferenceBlock)]
    query = text_of(request.query) if request else ""
    return ToolSearchView(
        **v,
        query=query,
        limit=int_of(request.max_results) if request else None,
        matches=[name for name in names if name],
        answered=result is not None or (block is not None and v["error"] is None),
        deferred=int_of(result.total_deferred_tools) if result else None,
        summary=query,
    )
