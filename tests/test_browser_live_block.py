"""What a person sees of the live 5-hour block on ``/stats``: it follows a session as it grows.

A real uvicorn server watching a temporary Claude folder, and Chromium on ``/stats``: a
response written to the transcript while the page is open shows in the panel (over the event
stream, without reloading the page), and ``/api/blocks`` gives the same figures.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .test_browser_web import ARTIFACTS, browser
from .test_usage import PROJECT, SESSION, assistant, prompt, usage
from .test_web import running

pytestmark = pytest.mark.browser

__all__ = ["browser"]


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record) + "\n"


@pytest.fixture
def live_dir(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    root = tmp_path / "claude"
    folder = root / "projects" / PROJECT
    folder.mkdir(parents=True)
    now = datetime.now(UTC)
    path = folder / f"{SESSION}.jsonl"
    path.write_text(
        _line(prompt("u0", "start", time=_when(now - timedelta(minutes=30))))
        + _line(
            assistant(
                "a1",
                "msg_1",
                usage(input=1000, output=500),
                parent="u0",
                time=_when(now - timedelta(minutes=20)),
            )
        ),
        encoding="utf-8",
    )
    yield root, path


def test_the_block_panel_follows_a_growing_session(
    browser: Browser, live_dir: tuple[Path, Path], tmp_path: Path
) -> None:
    root, path = live_dir
    with running([root], tmp_path / "index.db", watch=True) as server:
        figures = httpx.get(server.url.rstrip("/") + "/api/blocks", timeout=30).json()
        assert figures["active"]["tokens"]["total"] == 1500
        assert figures["active"]["block"]["active"] is True
        page = browser.new_page(base_url=server.url)
        try:
            page.goto("/stats")
            panel = page.locator("[data-live-block]")
            expect(panel.locator("[data-block-tokens]")).to_have_text("1.5k")
            expect(panel.locator("[data-block-left]")).to_contain_text("min")
            page.wait_for_timeout(500)  # the event stream is open
            with path.open("a", encoding="utf-8") as handle:
                handle.write(
                    _line(
                        assistant(
                            "a2",
                            "msg_2",
                            usage(input=20000, output=3000),
                            request_id="req_2",
                            parent="a1",
                            time=_when(datetime.now(UTC)),
                        )
                    )
                )
            expect(panel.locator("[data-block-tokens]")).to_have_text("24.5k", timeout=20000)
            expect(panel.locator("[data-block-rate]")).to_contain_text("tokens/h")
            ARTIFACTS.mkdir(exist_ok=True)
            panel.screenshot(path=str(ARTIFACTS / "live-block.png"))
        finally:
            page.close()
