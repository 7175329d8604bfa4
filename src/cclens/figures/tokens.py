"""Token counts by kind: what one API response, or any group of them, used."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:  # the model is loaded only to read a recorded usage (the status line never)
    from ..model import Usage


def _count(value: object) -> int:
    """A token count as recorded: a non-negative integer, else 0 (absent, null or junk)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class TokenCounts(msgspec.Struct, kw_only=True):
    """Tokens by kind. ``total`` is the sum of the five kinds (kept in step on construction).

    Cache writes are the API's ``cache_creation_input_tokens``: that total is authoritative.
    ``cache_write_5m`` and ``cache_write_1h`` split it by the lifetimes the response's
    ``cache_creation`` breakdown reports; what the breakdown does not explain (no breakdown, or
    one of zeros under a non-zero total, as some responses carry) is counted as 5-minute writes
    (the API's default lifetime) and also counted in ``cache_write_unsplit``, which is part of
    ``cache_write_5m``, not a sixth kind (it is not added to ``total``).
    """

    input: int = 0
    output: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    total: int = 0
    #: Of ``cache_write_5m``: the cache writes the breakdown did not split.
    cache_write_unsplit: int = 0

    def __post_init__(self) -> None:
        self.total = (
            self.input + self.output + self.cache_write_5m + self.cache_write_1h + self.cache_read
        )

    @classmethod
    def of(cls, usage: Usage) -> TokenCounts:
        """The counts of one ``usage`` object as Claude Code recorded it."""
        from ..model.messages import CacheCreation

        split = usage.cache_creation
        five = one = None
        if isinstance(split, CacheCreation):
            five = split.ephemeral_5m_input_tokens
            one = split.ephemeral_1h_input_tokens
        return cls.from_counts(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_creation_input_tokens,
            usage.cache_read_input_tokens,
            five,
            one,
        )

    @classmethod
    def from_columns(cls, values: Sequence[Any]) -> TokenCounts:
        """Six numbers in the order of the index's token columns (input, output, 5-minute and
        1-hour cache writes, cache reads, unsplit cache writes)."""
        i, o, w5, w1, r, unsplit = values
        return cls(
            input=i,
            output=o,
            cache_write_5m=w5,
            cache_write_1h=w1,
            cache_read=r,
            cache_write_unsplit=unsplit,
        )

    @classmethod
    def from_counts(
        cls,
        input_tokens: object,
        output_tokens: object,
        cache_creation: object,
        cache_read: object,
        split_5m: object = None,
        split_1h: object = None,
    ) -> TokenCounts:
        """The counts of a response from the numbers of its ``usage`` (absent ones are 0).

        ``cache_creation`` is ``cache_creation_input_tokens``; ``split_5m`` and ``split_1h``
        the ``cache_creation`` breakdown. The total is authoritative (the breakdown's sum only
        when the total is absent); the breakdown splits it, 1-hour writes first (they can be no
        more than the total), and the rest is 5-minute writes, the part the breakdown did not
        explain counted in ``cache_write_unsplit``.
        """
        five, one = _count(split_5m), _count(split_1h)
        total = five + one if not isinstance(cache_creation, int) else _count(cache_creation)
        one = min(one, total)
        five_explained = min(five, total - one)
        return cls(
            input=_count(input_tokens),
            output=_count(output_tokens),
            cache_write_5m=total - one,
            cache_write_1h=one,
            cache_read=_count(cache_read),
            cache_write_unsplit=total - one - five_explained,
        )

    @property
    def cache_write(self) -> int:
        """Cache writes of both lifetimes."""
        return self.cache_write_5m + self.cache_write_1h

    @property
    def context(self) -> int:
        """The prompt's size: input, cache writes and cache reads (everything but output)."""
        return self.input + self.cache_write_5m + self.cache_write_1h + self.cache_read

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(
            input=self.input + other.input,
            output=self.output + other.output,
            cache_write_5m=self.cache_write_5m + other.cache_write_5m,
            cache_write_1h=self.cache_write_1h + other.cache_write_1h,
            cache_read=self.cache_read + other.cache_read,
            cache_write_unsplit=self.cache_write_unsplit + other.cache_write_unsplit,
        )

    def split(self, parts: int) -> list[TokenCounts]:
        """``parts`` shares that add up exactly to these counts.

        Each kind is divided evenly; the remainder goes one token at a time to the first shares,
        so integer counts stay integers and no token is lost or invented.
        """
        if parts < 1:
            raise ValueError("parts must be at least 1")
        kinds = (
            "input",
            "output",
            "cache_write_5m",
            "cache_write_1h",
            "cache_read",
            "cache_write_unsplit",
        )
        shares: list[dict[str, int]] = [{} for _ in range(parts)]
        for kind in kinds:
            whole, remainder = divmod(getattr(self, kind), parts)
            for position, share in enumerate(shares):
                share[kind] = whole + (1 if position < remainder else 0)
        return [TokenCounts(**share) for share in shares]


__all__ = ["TokenCounts"]
