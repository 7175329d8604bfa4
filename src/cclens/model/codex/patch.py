"""Codex's patches, read: the ``*** Begin Patch`` text its ``apply_patch`` tool takes, and the
unified diffs its ``patch_apply_end`` event records.

The grammar is the one of ``codex-rs/apply-patch`` (openai/codex)::

    *** Begin Patch
    *** Add File: <path>          then lines "+..."
    *** Delete File: <path>
    *** Update File: <path>
    *** Move to: <path>           (optional, right after Update File)
    @@ [context]                  then lines " ...", "-...", "+...", and "*** End of File"
    *** End Patch

A patch's hunks carry no line numbers (only context); the recorded unified diffs do
(``@@ -12,3 +12,4 @@``). Hunks are given in the shape of Claude Code's ``structuredPatch``
(``lines`` with their ``+``/``-``/`` `` marks, ``oldStart``/``newStart`` only when known), so
one diff view draws both agents' edits.
"""

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FilePatch", "hunks_of_diff", "parse_patch", "patch_of_command"]

_BEGIN = "*** Begin Patch"
_END = "*** End Patch"
_HEADERS = (
    ("add", "*** Add File: "),
    ("delete", "*** Delete File: "),
    ("update", "*** Update File: "),
)
_MOVE = "*** Move to: "
_END_OF_FILE = "*** End of File"
_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(slots=True)
class FilePatch:
    """One file's part of a patch: ``kind`` is ``add``, ``delete`` or ``update``; ``hunks`` in
    the ``structuredPatch`` shape (``{"lines": [...]}``, with ``oldStart``/``newStart`` when
    the lines' numbers are known)."""

    kind: str
    path: str
    move_to: str = ""
    hunks: list[dict[str, Any]] = field(default_factory=list)

    @property
    def added(self) -> int:
        return sum(1 for h in self.hunks for line in h["lines"] if line.startswith("+"))

    @property
    def removed(self) -> int:
        return sum(1 for h in self.hunks for line in h["lines"] if line.startswith("-"))


def parse_patch(text: str) -> list[FilePatch]:
    """The files of an ``apply_patch`` text, in order (``[]`` when it is not one). Lines past
    the grammar are kept as context of the hunk they are in, never dropped."""
    if _BEGIN not in text:
        return []
    files: list[FilePatch] = []
    current: FilePatch | None = None
    lines: list[str] | None = None
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if line.strip() in (_BEGIN, _END):
            current, lines = (None, None) if line.strip() == _END else (current, lines)
            continue
        header = next(((kind, line[len(p) :]) for kind, p in _HEADERS if line.startswith(p)), None)
        if header is not None:
            current = FilePatch(header[0], header[1].strip())
            files.append(current)
            lines = None
            if current.kind == "add":
                lines = []
                current.hunks.append({"lines": lines})
            continue
        if current is None:
            continue
        if line.startswith(_MOVE):
            current.move_to = line[len(_MOVE) :].strip()
            continue
        if line.startswith("@@"):
            lines = []
            current.hunks.append({"lines": lines})
            continue
        if line == _END_OF_FILE:
            continue
        if lines is None:
            if not line:
                continue
            lines = []
            current.hunks.append({"lines": lines})
        if line.startswith(("+", "-", " ")):
            lines.append(line)
        elif line or current.kind != "add":
            lines.append(" " + line)
    for patch in files:
        patch.hunks = [h for h in patch.hunks if h["lines"]]
    return files


def hunks_of_diff(diff: str) -> list[dict[str, Any]]:
    """The hunks of a unified diff (``@@ -a,b +c,d @@`` headers), numbered."""
    hunks: list[dict[str, Any]] = []
    lines: list[str] | None = None
    for line in diff.split("\n"):
        match = _HUNK_HEADER.match(line)
        if match:
            lines = []
            hunks.append(
                {
                    "oldStart": max(1, int(match.group(1))),
                    "newStart": max(1, int(match.group(3))),
                    "lines": lines,
                }
            )
        elif lines is not None and line.startswith(("+", "-", " ", "\\")):
            lines.append(line)
        elif lines is not None and line and not line.startswith(("---", "+++")):
            lines.append(" " + line)
    return hunks


def patch_of_command(command: Any) -> str | None:
    """The patch of a command that runs ``apply_patch`` (how Codex applied patches through its
    shell tool before ``apply_patch`` was a tool of its own), else ``None``."""
    if isinstance(command, list) and len(command) >= 2 and all(isinstance(a, str) for a in command):
        if command[0] in ("apply_patch", "applypatch") and _BEGIN in command[1]:
            return str(command[1])
        script = str(command[-1])
        if command[0].endswith(("bash", "sh", "zsh")) and _BEGIN in script:
            start = script.find(_BEGIN)
            end = script.find(_END, start)
            if "apply_patch" in script[:start] and end > start:
                return script[start : end + len(_END)]
    return None
