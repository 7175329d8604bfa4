"""What tokens cost: a dated price table per model, and the cost of one API response.

The bundled table (``prices.json`` beside this module) lists Claude models in US dollars per
million tokens. A table file has this shape (``--pricing FILE`` takes the same)::

    {
      "as_of": "2026-11-21",
      "source": "where the prices come from",
      "inference_geo": {"us": 1.1},
      "models": {
        "claude-sonnet-4-5": {
          "input": 3, "output": 15,
          "cache_write_5m": 3.75, "cache_write_1h": 6, "cache_read": 0.3,
          "aliases": ["claude-sonnet-4-5-latest"],
          "long_context": {"above": 200000, "input": 6, "output": 22.5},
          "fast": {"input": 30, "output": 150}
        }
      }
    }

Only ``input`` and ``output`` are required; cache prices default to Anthropic's multipliers of
the input price (1.25x for 5-minute writes, 2x for 1-hour writes, 0.1x for reads).
``long_context`` prices every token of a response whose prompt (input, cache writes and reads)
is above ``above`` tokens; ``fast`` prices responses served in fast mode (``usage.speed`` is
``"fast"``); ``inference_geo`` multiplies the cost of responses run in that geography.

A model matches a table entry by its id with any platform prefix, date, version suffix or
``[1m]`` tag removed (``us.anthropic.claude-sonnet-4-5-20250929-v1:0`` is
``claude-sonnet-4-5``), then by the longest entry that is a prefix of it followed by a part that
is not a version number: ``claude-sonnet-4-latest`` is ``claude-sonnet-4``, but
``claude-opus-4-9`` is not ``claude-opus-4`` — an unknown version is unpriced, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from ..files import read_regular
from .tokens import TokenCounts

#: Cache prices as multiples of the input price, when a table entry does not give them.
CACHE_WRITE_5M_MULTIPLIER = 1.25
CACHE_WRITE_1H_MULTIPLIER = 2.0
CACHE_READ_MULTIPLIER = 0.1

_PER = 1_000_000
_DATE_SUFFIX = re.compile(r"-\d{8}$")
_BEDROCK_VERSION = re.compile(r"-v\d+(?::\d+)?$")
_BRACKET_TAG = re.compile(r"\[[^\]]*\]$")
_VERSION_PART = re.compile(r"^\d{1,2}$")
_DOTTED_VERSION = re.compile(r"(?<=\d)\.(?=\d)")


class PricingError(ValueError):
    """A price table that cannot be used; the message names the file and what is wrong."""


class Rates(msgspec.Struct, frozen=True, kw_only=True):
    """Prices per million tokens of each kind."""

    input: float
    output: float
    cache_write_5m: float
    cache_write_1h: float
    cache_read: float

    def cost(self, tokens: TokenCounts) -> float:
        """The cost of ``tokens`` at these rates."""
        return (
            tokens.input * self.input
            + tokens.output * self.output
            + tokens.cache_write_5m * self.cache_write_5m
            + tokens.cache_write_1h * self.cache_write_1h
            + tokens.cache_read * self.cache_read
        ) / _PER


class ModelPrice(msgspec.Struct, frozen=True, kw_only=True):
    """One table entry: standard rates, and the long-context and fast-mode rates if any."""

    rates: Rates
    #: Prompts above this many tokens are priced at ``long_context`` rates.
    long_context_above: int | None = None
    long_context: Rates | None = None
    fast: Rates | None = None
    aliases: tuple[str, ...] = ()


class PriceTable(msgspec.Struct, frozen=True, kw_only=True):
    """Prices per model, with the date they were checked and where they come from."""

    as_of: str
    source: str
    models: dict[str, ModelPrice]
    #: Cost multipliers by ``usage.inference_geo`` value.
    inference_geo: dict[str, float] = {}
    #: Files merged over the bundled table, in order.
    overrides: tuple[str, ...] = ()

    def match(self, model: str | None) -> str | None:
        """The table entry ``model`` is priced by, or ``None`` when it has no price."""
        if not model:
            return None
        if id(self) not in _MATCHES and len(_MATCHES) >= _MATCHED_TABLES:
            _MATCHES.clear()  # tables are few; a long-lived process must not collect them all
        memo = _MATCHES.setdefault(id(self), (self, {}))[1]
        if model not in memo:
            memo[model] = self._match(model)
        return memo[model]

    def _match(self, model: str) -> str | None:
        name = normalize_model(model)
        keys = self._keys()
        if name in keys:
            return keys[name]
        best: str | None = None
        for key in keys:
            if name.startswith(key + "-") and (best is None or len(key) > len(best)):
                rest = name[len(key) + 1 :].split("-", 1)[0]
                if not _VERSION_PART.match(rest):
                    best = key
        return keys[best] if best is not None else None

    def _keys(self) -> dict[str, str]:
        keys: dict[str, str] = {}
        for key, price in self.models.items():
            keys[normalize_model(key)] = key
            for alias in price.aliases:
                keys[normalize_model(alias)] = key
        return keys


#: Matches already made, per table (kept with the table itself, so its id stays its own): a
#: model id is looked up once per response, and matching normalises every key of the table.
_MATCHES: dict[int, tuple[PriceTable, dict[str, str | None]]] = {}
_MATCHED_TABLES = 16


class PricedCost(msgspec.Struct, frozen=True, kw_only=True):
    """The cost of one response, or why it has none.

    ``price`` names the table entry used (with ``" (fast)"`` or ``" (long context)"`` when
    those rates applied); ``cost`` is ``None`` when the response is unpriced, and ``reason``
    says why.
    """

    cost: float | None
    price: str | None
    reason: str | None = None


def normalize_model(model: str) -> str:
    """A model id without platform prefix, date, version suffix or bracketed tag, lower case.

    ``us.anthropic.claude-opus-4-1-20250805-v1:0`` and ``claude-opus-4-1@20250805`` both give
    ``claude-opus-4-1``.
    """
    name = model.strip().lower()
    name = _BRACKET_TAG.sub("", name)
    name = name.rpartition("anthropic.")[2] if "anthropic." in name else name
    name = name.rpartition("/")[2]
    name = name.partition("@")[0]
    name = _BEDROCK_VERSION.sub("", name)
    name = _DOTTED_VERSION.sub("-", name)  # claude-opus-4.6, as some gateways write it
    return _DATE_SUFFIX.sub("", name)


def response_cost(
    table: PriceTable,
    model: str | None,
    tokens: TokenCounts,
    *,
    speed: str | None = None,
    inference_geo: str | None = None,
) -> PricedCost:
    """What one API response cost: its model's rates (fast or long-context when they apply)
    times its tokens, times the table's multiplier for its inference geography."""
    key = table.match(model)
    if key is None:
        return PricedCost(cost=None, price=None, reason=f"no price for {model or 'no model'}")
    entry = table.models[key]
    rates = entry.rates
    label = key
    if speed == "fast":
        if entry.fast is None:
            return PricedCost(cost=None, price=None, reason=f"no fast-mode price for {key}")
        rates, label = entry.fast, f"{key} (fast)"
    elif (
        entry.long_context is not None
        and entry.long_context_above is not None
        and tokens.context > entry.long_context_above
    ):
        rates, label = entry.long_context, f"{key} (long context)"
    multiplier = table.inference_geo.get(inference_geo or "", 1.0)
    return PricedCost(cost=rates.cost(tokens) * multiplier, price=label)


def _number(raw: Mapping[str, Any], key: str, where: str, *, required: bool) -> float | None:
    found = raw.get(key)
    if found is None:
        if required:
            raise PricingError(f"{where}: {key!r} is missing")
        return None
    if isinstance(found, bool) or not isinstance(found, int | float) or found < 0:
        raise PricingError(f"{where}: {key!r} must be a number of dollars, not {found!r}")
    return float(found)


def _rates(raw: Any, where: str) -> Rates:
    if not isinstance(raw, dict):
        raise PricingError(f"{where}: expected an object with input and output prices")
    input_price = _number(raw, "input", where, required=True)
    output_price = _number(raw, "output", where, required=True)
    assert input_price is not None and output_price is not None
    write_5m = _number(raw, "cache_write_5m", where, required=False)
    write_1h = _number(raw, "cache_write_1h", where, required=False)
    read = _number(raw, "cache_read", where, required=False)
    return Rates(
        input=input_price,
        output=output_price,
        cache_write_5m=input_price * CACHE_WRITE_5M_MULTIPLIER if write_5m is None else write_5m,
        cache_write_1h=input_price * CACHE_WRITE_1H_MULTIPLIER if write_1h is None else write_1h,
        cache_read=input_price * CACHE_READ_MULTIPLIER if read is None else read,
    )


def _model_price(raw: Any, where: str) -> ModelPrice:
    rates = _rates(raw, where)
    assert isinstance(raw, dict)
    aliases = raw.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise PricingError(f"{where}: 'aliases' must be a list of model ids")
    long_context = raw.get("long_context")
    above: int | None = None
    long_rates: Rates | None = None
    if long_context is not None:
        long_rates = _rates(long_context, f"{where}.long_context")
        threshold = long_context.get("above")
        if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
            raise PricingError(f"{where}.long_context: 'above' must be a number of tokens")
        above = threshold
    fast = raw.get("fast")
    return ModelPrice(
        rates=rates,
        long_context_above=above,
        long_context=long_rates,
        fast=_rates(fast, f"{where}.fast") if fast is not None else None,
        aliases=tuple(aliases),
    )


def parse_price_table(data: bytes, *, name: str) -> PriceTable:
    """Read a price table from JSON bytes; ``name`` labels error messages (a file name)."""
    try:
        document = msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        raise PricingError(f"{name}: not valid JSON: {error}") from None
    except UnicodeDecodeError:
        raise PricingError(f"{name}: not valid UTF-8") from None
    if not isinstance(document, dict):
        raise PricingError(f"{name}: the top level must be a JSON object")
    models = document.get("models")
    if not isinstance(models, dict):
        raise PricingError(f"{name}: 'models' must be an object of model id → prices")
    geo = document.get("inference_geo", {})
    if not isinstance(geo, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in geo.values()
    ):
        raise PricingError(f"{name}: 'inference_geo' must map a geography to a multiplier")
    return PriceTable(
        as_of=str(document.get("as_of") or ""),
        source=str(document.get("source") or ""),
        models={key: _model_price(raw, f"{name}: models.{key}") for key, raw in models.items()},
        inference_geo={str(k): float(v) for k, v in geo.items()},
    )


def bundled_price_table() -> PriceTable:
    """The price table shipped with cclens."""
    data = resources.files(__package__).joinpath("prices.json").read_bytes()
    return parse_price_table(data, name="prices.json (bundled)")


def merge_price_tables(base: PriceTable, override: PriceTable, *, name: str) -> PriceTable:
    """``base`` with ``override``'s models added or replacing entries of the same id.

    The override's date and source win when it gives them; so do its geography multipliers.
    """
    return PriceTable(
        as_of=override.as_of or base.as_of,
        source=override.source or base.source,
        models={**base.models, **override.models},
        inference_geo={**base.inference_geo, **override.inference_geo},
        overrides=(*base.overrides, name),
    )


def load_price_table(path: Path | str | None = None) -> PriceTable:
    """The bundled table, with the table in ``path`` merged over it when one is given.

    Raises :class:`PricingError` (naming the file) when ``path`` cannot be read or is not a
    price table.
    """
    table = bundled_price_table()
    if path is None:
        return table
    path = Path(path)
    try:
        data = read_regular(path)
    except OSError as error:
        raise PricingError(f"{path}: cannot read: {error.strerror or error}") from None
    return merge_price_tables(table, parse_price_table(data, name=str(path)), name=str(path))


__all__ = [
    "CACHE_READ_MULTIPLIER",
    "CACHE_WRITE_1H_MULTIPLIER",
    "CACHE_WRITE_5M_MULTIPLIER",
    "ModelPrice",
    "PriceTable",
    "PricedCost",
    "PricingError",
    "Rates",
    "bundled_price_table",
    "load_price_table",
    "merge_price_tables",
    "normalize_model",
    "parse_price_table",
    "response_cost",
]
