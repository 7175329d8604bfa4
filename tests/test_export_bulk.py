"""``cclens export --all`` and :func:`cclens.export.bulk.export_sessions`: every session written
as its own page by worker processes, and an index page that links them."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cclens.export import export_html
from cclens.export.bulk import export_sessions, output_names
from cclens.readers.claude import SessionFile, discover, load
from cclens.render.assets import static_files

from .conftest import CORPUS
from .test_export import run, sample

#: Real sessions: one with subagent files, one with malformed lines, two small ones.
PICKED = [
    "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project/"
    "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
    "iansherr__claude-code-log/test/test_data/edge_cases.jsonl",
    "iansherr__claude-code-log/test/test_data/real_projects/-Users-dain-workspace-JSSoundRecorder/"
    "7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl",
    "chiphuyen__sniffly/tests/mock-data/-Users-chip-dev-ai-music/"
    "ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl",
]


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    """The picked sessions copied (with their subagent files) to ``projects/<project>/``."""
    root = tmp_path / "projects"
    found = discover(*(CORPUS / name for name in PICKED))
    assert len(found.sessions) == len(PICKED)
    for session in found.sessions:
        folder = root / session.project
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(session.path, folder / session.path.name)
        for agent in session.subagents:
            target = folder / agent.path.relative_to(session.path.parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(agent.path, target)
    return root


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def links(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.hrefs


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 1])
def test_every_page_is_the_single_export(projects: Path, tmp_path: Path, workers: int) -> None:
    files = discover(projects).sessions
    result = export_sessions(files, tmp_path / "out", workers=workers)
    assert [s.source for s in result.sessions] == [f.path for f in files]
    assert result.failed == []
    for file, exported in zip(files, result.sessions, strict=True):
        href = exported.entry.href
        assert href == f"{file.project}/{file.session_id}.html"
        page = (result.directory / href).read_bytes()
        assert page == export_html(load(file), shared_assets="../assets").encode("utf-8")
    for name, content in static_files().items():  # one copy for every page
        assert (result.directory / "assets" / name).read_bytes() == content
    with_agents = next(s for s in result.sessions if s.entry.session_id.startswith("fe5e1c67"))
    assert with_agents.entry.subagents > 0
    malformed = next(s for s in result.sessions if s.entry.session_id == "edge_cases")
    skipped = [d for d in malformed.diagnostics if d.endswith("(skipped)")]
    assert malformed.entry.malformed == len(skipped) > 0
    assert all(":" in d and "edge_cases.jsonl" in d for d in malformed.diagnostics)


@pytest.mark.slow
def test_index_page_lists_and_links_every_session(projects: Path, tmp_path: Path) -> None:
    files = discover(projects).sessions
    result = export_sessions(files, tmp_path / "out", title="My <sessions>")
    html = result.index.read_text(encoding="utf-8")
    assert sorted(links(html)) == sorted(s.entry.href for s in result.sessions)
    for href in links(html):
        assert (result.directory / href).is_file()
    assert "<title>My &lt;sessions&gt;</title>" in html
    assert f"{len(files)} sessions in {len({f.project for f in files})} projects" in html
    assert 'http-equiv="Content-Security-Policy"' in html
    for exported in result.sessions:
        assert exported.entry.session_id in html
    # Each project is a section; its sessions are listed newest first.
    sections = re.findall(r'<section class="index-project">(.*?)</section>', html, re.S)
    assert len(sections) == len({f.project for f in files})
    for section in sections:
        times = re.findall(r'<time datetime="([^"]+)"', section)
        assert times == sorted(times, reverse=True)


@pytest.mark.slow
def test_spawned_workers_write_the_same_pages(projects: Path, tmp_path: Path) -> None:
    files = discover(projects).sessions[:2]
    forked = export_sessions(files, tmp_path / "fork", workers=2, start_method="fork")
    spawned = export_sessions(files, tmp_path / "spawn", workers=2, start_method="spawn")
    for one, two in zip(forked.sessions, spawned.sessions, strict=True):
        assert (forked.directory / one.entry.href).read_bytes() == (
            spawned.directory / two.entry.href
        ).read_bytes()


def test_a_session_that_cannot_be_read_is_reported_and_the_rest_written(
    projects: Path, tmp_path: Path
) -> None:
    files = discover(projects).sessions
    gone = files[1]
    gone.path.unlink()
    result = export_sessions(files, tmp_path / "out", workers=2)
    assert [s.source for s in result.failed] == [gone.path]
    assert str(gone.path) in result.failed[0].error and result.failed[0].entry.href == ""
    written = [s for s in result.sessions if not s.error]
    assert len(written) == len(files) - 1
    assert all((result.directory / s.entry.href).is_file() for s in written)
    index = result.index.read_text(encoding="utf-8")
    assert "1 not exported" in index and 'class="index-failed"' in index


def test_output_names_are_single_safe_components_and_unique(tmp_path: Path) -> None:
    def file(project: str, session_id: str) -> SessionFile:
        return SessionFile(tmp_path / "x.jsonl", session_id, project, 0, 0.0)

    names = output_names(
        [
            file("-home-me-app", "abc"),
            file("-home-me-app", "abc"),
            file("../../etc", "..\\x"),
            file("", "a/b:c"),
            file("Proj", "ID"),
            file("proj", "id"),
        ]
    )
    assert names == [
        "-home-me-app/abc.html",
        "-home-me-app/abc-2.html",
        "_.._etc/_x.html",
        "_/a_b_c.html",
        "Proj/ID.html",
        "proj/id-2.html",
    ]
    for name in names:
        assert ".." not in Path(name).parts and len(Path(name).parts) == 2


@pytest.mark.slow
def test_cli_exports_everything_under_the_paths(projects: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    code, stdout, stderr = run("export", "--all", str(projects), "-o", str(out), "--jobs", "2")
    assert code == 0 and stdout == ""
    assert f"Wrote {len(PICKED)} of {len(PICKED)} sessions (" in stderr
    assert re.search(rf"\(\d+(\.\d)? [kMG]?B\) to {re.escape(str(out.resolve()))}", stderr)
    assert "edge_cases.jsonl:" in stderr and "(skipped)" in stderr
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert "index.html" in pages and len(pages) == len(PICKED) + 1
    assert sorted(links((out / "index.html").read_text())) == sorted(
        p for p in pages if p != "index.html"
    )


def test_cli_all_uses_the_roots_without_paths(tmp_path: Path) -> None:
    sample(tmp_path / "claude")
    out = tmp_path / "site"
    code, _, stderr = run("export", "--all", "--root", str(tmp_path / "claude"), "-o", str(out))
    assert code == 0 and "Wrote 1 of 1 session " in stderr
    assert (out / "-home-user-project" / "0d5e55a1-0000-4000-8000-000000000001.html").is_file()


def test_cli_all_refuses_what_it_cannot_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = sample(tmp_path / "claude")
    code, _, stderr = run("export", "--all", str(path.parent))
    assert code == 2 and "--all needs -o DIR" in stderr
    code, _, stderr = run("export", "--all", str(path.parent), "-o", "x", "-f", "md")
    assert code == 2 and "HTML only" in stderr
    code, _, stderr = run("export", "--all", str(tmp_path / "empty"), "-o", str(tmp_path / "o"))
    assert code == 2 and "no such file or folder" in stderr and stderr.count("\n") == 1
    code, _, stderr = run("export", "-o", str(tmp_path / "o.html"))
    assert code == 2 and "give one SESSION" in stderr
    afile = tmp_path / "a-file"
    afile.write_text("")
    code, _, stderr = run("export", "--all", str(path.parent), "-o", str(afile))
    assert code == 2 and "is a file, not a folder" in stderr
    code, _, stderr = run("export", str(path), "-o", str(tmp_path))
    assert code == 2 and "is a folder" in stderr

    config = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    before = sorted(config.rglob("*"))
    code, _, stderr = run("export", "--all", "-o", str(config / "site"))
    assert code == 2 and "refusing to write inside" in stderr
    assert sorted(config.rglob("*")) == before
