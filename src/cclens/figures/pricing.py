"""What tokens cost: a dated price table per model, and the cost of one API response.

The bundled table (``prices.json`` beside this module) lists Claude models, the OpenAI
models Codex CLI runs and Google's Gemini models in US dollars per million tokens. A table file
has this shape (``--pricing FILE`` takes the same)::

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
the input price (1.25x for 5-minute writes, 2x for 1-hour writes, 0.1x for reads). An entry may
say where its prices come from and when they were read (``source``, ``as_of``) when that is not
the table's, ``"exact": true`` to be matched by its own id only (with a date suffix), never by
the prefix rule below (OpenAI's ``gpt-5.4`` must not price ``gpt-5.4-pro``), from when they hold
(``since``, an ISO time: an earlier response is unpriced, never priced at later rates) and its
cheaper hours (``off_peak``: ``{"multiplier": 0.5, "peak_utc": [[1, 4], [6, 10]],
"weekdays_only": true}``: outside the peak hours, UTC, and at weekends, the rates are halved).
``long_context`` prices every token of a response whose prompt (input, cache writes and reads)
is above ``above`` tokens; ``fast`` prices responses served in fast mode (``usage.speed`` is
``"fast"``); ``inference_geo`` multiplies the cost of responses run in that geography.

A model matches a table entry by its id with any platform prefix, date (``-20250929``,
``-2025-08-07``), version suffix or ``[1m]`` tag removed
(``us.anthropic.claude-sonnet-4-5-20250929-v1:0`` is ``claude-sonnet-4-5``), then by the
longest entry that is a prefix of it followed by a part that is not a version number:
``claude-sonnet-4-latest`` is ``claude-sonnet-4``, but ``claude-opus-4-9`` is not
``claude-opus-4`` — an unknown version is unpriced, never guessed; nor is a name whose rest
names another kind of model (``gemini-2.5-flash-image`` is not ``gemini-2.5-flash``: image
generation has prices of its own).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
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
_DATE_SUFFIX = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$")
_BEDROCK_VERSION = re.compile(r"-v\d+(?::\d+)?$")
_BRACKET_TAG = re.compile(r"\[[^\]]*\]$")
_VERSION_PART = re.compile(r"^\d{1,2}$")
_DOTTED_VERSION = re.compile(r"(?<=\d)\.(?=\d)")
#: Words that, after a priced model's name, name another model with prices of its own
#: (``gemini-2.5-flash-image``, ``gemini-2.5-flash-preview-tts``, ``gemini-2.0-flash-lite``):
#: such a name is not priced as the shorter one.
_OTHER_MODEL = frozenset(
    {"image", "tts", "audio", "native", "live", "lite", "embedding", "computer", "robotics"}
)


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


class OffPeak(msgspec.Struct, frozen=True, kw_only=True):
    """Cheaper hours: outside the ``peak`` hours (UTC, ``[start, end)`` pairs; on
    ``weekdays_only``, every hour of Saturday and Sunday too), the rates are multiplied by
    ``multiplier``."""

    multiplier: float
    peak: tuple[tuple[int, int], ...]
    weekdays_only: bool = False

    def applies(self, when: datetime) -> bool:
        """Whether ``when`` falls in the cheaper hours."""
        moment = when.astimezone(UTC)
        if self.weekdays_only and moment.weekday() >= 5:
            return True
        return not any(start <= moment.hour < end for start, end in self.peak)


class ModelPrice(msgspec.Struct, frozen=True, kw_only=True):
    """One table entry: standard rates, and the long-context and fast-mode rates if any.

    ``since``: the rates hold from this moment (a response before it has no price here);
    ``off_peak``: cheaper hours; ``as_of`` and ``source``: when and where the entry's prices
    were read, when it says (else the table's).
    """

    rates: Rates
    #: Prompts above this many tokens are priced at ``long_context`` rates.
    long_context_above: int | None = None
    long_context: Rates | None = None
    fast: Rates | None = None
    aliases: tuple[str, ...] = ()
    #: Matched only by its own id (and aliases, dated snapshots): never by the prefix rule.
    exact: bool = False
    since: datetime | None = None
    off_peak: OffPeak | None = None
    #: Where this entry's prices come from and when they were read, when not the table's.
    as_of: str = ""
    source: str = ""


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
            if self.models[keys[key]].exact:
                continue
            if name.startswith(key + "-") and (best is None or len(key) > len(best)):
                rest = name[len(key) + 1 :].split("-")
                if not _VERSION_PART.match(rest[0]) and not _OTHER_MODEL.intersection(rest):
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
    when: datetime | None = None,
) -> PricedCost:
    """What one API response cost: its model's rates (fast or long-context when they apply)
    times its tokens, times the table's multiplier for its inference geography; ``when`` the
    response was made, for entries whose price depends on it (``since``, ``off_peak``)."""
    key = table.match(model)
    if key is None:
        return PricedCost(cost=None, price=None, reason=f"no price for {model or 'no model'}")
    entry = table.models[key]
    if entry.since is not None or entry.off_peak is not None:
        if when is None:
            return PricedCost(cost=None, price=None, reason=f"no time to price {key} by")
        if entry.since is not None and when < entry.since:
            return PricedCost(
                cost=None,
                price=None,
                reason=f"no price for {key} before {entry.since:%Y-%m-%d %H:%M} UTC",
            )
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
    if entry.off_peak is not None and when is not None and entry.off_peak.applies(when):
        multiplier *= entry.off_peak.multiplier
        label += " (off-peak)"
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
    exact = raw.get("exact", False)
    if not isinstance(exact, bool):
        raise PricingError(f"{where}: 'exact' must be true or false")
    for key in ("source", "as_of"):
        if not isinstance(raw.get(key, ""), str):
            raise PricingError(f"{where}: {key!r} must be a string")
    return ModelPrice(
        rates=rates,
        long_context_above=above,
        long_context=long_rates,
        fast=_rates(fast, f"{where}.fast") if fast is not None else None,
        aliases=tuple(aliases),
        exact=exact,
        since=_moment(raw.get("since"), f"{where}.since"),
        off_peak=_off_peak(raw.get("off_peak"), f"{where}.off_peak"),
        as_of=_text(raw.get("as_of"), f"{where}.as_of"),
        source=_text(raw.get("source"), f"{where}.source"),
    )


def _text(raw: Any, where: str) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise PricingError(f"{where}: expected text, not {raw!r}")
    return raw


def _moment(raw: Any, where: str) -> datetime | None:
    if raw is None:
        return None
    try:
        found = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        found = None
    if found is None:
        raise PricingError(f"{where}: expected an ISO 8601 time (2026-09-10T04:00:00Z)")
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def _off_peak(raw: Any, where: str) -> OffPeak | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise PricingError(f"{where}: expected an object with multiplier and peak_utc")
    multiplier = _number(raw, "multiplier", where, required=True)
    peak = raw.get("peak_utc")
    if not isinstance(peak, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and all(isinstance(hour, int) and not isinstance(hour, bool) for hour in pair)
        and 0 <= pair[0] < pair[1] <= 24
        for pair in peak
    ):
        raise PricingError(f"{where}: 'peak_utc' must list [start, end] UTC hours")
    assert multiplier is not None
    return OffPeak(
        multiplier=multiplier,
        peak=tuple((int(a), int(b)) for a, b in peak),
        weekdays_only=bool(raw.get("weekdays_only", False)),
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
    "OffPeak",
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
