"""Token counts by kind: what one API response, or any group of them, used."""

from __future__ import annotations

import msgspec

from ..model import Usage


class TokenCounts(msgspec.Struct, kw_only=True):
    """Tokens by kind. ``total`` is the sum of the five kinds (kept in step on construction).

    ``cache_write_5m`` and ``cache_write_1h`` split ``cache_creation_input_tokens`` by the cache
    lifetime the API reports; a response that reports no split counts all of its cache writes as
    5-minute writes (the API's default lifetime).
    """

    input: int = 0
    output: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    total: int = 0

    def __post_init__(self) -> None:
        self.total = (
            self.input + self.output + self.cache_write_5m + self.cache_write_1h + self.cache_read
        )

    @classmethod
    def of(cls, usage: Usage) -> TokenCounts:
        """The counts of one ``usage`` object as Claude Code recorded it."""
        return cls(
            input=usage.input_tokens or 0,
            output=usage.output_tokens or 0,
            cache_write_5m=usage.cache_write_5m,
            cache_write_1h=usage.cache_write_1h,
            cache_read=usage.cache_read_input_tokens or 0,
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
        )

    def split(self, parts: int) -> list[TokenCounts]:
        """``parts`` shares that add up exactly to these counts.

        Each kind is divided evenly; the remainder goes one token at a time to the first shares,
        so integer counts stay integers and no token is lost or invented.
        """
        if parts < 1:
            raise ValueError("parts must be at least 1")
        kinds = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")
        shares: list[dict[str, int]] = [{} for _ in range(parts)]
        for kind in kinds:
            whole, remainder = divmod(getattr(self, kind), parts)
            for position, share in enumerate(shares):
                share[kind] = whole + (1 if position < remainder else 0)
        return [TokenCounts(**share) for share in shares]


__all__ = ["TokenCounts"]
