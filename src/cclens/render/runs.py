"""Long runs of records with nothing to show, drawn as one folded block.

A file can hold a million records of a type cclens does not know (``{"n":1}``,
``{"n":2}``…), or user records without a message: drawing each one would take minutes and
gigabytes, and say nothing the first few do not. :func:`fold_runs` keeps the first
:data:`SHOWN` of a run of more than :data:`LONGEST` such records of the same kind, one after
the other in the file, and puts one :class:`FoldedRun` in place of the rest: the page, the
terminal and Markdown draw it as one line ("999,980 more records of unknown type (none),
lines 21-1,000,000"). The JSON export and the API keep every record (they never fold).

The reader keeps a long run of such records as their first
:data:`~cclens.model.entries.QUIET_KEPT` (which is :data:`LONGEST`) and the rest as lines
(:class:`~cclens.model.entries.QuietLines`, after the last): such a run is always folded.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.entries import QUIET_KEPT
from ..model.records import UnknownRecord, UserRecord
from ..model.session import Item, MetaItem, UserItem

#: Records of a run drawn before the fold.
SHOWN = 20
#: A run of more records than this is folded after its first :data:`SHOWN`.
LONGEST = QUIET_KEPT


class FoldedRun(MetaItem, eq=False, dict=True):
    """The records of a run after its first :data:`SHOWN` (``entries``), drawn as one line.

    ``what`` names their kind in words (``records of unknown type x``, ``user records without
    a message``)."""

    what: str = ""

    @property
    def lines(self) -> tuple[int, int]:
        """The first and last line of the records folded (identical lines folded in them
        included)."""
        return self.first.line, self.entries[-1].last_line

    @property
    def records(self) -> int:
        """How many records are folded (identical lines and quiet lines folded into them
        included)."""
        return sum(entry.records for entry in self.entries)


#: The kind of a user record without a message (no record type is written so).
_NO_MESSAGE = " user records without a message"


def _kind(item: Item) -> str | None:
    """The kind of a record with nothing to show (an unknown record's type); ``None`` for any
    other item."""
    entries = item.entries
    if len(entries) != 1:
        return None
    record = entries[0].record
    kind = type(item)
    if kind is MetaItem and type(record) is UnknownRecord:
        return record.kind
    if isinstance(item, UserItem) and type(record) is UserRecord and not record.message:
        return _NO_MESSAGE
    return None


def _said(kind: str) -> str:
    return _NO_MESSAGE.strip() if kind == _NO_MESSAGE else f"records of unknown type {kind}"


def fold_runs(items: Sequence[Item]) -> Sequence[Item]:
    """``items``, each run of more than :data:`LONGEST` records of the same kind with nothing
    to show, on consecutive lines, cut after its first :data:`SHOWN` and followed by one
    :class:`FoldedRun` holding the rest (``items`` itself when there is none)."""
    folded: list[Item] | None = None
    start = 0
    count = len(items)
    while start < count:
        head = items[start]
        kind = _kind(head)
        end = start + 1
        records = 0  # (in the run: its lines are consecutive)
        if kind is not None:
            entry = head.entries[0]
            line = entry.last_line
            item_type, record_type = type(head), type(entry.record)
            while end < count:
                following = items[end]
                entries = following.entries
                entry = entries[0]
                if (
                    entry.line != line + 1
                    or len(entries) != 1
                    or type(following) is not item_type
                    or type(entry.record) is not record_type
                    or _kind(following) != kind
                ):
                    break
                line = entry.last_line
                end += 1
            records = line - head.entries[0].line + 1
        if records > LONGEST and end - start > SHOWN:
            if folded is None:
                folded = list(items[:start])
            folded.extend(items[start : start + SHOWN])
            rest = [entry for item in items[start + SHOWN : end] for entry in item.entries]
            first = items[start]
            folded.append(
                FoldedRun(rest, main=first.main, branch=first.branch, what=_said(kind or ""))
            )
        elif folded is not None:
            folded.extend(items[start:end])
        start = end
    return items if folded is None else folded
