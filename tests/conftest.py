"""Shared test fixtures: the shared corpus of real transcripts, and one index of it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cclens.index import Index

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def corpus_files() -> list[Path]:
    """Every ``.jsonl`` file of the shared corpus."""
    return sorted(CORPUS.rglob("*.jsonl"))


def sampled(values: Iterable[Any], quick: int) -> list[Any]:
    """Every value as a parameter, all but ``quick`` of them (spread evenly, first and last
    included) marked ``slow``: the quick run (``./scripts/test.sh --quick``) tries a sample,
    the full run tries them all. A tuple is one value per argument name."""
    every = list(values)
    count = len(every)
    picked = {round(i * (count - 1) / (quick - 1)) for i in range(quick)} if quick > 1 else {0}
    return [
        pytest.param(
            *(value if isinstance(value, tuple) else (value,)),
            marks=() if at in picked else pytest.mark.slow,
        )
        for at, value in enumerate(every)
    ]


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus folder (tests that need it fail loudly when it is missing)."""
    assert CORPUS.is_dir(), f"the shared corpus is missing at {CORPUS}"
    return CORPUS


@pytest.fixture(scope="session")
def corpus_index(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """One index of the shared corpus, built once for every test that only reads it (a test
    that changes an index builds its own)."""
    with Index(tmp_path_factory.mktemp("corpus-index") / "index.db") as opened:
        opened.update([corpus])
        yield opened


@pytest.fixture(autouse=True)
def _index_of_its_own(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commands that use the index by default (``sessions``, ``show``, ``export`` of an id…)
    write a test's own file, never the index in the user's data folder."""
    if "CCLENS_DB" not in os.environ:
        monkeypatch.setenv("CCLENS_DB", str(tmp_path_factory.mktemp("index") / "index.db"))
