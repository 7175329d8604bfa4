"""The conversation tree of one transcript, over plain values: its current line and branches.

:func:`main_line` and :func:`sidechain_roots` hold the rules; :mod:`cclens.readers.claude.assemble`
feeds
them from the typed records, and the index feeds them from its lighter reading of the same lines
(:mod:`cclens.index.write.view`), so both always agree on what is on the main line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

#: One record of the tree, in file order: ``(item, uuid, parent, line, sidechain, demoted,
#: conversational)``. ``item`` indexes the item the record belongs to; ``uuid`` is ``None``
#: when the record has none; ``parent`` is its ``parentUuid``, or its ``logicalParentUuid``
#: across a compaction; ``demoted`` marks meta and teammate records (never chosen as the line's
#: end when anything else is there); ``conversational`` marks user and assistant records.
Link = tuple[int, str | None, str | None, int, bool, bool, bool]

#: What an item is, for putting records back on the main line.
ASSISTANT = 1
USER = 2
OTHER = 0


class MainLine(msgspec.Struct):
    """Which items are on the current line, and the branches that left it."""

    #: For each item: on the main line.
    main: list[bool]
    #: For each item of an abandoned branch: the index of its branch, else ``None``.
    branch: list[int | None]
    #: Each branch: the uuid of the record it grew from, and its items in file order.
    branches: list[tuple[str | None, list[int]]]


def main_line(
    links: Sequence[Link],
    roles: Sequence[int],
    results: Sequence[tuple[str, ...] | None],
    calls: Iterable[tuple[str, int]],
) -> MainLine:
    """Mark the items on the conversation's current line; find the abandoned branches.

    ``roles`` gives each item's role (:data:`ASSISTANT`, :data:`USER` or :data:`OTHER`);
    ``results`` the ``tool_use_id`` of each tool result of a user item holding tool results
    (``None`` for any other item); ``calls`` pairs each tool call id with its item.

    Each disconnected tree (a file can hold several roots) keeps its own current line: the path
    to its best leaf, chosen the way Claude Code resumes a session (non-sidechain, non-meta
    leaves first, then the latest in the file). Sidechain records inside a session file belong
    to subagents, not to the main line.
    """
    count = len(roles)
    main_flags = [True] * count
    branch_index: list[int | None] = [None] * count
    sidechains = [link[4] for link in links]
    mixed = any(sidechains) and not all(sidechains)
    # uuid -> (line, parent, demoted, conversational) of the last record with that uuid
    by_uuid: dict[str, tuple[int, str | None, bool, bool]] = {}
    item_of: dict[str, int] = {}
    for item, uuid, parent, line, sidechain, demoted, conversational in links:
        if uuid:
            if mixed and sidechain:
                main_flags[item] = False
                continue
            by_uuid[uuid] = (line, parent, demoted, conversational)
            item_of[uuid] = item
    if not by_uuid:
        return MainLine(main_flags, branch_index, [])
    referenced = {node[1] for node in by_uuid.values() if node[1]}

    def walk(uuid: str) -> list[str]:
        path: list[str] = []
        seen: set[str] = set()
        current: str | None = uuid
        while current and current in by_uuid and current not in seen:
            seen.add(current)
            path.append(current)
            current = by_uuid[current][1]
        return path

    roots: dict[str, str] = {}

    def root_of(uuid: str) -> str:
        """The root of ``uuid``'s tree, remembered for every record on the way.

        A record whose parent is unknown is a root; so is the record that closes a cycle.
        """
        path: list[str] = []
        on_path: set[str] = set()
        current = uuid
        while current not in roots:
            path.append(current)
            on_path.add(current)
            parent = by_uuid[current][1]
            if parent is None or parent not in by_uuid or parent in on_path:
                roots[current] = current
                break
            current = parent
        root = roots[current]
        for visited in path:
            roots[visited] = root
        return root

    def rank(uuid: str) -> tuple[int, int, int]:
        line, _, demoted, _ = by_uuid[uuid]
        return (0 if demoted else 1, line, 0)

    best: dict[str, str] = {}
    for leaf in (u for u in by_uuid if u not in referenced):
        path = walk(leaf)
        end = next((u for u in path if by_uuid[u][3]), None)
        if end is None:
            continue
        root = root_of(leaf)
        if root not in best or rank(end) > rank(best[root]):
            best[root] = end
    main: set[str] = set()
    for leaf in best.values():
        main.update(walk(leaf))
    for uuid in by_uuid:
        if root_of(uuid) not in best:
            main.add(uuid)  # a tree with no conversation at all (hooks, events only)

    main_items = {item_of[u] for u in main}
    main_calls = {call for call, item in calls if item in main_items}
    changed = True
    while changed:
        changed = False
        for uuid, node in by_uuid.items():
            if uuid in main or (node[1] or "") not in main:
                continue
            item = item_of[uuid]
            role = roles[item]
            if item in main_items and role != USER:
                recover = True  # another record of a response already on the main line
            elif role == USER:
                ids = results[item]
                recover = ids is not None and all(i in main_calls for i in ids)
            else:
                recover = role != ASSISTANT
            if recover:
                main.add(uuid)
                main_items.add(item)
                changed = True

    uuids_of: dict[int, list[str]] = {}
    for link in links:
        linked = link[1]
        if linked is not None and linked in by_uuid:
            uuids_of.setdefault(link[0], []).append(linked)
    branches: list[tuple[str | None, list[int]]] = []
    branch_of: dict[str, int] = {}
    for item in sorted(uuids_of):
        if item in main_items:
            continue
        uuids = uuids_of[item]
        parent = by_uuid[uuids[0]][1]
        index = branch_of.get(parent or "")
        if index is None:
            index = len(branches)
            branches.append((parent, []))
        main_flags[item] = False
        branch_index[item] = index
        branches[index][1].append(item)
        for uuid in uuids:
            branch_of[uuid] = index
    return MainLine(main_flags, branch_index, branches)


def sidechain_roots(side: Sequence[tuple[str | None, str | None, int]]) -> list[str]:
    """The group of each sidechain record kept inside a session file: the uuid of its root.

    ``side`` holds each sidechain record's ``(uuid, parentUuid, line)`` in file order; a record
    without a uuid is a group of its own (``line-N``). Records whose parents lead to the same
    sidechain record belong to one subagent run.
    """
    parents: dict[str, str | None] = {uuid: parent for uuid, parent, _ in side if uuid}
    known: dict[str, str] = {}
    found: list[str] = []
    for uuid, _, line in side:
        root = uuid or f"line-{line}"
        path: list[str] = []
        seen: set[str] = set()
        cycle = False
        while root in parents and (parent := parents[root]) and parent in parents:
            done = known.get(root)
            if done is not None:
                root = done
                break
            if root in seen:
                cycle = True
                break
            seen.add(root)
            path.append(root)
            root = parent
        if not cycle:
            # Without a cycle every record on the way has the same root: remember it (a long
            # sidechain would otherwise be walked once per record).
            for visited in path:
                known[visited] = root
        found.append(root)
    return found


__all__ = ["ASSISTANT", "OTHER", "USER", "Link", "MainLine", "main_line", "sidechain_roots"]
