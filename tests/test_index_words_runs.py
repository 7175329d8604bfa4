""":func:`cclens.index.words.index_text` finds runs of unspaced characters with a pattern written
to begin with one character's class (fast for ``re``): its text is the one the plain definition
of a run, ``(?:unit)+``, gives, on generated text of every kind of character it treats apart and
on the real Codex and Claude Code texts of the test data."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.index.words import TOKEN_BREAK, _broken, index_text
from cclens.scripts import UNIT

#: A run as the index first defined it.
_PLAIN_RUN = re.compile(f"(?:{UNIT})+")
DATA = Path(__file__).parent / "data"

#: Characters of each kind: unspaced bases (Han, kana, Hangul, Thai, Myanmar, Khmer), their
#: marks, halfwidth voiced marks, other non-ASCII letters and symbols, ASCII.
CHARACTERS = st.sampled_from(
    list("推广产品アップデ데이터ภาษาไทยမြန်မာខ្មែរ\u3099\u309a\uff9e\uff9fé─…✅😀 ab1_,")
)


def _plain(text: str) -> str:
    return text if text.isascii() else _PLAIN_RUN.sub(_broken, text)


@settings(max_examples=400, deadline=None)
@given(st.lists(CHARACTERS, max_size=40).map("".join))
def test_runs_are_those_of_the_plain_pattern(text: str) -> None:
    assert index_text(text) == _plain(text)


def test_runs_of_the_real_transcripts_are_those_of_the_plain_pattern() -> None:
    files = sorted((DATA / "agents").rglob("*.jsonl")) + sorted((DATA / "agents").rglob("*.json"))
    seen = 0
    for path in files:
        text = path.read_text("utf-8", errors="replace")
        for piece in text.split("\\n"):
            assert index_text(piece) == _plain(piece)
            seen += TOKEN_BREAK in index_text(piece)
    assert seen  # the data holds unspaced text
