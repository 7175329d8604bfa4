"""From a key to the highlighted match, finding within a large session page in Chromium.

    python3 benchmarks/find.py [--corpus DIR] [--words 20] [--work DIR]

Sessions: those of ``benchmarks/pages.py`` (the largest of the 1 GB corpus when there, and a
synthetic 10 MB session of 2,000 tool calls). Words: ``--words`` rare words (at most three
times in the session) taken from texts spread over the whole page, most of them in folded
parts (tool outputs and inputs, thinking, subagents, later chunks). For each page, as an
exported file and in the web app:

* the first find of a fresh page: from Enter in the find bar to the highlighted match laid out
  in the viewport, the page's text index loaded on the way (the web app fetches it);
* every find after it on the same page: Enter to the highlighted match, the text index already
  there (median and maximum); aim < 200 ms;
* stepping to the next match (Enter again) on a common word.

Printed with the machine's load average: other work on the machine slows every figure down.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

from playwright.sync_api import Browser

from cclens.export import export_html
from cclens.readers.claude import Session, load
from cclens.render.find_index import find_entries

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pages import BENCH_CORPUS, bench

AIM = 0.200
_WORD = re.compile(r"[A-Za-z][A-Za-z_]{6,30}")

_FIND = """async (word) => {
  const input = document.querySelector("[data-find-bar] input");
  const found = new Promise((resolve) => document.addEventListener(
    "cclens:found", (event) => resolve(event.detail), { once: true }));
  const started = performance.now();
  if (document.querySelector("[data-find-bar]").hidden) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "/", bubbles: true }));
  }
  input.value = word;
  input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  const detail = await found;
  const took = performance.now() - started;
  if (!detail.element) return [took, false, false];
  const mark = document.querySelector("mark.find-current");
  const box = (mark || detail.element).getBoundingClientRect();
  const seen = box.bottom > 0 && box.top < window.innerHeight;
  return [performance.now() - started, Boolean(mark), seen];
}"""

_NEXT = """async () => {
  const input = document.querySelector("[data-find-bar] input");
  const found = new Promise((resolve) => document.addEventListener(
    "cclens:found", (event) => resolve(event.detail), { once: true }));
  const started = performance.now();
  input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  await found;
  document.querySelector("mark.find-current").getBoundingClientRect();
  return performance.now() - started;
}"""


def rare_words(session: Session, count: int) -> tuple[list[str], str]:
    """``count`` words found at most three times in the session, from texts spread over the
    page (folded kinds first), and a common word to step through."""
    entries = find_entries(session)
    counted: Counter[str] = Counter()
    for _, _, text in entries:
        counted.update(word.lower() for word in _WORD.findall(text))
    chosen: list[str] = []
    random.seed(19)
    folded = [e for e in entries if e[1] in ("tool_output", "tool_input", "thinking")]
    step = max(1, len(folded) // (count * 2))
    for _, _, text in folded[::step] + entries:
        words = [w for w in _WORD.findall(text) if counted[w.lower()] <= 3]
        if words:
            word = random.choice(words)
            if word.lower() not in {c.lower() for c in chosen}:
                chosen.append(word)
        if len(chosen) >= count:
            break
    common = next(w for w, n in counted.most_common() if n >= 50)
    return chosen, common


def measure(browser: Browser, url: str, words: list[str], common: str) -> str:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, wait_until="load")
    first, marked, seen = page.evaluate(_FIND, words[0])
    times: list[float] = []
    missed = 0 if marked and seen else 1
    for word in words[1:]:
        took, marked, seen = page.evaluate(_FIND, word)
        times.append(took / 1000)
        missed += 0 if marked and seen else 1
    page.evaluate(_FIND, common)
    steps = [float(page.evaluate(_NEXT)) / 1000 for _ in range(10)]
    page.close()
    median, worst = statistics.median(times), max(times)
    return (
        f"first find (text index loaded) {first:6.0f} ms; then median {median * 1000:5.0f} ms, "
        f"max {worst * 1000:5.0f} ms ({worst / AIM:4.2f} of aim); next match median "
        f"{statistics.median(steps) * 1000:5.0f} ms, max {max(steps) * 1000:5.0f} ms; "
        f"{missed} of {len(words)} not marked in view"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=BENCH_CORPUS)
    parser.add_argument("--words", type=int, default=20)
    parser.add_argument("--work", type=Path, default=None, help="keep the files here")
    args = parser.parse_args()
    with bench(args.corpus, args.work, "cclens-find-") as run:
        for label, file in run.sessions:
            session = load(file)
            words, common = rare_words(session, args.words)
            page_file = run.work / f"{file.session_id}.html"
            page_file.write_text(export_html(session), encoding="utf-8")
            print(f"\n{label}: {len(session.tool_calls)} tool calls; common word {common!r}")
            print(f"  exported file: {measure(run.browser, page_file.as_uri(), words, common)}")
            url = f"{run.server.url.rstrip('/')}/sessions/{file.session_id}"
            warm = run.browser.new_page()
            warm.goto(url, wait_until="load")  # the first view loads and draws
            warm.close()
            print(f"  web app:       {measure(run.browser, url, words, common)}")


if __name__ == "__main__":
    main()
