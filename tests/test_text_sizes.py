"""Counts and text sizes as people read them: "1 session", "2 sessions", a Chinese thinking block
measured in characters (not "1 words"), one function for every surface."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cclens
from cclens.formats import plural, text_size
from cclens.render.environment import template_environment
from cclens.web.templating import environment

from .test_render_records import Transcript
from .test_render_snapshots import render_items

#: A thinking block of 150 characters, in Chinese (the issue's example: "Thinking (1 words)").
CHINESE = "用户想要一个推广产品的方案，我需要先了解目标市场和用户群体，然后设计推广渠道。" * 4
CHINESE = CHINESE[:150]


@pytest.mark.parametrize(
    ("count", "words", "expected"),
    [
        (0, ("session",), "0 sessions"),
        (1, ("session",), "1 session"),
        (2, ("session",), "2 sessions"),
        (1234, ("tool call",), "1,234 tool calls"),
        (1, ("branch", "branches"), "1 branch"),
        (3, ("branch", "branches"), "3 branches"),
    ],
)
def test_plural_forms(count: int, words: tuple[str, ...], expected: str) -> None:
    assert plural(count, *words) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (CHINESE, "150 characters"),
        ("このファイルを最新の状態にアップデートしてください", "25 characters"),
        ("ภาษาไทยไม่มีช่องว่างระหว่างคำ", "29 characters"),
        ("Let me think about it.", "5 words"),
        ("one", "1 word"),
        ("", "0 words"),
        ("我们用 API 推广产品，然后 deploy 到 server。", "27 characters"),
        ("Refactor the parser; keep 推广 as it is.", "8 words"),
    ],
)
def test_a_text_is_measured_in_the_unit_of_its_script(text: str, expected: str) -> None:
    assert text_size(text) == expected


def test_a_chinese_thinking_block_says_its_size_in_characters(tmp_path: Path) -> None:
    def build(t: Transcript) -> None:
        t.assistant(
            {"type": "thinking", "thinking": CHINESE, "signature": "sig"},
            {"type": "text", "text": "好的。"},
        )

    html = render_items(tmp_path, build)
    assert re.search(r"Thinking <span class=\"muted\">\(150 characters\)</span>", html), html
    assert "words)" not in html


def test_every_template_environment_has_the_one_plural() -> None:
    assert template_environment().filters["plural"] is plural
    assert environment().filters["plural"] is plural
    assert environment().filters["text_size"] is text_size


def test_no_template_spells_a_plural_by_hand() -> None:
    # "{{ n|number }} sessions" says "1 sessions": counts go through the plural filter.
    root = Path(cclens.__file__ or "").parent
    hand_made = re.compile(
        r"\{\{[^}]*\|number \}\} (sessions|projects|prompts|tool calls|responses|calls)\b"
        r"|\{\{[^}]*\}\} (?:item|session|project|prompt|call|response)\{\{ \"s\" if"
    )
    found = [
        f"{path.relative_to(root)}: {match.group(0)}"
        for path in sorted(root.glob("*/templates/**/*.html"))
        for match in hand_made.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
