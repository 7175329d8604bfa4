"""Lines too large to hold twice: read in chunks, their long strings decoded piece by piece.

Decoding a line with msgspec holds the line's bytes, a scratch copy of each string that has
escapes in it (``\\n`` in a tool's output) and the decoded string at once: three times a
200 MB line. A line of :data:`LARGE_LINE` bytes or more is read here in chunks instead: every
string of :data:`LONG_STRING` bytes or more is decoded as it is read, a window at a time, and
replaced in the line by a marker; the rest of the line (its skeleton, small) is decoded as any
other line and the strings are put back where the markers are. Memory then holds the decoded
strings, never the line itself.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

import msgspec

from ._depth import has_lone_surrogate, replace_lone_surrogates
from ._shape import layout

if TYPE_CHECKING:
    from ._convert import Decoded

T = TypeVar("T")

#: A line at least this long is read in chunks.
LARGE_LINE = 16 << 20
#: A string at least this long (in bytes, escaped) is decoded apart from its line.
LONG_STRING = 1 << 20
_CHUNK = 8 << 20
_WINDOW = 8 << 20
_BACKSLASH = 0x5C
# The longest escape (``\uXXXX``); a surrogate pair is two of them.
_ESCAPE = 6
_HIGH_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}$")
_HEAD = 80


class LargeLine(msgspec.Struct):
    """A line read in chunks: its skeleton, its long strings, and where it ended."""

    #: The line's JSON with each long string replaced by ``"<marker>:<number>"``.
    skeleton: bytes
    #: The long strings, decoded, by number.
    strings: list[str]
    marker: str
    #: Bytes read, the line end included.
    size: int
    newline: bool
    #: The line's first bytes (for a diagnostic's excerpt).
    head: bytes
    #: Why the line is not JSON, when a string could not be decoded or never ended.
    error: str | None = None
    #: A long string held lone UTF-16 surrogate escapes, read as U+FFFD (see
    #: :func:`cclens.model.replace_lone_surrogates`).
    repaired: bool = False

    @property
    def length(self) -> int:
        """The line's length without its line end."""
        length = self.size - self.newline
        if self.newline and self.skeleton.endswith(b"\r"):
            length -= 1
        return length


class _Splitter(msgspec.Struct):
    marker: str
    skeleton: bytearray = msgspec.field(default_factory=bytearray)
    strings: list[str] = msgspec.field(default_factory=list)
    inside: bool = False
    #: The current string's bytes not decoded yet (after its opening quote).
    content: bytearray = msgspec.field(default_factory=bytearray)
    #: The current string decoded so far, once it is long (a list holding at most one string,
    #: so that appending to it grows it in place rather than copying it: see :meth:`_append`).
    pieces: list[str] | None = None
    #: Whether the backslashes that end the content read so far are odd (an escape is open).
    odd: bool = False
    error: str | None = None
    repaired: bool = False

    def feed(self, chunk: bytes) -> None:
        position = 0
        size = len(chunk)
        while position < size:
            if not self.inside:
                quote = chunk.find(b'"', position)
                if quote == -1:
                    self.skeleton += chunk[position:]
                    return
                self.skeleton += chunk[position:quote]
                self.inside, self.odd, self.pieces = True, False, None
                self.content = bytearray()
                position = quote + 1
                continue
            end = self._closing(chunk, position)
            if end == -1:
                self._add(chunk, position, size)
                return
            self._add(chunk, position, end)
            self._close()
            position = end + 1

    def _closing(self, chunk: bytes, position: int) -> int:
        """Where the quote ending the current string is in ``chunk`` (``-1``: not there)."""
        search = position
        while True:
            quote = chunk.find(b'"', search)
            if quote == -1:
                return -1
            start = quote
            while start > position and chunk[start - 1] == _BACKSLASH:
                start -= 1
            odd = (quote - start) % 2 == 1
            if start == position and self.odd:
                odd = not odd
            if not odd:
                return quote
            search = quote + 1

    def _add(self, chunk: bytes, start: int, end: int) -> None:
        if start == end:
            return
        self.content += memoryview(chunk)[start:end]
        run_start = end
        while run_start > start and chunk[run_start - 1] == _BACKSLASH:
            run_start -= 1
        run = (end - run_start) % 2 == 1
        self.odd = (self.odd != run) if run_start == start else run
        if self.pieces is None and len(self.content) >= LONG_STRING:
            self.pieces = []
        if self.pieces is not None and len(self.content) >= _WINDOW:
            self._decode(final=False)

    def _decode(self, *, final: bool) -> None:
        """Decode the content read so far (all of it, or up to a place no escape spans)."""
        assert self.pieces is not None
        content = self.content
        cut = len(content)
        if not final:
            cut -= 2 * _ESCAPE
            if cut <= 0:
                return
            while cut > 0 and content[cut] & 0xC0 == 0x80:  # inside a UTF-8 sequence
                cut -= 1
            backslash = content.rfind(b"\\", max(cut - _ESCAPE, 0), cut)
            if backslash != -1:  # an escape may span the cut: cut before its backslashes
                cut = _run_start(content, backslash)
            if _HIGH_SURROGATE.search(content, max(cut - _ESCAPE, 0), cut):
                cut = _run_start(content, cut - _ESCAPE)  # keep a surrogate pair together
            if cut <= 0:
                return
        if self.error is None:
            window = bytes(content[:cut])
            try:
                self._append(msgspec.json.decode(b'"' + window + b'"'))
            except msgspec.DecodeError as error:
                # Half a character (a lone surrogate escape, pairs are never cut): read as
                # U+FFFD, as the whole line would be.
                if not has_lone_surrogate(window):
                    self.error = str(error)
                else:
                    try:
                        fixed = replace_lone_surrogates(window)
                        self._append(msgspec.json.decode(b'"' + fixed + b'"'))
                        self.repaired = True
                    except msgspec.DecodeError as again:
                        self.error = str(again)
                    except UnicodeDecodeError:
                        self.error = "invalid UTF-8 in a string"
            except UnicodeDecodeError:
                self.error = "invalid UTF-8 in a string"
        del content[:cut]

    def _append(self, piece: str) -> None:
        """Add ``piece`` to the current string.

        The string is taken out of ``pieces`` first, so that the local name holds its only
        reference: CPython then resizes it in place (``realloc``, which moves the pages of a
        large block without copying them) instead of making a third copy as ``join`` would.
        """
        assert self.pieces is not None
        if not self.pieces:
            self.pieces.append(piece)
            return
        text = self.pieces.pop()
        text += piece
        self.pieces.append(text)

    def _close(self) -> None:
        if self.pieces is None:
            self.skeleton += b'"'
            self.skeleton += self.content
            self.skeleton += b'"'
        else:
            self._decode(final=True)
            number = len(self.strings)
            self.strings.append(self.pieces.pop() if self.pieces else "")
            self.pieces = None
            self.skeleton += f'"{self.marker}:{number}"'.encode()
        self.content = bytearray()
        self.inside = False


def _run_start(content: bytearray, index: int) -> int:
    """Where the run of backslashes holding ``index`` starts."""
    while index > 0 and content[index - 1] == _BACKSLASH:
        index -= 1
    return index


def read_large_line(first: bytes, handle: BinaryIO) -> LargeLine:
    """Read the rest of a line whose first :data:`LARGE_LINE` bytes are ``first`` (with no line
    end in them) from ``handle``, in chunks, up to and including its newline."""
    marker = secrets.token_hex(8)
    splitter = _Splitter(marker)
    splitter.feed(first)
    size = len(first)
    newline = False
    while True:
        chunk = handle.readline(_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if chunk.endswith(b"\n"):
            newline = True
            splitter.feed(chunk[:-1])
            break
        splitter.feed(chunk)
    error = splitter.error
    if error is None and splitter.inside:
        error = "Input data was truncated"
    skeleton = bytes(splitter.skeleton)
    if error is None and skeleton.count(marker.encode()) != len(splitter.strings):
        error = "the line holds the marker cclens chose to read it in parts (read it again)"
    return LargeLine(
        skeleton,
        splitter.strings,
        marker,
        size,
        newline,
        first[:_HEAD],
        error,
        splitter.repaired,
    )


def put_back(value: Any, line: LargeLine) -> Any:
    """``value`` decoded from ``line.skeleton``, each marker replaced by its string."""
    prefix = f"{line.marker}:"
    strings = line.strings

    def original(text: str) -> str | None:
        if not text.startswith(prefix):
            return None
        number = text[len(prefix) :]
        return strings[int(number)] if number.isdigit() and int(number) < len(strings) else None

    if isinstance(value, str):
        return original(value) or value
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, msgspec.Struct):
            shape = layout(type(node))
            names = [attribute for attribute, _, _ in shape.fields]
            if shape.has_extra:
                names.append("extra")
            for name in names:
                child = getattr(node, name)
                found = original(child) if isinstance(child, str) else None
                if found is not None:
                    setattr(node, name, found)
                elif isinstance(child, dict | list | msgspec.Struct):
                    stack.append(child)
            continue
        if isinstance(node, dict) and any(original(key) is not None for key in node):
            rebuilt = {original(key) or key: child for key, child in node.items()}
            node.clear()
            node.update(rebuilt)
        places: Any = node.items() if isinstance(node, dict) else enumerate(node)
        for place, child in list(places):
            found = original(child) if isinstance(child, str) else None
            if found is not None:
                node[place] = found
            elif isinstance(child, dict | list | msgspec.Struct):
                stack.append(child)
    return value


__all__ = ["LARGE_LINE", "LONG_STRING", "LargeLine", "put_back", "read_large_line"]


def decode_large(line: LargeLine, decode: Callable[[bytes], Decoded[T]]) -> Decoded[T]:
    """``line`` decoded by ``decode`` (an agent's decoder of one whole line): its skeleton
    decoded, each long string put back in place.

    Raises ``msgspec.DecodeError`` when the line is not JSON.
    """
    if line.error is not None:
        raise msgspec.DecodeError(line.error)
    decoded = decode(line.skeleton)
    decoded.value = put_back(decoded.value, line)
    return decoded
