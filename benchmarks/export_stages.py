"""Where the time of exporting large sessions goes, stage by stage.

    python3 benchmarks/export_stages.py [CORPUS] [--runs 3]

Builds the real-sized corpus of ``benchmarks/export.py --real-sized`` (6 sessions of 2–6 MB from
the corpus's records) and exports it the way ``cclens export`` does (load, redact, draw), in a
fresh process for each run, once with the folded parts drawn in that process and once by one
process per CPU. Printed, median of runs: the imports, reading, redaction, the page's skeleton
(what is drawn before anything is opened), each kind of folded part (tool bodies ``t``, chunks
of the conversation ``c``, subagents ``a``, thinking ``k``, records' JSON ``r``, branches
``b``), packing the parts, and the whole process from outside. With workers the parts are
timed together (they are drawn side by side).

Then the floor of a page drawn wholly in the browser: a process that only reads each session,
redacts it, encodes its normalized data (``export -f json``'s document) and deflates it, which
is what such an export would still have to do before any drawing.

What it tells: how much of an export a design that leaves some part undrawn could save.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from string import Template

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic
from export import DEFAULT_CORPUS, REAL_SIZED_MB
from machine import load_average

#: A script run in a fresh process: arguments are the transcripts (one per line, in a file), the
#: number of workers and where to write the stages' seconds. Every script reads and redacts each
#: session, then does its own part (``$each``), with ``$imports`` and ``$setup`` of its own.
_SCRIPT = Template("""
import time
started = time.perf_counter()
import collections, json, sys
from pathlib import Path
from cclens.export import transform_session
from cclens.readers.claude import load_session
from cclens.redact import Redactor
$imports
seconds = collections.Counter(imports=time.perf_counter() - started)
workers = int(sys.argv[2])

def timed(label, function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[label] += time.perf_counter() - start
    return wrapper

def redact(session):
    redactor = Redactor()
    return transform_session(session, redactor.text, json_transform=redactor.json)
redact = timed("redact", redact)

$setup
for path in Path(sys.argv[1]).read_text().split("\\n"):
    session = redact(timed("read", load_session)(path))
$each
Path(sys.argv[3]).write_text(json.dumps(seconds))
""")

#: The export as ``cclens export`` does it, its drawing stages timed.
STAGES = _SCRIPT.substitute(
    imports="""
from cclens.export import export_html
from cclens.render import RenderOptions, page, parts
""",
    setup="""
draw = parts.PartStore.draw
def draw_timed(self, part_id):
    if part_id in self.drawn or workers > 1:
        return draw(self, part_id)
    return timed("part " + part_id.split(".")[0], draw)(self, part_id)
parts.PartStore.draw = draw_timed
page.SessionRenderer._main = timed("skeleton", page.SessionRenderer._main)
page.draw_in_workers = timed("parts, side by side", page.draw_in_workers)
page.pack_parts = timed("pack parts", page.pack_parts)
""",
    each="""
    timed("export_html", export_html)(session, options=RenderOptions(workers=workers))
""",
)

#: The floor: read, redact, encode the session's data, deflate.
FLOOR = _SCRIPT.substitute(
    imports="""
import zlib
import msgspec
from cclens.export.json_document import session_document
""",
    setup="",
    each="""
    data = timed("encode the data", lambda s: msgspec.json.encode(session_document(s)))(session)
    timed("deflate it", zlib.compress)(data, 6)
""",
)


def run(listing: Path, workers: int, out: Path, script: str = STAGES) -> dict[str, float]:
    start = time.perf_counter()
    command = [sys.executable, "-c", script, str(listing), str(workers), str(out)]
    subprocess.run(command, check=True)
    figures: dict[str, float] = json.loads(out.read_text())
    figures["whole process"] = time.perf_counter() - start
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cclens-stages-") as temp:
        work = Path(temp)
        files = synthetic.large_corpus(work, synthetic.donors(args.corpus), REAL_SIZED_MB)
        listing = work / "files.txt"
        listing.write_text("\n".join(str(f) for f in files))
        size = sum(f.stat().st_size for f in files)
        cpus = os.cpu_count() or 1
        print(f"corpus: real-sized, {len(files)} sessions, {size / 1e6:.1f} MB")
        print(f"runs: {args.runs}; CPUs: {cpus}; load average: {load_average()}")
        run(listing, 1, work / "warm.json")  # bytecode and templates cached, as once installed
        cases = [(f"parts drawn by {n} process(es)", n, STAGES) for n in (1, cpus)]
        cases.append(("the floor of a page drawn in the browser", 1, FLOOR))
        for title, workers, script in cases:
            runs = [run(listing, workers, work / "out.json", script) for _ in range(args.runs)]
            print(f"\n{title}:")
            for label in sorted({k for r in runs for k in r}, key=lambda k: -runs[0].get(k, 0)):
                value = statistics.median(r.get(label, 0.0) for r in runs)
                print(f"  {label:22} {value:6.2f} s")
        print(f"\nload average at the end: {load_average()}")


if __name__ == "__main__":
    main()
