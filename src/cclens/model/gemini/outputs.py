"""What Gemini CLI's tools told the model, read back into their parts.

A tool's result as the model saw it is the ``output`` of its ``functionResponse``: a text each
tool words its own way (``packages/core/src/tools/*.ts`` of google-gemini/gemini-cli). These
functions read those texts, old and new wordings alike; each returns ``None`` (or an empty
value) for a text it does not recognise, so a view falls back to the text itself.
"""

import json
import re
from dataclasses import dataclass, field
from typing import Any

#: The closing fields of a command's result, in the order gemini-cli writes them (each one
#: line, after the output).
_SHELL_TAIL = ("Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID")
_TAIL_KEY = re.compile(r"^(" + "|".join(_SHELL_TAIL) + r"): ?")
_NONE = ("(none)", "(empty)")


@dataclass
class ShellOutput:
    """A command's result: what it printed and how it ended (``None``: not said)."""

    output: str = ""
    stderr: str = ""
    command: str | None = None
    directory: str | None = None
    error: str | None = None
    exit_code: int | None = None
    signal: str | None = None
    background_pids: str | None = None
    process_group: str | None = None


def _value(text: str) -> str | None:
    value = text.strip("\n")
    return None if not value.strip() or value.strip() in _NONE else value


def shell_output(text: str) -> ShellOutput | None:
    """A ``run_shell_command`` result read into its fields; ``None`` when ``text`` is not one
    (a cancellation, a background start, an error before it ran).

    gemini-cli 0.1 wrote ``Command``, ``Directory``, ``Stdout``, ``Stderr``, then ``Error``,
    ``Exit Code``, ``Signal``, ``Background PIDs``, ``Process Group PGID`` (``(none)`` when
    empty); 0.2 to 0.11 one ``Output`` for both streams; later versions no ``Command`` or
    ``Directory`` and only the closing fields that have a value. The closing fields are read
    from the end up, each a line and in their order, so output above them stays output.
    """
    if not text.startswith(("Output:", "Stdout:", "Command:")):
        return None
    found = ShellOutput()
    lines = text.split("\n")
    tail: dict[str, str] = {}
    last = len(_SHELL_TAIL)
    while len(lines) > 1:
        match = _TAIL_KEY.match(lines[-1])
        if match is None or _SHELL_TAIL.index(match.group(1)) >= last:
            break
        last = _SHELL_TAIL.index(match.group(1))
        tail[match.group(1)] = lines.pop()[match.end() :]
    body = "\n".join(lines)
    if body.startswith("Command:"):
        command, marker, body = body.partition("\nDirectory: ")
        if not marker:
            return None
        found.command = command.removeprefix("Command:").strip()
        directory, _, body = body.partition("\n")
        found.directory = _value(directory)
    if body.startswith("Stdout:"):
        stdout, _, stderr = body.removeprefix("Stdout:").rpartition("\nStderr:")
        found.output = _value(stdout.lstrip(" ")) or ""
        found.stderr = _value(stderr.lstrip(" ")) or ""
    elif body.startswith("Output:"):
        found.output = _value(body.removeprefix("Output:").lstrip(" ")) or ""
    else:
        return None
    found.error = _value(tail.get("Error", ""))
    code = tail.get("Exit Code", "").strip()
    found.exit_code = int(code) if re.fullmatch(r"-?\d+", code) else None
    found.signal = _value(tail.get("Signal", ""))
    found.background_pids = _value(tail.get("Background PIDs", ""))
    found.process_group = _value(tail.get("Process Group PGID", ""))
    return found


_TRUNCATED = re.compile(
    r"\A\s*IMPORTANT: The file content has been truncated\.\n"
    r"Status: Showing lines (?P<start>\d+)-(?P<end>\d+) of (?P<total>\d+) total lines\.\n"
    r"(?:.*\n)*?--- FILE CONTENT \(truncated\) ---\n",
)


@dataclass
class FileText:
    """What ``read_file`` gave the model: the content, and the lines it covers when cut."""

    content: str
    start: int = 1
    end: int | None = None
    total: int | None = None


def file_text(text: str) -> FileText:
    """A ``read_file`` result without the notice gemini-cli puts before a cut file."""
    match = _TRUNCATED.match(text)
    if match is None:
        return FileText(text)
    return FileText(
        text[match.end() :],
        int(match.group("start")),
        int(match.group("end")),
        int(match.group("total")),
    )


_FOUND_FILES = re.compile(r"\AFound (\d+) (?:matching )?file\(s\)[^\n]*:\n")


def found_files(text: str) -> list[str] | None:
    """The paths a ``glob`` result lists (``Found N file(s) matching "..." within ...:``),
    ``None`` for another text (no files, an error)."""
    match = _FOUND_FILES.match(text)
    if match is None:
        return None
    return [line for line in text[match.end() :].split("\n") if line.strip()]


_LISTING = re.compile(r"\ADirectory listing for (?P<path>[^\n]*):\n")


def directory_listing(text: str) -> tuple[str, list[str]] | None:
    """The directory and entries of a ``list_directory`` result (``[DIR] name`` for a
    folder), ``None`` for another text."""
    match = _LISTING.match(text)
    if match is None:
        return None
    entries = [line for line in text[match.end() :].split("\n") if line.strip()]
    return match.group("path"), entries


@dataclass
class GrepText:
    """A ``grep_search`` result: its heading and matching lines by file."""

    heading: str = ""
    #: ``(file, line number, text, is context)`` in order.
    lines: list[tuple[str, int, str, bool]] = field(default_factory=list)


_GREP_LINE = re.compile(r"^L(?P<n>\d+)(?P<sep>[:-]) ?(?P<text>.*)$")


def grep_text(text: str) -> GrepText | None:
    """A ``grep_search``/``search_file_content`` result (``Found N matches for pattern ...``,
    then ``File: path`` sections of ``L12: line``, ``L13- context``), ``None`` for another
    text."""
    if not text.startswith("Found "):
        return None
    heading, _, rest = text.partition("\n")
    found = GrepText(heading.rstrip(":"))
    current = ""
    for line in rest.split("\n"):
        if line == "---" or not line:
            continue
        if line.startswith("File: "):
            current = line[len("File: ") :]
            continue
        match = _GREP_LINE.match(line)
        if match is None or not current:
            continue
        found.lines.append(
            (current, int(match.group("n")), match.group("text"), match.group("sep") == "-")
        )
    return found


_SOURCE = re.compile(r"^\[(?P<n>\d+)\] (?P<title>.*?)(?: \((?P<url>[^()\s]+)\))?$")


@dataclass
class SearchAnswer:
    """A ``google_web_search`` result: the grounded answer and its numbered sources."""

    answer: str
    #: ``(number, title, url)``.
    sources: list[tuple[int, str, str]] = field(default_factory=list)


def search_answer(text: str) -> SearchAnswer:
    """A ``google_web_search`` result read apart (``Web search results for "...":``, the answer,
    then ``Sources:`` and ``[n] title (url)`` lines)."""
    body = text
    if body.startswith("Web search results for "):
        body = body.partition("\n")[2].lstrip("\n")
    answer, marker, listed = body.rpartition("\n\nSources:\n")
    if not marker:
        return SearchAnswer(body)
    sources: list[tuple[int, str, str]] = []
    for line in listed.split("\n"):
        match = _SOURCE.match(line.strip())
        if match is not None:
            sources.append((int(match.group("n")), match.group("title"), match.group("url") or ""))
    return SearchAnswer(answer, sources)


_SUBAGENT = re.compile(
    r"\ASubagent '?(?P<name>[^'\n]*?)'? finished\.\n"
    r"(?:Termination Reason: (?P<reason>[^\n]*)\n)?Result:\n?",
)


@dataclass
class SubagentResult:
    """A subagent call's result: who ran, why it stopped and what it answered."""

    name: str
    reason: str
    answer: str


def subagent_result(text: str) -> SubagentResult | None:
    """A subagent call's result (``Subagent 'name' finished.``, ``Termination Reason: ...``,
    ``Result:``), ``None`` for another text."""
    match = _SUBAGENT.match(text)
    if match is None:
        return None
    reason = match.group("reason") or ""
    return SubagentResult(match.group("name"), reason, text[match.end() :].lstrip(" "))


def memory_saved(text: str) -> tuple[bool, str] | None:
    """A ``save_memory`` result (``{"success": true, "message": "..."}``): whether it was
    saved and what gemini-cli said; ``None`` for another text."""
    try:
        value: Any = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("success"), bool):
        return None
    message = value.get("message") or value.get("error")
    return value["success"], message if isinstance(message, str) else ""


def answers(text: str) -> dict[str, str] | None:
    """The answers of an ``ask_user`` result (``{"answers": {"0": "..."}}``, by question
    index), ``None`` when the user gave none."""
    try:
        value: Any = json.loads(text)
    except ValueError:
        return None
    found = value.get("answers") if isinstance(value, dict) else None
    if not isinstance(found, dict):
        return None
    return {str(key): answer for key, answer in found.items() if isinstance(answer, str)}


__all__ = [
    "FileText",
    "GrepText",
    "SearchAnswer",
    "ShellOutput",
    "SubagentResult",
    "answers",
    "directory_listing",
    "file_text",
    "found_files",
    "grep_text",
    "memory_saved",
    "search_answer",
    "shell_output",
    "subagent_result",
]
