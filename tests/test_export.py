"""``cclens export`` and ``cclens show``, and the Markdown and JSON writers."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cclens.cli.main import main
from cclens.export import (
    AmbiguousSession,
    SessionNotFound,
    export_html,
    export_json,
    export_markdown,
    resolve_session,
    session_document,
)
from cclens.export.markdown_file import fence, neutralize_html
from cclens.readers.claude import load_session
from cclens.render import CSP
from cclens.render.parts import unpack_parts

from .conftest import CORPUS
from .test_render_records import Transcript

WITH_SUBAGENTS = (
    CORPUS
    / "d-kimuson__claude-code-viewer/mock-global-claude-dir/projects/sample-project"
    / "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
)
SECRET = "sk-ant-api03-" + "Zx9" * 30


def sample(tmp_path: Path, session_id: str = "0d5e55a1-0000-4000-8000-000000000001") -> Path:
    transcript = Transcript(session_id=session_id)
    transcript.user(f"deploy with key {SECRET}")
    transcript.tool("Bash", {"command": f"curl -H 'x-api-key: {SECRET}' api"}, "200 OK")
    transcript.user(
        [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "QUJD"}}]
    )
    transcript.assistant({"type": "text", "text": "Deployed."})
    return transcript.write(tmp_path / "projects" / "-home-user-project" / f"{session_id}.jsonl")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_export_html_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    code, stdout, stderr = run("export", str(sample(tmp_path)), "-o", str(out))
    assert code == 0 and stdout == ""
    html = out.read_text()
    assert f'content="{CSP}"' in html.replace("&#39;", "'")
    assert "Deployed." in html and f"Wrote {out}" in stderr


def test_export_html_defaults_to_the_session_id_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = sample(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _, stderr = run("export", str(path))
    assert code == 0
    written = tmp_path / "0d5e55a1-0000-4000-8000-000000000001.html"
    assert written.is_file() and str(written) in stderr


def test_the_collector_is_paused_while_a_session_is_exported_and_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import cclens.export.html_file as html_file

    seen: list[bool] = []
    draw = html_file.export_html

    def watched(*args: Any, **kwargs: Any) -> str:
        seen.append(gc.isenabled())
        return draw(*args, **kwargs)

    monkeypatch.setattr(html_file, "export_html", watched)
    path = sample(tmp_path)
    assert gc.isenabled()
    code, _, _ = run("export", str(path), "-o", str(tmp_path / "page.html"))
    assert code == 0 and seen == [False] and gc.isenabled()
    # An export that fails (a folder given as the file) leaves it on as well.
    code, _, stderr = run("export", str(path), "-o", str(tmp_path))
    assert code == 2 and "is a folder" in stderr and gc.isenabled()


def test_export_markdown_and_json_to_stdout(tmp_path: Path) -> None:
    path = sample(tmp_path)
    code, stdout, _ = run("export", str(path), "-f", "md")
    assert code == 0 and stdout.startswith("# deploy with key")
    assert "```bash\ncurl -H" in stdout
    code, stdout, _ = run("export", str(path), "-f", "json")
    document = json.loads(stdout)
    assert document["session"]["id"] == "0d5e55a1-0000-4000-8000-000000000001"
    assert document["tool_calls"][0]["name"] == "Bash"


def test_session_ids_and_prefixes(tmp_path: Path) -> None:
    sample(tmp_path, "aaaa1111-0000-4000-8000-000000000001")
    sample(tmp_path, "aaaa2222-0000-4000-8000-000000000002")
    assert resolve_session("aaaa1", [tmp_path]).session_id.startswith("aaaa1111")
    with pytest.raises(AmbiguousSession) as error:
        resolve_session("aaaa", [tmp_path])
    assert "aaaa1111" in str(error.value) and "aaaa2222" in str(error.value)
    with pytest.raises(SessionNotFound):
        resolve_session("zzzz", [tmp_path])
    with pytest.raises(SessionNotFound):
        resolve_session(str(tmp_path / "missing.jsonl"), [tmp_path])
    code, _, stderr = run("export", "aaaa", "--root", str(tmp_path), "-f", "json")
    assert code == 2 and "matches 2 sessions" in stderr and "aaaa2222" in stderr
    code, stdout, _ = run("export", "aaaa2", "--root", str(tmp_path), "-f", "json")
    assert code == 0 and json.loads(stdout)["session"]["id"].startswith("aaaa2222")


def test_export_never_writes_under_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "claude-config"
    path = sample(config)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    before = sorted(p for p in config.rglob("*"))
    code, _, stderr = run("export", "0d5e55a1", "-o", str(config / "out.html"))
    assert code == 2 and "refusing to write inside" in stderr
    assert sorted(p for p in config.rglob("*")) == before
    assert path.is_file()


def test_bad_lines_are_named_and_skipped(tmp_path: Path) -> None:
    path = sample(tmp_path)
    with path.open("a") as handle:
        handle.write("{not json\n")
    code, stdout, stderr = run("export", str(path), "-f", "md")
    assert code == 0 and "Deployed." in stdout
    assert f"{path}:6" in stderr


def test_transform_reaches_every_format(tmp_path: Path) -> None:
    session = load_session(sample(tmp_path))

    def redact(text: str) -> str:
        return text.replace(SECRET, "[REDACTED]")

    for text in (
        export_html(session, transform=redact),
        export_markdown(session, transform=redact),
        export_json(session, transform=redact),
    ):
        assert SECRET not in text and "[REDACTED]" in text

    # Base64 payloads are not text: they pass through untouched.
    def shout(text: str) -> str:
        return text.upper() if text == "QUJD" else text

    document = json.loads(export_json(session, transform=shout))
    images = [b for i in document["items"] for b in i.get("blocks", []) if b["type"] == "image"]
    assert images[0]["source"]["data"] == "QUJD"
    # A whole-record transform (a redactor that looks at key names) plugs in the same way.
    document = json.loads(
        export_json(session, json_transform=lambda record: {**record, "cwd": "/redacted"})
    )
    assert {i["record"]["cwd"] for i in document["items"] if "record" in i} <= {"/redacted"}
    assert SECRET in export_json(session)


def test_json_nests_subagents_under_their_call() -> None:
    session = load_session(WITH_SUBAGENTS)
    document = session_document(session)
    spawning = [c for c in document["tool_calls"] if c["subagents"]]
    assert len(spawning) == 5
    nested = spawning[0]["subagents"][0]
    assert nested["session"]["agent_id"] and nested["items"]
    assert all(
        call["status"] in ("ok", "error", "rejected", "interrupted", "pending")
        for call in document["tool_calls"]
    )
    assert document["session"]["tokens"]["responses"] == 9


def test_markdown_shape() -> None:
    markdown = export_markdown(load_session(WITH_SUBAGENTS))
    assert markdown.count("<details><summary>Subagent") == 5
    assert markdown.count("<details>") == markdown.count("</details>")
    assert "- [ ] Set up Next.js project structure and dependencies" in markdown
    assert fence("a ``` b") == "````\na ``` b\n````"
    assert (
        neutralize_html("<b>x</b> `<b>` \n```\n<b>\n```") == "&lt;b>x&lt;/b> `<b>` \n```\n<b>\n```"
    )


def test_show_prints_the_session(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.user("what is \x1b]0;pwned\x07 [red]here[/red]?")
    transcript.tool("Bash", {"command": "ls", "description": "List files"}, "a.txt\nb.txt")
    path = transcript.write(tmp_path / "s.jsonl")
    code, stdout, _ = run("show", str(path), "--no-pager")
    assert code == 0
    assert "List files" in stdout and "a.txt" in stdout
    assert "[red]here[/red]" in stdout and "\x1b]0;" not in stdout


def _png(seed: int) -> str:
    # Distinct incompressible bytes for each image, so each one can be counted on its own.
    body = random.Random(seed).randbytes(30_000)
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + body).decode("ascii")


def test_each_image_is_embedded_once_in_an_exported_page(tmp_path: Path) -> None:
    """A tool result carries its image twice (the result block and ``toolUseResult``); the
    page, with every folded part it packs, holds the bytes once."""

    def image(data: str) -> dict[str, object]:
        return {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": data},
        }

    images = {name: _png(seed) for seed, name in enumerate(("read", "mcp", "bash", "new", "paste"))}
    transcript = Transcript()
    transcript.user("look at these")
    transcript.tool(
        "Read",
        {"file_path": "/p/shot.png"},
        [image(images["read"])],
        {
            "type": "image",
            "file": {"base64": images["read"], "type": "image/png", "originalSize": 1},
        },
    )
    transcript.tool(
        "mcp__chrome-devtools__take_screenshot",
        {},
        [{"type": "text", "text": "Took a screenshot"}, image(images["mcp"])],
        [{"type": "text", "text": "Took a screenshot"}, image(images["mcp"])],
    )
    transcript.tool(
        "Bash",
        {"command": "screenshot"},
        [image(images["bash"])],
        {"stdout": images["bash"], "stderr": "", "isImage": True},
    )
    transcript.tool(
        "FutureTool", {"x": 1}, [image(images["new"])], {"shot": {"base64": images["new"]}}
    )
    transcript.user([image(images["paste"])])
    html = export_html(transcript.load(tmp_path))
    everything = [html, *unpack_parts(html).values()]
    for name, data in images.items():
        probe = data[5_000:5_100]
        assert sum(text.count(probe) for text in everything) == 1, name
