"""Load a Claude Code session from its transcript: read, assemble, attach its subagents, link
its files and apply the summaries of its siblings."""

from __future__ import annotations

from pathlib import Path

from ...model.session import Session
from .assemble import apply_summaries, assemble_entries, attach_subagents, load_subagent
from .discover import SessionFile, subagents_for
from .links import link_files
from .read import read_file
from .titles import sibling_summaries


def load_session(path: Path | str, *, subagents: bool = True, siblings: bool = True) -> Session:
    """Read and assemble the session in ``path``, with its subagent transcripts attached.

    The title follows :mod:`cclens.readers.claude.titles`; a summary Claude Code wrote into another
    transcript of the same folder counts when ``siblings`` is true (the other files are only
    scanned for summary records). Summaries in other folders are not seen: the index, which
    holds every file, sees them all. Malformed lines do not raise: they are listed in
    ``Session.diagnostics``. Raises ``OSError`` when the file cannot be read.
    """
    path = Path(path)
    result = read_file(path)
    session = assemble_entries(
        path,
        result.entries,
        result.diagnostics,
        session_id=path.stem,
        project=path.parent.name,
        file_size=result.bytes,
        lines=result.lines,
    )
    session.mtime = _mtime(path)
    if subagents:
        attach_subagents(session, subagents_for(path))
    link_files(session)
    if siblings:
        apply_summaries(session, sibling_summaries(path))
    return session


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime_ns / 1e9
    except OSError:
        return 0.0


def load_orphan(file: SessionFile) -> Session:
    """Read an orphan subagent transcript as a session of its own (see :mod:`.discover`):
    its id and project are the file's, and it is marked as a subagent without its parent."""
    info = file.orphan
    assert info is not None
    session = load_subagent(info, file.project)
    session.session_id = file.session_id
    session.orphan = True
    session.parent_session_id = info.parent_session_id
    session.mtime = file.mtime
    link_files(session)
    return session


def load(file: SessionFile, *, subagents: bool = True, siblings: bool = True) -> Session:
    """Read and assemble a discovered session file, with the subagent files found for it (an
    orphan subagent file is read by :func:`load_orphan`).

    ``siblings`` as in :func:`load_session` (each sibling is read once per process while it is
    unchanged, so loading every session of a project stays linear).
    """
    if file.orphan is not None:
        return load_orphan(file)
    result = read_file(file.path)
    session = assemble_entries(
        file.path,
        result.entries,
        result.diagnostics,
        session_id=file.session_id,
        project=file.project,
        file_size=result.bytes,
        lines=result.lines,
    )
    session.mtime = file.mtime
    if subagents:
        attach_subagents(session, file.subagents)
    link_files(session)
    if siblings:
        apply_summaries(session, sibling_summaries(file.path))
    return session


__all__ = ["load", "load_orphan", "load_session"]
