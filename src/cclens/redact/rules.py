"""The rule set, in the order that decides ties at one position.

Ids Claude Code and the model APIs generate come first (protected, never redacted: see
``ids.py``); then provider formats (a ``sk-ant-…`` key is an Anthropic key before it is a
high-entropy string or the value of ``API_KEY=``), then structures, then passwords given as
command-line flags, then secret-named assignments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from cclens.redact.assignments import assignment_rules
from cclens.redact.flags import FLAG_RULES
from cclens.redact.ids import id_rules
from cclens.redact.patterns import TOKEN_PATTERNS, TokenPattern
from cclens.redact.scanner import Hit, Outcome, Rule
from cclens.redact.structures import STRUCTURE_RULES

_LOOK_BACK: Final = 128


def _token_handler(pattern: TokenPattern) -> Callable[[Hit], Outcome]:
    has_secret_group = "(?P<secret>" in pattern.regex
    if not pattern.lead:

        def handle(hit: Hit) -> Outcome:
            return hit.redact(pattern.kind, hit.span("secret") if has_secret_group else None)

        return handle

    lead = re.compile(f"(?:{pattern.lead})\\Z")
    left = re.compile(f"[{pattern.left}]") if pattern.left else None

    def handle_with_lead(hit: Hit) -> Outcome:
        # The scan found the distinctive middle of the format; its start is found looking back.
        window = max(hit.floor, hit.start - _LOOK_BACK)
        found = lead.search(hit.text[window : hit.start])
        if found is None:
            return hit.decline()
        start = window + found.start()
        if left is not None and start > hit.floor and left.match(hit.text, start - 1):
            return hit.decline()
        return hit.redact(pattern.kind, (start, hit.end))

    return handle_with_lead


def token_rule(pattern: TokenPattern) -> Rule:
    """The scanning rule for one row of the provider table."""
    regex = pattern.regex + (f"(?![{pattern.right}])" if pattern.right else "")
    left = None if pattern.lead else pattern.left or None
    return Rule(regex, _token_handler(pattern), left=left, anchor=pattern.anchor)


def all_rules() -> tuple[Rule, ...]:
    """Every rule the scanner runs, in priority order."""
    return (
        *id_rules(),
        *(token_rule(pattern) for pattern in TOKEN_PATTERNS),
        *STRUCTURE_RULES,
        *FLAG_RULES,
        *assignment_rules(),
    )
