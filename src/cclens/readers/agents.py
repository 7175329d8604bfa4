"""The agents cclens reads, as data: where each keeps its transcripts, how to tell its files,
how to read and assemble them, and how to go back into one of its sessions.

Everything above the readers knows an agent only through a :class:`Reader` of
:data:`READERS` (by its ``name``: ``claude``, ``codex``...). :func:`discover` finds the sessions
of every agent under some folders (an agent's home, or any folder holding transcripts of one
or several agents, told apart by file names and first bytes); :func:`load` and
:func:`assemble` give the one session model (:class:`cclens.model.session.Session`) whatever
the agent. How to add an agent: ``docs/agents.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import msgspec

from .._lazy import deferred
from ..files import open_regular
from ..model.session import Session
from . import claude, codex
from .claude.resume import claude_argv
from .copilot import sessions as copilot
from .discovery import (
    Discovery,
    FoundFile,
    SessionFile,
    SourceFile,
    regular,
    session_order,
    walk,
)
from .gemini.discover import claims as gemini_claims
from .gemini.discover import gemini_homes
from .gemini.discover import transcript_roots as gemini_roots
from .lines import Read
from .names import AGENTS
from .records import FileRecords

#: How many first bytes of a file are read to tell whose it is.
HEAD_BYTES = 1024


class Reader(msgspec.Struct, frozen=True):
    """One agent, as cclens reads it.

    * ``name``: the key everything else uses (``"codex"``), ``label`` what people read
      (``"Codex CLI"``), ``program`` the command that runs the agent;
    * ``homes(environ, home)``: the agent's folders from the environment, in order (whether
      or not they exist);
    * ``transcript_roots(folder)``: the folders holding transcripts when ``folder`` is one of
      the agent's homes, else ``[]``;
    * ``suffixes``: the endings of its transcript files' names;
    * ``read(path, data, start_offset, start_line)``: read ``data``, the bytes of ``path``
      from ``start_offset`` (``start_line`` lines before): its problems and where the complete
      lines end (a last line still being written is left for a later read);
    * ``claims(path, head)``: whether a file found in some other folder is the agent's, from
      its name and first bytes (:data:`HEAD_BYTES`; ``head`` reads them once, when asked);
    * ``group(files, found)``: the agent's sessions among ``files``, each with the other files
      that belong to it, added to ``found``;
    * ``load(file)``: the session of a discovered :class:`SessionFile`, subagents attached
      (raises ``OSError`` when its file cannot be read);
    * ``assemble(session_id, project, files)``: the session from its files' bytes
      (:class:`SourceFile`, as the index keeps them);
    * ``resume_argv(session_id, fork, at)``: the command that goes back into a session
      (``fork``: into a copy; ``at``: a copy up to that message, where the agent can);
      ``fork_at_message`` says whether it can;
    * ``speaker``: how pages name the side that answers (``"Claude"``, ``"Codex"``);
    * ``provider``: who serves its models by default, as OpenTelemetry's GenAI conventions name
      it (``gen_ai.provider.name``: ``"anthropic"``, ``"openai"``);
    * ``records(session_id, project, files)``: the records ``assemble`` assembles, file by
      file, in the order of the assembled session's sessions
      (:class:`~cclens.readers.records.FileRecords`), when the index may derive the session
      from them (:mod:`cclens.index.write.translated`); ``None``: it assembles the session.
    """

    name: str
    label: str
    program: str
    homes: Callable[[Mapping[str, str], Path], list[Path]]
    transcript_roots: Callable[[Path], list[Path]]
    suffixes: tuple[str, ...]
    read: Callable[[Path, bytes, int, int], Read]
    claims: Callable[[Path, Callable[[], bytes]], bool]
    group: Callable[[Iterable[FoundFile], Discovery], None]
    load: Callable[[SessionFile], Session]
    assemble: Callable[[str, str, Sequence[SourceFile]], Session]
    resume_argv: Callable[[str, bool, str | None], list[str]]
    fork_at_message: bool = False
    speaker: str = "Assistant"
    provider: str = ""
    records: Callable[[str, str, Sequence[SourceFile]], list[FileRecords]] | None = None


def _claude_homes(environ: Mapping[str, str], home: Path) -> list[Path]:
    configured = environ.get("CLAUDE_CONFIG_DIR", "")
    found = [Path(part).expanduser() for part in configured.split(",") if part.strip()]
    return [*found, home / ".claude", home / ".config" / "claude"]


def _claude_roots(folder: Path) -> list[Path]:
    projects = folder / "projects"
    return [projects] if projects.is_dir() else []


def _claude_claims(path: Path, head: Callable[[], bytes]) -> bool:
    # Claude Code is what a .jsonl file is when no other agent claims it.
    return path.name.endswith(".jsonl")


def _claude_assemble(session_id: str, project: str, files: Sequence[SourceFile]) -> Session:
    return claude.assemble_sources(session_id, project, files)


def _codex_claims(path: Path, head: Callable[[], bytes]) -> bool:
    name = path.name
    if codex.is_rollout_name(name):
        return True
    if not name.endswith(".jsonl") or _claude_named(name):
        return False
    return codex.looks_like_rollout(head())


def _claude_named(name: str) -> bool:
    """A name Claude Code gives its transcripts: ``<uuid>.jsonl``, ``agent-<id>.jsonl``,
    ``journal.jsonl`` (no other agent's file is sniffed for those)."""
    stem = name.removesuffix(".jsonl")
    if stem.startswith("agent-") or stem == "journal":
        return True
    parts = stem.split("-")
    return [len(part) for part in parts] == [8, 4, 4, 4, 12]


CLAUDE = Reader(
    name="claude",
    label="Claude Code",
    program="claude",
    homes=_claude_homes,
    transcript_roots=_claude_roots,
    suffixes=(".jsonl",),
    read=claude.read_data,
    claims=_claude_claims,
    group=claude.group,
    load=claude.load,
    assemble=_claude_assemble,
    resume_argv=claude_argv,
    fork_at_message=True,
    speaker="Claude",
    provider="anthropic",
)

CODEX = Reader(
    name="codex",
    label="Codex CLI",
    program="codex",
    homes=codex.codex_homes,
    transcript_roots=codex.transcript_roots,
    suffixes=(".jsonl",),
    read=deferred(".codex.read", "read_data", __package__),
    claims=_codex_claims,
    group=codex.group,
    load=deferred(".codex.assemble", "load", __package__),
    assemble=deferred(".codex.assemble", "assemble", __package__),
    resume_argv=deferred(".codex.resume", "resume_argv", __package__),
    speaker="Codex",
    provider="openai",
    records=deferred(".codex.assemble", "records", __package__),
)

GEMINI = Reader(
    name="gemini",
    label="Gemini CLI",
    program="gemini",
    homes=gemini_homes,
    transcript_roots=gemini_roots,
    suffixes=(".json", ".jsonl"),
    read=deferred(".gemini.sessions", "read_data", __package__),
    claims=gemini_claims,
    group=deferred(".gemini.sessions", "group", __package__),
    load=deferred(".gemini.sessions", "load", __package__),
    assemble=deferred(".gemini.sessions", "assemble", __package__),
    resume_argv=deferred(".gemini.sessions", "resume_argv", __package__),
    records=deferred(".gemini.sessions", "records", __package__),
)

COPILOT = Reader(
    name="copilot",
    label="Copilot CLI",
    program="copilot",
    homes=copilot.copilot_homes,
    transcript_roots=copilot.transcript_roots,
    suffixes=(".jsonl",),
    read=copilot.read_data,
    claims=copilot.claims,
    group=copilot.group,
    load=copilot.load,
    assemble=copilot.assemble,
    resume_argv=copilot.resume_argv,
)

#: Every agent cclens reads, by name. In a folder of mixed files, the agents are asked in this
#: order whether a file is theirs; Claude Code, which takes any ``.jsonl`` file, comes last.
READERS: dict[str, Reader] = {reader.name: reader for reader in (CODEX, GEMINI, COPILOT, CLAUDE)}


def reader(name: str) -> Reader:
    """The reader of agent ``name`` (Claude Code's for a name cclens does not know: sessions
    indexed before agents were told apart are Claude Code's)."""
    return READERS.get(name, CLAUDE)


def label(name: str) -> str:
    """How people read an agent's name (``Codex CLI``)."""
    found = READERS.get(name)
    return found.label if found is not None else name


def speaker(name: str) -> str:
    """How pages name the side of an agent's sessions that answers (``Codex``)."""
    found = READERS.get(name)
    return found.speaker if found is not None else "Assistant"


def provider(name: str) -> str:
    """Who serves an agent's models by default (``gen_ai.provider.name``)."""
    found = READERS.get(name)
    return (found.provider if found is not None else "") or name


def homes(environ: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Every agent's home that exists, agent by agent (Claude Code first)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    found: list[Path] = []
    resolved: set[Path] = set()
    for name in AGENTS:
        for candidate in READERS[name].homes(environ, home):
            if candidate.is_dir() and candidate.resolve() not in resolved:
                resolved.add(candidate.resolve())
                found.append(candidate)
    return found


def transcript_roots(folder: Path) -> list[tuple[Reader, Path]]:
    """The agents whose home ``folder`` is, each with its transcript folders there; empty for
    any other folder."""
    return [
        (agent, root)
        for name in AGENTS
        for agent in (READERS[name],)
        for root in agent.transcript_roots(folder)
    ]


def scanned_roots(roots: Iterable[Path]) -> list[Path]:
    """The folders an update walks for ``roots``: an agent home's transcript folders, any
    other folder (or file) as it is."""
    found: list[Path] = []
    for root in roots:
        homes_of = transcript_roots(root) if root.is_dir() else []
        if homes_of:
            found.extend(path for _, path in homes_of)
        else:
            found.append(root)
    return found


def suffixes() -> tuple[str, ...]:
    """The endings of every agent's transcript file names."""
    return tuple(dict.fromkeys(s for agent in READERS.values() for s in agent.suffixes))


def _head(path: Path) -> Callable[[], bytes]:
    cache: list[bytes] = []

    def read() -> bytes:
        if not cache:
            try:
                with open_regular(path) as handle:
                    cache.append(handle.read(HEAD_BYTES))
            except OSError:
                cache.append(b"")
        return cache[0]

    return read


def agent_of(path: Path) -> Reader | None:
    """The agent whose transcript ``path`` is, by its name and first bytes (``None``: none)."""
    head = _head(path)
    for agent in READERS.values():
        if path.name.endswith(agent.suffixes) and agent.claims(path, head):
            return agent
    return None


def discover(*roots: Path | str) -> Discovery:
    """Find every session of every agent under ``roots``.

    A root may be an agent's home (its transcript folders are walked, every file there is that
    agent's), any other folder (each file is given to the agent that claims it:
    :func:`agent_of`), or a single file. With no roots, every agent's home that exists
    (:func:`homes`). Missing roots are reported in ``errors``.
    """
    paths = [Path(root).expanduser() for root in roots] if roots else homes()
    found = Discovery(roots=paths)
    files: dict[str, list[FoundFile]] = {name: [] for name in READERS}
    for root in paths:
        if not root.is_dir() and (root.exists() or root.is_symlink()):
            agent = agent_of(root) if regular(root, found.errors) else None
            if agent is not None:
                files[agent.name].append((root, root.parent, (root.name,)))
            continue
        if not root.is_dir():
            found.errors.append((root, "no such file or directory"))
            continue
        owned = transcript_roots(root)
        if owned:
            for agent, base in owned:
                for path, relative in walk(base, found.errors, agent.suffixes):
                    files[agent.name].append((path, base, relative))
            continue
        for path, relative in walk(root, found.errors, suffixes()):
            agent = agent_of(path)
            if agent is not None:
                files[agent.name].append((path, root, relative))
    for name, agent in READERS.items():
        if files[name]:
            agent.group(files[name], found)
    found.sessions.sort(key=session_order)
    return found


def load(file: SessionFile) -> Session:
    """The session of a discovered file, by its agent's reader."""
    return reader(file.agent).load(file)


def load_path(path: Path) -> Session:
    """The session of the transcript file ``path`` (its agent told from its name and first
    bytes), with the subagent files beside it. Raises ``OSError`` when it cannot be read and
    ``LookupError`` when no agent's session is in it."""
    found = discover(path)
    for file in found.sessions:
        if file.path == path:
            return load(file)
    if found.sessions:
        return load(found.sessions[0])
    raise LookupError(f"{path}: not a transcript of any agent cclens reads")


def assemble(agent: str, session_id: str, project: str, files: Sequence[SourceFile]) -> Session:
    """The session of ``agent`` from its files' bytes."""
    return reader(agent).assemble(session_id, project, files)


__all__ = [
    "AGENTS",
    "CLAUDE",
    "CODEX",
    "COPILOT",
    "GEMINI",
    "HEAD_BYTES",
    "READERS",
    "Reader",
    "agent_of",
    "assemble",
    "discover",
    "homes",
    "label",
    "load",
    "load_path",
    "reader",
    "scanned_roots",
    "suffixes",
    "transcript_roots",
]
