"""What a Codex tool's output says: the text the model read, the exit code, the duration.

Codex wrote command outputs in three ways over time:

* 2025 (``shell``): a JSON text ``{"output": "...", "metadata": {"exit_code": 0,
  "duration_seconds": 0.1}}``;
* late 2025 on (``shell``, ``shell_command``): ``Exit code: 0\\nWall time: 0.9 seconds\\n[Total
  output lines: N\\n]Output:\\n...``;
* ``exec_command`` and ``write_stdin``: ``[Command: ...\\n]Chunk ID: ...\\nWall time: ...\\n
  Process exited with code 0`` (or ``Process running with session ID 4``) ``\\nOriginal token
  count: N\\nOutput:\\n...``.

Failures Codex reports in words: ``exec command rejected by user`` (the person said no),
``failed in sandbox ...`` and ``error: ...`` (the tool failed), ``aborted`` (the turn stopped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

Outcome = Literal["ok", "error", "rejected", "interrupted"]

#: What Codex writes as a call's output when the person declined it.
REJECTED_OUTPUTS = ("exec command rejected by user", "patch rejected by user")
#: How an output that reports a failure of the tool itself begins.
_ERROR_STARTS = (
    "failed in sandbox",
    "error:",
    "Error:",
    "unsupported call",
    "failed to parse function arguments",
    "execution error",
    "command timed out",
)
_ABORTED = ("aborted", "aborted by user")
_HEADER = re.compile(
    r"(?P<key>Command|Chunk ID|Wall time|Exit code|Process exited with code|Process running with "
    r"session ID|Original token count|Total output lines)(?::| )\s*(?P<value>[^\n]*)\n"
)
#: The header's whole numbers, by the field each fills.
_COUNTS = {
    "Exit code": "exit_code",
    "Process exited with code": "exit_code",
    "Original token count": "original_token_count",
    "Total output lines": "total_output_lines",
}
_OUTPUT = "Output:\n"
_SECONDS = re.compile(r"(-?\d+(?:\.\d+)?)\s*seconds?")


@dataclass(slots=True)
class ReadOutput:
    """An output text taken apart: the text the command printed and what the header said."""

    text: str
    fields: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome = "ok"


def _number(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def _seconds(text: str) -> float | None:
    match = _SECONDS.search(text)
    return float(match.group(1)) if match else None


def _headed(text: str) -> ReadOutput | None:
    """An output with ``Key: value`` lines before ``Output:`` (``shell_command``,
    ``exec_command``), or ``None``."""
    position = 0
    fields: dict[str, Any] = {}
    while (match := _HEADER.match(text, position)) is not None:
        key, value = match.group("key"), match.group("value")
        if key == "Command":
            fields["command"] = value
        elif key in _COUNTS:
            number = _number(value)
            if number is not None:
                fields[_COUNTS[key]] = number
        elif key == "Wall time":
            seconds = _seconds(value)
            if seconds is not None:
                fields["duration_seconds"] = seconds
        elif key == "Process running with session ID":
            fields["session_id"] = value.strip()
            fields["status"] = "running"
        position = match.end()
    if not fields or not text.startswith(_OUTPUT, position):
        return None
    body = text[position + len(_OUTPUT) :]
    fields["output"] = body
    code = fields.get("exit_code")
    return ReadOutput(body, fields, "error" if isinstance(code, int) and code != 0 else "ok")


def _json_output(text: str) -> ReadOutput | None:
    """``{"output": ..., "metadata": {"exit_code": ..., "duration_seconds": ...}}``, or
    ``None``."""
    if not text.startswith('{"output"'):
        return None
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("output"), str):
        return None
    body: str = value["output"]
    fields: dict[str, Any] = {"output": body}
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        code = metadata.get("exit_code")
        if isinstance(code, int) and not isinstance(code, bool):
            fields["exit_code"] = code
        duration = metadata.get("duration_seconds")
        if isinstance(duration, int | float) and not isinstance(duration, bool):
            fields["duration_seconds"] = duration
    code = fields.get("exit_code")
    return ReadOutput(body, fields, "error" if isinstance(code, int) and code != 0 else "ok")


def words_outcome(text: str) -> Outcome:
    """The outcome a plain output text reports in words."""
    start = text[:200].lstrip()
    if start.startswith(REJECTED_OUTPUTS):
        return "rejected"
    if start.rstrip() in _ABORTED:
        return "interrupted"
    if start.startswith(_ERROR_STARTS):
        return "error"
    return "ok"


def read_output(text: str) -> ReadOutput:
    """``text`` (a call's output) taken apart."""
    found = _json_output(text) or _headed(text)
    if found is not None:
        if found.outcome == "ok" and words_outcome(found.text) == "rejected":
            found.outcome = "rejected"
        return found
    outcome = words_outcome(text)
    if outcome == "error" and text.lstrip().startswith("failed in sandbox"):
        return ReadOutput(text, {"sandbox_error": text.strip()}, outcome)
    return ReadOutput(text, {}, outcome)


def output_text(output: Any) -> tuple[str, list[tuple[str, str]]]:
    """The text of a call's ``output`` (a string, or a list of content parts) and the images in
    it as ``(media type, base64 data)``."""
    if isinstance(output, str):
        return output, []
    if isinstance(output, dict):
        for key in ("content", "text", "output"):
            if isinstance(output.get(key), str):
                return output[key], []
        return msgspec.json.encode(output).decode(), []
    if not isinstance(output, list):
        return ("" if output is None else msgspec.json.encode(output).decode()), []
    texts: list[str] = []
    images: list[tuple[str, str]] = []
    for part in output:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind in ("input_text", "output_text", "text") and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif kind in ("input_image", "image"):
            found = data_image(part.get("image_url"))
            if found is not None:
                images.append(found)
    return "\n".join(texts), images


def data_image(url: Any) -> tuple[str, str] | None:
    """``(media type, base64 data)`` of a ``data:image/...;base64,`` address, else ``None``."""
    if not isinstance(url, str) or not url.startswith("data:"):
        return None
    header, separator, data = url.partition(",")
    if not separator or ";base64" not in header:
        return None
    return header.removeprefix("data:").split(";", 1)[0] or "image/png", data
