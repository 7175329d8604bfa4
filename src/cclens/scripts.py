"""Scripts written without spaces between words: which characters they are.

Chinese and Japanese put no space between words, nor do Thai, Lao, Khmer and Myanmar, and a
Korean word carries its particles. Search reads each of these characters as a word of its own
(:mod:`cclens.index.words`), and a text mostly in them is measured in characters, not words
(:func:`cclens.formats.text_size`).
"""

from __future__ import annotations

import functools
import re

#: Characters of the scripts written without spaces (each is a token): Hangul jamo and
#: syllables, Japanese kana and iteration marks, Bopomofo, CJK ideographs (and their
#: extensions and compatibility forms), Yi, halfwidth katakana and Hangul; the letters of
#: Thai, Lao, Khmer and Myanmar.
BASES = (
    "\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46"  # Thai
    "\u0e81-\u0eb0\u0eb2\u0eb3\u0ebd-\u0ec6\u0edc-\u0edf"  # Lao
    "\u1000-\u102a\u103f\u1050-\u1055\u105a-\u105d\u1061\u1065\u1066\u106e-\u1070"
    "\u1075-\u1081\u108e"  # Myanmar
    "\u1100-\u11ff"  # Hangul jamo
    "\u1780-\u17b3"  # Khmer
    "\u3005-\u3007"  # 々 〆 〇
    "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff"  # hiragana, katakana
    "\u3105-\u312f\u3131-\u318e\u31a0-\u31bf\u31f0-\u31ff"  # bopomofo, jamo, katakana
    "\u3400-\u4dbf\u4e00-\u9fff"  # CJK ideographs
    "\ua000-\ua48c\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7fb"  # Yi, Hangul
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9d\uffa1-\uffdc"  # halfwidth katakana and Hangul
    "\U00020000-\U0003134f"  # CJK ideographs, supplementary planes
)
#: Marks that combine with the character before them (the tokenizer drops them, as it drops
#: every mark: they are part of that character's token, never one of their own).
MARKS = (
    "\u0e31\u0e34-\u0e3a\u0e47-\u0e4e"
    "\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ecd"
    "\u102b-\u103e\u1056-\u1059\u105e-\u1060\u1062-\u1064\u1067-\u106d\u1071-\u1074"
    "\u1082-\u108d\u108f\u109a-\u109d"
    "\u17b4-\u17d3\u17dd"
    "\u3099\u309a"
)
#: Halfwidth voiced sound marks: letters to the tokenizer, kept in the character's token.
LETTER_MARKS = "\uff9e\uff9f"
#: One character of an unspaced script, with the marks that follow it.
UNIT = f"[{BASES}][{MARKS}{LETTER_MARKS}]*"


@functools.cache
def _unspaced() -> re.Pattern[str]:
    """One character of an unspaced script (compiled when first needed: a few milliseconds
    that a command measuring only ASCII text never pays)."""
    return re.compile(f"[{BASES}]")


def unspaced_characters(text: str) -> int:
    """How many characters of ``text`` belong to a script written without spaces."""
    return 0 if text.isascii() else len(_unspaced().findall(text))


__all__ = ["BASES", "LETTER_MARKS", "MARKS", "UNIT", "unspaced_characters"]
