"""List arrangement, one of the appearance variants (issue 22): a seeded arrangement of the lists whose
order the real product leaves to the person — never of a list whose order means something (a mailbox by
date, a thread by time, a list view the person sorted, a paged list where it would hide records).

Two kinds, each modelled on what the product lets a person do:

- ``permute(name, items)``: a list the person arranges by hand (Slack's sidebar channels dragged into
  their own order, Salesforce's navigation items reordered in *Edit nav items*) — a seeded permutation;
- ``choose(name, options, default)``: a list with a sort setting the product remembers (Drive's sort
  by name, last modified or file size; Slack's direct messages by recent activity or alphabetically) —
  one of the product's own options, seeded.

The contract: the request's cookie ``deskworld_shuffle`` holds a seed (a whole number from 1). Without it
(or with anything else) every list is as the app orders it, byte for byte. The same seed arranges the same
list the same way on every request and in every episode; each list draws from its own stream (``name``),
so adding an arranged list doesn't move the others. The harness sets the cookie at reset. Arrangement is
how things are laid out, never what they are: no service, store, export or tool sees it.
"""
from __future__ import annotations

import random

from flask import has_request_context, request

COOKIE = "deskworld_shuffle"
MAX_SEED = 2 ** 31 - 1


def seed() -> int | None:
    """The request's arrangement seed, or None (the apps' own order)."""
    if not has_request_context():
        return None
    raw = request.cookies.get(COOKIE, "")
    if not raw.isdigit():
        return None
    value = int(raw)
    return value if 1 <= value <= MAX_SEED else None


def _rng(name: str, s: int) -> random.Random:
    return random.Random(f"{s}:{name}")


def permute(name: str, items: list) -> list:
    """``items`` in the person's own order: a seeded permutation of them (as given without a seed)."""
    s = seed()
    if s is None or len(items) < 2:
        return list(items)
    out = list(items)
    _rng(name, s).shuffle(out)
    return out


def choose(name: str, options: list, default):
    """The list's sort setting: ``default`` without a seed, else one of ``options`` (the product's own)."""
    s = seed()
    if s is None or not options:
        return default
    return _rng(name, s).choice(list(options))
