"""train / dev / test: which split each instance belongs to, fixed by a committed seed.

Two things are split, each by a SHA-256 of the committed ``SEED``:

- a world's **variants**: variant 0 (the published world, whose answers anyone can read) is
  ``train``; every other variant goes to ``train``, ``dev`` or ``test`` by its hash (``SHARES``);
- a family's **param values** (which claimant, which account): a param with three or more values
  ranks them by hash and gives the first quarter (at least one) to ``test``, the next sixth (at
  least one) to ``dev``, the rest to ``train`` — the hand-made task's value always to ``train``.
  A param with one or two values (which of two colleagues) is not split: its values go with the
  variant.

A combination is an instance only when its variant and every split param value agree; mixed
combinations are not instances. So a test instance shares neither its world variant nor any split
param value with a train (or dev) instance. Hand-made tasks (families of one) are ``train``.
Changing ``SEED`` or ``SHARES`` reshuffles every split: don't — results would stop being comparable
across releases (``tests/harness/test_families.py`` pins a sample of assignments).
"""
from __future__ import annotations

import hashlib
from functools import lru_cache

SEED = "deskworld-splits-2026-12-01"
SHARES = (("train", 60), ("dev", 15), ("test", 25))          # percent of a world's variants
SPLITS = tuple(name for name, _ in SHARES)


def _h(*parts) -> int:
    return int.from_bytes(hashlib.sha256("\0".join(map(str, (SEED, *parts))).encode()).digest()[:8], "big")


@lru_cache(maxsize=None)
def variant_split(world: str, variant: int) -> str:
    if variant == 0:
        return "train"
    x = _h("variant", world, variant) % 100
    for name, share in SHARES:
        if x < share:
            return name
        x -= share
    return SPLITS[-1]


def key_splits(family: str, param: str, keys: tuple[str, ...], default: str) -> dict[str, str | None]:
    """Each value key of one param of a family → its split (None: not split, it goes with the variant)."""
    keys = sorted(set(keys))
    if len(keys) < 3:
        return {k: None for k in keys}
    ranked = sorted((k for k in keys if k != default), key=lambda k: _h("param", family, param, k))
    n = len(keys)
    n_test, n_dev = max(1, round(n * 0.25)), max(1, round(n / 6))
    out = {k: "test" if i < n_test else "dev" if i < n_test + n_dev else "train" for i, k in enumerate(ranked)}
    out[default] = "train"
    return out


def instance_split(family, variant: int, keys: tuple[str, ...]) -> str | None:
    """The split of ``(family, variant, keys)``, or None when the combination is not an instance."""
    if family.is_family_of_one:
        return "train"
    split = variant_split(family.world, variant)
    for p, k in zip(family.params, keys):
        s = _param_split(family, p.name, k)
        if s is not None and s != split:
            return None
    return split


def _param_split(family, param: str, key: str) -> str | None:
    cache = family.__dict__.setdefault("_key_splits", {})
    if param not in cache:
        idx = [p.name for p in family.params].index(param)
        keys = {k for v in family.variants() for k, _ in family.param_choices(v)[idx]}
        cache[param] = key_splits(family.id, param, tuple(sorted(keys)), family.default_keys()[idx])
    return cache[param].get(key)
