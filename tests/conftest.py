"""Shared test fixtures: the shared corpus of real transcripts."""

from __future__ import annotations

from pathlib import Path

import pytest

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
