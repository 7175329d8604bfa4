"""What a permission mode does with a tool call that no rule decides.

Claude Code's modes, as documented: ``default`` asks on first use of anything that is not
read-only; ``acceptEdits`` also accepts file edits (and ``mkdir``, ``touch``, ``mv``, ``cp``)
inside the working directories; ``plan`` asks like ``default`` while Claude is told not to
change anything; ``dontAsk`` denies whatever would have asked; ``bypassPermissions`` allows
everything except writes to protected directories; ``auto`` allows what a background safety
classifier accepts, which cannot be replayed here, so it is reported as allowed with that caveat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .shell import SimpleCommand, literal_word, normalize_command
from .tools import absolute_path, is_within
from .types import PermissionBehavior, PermissionMode

#: How a tool is treated when no rule decides.
ToolCategory: TypeAlias = Literal["free", "read", "edit", "shell", "other"]

# Writes here can break the repository or Claude Code's own configuration, so Claude Code asks
# even in bypassPermissions mode; Claude writes commands, agents and skills often enough that
# those three are exempt.
_PROTECTED_DIRECTORIES = frozenset({".git", ".claude", ".vscode", ".idea"})
_PROTECTED_EXEMPT = frozenset({"commands", "agents", "skills"})

#: Shell commands acceptEdits mode treats as file edits.
FILE_COMMANDS = frozenset({"mkdir", "touch", "mv", "cp"})

_AUTO_CAVEAT = (
    "auto mode lets Claude Code's safety classifier approve the call; the classifier is not "
    "replayed here"
)


@dataclass(frozen=True)
class WorkingDirectories:
    """The directories Claude may work in without asking: cwd, project, additional ones."""

    directories: tuple[str, ...]
    home: str

    def contains(self, path: str) -> bool:
        """Whether normalised absolute ``path`` is inside one of the directories."""
        return any(is_within(path, directory) for directory in self.directories)


def is_protected_path(path: str) -> bool:
    """Whether ``path`` goes through ``.git``, ``.claude``, ``.vscode`` or ``.idea``."""
    parts = path.split("/")
    for index, part in enumerate(parts[:-1]):
        if part in _PROTECTED_DIRECTORIES:
            following = parts[index + 1] if index + 1 < len(parts) else ""
            return not (part == ".claude" and following in _PROTECTED_EXEMPT)
    return False


def _literal_paths_inside(
    words: Sequence[str], *, cwd: str, directories: WorkingDirectories
) -> bool:
    arguments = [word for word in words if not word.startswith("-")]
    if not arguments:
        return False
    for word in arguments:
        value = literal_word(word)
        if value is None:
            return False
        if not directories.contains(absolute_path(value, cwd=cwd, home=directories.home)):
            return False
    return True


def is_navigation(part: SimpleCommand, *, cwd: str, directories: WorkingDirectories) -> bool:
    """Whether a simple command is ``cd`` into a working directory, which never asks."""
    normalized = normalize_command(part.text, strip_environment=False)
    if normalized is None or part.has_substitution or len(normalized.words) != 2:
        return False
    head, target = normalized.words
    return head == "cd" and _literal_paths_inside([target], cwd=cwd, directories=directories)


def is_file_command_inside(
    part: SimpleCommand, *, cwd: str, directories: WorkingDirectories
) -> bool:
    """Whether a simple command is ``mkdir``/``touch``/``mv``/``cp`` on working-dir paths."""
    normalized = normalize_command(part.text, strip_environment=False)
    if normalized is None or part.has_substitution or normalized.writes_elsewhere:
        return False
    words = normalized.words
    return (
        bool(words)
        and words[0] in FILE_COMMANDS
        and _literal_paths_inside(words[1:], cwd=cwd, directories=directories)
    )


@dataclass(frozen=True)
class ModeOutcome:
    """What a mode does with an undecided call, and why, in words."""

    behavior: PermissionBehavior
    explanation: str


@dataclass(frozen=True)
class _Situation:
    mode: PermissionMode
    tool_name: str
    #: For file tools: whether the target is inside the working directories.
    inside: bool
    #: For edit tools: whether the target is in a protected directory.
    protected: bool


def _free(situation: _Situation) -> ModeOutcome:
    return ModeOutcome("allow", f"{situation.tool_name} never asks for permission")


def _prompting(situation: _Situation, what: str) -> ModeOutcome:
    mode = situation.mode
    if mode == "bypassPermissions":
        return ModeOutcome("allow", f"bypassPermissions mode allows {what}")
    if mode == "auto":
        return ModeOutcome("allow", _AUTO_CAVEAT)
    if mode == "dontAsk":
        return ModeOutcome("deny", f"dontAsk mode denies {what} that no rule allows")
    if mode == "plan":
        return ModeOutcome("ask", f"plan mode asks before {what}, as default mode does")
    return ModeOutcome("ask", f"{mode} mode asks before {what}")


def _read(situation: _Situation) -> ModeOutcome:
    if situation.inside:
        return ModeOutcome("allow", "reading inside the working directories needs no permission")
    return _prompting(situation, "reading outside the working directories")


def _edit(situation: _Situation) -> ModeOutcome:
    mode = situation.mode
    if situation.protected and mode in ("bypassPermissions", "acceptEdits"):
        return ModeOutcome(
            "ask", f"{mode} mode still asks before writing to .git, .claude, .vscode or .idea"
        )
    if mode == "acceptEdits":
        if situation.inside:
            return ModeOutcome(
                "allow", "acceptEdits mode accepts file edits inside the working directories"
            )
        return ModeOutcome(
            "ask", "acceptEdits mode asks before editing outside the working directories"
        )
    return _prompting(situation, "editing files")


def _shell(situation: _Situation) -> ModeOutcome:
    return _prompting(situation, "running commands")


def _other(situation: _Situation) -> ModeOutcome:
    return _prompting(situation, f"using {situation.tool_name}")


_BY_CATEGORY: Mapping[ToolCategory, Callable[[_Situation], ModeOutcome]] = {
    "free": _free,
    "read": _read,
    "edit": _edit,
    "shell": _shell,
    "other": _other,
}


def mode_outcome(
    category: ToolCategory,
    *,
    mode: PermissionMode,
    tool_name: str,
    inside: bool = False,
    protected: bool = False,
) -> ModeOutcome:
    """What ``mode`` does with a call no rule decided, for a tool of ``category``."""
    return _BY_CATEGORY[category](_Situation(mode, tool_name, inside, protected))
