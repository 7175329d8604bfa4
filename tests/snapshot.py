"""Shared by the snapshot tests: what may differ between library versions is made equal once."""

from __future__ import annotations

import re

# Pygments 2.21 writes ' as &#39; where 2.20 wrote it plainly; markupsafe writes &#39; too.
_APOSTROPHE = re.compile(r"&#(?:39|x27);")


def canonical(html: str) -> str:
    """``html`` with the spellings that differ between library versions made the same."""
    return _APOSTROPHE.sub("'", html)
