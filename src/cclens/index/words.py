"""Words as the index sees them: what makes a token, what separates tokens.

The write path cuts documents with these definitions and the read path reads queries with them,
so both live here, below both.
"""

from __future__ import annotations

import re

#: Words one phrase may hold. Long texts are indexed in pieces that overlap by more words than
#: this (see :data:`cclens.index.extract.OVERLAP_WORDS`), so a phrase is found wherever it falls.
MAX_PHRASE_WORDS = 32

#: A run of the characters FTS5's ``unicode61`` tokenizer keeps in a token (letters, digits and
#: private-use characters); everything else separates tokens.
TOKEN = re.compile(
    # Runs of word characters and of private-use ones, alternating: one class with an
    # alternative per character is twice as slow.
    r"[^\W_]+(?:[\ue000-\uf8ff\U000f0000-\U0010ffff]+[^\W_]*)*"
    r"|[\ue000-\uf8ff\U000f0000-\U0010ffff]+(?:[^\W_]+[\ue000-\uf8ff\U000f0000-\U0010ffff]*)*"
)


#: A private-use character (a token character to FTS5, rare in text: patterns without them
#: run several times faster where none is found).
PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
#: One character of a token, and one that separates tokens.
WORD_CHARACTER = re.compile(r"(?:[^\W_]|[\ue000-\uf8ff\U000f0000-\U0010ffff])")
SEPARATOR = re.compile(r"(?:[^\w\ue000-\uf8ff\U000f0000-\U0010ffff]|_)")
