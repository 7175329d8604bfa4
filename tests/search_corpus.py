"""Transcripts made for search tests: prompts full of short common words, where every word
matches a broad query (the costliest texts to rank and to cut snippets from)."""

from __future__ import annotations

import json
from pathlib import Path

COMMON_WORDS = (
    "a", "an", "and", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it", "me",
    "my", "no", "of", "on", "or", "so", "to", "up", "us", "we",
)  # fmt: skip
#: Prefixes of every one of :data:`COMMON_WORDS`.
EVERY_WORD = " OR ".join(f"{letter}*" for letter in "abdeghimnostuw")


def common_words_corpus(folder: Path, sessions: int, prompts: int, words: int) -> Path:
    """A Claude folder under ``folder``: ``sessions`` sessions of ``prompts`` prompts, each
    ``words`` common words long. Returns the Claude folder."""
    projects = folder / "claude" / "projects" / "-work-broad"
    projects.mkdir(parents=True)
    for session in range(sessions):
        session_id = f"b0000000-0000-4000-8000-{session:012d}"
        lines = []
        for prompt in range(prompts):
            text = " ".join(
                COMMON_WORDS[(prompt * 7 + word) % len(COMMON_WORDS)] for word in range(words)
            )
            record = {
                "type": "user",
                "uuid": f"00000000-0000-4000-{session:04d}-{prompt:012d}",
                "parentUuid": None,
                "sessionId": session_id,
                "timestamp": "2025-06-01T10:00:00Z",
                "message": {"role": "user", "content": text},
            }
            lines.append(json.dumps(record))
        (projects / f"{session_id}.jsonl").write_text("\n".join(lines) + "\n")
    return folder / "claude"
