"""Token prices, for the cost column of a run (USD per million tokens).

The table is what the vendors published as of 2026-11; prices change, so a
JSON file named by ``DESKWORLD_PRICES`` overrides or extends it::

    {"my-model": {"input": 0.5, "output": 1.5, "cache_read": 0.05, "cache_write": 0.6}}

A model missing from both has no cost (``None``, shown as "—"): tokens are
still counted. Model ids match by longest prefix, so dated snapshots
(``claude-sonnet-4-5-20250929``) use their family's price.
"""
from __future__ import annotations

import json
import os

# input, output, cache read, cache write (5-minute) — USD per 1M tokens.
PRICES: dict[str, dict[str, float]] = {
    "claude-opus-5-5": {"input": 4.0, "output": 20.0, "cache_read": 0.40, "cache_write": 5.0},
    "claude-sonnet-5-5": {"input": 2.0, "output": 10.0, "cache_read": 0.20, "cache_write": 2.50},
    "claude-haiku-5-5": {"input": 0.10, "output": 0.50, "cache_read": 0.01, "cache_write": 0.125},
    "claude-opus-5": {"input": 5.0, "output": 25.0, "cache_read": 0.50, "cache_write": 6.25},
    "claude-sonnet-5": {"input": 2.0, "output": 10.0, "cache_read": 0.20, "cache_write": 2.50},
    "claude-opus-4": {"input": 5.0, "output": 25.0, "cache_read": 0.50, "cache_write": 6.25},
    "claude-sonnet-4": {"input": 3.0, "output": 15.0, "cache_read": 0.30, "cache_write": 3.75},
    "claude-haiku-4-5": {"input": 1.0, "output": 5.0, "cache_read": 0.10, "cache_write": 1.25},
    "computer-use-preview": {"input": 3.0, "output": 12.0, "cache_read": 3.0, "cache_write": 0.0},
    "gpt-5.4-mini": {"input": 0.75, "output": 4.50, "cache_read": 0.075, "cache_write": 0.0},
    "gpt-5.4": {"input": 2.50, "output": 15.0, "cache_read": 0.25, "cache_write": 0.0},
}


def _table() -> dict[str, dict[str, float]]:
    path = os.environ.get("DESKWORLD_PRICES")
    if not path:
        return PRICES
    with open(path, encoding="utf-8") as f:
        extra = json.load(f)
    return {**PRICES, **extra}


def price(model: str) -> dict[str, float] | None:
    table = _table()
    best = max((k for k in table if model == k or model.startswith(k + "-") or model.startswith(k)),
               key=len, default=None)
    return table.get(best) if best else None


def cost_usd(model: str, usage) -> float | None:
    p = price(model or "")
    if p is None:
        return None
    return (usage.input_tokens * p["input"] + usage.output_tokens * p["output"]
            + usage.cache_read_tokens * p.get("cache_read", p["input"])
            + usage.cache_write_tokens * p.get("cache_write", p["input"])) / 1e6
