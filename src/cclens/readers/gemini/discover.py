"""Find Gemini CLI's recordings and the project directory each belongs to.

Gemini CLI keeps its state in ``$GEMINI_CLI_HOME/.gemini`` or ``~/.gemini``. Each project has
a folder ``tmp/<project>/`` named by a short slug (``~/.gemini/projects.json`` maps project
paths to slugs, and ``tmp/<slug>/.project_root`` holds the path) or, before late 2025, by the
SHA-256 of the project path (every recording's ``projectHash`` is that hash still). Recordings:

* ``tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.json`` (whole object) or ``.jsonl``;
* ``tmp/<project>/chats/<parent session id>/<subagent session id>.json[l]``: a subagent's
  recording, shown under its session.

When gemini-cli resumes a ``.json`` recording it copies it whole into a ``.jsonl`` beside it and
goes on there: the ``.jsonl`` supersedes it, so the ``.json`` of the same name is not listed.
Not read: ``logs.json`` (the prompts typed, without responses or tool calls, and every one of
them is also in a recording since chat recording began in September 2025),
``checkpoint-<tag>.json`` (``/chat save`` restore points: the model's history, not a session)
and ``tool-outputs/`` (full outputs a recording points to).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import msgspec

from ...files import open_regular, read_regular

#: The name of gemini-cli's folder in a home directory.
GEMINI_DIR = ".gemini"
_SESSION = re.compile(r"^session-.+\.jsonl?$")
_SUBAGENT = re.compile(r"^[^.][^/]*\.jsonl?$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
_HEAD = 4096


class Located(msgspec.Struct):
    """Where a recording's session belongs: its project (shown) and working directory."""

    project: str
    cwd: str | None = None


def gemini_homes(environ: Mapping[str, str] | None = None, home: Path | None = None) -> list[Path]:
    """Where Gemini CLI keeps its files: ``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``
    (whether or not it exists)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    configured = environ.get("GEMINI_CLI_HOME", "").strip()
    return [Path(configured).expanduser() / GEMINI_DIR if configured else home / GEMINI_DIR]


def transcript_roots(folder: Path) -> list[Path]:
    """``tmp/`` of a Gemini CLI home (the folder of its projects' ``chats/``); empty for any
    other folder."""
    tmp = folder / "tmp"
    if not tmp.is_dir():
        return []
    try:
        projects = [entry for entry in tmp.iterdir() if (entry / "chats").is_dir()]
    except OSError:
        return []
    return [tmp] if projects else []


def claims(path: Path, head: Callable[[], bytes]) -> bool:
    """Whether ``path`` is a Gemini CLI recording: named as one in a ``chats`` folder, a
    subagent's in ``chats/<session id>/``, or any ``.json``/``.jsonl`` whose first bytes hold
    a ``sessionId`` and a ``projectHash`` (the first line or object of every recording)."""
    name = path.name
    if not name.endswith((".json", ".jsonl")):
        return False
    parent = path.parent
    if parent.name == "chats" and _SESSION.match(name):
        return True
    if parent.parent.name == "chats" and not name.startswith("."):
        return True
    start = head()
    return b'"sessionId"' in start and b'"projectHash"' in start and starts_object(start)


def starts_object(head: bytes) -> bool:
    """Whether ``head`` starts a JSON object (after a byte order mark and blanks)."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def default_home() -> Path:
    """Gemini CLI's folder: ``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``."""
    home = os.environ.get("GEMINI_CLI_HOME")
    return Path(home) / GEMINI_DIR if home else Path.home() / GEMINI_DIR


class ChatFileInfo(msgspec.Struct):
    """A recording found on disk, with what its place says about it."""

    path: Path
    #: The project folder's name (a slug or a hash), or the folder the file was found in.
    project: str
    size: int
    mtime: float
    #: For a subagent's recording: the id of the session that ran it.
    parent_session_id: str | None = None
    subagents: list[ChatFileInfo] = msgspec.field(default_factory=list)


class Projects(msgspec.Struct):
    """What ``projects.json`` and the ``.project_root`` markers say about project folders."""

    #: Project folder name -> project path.
    by_folder: dict[str, str] = msgspec.field(default_factory=dict)
    #: SHA-256 of a project path -> the path.
    by_hash: dict[str, str] = msgspec.field(default_factory=dict)

    def add(self, folder: str | None, path: str) -> None:
        if folder:
            self.by_folder.setdefault(folder, path)
        self.by_hash.setdefault(project_hash(path), path)

    def locate(self, folder: str, recorded_hash: str | None) -> str | None:
        """The project path of a folder, or of a recording's ``projectHash``."""
        found = self.by_folder.get(folder)
        if found is None and recorded_hash:
            found = self.by_hash.get(recorded_hash)
        if found is None and _HASH.match(folder):
            found = self.by_hash.get(folder)
        return found


def project_hash(path: str) -> str:
    """gemini-cli's ``getProjectHash``: the SHA-256 of the project path as given."""
    return hashlib.sha256(path.encode("utf-8")).hexdigest()


def read_projects(home: Path) -> Projects:
    """The project paths ``home`` records (``projects.json`` and every ``.project_root``).

    A file that cannot be read or parsed is skipped: the folders are then named as found.
    """
    projects = Projects()
    try:
        registry = msgspec.json.decode(read_regular(home / "projects.json"))
    except (OSError, msgspec.DecodeError):
        registry = None
    mapping = registry.get("projects") if isinstance(registry, dict) else None
    if isinstance(mapping, dict):
        for path, slug in mapping.items():
            if isinstance(path, str) and isinstance(slug, str):
                projects.add(slug, path)
    for folder in _folders(home / "tmp"):
        try:
            marker = read_regular(folder / ".project_root").decode("utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if marker:
            projects.by_folder[folder.name] = marker
            projects.by_hash.setdefault(project_hash(marker), marker)
    return projects


def _folders(path: Path) -> list[Path]:
    try:
        return sorted(p for p in path.iterdir() if p.is_dir())
    except OSError:
        return []


def is_home(path: Path) -> bool:
    """Whether ``path`` looks like a Gemini CLI folder (``tmp/<project>/chats``)."""
    return any((folder / "chats").is_dir() for folder in _folders(path / "tmp"))


def discover(root: Path) -> list[ChatFileInfo]:
    """Every main recording under ``root`` (a Gemini CLI folder, a ``tmp/<project>`` folder,
    a ``chats`` folder or any folder holding recordings), subagents attached, oldest first."""
    found: list[ChatFileInfo] = []
    for chats, project in _chat_folders(root):
        found.extend(_in_chats(chats, project))
    found.sort(key=lambda info: (info.mtime, str(info.path)))
    return found


def _chat_folders(root: Path) -> Iterator[tuple[Path, str]]:
    if (root / "tmp").is_dir():
        for folder in _folders(root / "tmp"):
            if (folder / "chats").is_dir():
                yield folder / "chats", folder.name
        return
    if (root / "chats").is_dir():
        yield root / "chats", root.name
        return
    if root.name == "chats":
        yield root, root.parent.name
        return
    yield root, root.name


def _stat(path: Path) -> tuple[int, float] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime


def _in_chats(chats: Path, project: str) -> list[ChatFileInfo]:
    try:
        names = sorted(os.listdir(chats))
    except OSError:
        return []
    sessions: dict[str, ChatFileInfo] = {}
    stems = {name for name in names if name.endswith(".jsonl")}
    for name in names:
        path = chats / name
        if not _SESSION.match(name) or (name.endswith(".json") and f"{name}l" in stems):
            continue
        stat = _stat(path)
        if stat is None or not path.is_file():
            continue
        info = ChatFileInfo(path, project, stat[0], stat[1])
        sessions[name] = info
    by_id = {_session_id(info.path): info for info in sessions.values()}
    for name in names:
        folder = chats / name
        if not folder.is_dir():
            continue
        parent = by_id.get(name) or _by_prefix(by_id, name)
        for sub in _subagent_files(folder):
            stat = _stat(sub)
            if stat is None:
                continue
            info = ChatFileInfo(sub, project, stat[0], stat[1], parent_session_id=name)
            if parent is not None:
                parent.subagents.append(info)
            else:
                sessions[str(sub)] = info  # an orphan: its session's recording is gone
    return list(sessions.values())


def _by_prefix(by_id: dict[str, ChatFileInfo], session_id: str) -> ChatFileInfo | None:
    """The recording whose name ends in the first 8 characters of ``session_id``."""
    return next((info for key, info in by_id.items() if session_id.startswith(key)), None)


def _subagent_files(folder: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    stems = {name for name in names if name.endswith(".jsonl")}
    return [
        folder / name
        for name in names
        if _SUBAGENT.match(name)
        and not (name.endswith(".json") and f"{name}l" in stems)
        and (folder / name).is_file()
    ]


def _session_id(path: Path) -> str:
    """The id part of a recording's name (``session-<time>-<id8>``: the 8 characters)."""
    stem = path.name.split(".", 1)[0]
    return stem.rsplit("-", 1)[-1] if stem.startswith("session-") else stem


def recorded_hash(path: Path) -> str | None:
    """The ``projectHash`` written near the start of a recording (without reading it all)."""
    try:
        with open_regular(path) as handle:
            head = handle.read(_HEAD)
    except OSError:
        return None
    match = re.search(rb'"projectHash"\s*:\s*"([^"]*)"', head)
    return match.group(1).decode("utf-8", "replace") if match else None


def locate(info: ChatFileInfo, projects: Projects) -> Located:
    """The project and working directory of a recording, from its folder and registry.

    A folder still named by the project's hash takes the slug the registry now gives it.
    """
    cwd = projects.locate(info.project, recorded_hash(info.path))
    name = info.project
    if cwd is not None and _HASH.match(name):
        name = next((slug for slug, path in projects.by_folder.items() if path == cwd), name)
    return Located(name, cwd)


def is_recording(path: Path) -> bool:
    """Whether ``path`` holds a Gemini CLI recording (read from its first bytes)."""
    try:
        with open_regular(path) as handle:
            head = handle.read(_HEAD)
    except OSError:
        return False
    return b'"sessionId"' in head and b'"projectHash"' in head
