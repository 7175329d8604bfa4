"""Just enough of the shell grammar to match permission rules against a command line.

Claude Code checks each simple command of a compound one (``a && b``, ``a; b``, ``a | b``) on its
own, strips wrappers such as ``timeout`` and ``nohup`` before matching, and ignores harmless
output redirections (``2>&1``, ``> /dev/null``). This module splits and normalises commands the
same way. It never runs anything and never touches the disk.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache

_SEPARATORS = ("&&", "||", "|&", ";", "|", "&", "\n")
_REDIRECT = re.compile(r"(?:\d+|&)?(?:>>|>&|>\||>|<<<|<<-|<<|<&|<>|<)")
_QUOTED_HEREDOC_CAT = re.compile(
    r"""\s*cat\s*<<-?\s*(['"])([A-Za-z0-9_]+)\1[ \t]*\n.*\n[ \t]*\2\s*""", re.DOTALL
)
_ENV_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_DURATION = re.compile(r"\d+(?:\.\d+)?[smhd]?")
# Words that start or end a shell construct rather than name a command; dropping them lets
# `if make; then make test; fi` be checked as `make` and `make test`.
_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while"})
_KEYWORDS_UNTIL = frozenset({"until", "esac"})


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command of a command line, as written (quotes kept)."""

    text: str
    #: Whether it contains ``$(…)``, backticks or ``<(…)``: what runs is not in the text.
    has_substitution: bool = False


@dataclass(frozen=True)
class ParsedCommand:
    """A command line split into the simple commands that would run."""

    #: The top-level simple commands, in order.
    parts: tuple[SimpleCommand, ...]
    #: Simple commands inside command substitutions, which run too.
    nested: tuple[SimpleCommand, ...] = field(default=())


class _Unparseable(Exception):
    """Raised inside the scanner for unbalanced quotes or brackets; never leaves this module."""


class _Scanner:
    """Split a command line at top-level separators, keeping quotes and substitutions intact."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.index = 0
        self.parts: list[SimpleCommand] = []
        self.nested: list[SimpleCommand] = []
        self.current: list[str] = []
        self.current_has_substitution = False
        self.heredocs: list[tuple[str, bool]] = []

    def run(self) -> ParsedCommand:
        while self.index < len(self.text):
            self._top_level_step()
        self._finish_part()
        return ParsedCommand(parts=tuple(self.parts), nested=tuple(self.nested))

    def _peek(self, offset: int = 0) -> str:
        position = self.index + offset
        return self.text[position] if position < len(self.text) else ""

    def _take(self, count: int = 1) -> str:
        chunk = self.text[self.index : self.index + count]
        self.current.append(chunk)
        self.index += count
        return chunk

    def _finish_part(self) -> None:
        text = "".join(self.current).strip()
        if text:
            self.parts.append(SimpleCommand(text, self.current_has_substitution))
        self.current = []
        self.current_has_substitution = False

    def _top_level_step(self) -> None:
        char = self._peek()
        if char == "\n" and self.heredocs:
            self._take()
            self._heredoc_bodies()
            self._finish_part()
            return
        for separator in _SEPARATORS:
            if self.text.startswith(separator, self.index) and self._is_separator(separator):
                self.index += len(separator)
                self._finish_part()
                return
        if char in "()":
            # A subshell or group is transparent: its commands run like top-level ones.
            self.index += 1
            self._finish_part()
            return
        self._common_step()

    def _is_separator(self, separator: str) -> bool:
        if separator != "&":
            return True
        previous = self.text[self.index - 1] if self.index else ""
        # `2>&1`, `<&3` and `&>file` are redirections, not background jobs.
        return previous not in "<>" and self._peek(1) != ">"

    def _common_step(self) -> None:
        """Consume one token that means the same at top level and inside ``$(…)``."""
        char = self._peek()
        if char == "\\":
            self._take(2)
        elif char == "'":
            self._single_quoted()
        elif char == '"':
            self._double_quoted()
        elif char == "`":
            self._substitution(opening="`", closing="`")
        elif char in "$<>" and self._peek(1) == "(":
            self._substitution(opening=char + "(", closing=")")
        elif char == "<" and self.text.startswith("<<", self.index) and self._peek(2) != "<":
            self._heredoc_start()
        else:
            self._take()

    def _single_quoted(self) -> None:
        end = self.text.find("'", self.index + 1)
        if end == -1:
            raise _Unparseable
        self._take(end + 1 - self.index)

    def _double_quoted(self) -> None:
        self._take()
        while True:
            char = self._peek()
            if not char:
                raise _Unparseable
            if char == '"':
                self._take()
                return
            if char == "\\":
                self._take(2)
            elif char == "`":
                self._substitution(opening="`", closing="`")
            elif char == "$" and self._peek(1) == "(":
                self._substitution(opening="$(", closing=")")
            else:
                self._take()

    def _substitution(self, *, opening: str, closing: str) -> None:
        """Consume ``$(…)``, ``<(…)``, ``>(…)`` or backticks and record the commands inside."""
        self._take(len(opening))
        start = self.index
        depth = 1
        while True:
            char = self._peek()
            if not char:
                raise _Unparseable
            if closing == "`":
                if char == "\\":
                    self._take(2)
                    continue
                if char == "`":
                    break
                self._take()
                continue
            if char == ")":
                depth -= 1
                if depth == 0:
                    break
                self._take()
            elif char == "(":
                depth += 1
                self._take()
            elif char == "\n" and self.heredocs:
                self._take()
                self._heredoc_bodies()
            else:
                # Quotes, escapes and nested substitutions are consumed whole.
                self._common_step()
        body = self.text[start : self.index]
        self._take(len(closing))
        if opening == "$(" and _QUOTED_HEREDOC_CAT.fullmatch(body):
            # `"$(cat <<'EOF' … EOF)"` only pastes literal text (the quoted delimiter turns
            # off expansion); Claude Code writes commit messages this way.
            return
        self.current_has_substitution = True
        inner = parse_command(body)
        if inner is not None:
            self.nested.extend(inner.parts)
            self.nested.extend(inner.nested)

    def _heredoc_start(self) -> None:
        self._take(2)
        strip_tabs = self._peek() == "-"
        if strip_tabs:
            self._take()
        while self._peek() in (" ", "\t"):
            self._take()
        match = re.match(r"""(['"]?)\\?([A-Za-z0-9_.\-]+)\1""", self.text[self.index :])
        if match is None:
            return
        self._take(match.end())
        self.heredocs.append((match.group(2), strip_tabs))

    def _heredoc_bodies(self) -> None:
        """Consume the bodies of pending here-documents, which follow the current line."""
        for delimiter, strip_tabs in self.heredocs:
            while True:
                if self.index >= len(self.text):
                    raise _Unparseable
                end = self.text.find("\n", self.index)
                end = len(self.text) if end == -1 else end
                line = self.text[self.index : end]
                self._take(end - self.index + (1 if end < len(self.text) else 0))
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
        self.heredocs = []


@lru_cache(maxsize=8192)
def parse_command(command: str) -> ParsedCommand | None:
    """Split a command line into the simple commands that would run.

    Returns ``None`` when the line cannot be split safely (an unterminated quote or
    substitution): callers then match the line only as a whole. Each line is split once per
    process (the result is immutable): an audit asks for the same commands many times, for
    each rule it tries, the decision and the suggestions.
    """
    try:
        parsed = _Scanner(command).run()
    except _Unparseable:
        return None
    parts = tuple(
        cleaned for part in parsed.parts if (cleaned := _strip_keywords(part)) is not None
    )
    nested = tuple(
        cleaned for part in parsed.nested if (cleaned := _strip_keywords(part)) is not None
    )
    return ParsedCommand(parts=parts, nested=nested)


def _strip_keywords(part: SimpleCommand) -> SimpleCommand | None:
    text = part.text
    while True:
        head, _, rest = text.partition(" ")
        if head in _KEYWORDS or head in _KEYWORDS_UNTIL:
            text = rest.strip()
            continue
        break
    if not text:
        return None
    return SimpleCommand(text, part.has_substitution)


def split_words(text: str) -> list[str] | None:
    """Split a simple command into words as written (quotes kept), redirections on their own.

    ``echo hi>out.txt 2>&1`` gives ``["echo", "hi", ">", "out.txt", "2>&", "1"]``. Returns
    ``None`` for unbalanced quotes.
    """
    words: list[str] = []
    current: list[str] = []
    index = 0
    depth = 0
    quote = ""

    def flush() -> None:
        if current:
            words.append("".join(current))
            current.clear()

    while index < len(text):
        char = text[index]
        if quote:
            current.append(char)
            if char == "\\" and quote == '"' and index + 1 < len(text):
                current.append(text[index + 1])
                index += 2
                continue
            if char == quote:
                quote = ""
            index += 1
            continue
        if char == "\\" and index + 1 < len(text):
            current.append(text[index : index + 2])
            index += 2
            continue
        if char in "'\"`":
            quote = char
            current.append(char)
        elif char == "(" and depth >= 0 and current and current[-1].endswith("$"):
            depth += 1
            current.append(char)
        elif char == ")" and depth > 0:
            depth -= 1
            current.append(char)
        elif depth == 0 and char in " \t\n":
            flush()
        elif depth == 0 and (char in "<>" or (char == "&" and text[index + 1 : index + 2] == ">")):
            prefix = "".join(current)
            if prefix.isdigit() or prefix == "":
                current.clear()
            else:
                flush()
                prefix = ""
            match = _REDIRECT.match(prefix + text[index:])
            if match is None:  # pragma: no cover - the pattern matches any lone < or >
                current.append(char)
                index += 1
                continue
            words.append(match.group(0))
            index += match.end() - len(prefix)
            continue
        else:
            current.append(char)
        index += 1
    if quote:
        return None
    flush()
    return words


def is_redirect(word: str) -> bool:
    """Whether a word from :func:`split_words` is a redirection operator."""
    return _REDIRECT.fullmatch(word) is not None


def literal_word(word: str) -> str | None:
    """The value of a word with its quotes removed, or ``None`` if the shell would expand it."""
    if any(char in word for char in "$`*?[{~"):
        return None
    try:
        values = shlex.split(word)
    except ValueError:
        return None
    return values[0] if len(values) == 1 else None


def _is_harmless_redirect(operator: str, target: str) -> bool:
    """Output to /dev/null, a duplicated descriptor, or a plain file inside the directory."""
    if operator.endswith("&"):
        return target.isdigit() or target == "-"
    if not operator.rstrip("|").endswith(">"):
        return False  # Input redirections and here-documents are part of the command.
    value = literal_word(target)
    if value is None:
        return False
    if value in ("/dev/null", "/dev/stdout", "/dev/stderr"):
        return True
    return not value.startswith("/") and ".." not in value.split("/")


@dataclass(frozen=True)
class NormalizedCommand:
    """A simple command with wrappers and harmless redirections removed, ready to match."""

    text: str
    words: tuple[str, ...]
    #: An output redirection to a place that is not obviously harmless (``> /etc/x``).
    writes_elsewhere: bool


_WRAPPER_OPTIONS_WITH_VALUE: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "time": frozenset(),
    "nohup": frozenset(),
    "noglob": frozenset(),
}


def _strip_wrapper(words: list[str]) -> list[str] | None:
    """Remove one leading wrapper (``timeout 30``, ``nice -n 5``…); ``None`` if there is none."""
    if len(words) < 2:
        return None
    head = words[0]
    if head in ("command", "builtin", "xargs"):
        # `command -v git` asks a question rather than running git; `xargs -0 …` changes how
        # arguments arrive. Only the bare forms are transparent.
        return words[1:] if not words[1].startswith("-") else None
    options = _WRAPPER_OPTIONS_WITH_VALUE.get(head)
    if options is None:
        return None
    index = 1
    while index < len(words) and words[index].startswith("-") and words[index] != "--":
        option = words[index].split("=", 1)[0]
        takes_value = option in options and "=" not in words[index]
        index += 2 if takes_value else 1
    if index < len(words) and words[index] == "--":
        index += 1
    if head == "timeout":
        if index >= len(words) or not _DURATION.fullmatch(words[index]):
            return None
        index += 1
    rest = words[index:]
    return rest or None


def normalize_command(text: str, *, strip_environment: bool) -> NormalizedCommand | None:
    """Normalise a simple command for matching, or ``None`` for unbalanced quotes.

    Leading ``NAME=value`` assignments are removed only when ``strip_environment`` is true:
    Claude Code drops them before checking deny and ask rules (so ``X=1 rm -rf /`` still hits
    ``Bash(rm:*)``) but keeps them for allow rules (so ``PATH=/evil npm test`` is not
    ``Bash(npm test)``).
    """
    raw_words = split_words(text)
    if raw_words is None:
        return None
    words: list[str] = []
    writes_elsewhere = False
    index = 0
    while index < len(raw_words):
        word = raw_words[index]
        if is_redirect(word):
            target = raw_words[index + 1] if index + 1 < len(raw_words) else ""
            if _is_harmless_redirect(word, target):
                index += 2
                continue
            if ">" in word and not word.endswith("&"):
                writes_elsewhere = True
        words.append(word)
        index += 1
    while True:
        if strip_environment and words and _ENV_ASSIGNMENT.match(words[0]) and len(words) > 1:
            words = words[1:]
            continue
        stripped = _strip_wrapper(words)
        if stripped is None:
            break
        words = stripped
    return NormalizedCommand(" ".join(words), tuple(words), writes_elsewhere)
