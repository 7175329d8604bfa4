"""Write ``prefixes.json``, the literal prefixes of every rule the engine runs, worked out in
advance (see :func:`cclens.redact.literals.known_prefixes`)::

    python -m cclens.redact.prefix_table

Run it after changing a rule: ``tests/test_redact_prefixes.py`` fails until the table is
current (an expression missing from it is still parsed, so an old table only costs time).
"""

from __future__ import annotations

from .literals import TABLE, table_text
from .rules import all_rules


def write_table() -> None:
    """Write the table of the rules :func:`cclens.redact.rules.all_rules` gives."""
    TABLE.write_text(table_text(rule.regex for rule in all_rules()), encoding="utf-8")


if __name__ == "__main__":
    write_table()
