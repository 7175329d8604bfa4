"""Shared test fixtures: the shared corpus of real transcripts, and one index of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cclens.index import Index

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def corpus_files() -> list[Path]:
    """Every ``.jsonl`` file of the shared corpus."""
    return sorted(CORPUS.rglob("*.jsonl"))


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
