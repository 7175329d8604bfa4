"""Images in the web app are linked, not inlined: a part with a screenshot is a line of HTML, the
image is served by digest from the session the app drew, and Chromium shows it. An exported
page still carries its images inside."""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright

from cclens.export import export_html
from cclens.render.images import ImageStore
from cclens.render.parts import unpack_parts
from cclens.web import RunningServer

from .test_render_records import Transcript
from .test_web import running

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
SESSION = "0d5e55a1-0000-4000-8000-0000000000a1"


def png(width: int, height: int) -> bytes:
    """A real PNG of ``width`` × ``height`` grey pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


SHOT, PASTED = png(3, 2), png(5, 4)


def image(data: bytes, media_type: str = "image/png") -> dict[str, object]:
    encoded = base64.b64encode(data).decode("ascii")
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": media_type, "data": encoded},
    }


@pytest.fixture(scope="module")
def transcript() -> Transcript:
    made = Transcript(session_id=SESSION)
    made.user([{"type": "text", "text": "what is wrong here?"}, image(PASTED)])
    encoded = base64.b64encode(SHOT).decode("ascii")
    file = {"base64": encoded, "type": "image/png", "originalSize": len(SHOT)}
    made.tool(
        "Read",
        {"file_path": "/p/shot.png"},
        [image(SHOT)],
        {"type": "image", "file": file},
        call_id="toolu_shot",
    )
    svg = image(b"<svg/>", "image/svg+xml")
    made.tool("Read", {"file_path": "/p/logo.svg"}, [svg], call_id="toolu_svg")
    made.assistant({"type": "text", "text": "The button is cut off."})
    return made


@pytest.fixture(scope="module")
def server(
    transcript: Transcript, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    root = tmp_path_factory.mktemp("claude")
    transcript.write(root / "projects" / "-p" / f"{SESSION}.jsonl")
    with running([root], tmp_path_factory.mktemp("db") / "index.db", watch=False) as started:
        yield started


@pytest.fixture(scope="module")
def client(server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as opened:
        yield opened


def test_a_part_links_its_image_and_the_app_serves_its_bytes(client: httpx.Client) -> None:
    page = client.get(f"/sessions/{SESSION}")
    assert page.status_code == 200
    assert "data:image" not in page.text
    assert f'src="/sessions/{SESSION}/images/' in page.text  # the pasted image, in the page
    part = client.get(f"/sessions/{SESSION}/parts/t.toolu_shot")
    assert part.status_code == 200 and "data:image" not in part.text
    links = [
        chunk.split('"', 1)[0]
        for chunk in (page.text + part.text).split(f'src="/sessions/{SESSION}/images/')[1:]
    ]
    served = {}
    for digest in links:
        answer = client.get(f"/sessions/{SESSION}/images/{digest}")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "image/png"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "immutable" in answer.headers["cache-control"]
        served[digest] = answer.content
    assert sorted(served.values()) == sorted([SHOT, PASTED])


def test_unknown_images_and_refused_types_are_not_served(client: httpx.Client) -> None:
    assert client.get(f"/sessions/{SESSION}/images/{'0' * 32}").status_code == 404
    assert client.get(f"/sessions/nope/images/{'0' * 32}").status_code == 404
    part = client.get(f"/sessions/{SESSION}/parts/t.toolu_svg")
    assert part.status_code == 200
    assert "image/svg+xml" in part.text and "<svg" not in part.text
    assert f"/sessions/{SESSION}/images/" not in part.text


@pytest.mark.slow
def test_chromium_shows_a_linked_image_when_the_call_opens(server: RunningServer) -> None:
    with sync_playwright() as playwright:
        browser: Browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=ARGS
        )
        try:
            page = browser.new_page()
            page.goto(f"{server.url.rstrip('/')}/sessions/{SESSION}")
            page.evaluate(
                "async () => { await window.cclens.reveal('tool-toolu_shot');"
                " await window.cclens.open('t.toolu_shot'); }"
            )
            shot = page.locator("#tool-toolu_shot img")
            shot.wait_for(state="attached")
            page.wait_for_function(
                "img => img.complete && img.naturalWidth > 0", arg=shot.element_handle()
            )
            assert shot.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [3, 2]
            pasted = page.locator("main img").first
            pasted.wait_for(state="attached")
            page.wait_for_function("img => img.complete", arg=pasted.element_handle())
            assert pasted.evaluate("img => img.naturalWidth") == 5
        finally:
            browser.close()


def test_an_exported_page_still_carries_its_images(transcript: Transcript, tmp_path: Path) -> None:
    html = export_html(transcript.load(tmp_path))
    everything = html + "".join(unpack_parts(html).values())
    assert everything.count("data:image/png;base64,") == 2
    assert "/images/" not in everything


def test_an_image_store_links_each_image_once_and_refuses_what_is_not_one() -> None:
    store = ImageStore("/x/")
    encoded = base64.b64encode(SHOT).decode("ascii")
    first = store.link(encoded, "image/png")
    assert first is not None and first.startswith("/x/")
    assert store.link(encoded[:40] + "\n" + encoded[40:], "IMAGE/PNG") == first
    digest = first.removeprefix("/x/")
    assert store.get(digest) == (SHOT, "image/png")
    assert store.link(encoded, "image/svg+xml") is None
    assert store.link("not base64 at all!", "image/png") is None
    assert store.get("0" * 32) is None
