"""What a large session page costs in Chromium, as an exported file and in the web app.

    python3 benchmarks/pages.py [--corpus DIR] [--runs 5] [--opens 30] [--work DIR]

Sessions measured: the largest session (by bytes) of the 1 GB benchmark corpus (``--corpus``,
default ``/work/bench-corpus-1g/claude``, built by ``benchmarks/index.py``; skipped when absent)
and a synthetic 10 MB session with 2,000 tool calls built from real corpus records
(``benchmarks/synthetic.py``). For each, as an exported file (``cclens export``, opened from
``file://``) and in the web app (``cclens serve`` on 127.0.0.1):

* the load event (``loadEventEnd`` after navigation start) and the DOM nodes at that moment,
  before anything is opened, median of ``--runs`` fresh pages; aims < 1 s and < 5,000 nodes;
* opening a tool call: from asking for it to its body laid out (``window.cclens.open`` of the
  call's part, then a forced layout), for ``--opens`` calls (the largest outputs and a spread
  of the others), each in the chunk the reader scrolled to; median and maximum; aim < 100 ms;
* the exported file's size against the session's JSONL (aim <= 30 %) and the export's time.

Printed with the machine's load average: other work on the machine slows every figure down.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from cclens.export import export_html
from cclens.readers.claude import Session, SessionFile, discover, load
from cclens.web import RunningServer
from cclens.web.server import start
from cclens.web.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic
from machine import load_average

BENCH_CORPUS = Path("/work/bench-corpus-1g/claude")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
LOAD_AIM, NODES_AIM, OPEN_AIM, BYTES_AIM = 1.0, 5000, 0.100, 0.30

_OPEN = """async (id) => {
  await window.cclens.reveal("tool-" + id);
  const started = performance.now();
  await window.cclens.open("t." + id);
  document.getElementById("tool-" + id).getBoundingClientRect();
  document.body.offsetHeight;
  return performance.now() - started;
}"""


@dataclass
class Figures:
    """One page's figures."""

    load: list[float]
    nodes: list[int]
    opens: list[float]

    def line(self) -> str:
        load, nodes = statistics.median(self.load), statistics.median(self.nodes)
        opened = statistics.median(self.opens) if self.opens else float("nan")
        worst = max(self.opens) if self.opens else float("nan")
        return (
            f"load {load * 1000:6.0f} ms ({load / LOAD_AIM:4.2f} of aim), "
            f"{nodes:5.0f} nodes ({nodes / NODES_AIM:4.2f} of aim); open a call: median "
            f"{opened * 1000:5.1f} ms, max {worst * 1000:5.1f} ms ({worst / OPEN_AIM:4.2f} of aim)"
        )


def _load(page: Page, url: str) -> tuple[float, int]:
    page.goto(url, wait_until="load")
    seconds = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd / 1000")
    nodes = page.evaluate("document.getElementsByTagName('*').length")
    return float(seconds), int(nodes)


def sample_calls(session: Session, count: int) -> list[str]:
    """The calls with the largest outputs, and a spread of the others."""
    calls = [c for c in session.tool_calls.values() if c.item.main]
    largest = sorted(calls, key=lambda c: len(c.result_text), reverse=True)[: count // 2]
    step = max(1, len(calls) // max(1, count - len(largest)))
    spread = calls[::step][: count - len(largest)]
    return [c.id for c in dict.fromkeys(largest + spread)]


def measure(browser: Browser, url: str, calls: list[str], runs: int) -> Figures:
    figures = Figures([], [], [])
    for _ in range(runs):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        seconds, nodes = _load(page, url)
        figures.load.append(seconds)
        figures.nodes.append(nodes)
        page.close()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _load(page, url)
    for call in calls:
        figures.opens.append(float(page.evaluate(_OPEN, call)) / 1000)
    page.close()
    return figures


def largest_session(root: Path) -> SessionFile | None:
    if not root.is_dir():
        return None
    found = discover(root).sessions
    return max(found, key=lambda s: s.size) if found else None


def large_sessions(corpus: Path, claude: Path) -> list[tuple[str, SessionFile]]:
    """The sessions measured, written under ``claude`` (to serve): the largest of ``corpus``
    (skipped with a note when there is none) and a synthetic 10 MB session of 2,000 calls."""
    sessions: list[tuple[str, SessionFile]] = []
    biggest = largest_session(corpus)
    if biggest is not None:
        sessions.append(("largest of the 1 GB corpus", biggest))
    else:
        print(f"no corpus at {corpus}: build it with benchmarks/index.py --work")
    made = synthetic.synthesize(
        claude / "projects" / "-synthetic-large-sessions",
        synthetic.donors(),
        size=10_000_000,
        calls=2000,
    )
    sessions.append(("synthetic 10 MB, 2,000 calls", discover(claude).sessions[0]))
    assert sessions[-1][1].path == made
    if biggest is not None:  # served too: copied beside the synthetic one
        folder = claude / "projects" / biggest.project
        folder.mkdir(parents=True, exist_ok=True)
        (folder / biggest.path.name).write_bytes(biggest.path.read_bytes())
    return sessions


@contextmanager
def serving(root: Path, db: Path) -> Iterator[RunningServer]:
    server = start(Settings(db_path=db, claude_dirs=[root], port=0, watch=False))
    try:
        if not server.app.state.cclens.indexer.ready.wait(600):
            raise SystemExit("the index took more than 10 minutes")
        yield server
    finally:
        server.stop()


@dataclass
class Bench:
    """What a page benchmark runs on: its work folder, the sessions (served), Chromium and the
    server."""

    work: Path
    sessions: list[tuple[str, SessionFile]]
    browser: Browser
    server: RunningServer


@contextmanager
def bench(corpus: Path, work: Path | None, prefix: str) -> Iterator[Bench]:
    """The large sessions (:func:`large_sessions`) written to ``work`` (a temporary folder by
    default), served, and Chromium; the machine's load average printed before and after."""
    with tempfile.TemporaryDirectory(prefix=prefix) as temp:
        folder = work or Path(temp)
        claude = folder / "claude"
        sessions = large_sessions(corpus, claude)
        print(f"CPUs: {os.cpu_count()}; load average: {load_average()}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            with serving(claude, folder / "index.db") as server:
                yield Bench(folder, sessions, browser, server)
            browser.close()
        print(f"\nload average after: {load_average()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=BENCH_CORPUS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--opens", type=int, default=30)
    parser.add_argument("--work", type=Path, default=None, help="keep the files here")
    args = parser.parse_args()
    with bench(args.corpus, args.work, "cclens-pages-") as run:
        work, browser, server = run.work, run.browser, run.server
        for label, file in run.sessions:
            session = load(file)
            calls = sample_calls(session, args.opens)
            size = file.size
            started = time.perf_counter()
            html = export_html(session)
            exported = time.perf_counter() - started
            page_file = work / f"{file.session_id}.html"
            page_file.write_text(html, encoding="utf-8")
            ratio = len(html.encode()) / size
            print(
                f"\n{label}: {size / 1e6:.1f} MB of JSONL, {len(session.items)} items, "
                f"{len(session.tool_calls)} tool calls, {len(session.subagents)} subagents"
            )
            print(
                f"  export: {exported:5.2f} s, {len(html.encode()) / 1e6:5.2f} MB "
                f"= {ratio * 100:4.1f} % of the JSONL (aim <= {BYTES_AIM * 100:.0f} %)"
            )
            figures = measure(browser, page_file.as_uri(), calls, args.runs)
            print(f"  exported file: {figures.line()}")
            base = server.url.rstrip("/")
            url = f"{base}/sessions/{file.session_id}"
            measure(browser, url, calls[:1], 1)  # the first view loads and draws
            figures = measure(browser, url, calls, args.runs)
            print(f"  web app:       {figures.line()}")


if __name__ == "__main__":
    main()
