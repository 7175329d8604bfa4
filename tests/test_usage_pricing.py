"""The price table: matching model ids, computing a response's cost, and overrides."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cclens.figures.pricing import (
    PricingError,
    bundled_price_table,
    load_price_table,
    normalize_model,
    parse_price_table,
    response_cost,
)
from cclens.figures.tokens import TokenCounts

TOKENS = TokenCounts(
    input=1_000, output=2_000, cache_write_5m=3_000, cache_write_1h=4_000, cache_read=5_000
)


@pytest.mark.parametrize(
    ("model", "normalized"),
    [
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-opus-4-1@20250805", "claude-opus-4-1"),
        ("us.anthropic.claude-opus-4-1-20250805-v1:0", "claude-opus-4-1"),
        ("anthropic/claude-opus-4.6", "claude-opus-4-6"),
        ("claude-sonnet-4-5-20250929[1m]", "claude-sonnet-4-5"),
        ("Claude-Opus-4-7", "claude-opus-4-7"),
        ("deepseek-chat", "deepseek-chat"),
    ],
)
def test_normalize_model(model: str, normalized: str) -> None:
    assert normalize_model(model) == normalized


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-sonnet-4-20250514", "claude-sonnet-4"),
        ("claude-sonnet-4-0", "claude-sonnet-4"),
        ("claude-sonnet-4-latest", "claude-sonnet-4"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
        ("claude-opus-4-20250514", "claude-opus-4"),
        ("claude-opus-4-7", "claude-opus-4-7"),
        ("claude-opus-5", "claude-opus-5"),
        ("claude-sonnet-5", "claude-sonnet-5"),
        ("claude-3-5-sonnet-20241022", "claude-3-5-sonnet"),
        ("claude-3-5-sonnet-latest", "claude-3-5-sonnet"),
        ("claude-3-7-sonnet-20250219", "claude-3-7-sonnet"),
        ("claude-3-haiku-20240307", "claude-3-haiku"),
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("anthropic.claude-3-5-haiku-20241022-v1:0", "claude-3-5-haiku"),
        # Unknown versions are not priced like an older model of the family.
        ("claude-opus-4-9", None),
        ("claude-sonnet-4-7", None),
        ("claude-haiku-5-5", None),
        # Google's Gemini models: previews and dated versions as their model, other kinds of
        # model (image, speech, live audio) never priced as the text model they extend.
        ("gemini-2.5-pro", "gemini-2.5-pro"),
        ("gemini-2.5-pro-preview-06-05", "gemini-2.5-pro"),
        ("gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash"),
        ("gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
        ("gemini-3-pro-preview", "gemini-3-pro"),
        ("gemini-3.1-pro-preview", "gemini-3.1-pro"),
        ("gemini-3-flash-preview", "gemini-3-flash"),
        ("gemini-2.0-flash-001", "gemini-2.0-flash"),
        ("gemini-2.5-flash-image", None),
        ("gemini-2.5-flash-image-preview", None),
        ("gemini-2.5-flash-preview-tts", None),
        ("gemini-2.5-flash-native-audio-preview-09-2025", None),
        ("gemini-3-pro-image-preview", None),
        ("gemini-1.5-pro", None),
        # Not a model, or another vendor's without a price.
        ("<synthetic>", None),
        ("kimi-k2-0905-preview", None),
        ("qwen3-coder-plus", None),
        # Other vendors' models Claude Code is pointed at, by their own price entries.
        ("deepseek-chat", "deepseek-flash"),
        ("deepseek-reasoner", "deepseek-flash"),
        ("deepseek-v4-pro", "deepseek-v4-pro"),
        ("MiniMax-M2", "minimax-m2"),
        ("MiniMax-M2.7-highspeed", "minimax-m2.7-highspeed"),
        ("MiniMax-M3", "minimax-m3"),
        ("kimi-k3", "kimi-k3"),
        ("glm-4.6", "glm-4.6"),
        ("GLM-5.3", "glm-5.3"),
        (None, None),
    ],
)
def test_match(model: str | None, entry: str | None) -> None:
    assert bundled_price_table().match(model) == entry


def test_cost_of_a_response_by_hand() -> None:
    table = bundled_price_table()
    # Sonnet 4.5: $3 input, $15 output, $3.75 / $6 cache writes, $0.30 cache reads per MTok.
    expected = (1_000 * 3 + 2_000 * 15 + 3_000 * 3.75 + 4_000 * 6 + 5_000 * 0.30) / 1_000_000
    priced = response_cost(table, "claude-sonnet-4-5-20250929", TOKENS)
    assert priced.cost == pytest.approx(expected)
    assert priced.price == "claude-sonnet-4-5"
    # Opus 4.1: $15, $75, $18.75, $30, $1.50.
    expected = (1_000 * 15 + 2_000 * 75 + 3_000 * 18.75 + 4_000 * 30 + 5_000 * 1.5) / 1_000_000
    assert response_cost(table, "claude-opus-4-1-20250805", TOKENS).cost == pytest.approx(expected)
    # Haiku 3 has cache prices of its own, not the multipliers.
    expected = (1_000 * 0.25 + 2_000 * 1.25 + 3_000 * 0.30 + 4_000 * 0.50 + 5_000 * 0.03) / 1e6
    assert response_cost(table, "claude-3-haiku-20240307", TOKENS).cost == pytest.approx(expected)


def test_cache_prices_default_to_multipliers_of_input() -> None:
    rates = bundled_price_table().models["claude-opus-4-5"].rates
    assert (rates.cache_write_5m, rates.cache_write_1h, rates.cache_read) == pytest.approx(
        (6.25, 10.0, 0.5)
    )


def test_long_context_rates_apply_above_the_threshold() -> None:
    table = bundled_price_table()
    small = TokenCounts(input=100_000, output=1_000, cache_read=100_000)
    large = TokenCounts(input=100_000, output=1_000, cache_read=100_001)
    assert response_cost(table, "claude-sonnet-4-5", small).cost == pytest.approx(
        (100_000 * 3 + 1_000 * 15 + 100_000 * 0.3) / 1e6
    )
    priced = response_cost(table, "claude-sonnet-4-5", large)
    assert priced.price == "claude-sonnet-4-5 (long context)"
    assert priced.cost == pytest.approx((100_000 * 6 + 1_000 * 22.5 + 100_001 * 0.6) / 1e6)


def test_fast_mode_is_priced_only_where_the_table_says() -> None:
    table = bundled_price_table()
    tokens = TokenCounts(input=1_000, output=1_000)
    fast = response_cost(table, "claude-opus-4-6", tokens, speed="fast")
    assert fast.cost == pytest.approx((1_000 * 30 + 1_000 * 150) / 1e6)
    assert fast.price == "claude-opus-4-6 (fast)"
    unknown = response_cost(table, "claude-opus-4-8", tokens, speed="fast")
    assert unknown.cost is None and unknown.reason == "no fast-mode price for claude-opus-4-8"
    standard = response_cost(table, "claude-opus-4-8", tokens, speed="standard")
    assert standard.cost == pytest.approx((1_000 * 5 + 1_000 * 25) / 1e6)


def test_inference_geo_multiplier() -> None:
    table = bundled_price_table()
    tokens = TokenCounts(input=1_000_000)
    assert response_cost(table, "claude-opus-4-7", tokens, inference_geo="us").cost == (
        pytest.approx(5 * 1.1)
    )
    assert response_cost(table, "claude-opus-4-7", tokens, inference_geo="global").cost == 5


def test_unpriced_model_is_never_guessed() -> None:
    priced = response_cost(bundled_price_table(), "qwen3-coder-plus", TOKENS)
    assert priced.cost is None and priced.price is None
    assert priced.reason == "no price for qwen3-coder-plus"


def test_pricing_file_overrides_and_adds(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    path.write_text(
        json.dumps(
            {
                "as_of": "2026-01-01",
                "models": {
                    "deepseek-chat": {"input": 0.28, "output": 0.42, "cache_read": 0.028},
                    "claude-sonnet-4-5": {"input": 1, "output": 2},
                },
            }
        )
    )
    table = load_price_table(path)
    assert table.as_of == "2026-01-01" and table.overrides == (str(path),)
    assert table.match("claude-opus-4-5-20251101") == "claude-opus-4-5"  # bundled entries stay
    cost = response_cost(table, "deepseek-chat", TokenCounts(input=1_000_000, cache_read=10))
    assert cost.cost == pytest.approx(0.28 + 10 * 0.028 / 1e6)
    sonnet = response_cost(table, "claude-sonnet-4-5-20250929", TokenCounts(output=1_000_000))
    assert sonnet.cost == pytest.approx(2)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "the top level must be a JSON object"),
        ('{"models": []}', "'models' must be an object"),
        ('{"models": {"m": {"input": 1}}}', "models.m: 'output' is missing"),
        ('{"models": {"m": {"input": 1, "output": "2"}}}', "'output' must be a number"),
        ('{"models": {"m": {"input": 1, "output": 2, "fast": {"input": 3}}}}', "m.fast"),
        (
            '{"models": {"m": {"input": 1, "output": 2, '
            '"long_context": {"input": 2, "output": 4}}}}',
            "'above' must be a number of tokens",
        ),
    ],
)
def test_bad_pricing_files_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "mine.json"
    path.write_text(content)
    with pytest.raises(PricingError) as raised:
        load_price_table(path)
    assert str(path) in str(raised.value) and message in str(raised.value)


def test_missing_pricing_file(tmp_path: Path) -> None:
    with pytest.raises(PricingError, match="cannot read"):
        load_price_table(tmp_path / "nope.json")


def test_gemini_long_context_and_thinking_prices() -> None:
    table = bundled_price_table()
    short = TokenCounts(input=100_000, output=1_000, cache_read=50_000)
    cost = response_cost(table, "gemini-2.5-pro", short)
    assert cost.price == "gemini-2.5-pro"
    assert cost.cost == pytest.approx((100_000 * 1.25 + 1_000 * 10 + 50_000 * 0.125) / 1e6)
    long = TokenCounts(input=150_000, output=1_000, cache_read=60_000)
    cost = response_cost(table, "gemini-2.5-pro", long)
    assert cost.price == "gemini-2.5-pro (long context)"
    assert cost.cost == pytest.approx((150_000 * 2.5 + 1_000 * 15 + 60_000 * 0.25) / 1e6)


def test_bundled_table_is_dated_and_sourced() -> None:
    table = bundled_price_table()
    assert table.as_of and "platform.claude.com" in table.source
    gemini = [price for key, price in table.models.items() if key.startswith("gemini-")]
    assert gemini and all(
        price.source == "https://ai.google.dev/gemini-api/docs/pricing" and price.as_of
        for price in gemini
    )
    raw = (
        Path(__file__).resolve().parents[1] / "src" / "cclens" / "figures" / "prices.json"
    ).read_bytes()
    assert parse_price_table(raw, name="prices.json").models.keys() == table.models.keys()


#: The vendors people route Claude Code to, and an id of each as Claude Code records it.
ROUTED = {
    "DeepSeek": "deepseek-chat",
    "MiniMax": "MiniMax-M2.7",
    "Kimi": "kimi-k3",
    "GLM": "glm-4.6",
}
FRIDAY_PEAK = datetime(2026, 11, 20, 2, 30, tzinfo=UTC)
FRIDAY_NIGHT = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
SATURDAY = datetime(2026, 11, 21, 2, 30, tzinfo=UTC)


def test_routed_models_are_priced_with_their_date_and_source() -> None:
    table = bundled_price_table()
    for vendor, model in ROUTED.items():
        key = table.match(model)
        assert key is not None, vendor
        entry = table.models[key]
        assert entry.as_of and entry.source.startswith("https://"), vendor
        priced = response_cost(table, model, TOKENS, when=FRIDAY_PEAK)
        assert priced.cost is not None and priced.cost > 0, vendor


def test_off_peak_hours_and_older_responses() -> None:
    table = bundled_price_table()
    million = TokenCounts(input=1_000_000, output=1_000_000, cache_read=1_000_000)
    peak = response_cost(table, "deepseek-chat", million, when=FRIDAY_PEAK)
    assert peak.cost is not None and peak.cost == pytest.approx(0.30 + 1.20 + 0.006)
    for quiet in (FRIDAY_NIGHT, SATURDAY):
        cheap = response_cost(table, "deepseek-chat", million, when=quiet)
        assert (
            cheap.cost == pytest.approx(peak.cost / 2)
            and cheap.price == "deepseek-flash (off-peak)"
        )
    # Before the prices in the table held, and without a time: no price, and why.
    older = response_cost(table, "deepseek-chat", million, when=datetime(2025, 6, 1, tzinfo=UTC))
    assert older.cost is None and older.reason and "before 2026-09-10" in older.reason
    untimed = response_cost(table, "deepseek-chat", million)
    assert untimed.cost is None and untimed.reason
