"""Agent-caused faults are the agent's (issue 15): seeded random and malformed actions give no
exception out of ``step()``, no app 500 and no ``error`` episode.

- ``test_malformed_actions_never_escape_parse``: 20,000 seeded malformed actions (wrong types, missing
  and extra fields, huge and negative numbers, hostile strings, non-objects) through the parser: each
  is a model or an ``ActionError``, nothing else.
- ``test_fuzzed_episodes_end_ok``: episodes of seeded random actions in both worlds — clicks
  anywhere, typing hostile text, keys including ones no keyboard has, drags, scrolls, navigations to
  every route of the apps with hostile ids, ``back``, and malformed actions mixed in — every step
  returns, every step's status is ``ok``, and the verifier runs at the end.

``DESKWORLD_FUZZ_STEPS`` sets the number of env steps per world (default 300; ``make fuzz`` runs 5,000).
"""
from __future__ import annotations

import json
import os
import random
import re

import pytest

from harness.env import actions as A
from harness.env import DeskEnv

HOSTILE_TEXT = ["<!--<script>", "</script><script>window.__x=1</script>", "\"'><img src=x onerror=window.__x=1>",
                "{{7*7}}", "\u2028\u2029", "😀" * 20, "\u202e\u200f", "a" * 3000, "'; DROP TABLE mail_messages; --",
                "%00", "\\x00", "9223372036854775808", "-1", "NaN", "\r\n\t"]
HOSTILE_IDS = ["9223372036854775808", "18446744073709551616", "99999999999999999999999", "-1", "0", "abc",
               "%00", "1e9", "１２", "..%2f..%2f", "x" * 300]
KEYS = ["Enter", "Tab", "Escape", "Backspace", "Delete", "ctrl+a", "ctrl+z", "ctrl+shift+z", "shift+Tab",
        "Page_Down", "F5", "alt+F4", "ctrl+w", "ctrl+t", "ctrl+n", "ctrl+p", "ctrl+s", "ctrl+l",
        "\x00", "😀", "é", "\t", "ctrl+é", "super", "F13", "Return Return", "+", "ctrl++", ""]


def _routes(app) -> list[str]:
    """Every GET route of the apps, each converter argument filled with a hostile id (or 1)."""
    out = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.rule.startswith("/static"):
            continue
        out.append(rule.rule)
    return sorted(out)


def _fill(rule: str, rng: random.Random) -> str:
    return re.sub(r"<[^>]+>", lambda m: rng.choice(HOSTILE_IDS + ["1", "2", "3"]), rule)


def _point(rng):
    return {"x": rng.randrange(A.VIEWPORT["width"]), "y": rng.randrange(A.VIEWPORT["height"])}


def malformed(rng: random.Random):
    """An action an agent might send that is wrong in one of many ways."""
    kind = rng.choice(A.ACTION_TYPES + ("", "clik", None, 7, "DONE"))
    junk = rng.choice([None, -1, 2 ** 63, -2 ** 63, 1e308, float("nan"), "12", "", [], {}, [1, 2], True,
                       "x" * 10_001, rng.choice(HOSTILE_TEXT)])
    base = {"type": kind}
    field = rng.choice(["x", "y", "text", "keys", "key", "ms", "url", "path", "dx", "dy", "button",
                        "modifiers", "status", "answer", "tool", "arguments", "extra"])
    base[field] = junk
    shape = rng.randrange(6)
    if shape == 0:
        return base
    if shape == 1:
        return json.dumps(base, default=str)[: rng.randrange(1, 60)]          # truncated JSON text
    if shape == 2:
        return rng.choice([None, 3, "click", [base], b"\xff\xfe", "null", "[]", "{}"])
    if shape == 3:
        return {**base, "path": [_point(rng) for _ in range(rng.choice([0, 1, 101, 500]))]}
    if shape == 4:
        return {**base, **_point(rng), "modifiers": rng.choice([["hyper"], ["ctrl", "ctrl"], "ctrl", [1]])}
    return {"type": "key", "keys": " ".join(rng.choice(KEYS) for _ in range(rng.choice([1, 2, 51, 400])))}


def fuzz_action(rng: random.Random, routes: list[str]):
    r = rng.random()
    if r < 0.25:
        return malformed(rng)
    kind = rng.choice(["click", "click", "double_click", "triple_click", "move", "mouse_down", "mouse_up",
                       "drag", "scroll", "type", "key", "key", "wait", "navigate", "navigate", "back"])
    if kind in ("click", "double_click", "triple_click", "move"):
        a = {"type": kind, **_point(rng)}
        if kind == "click":
            a["button"] = rng.choice(["left", "left", "left", "right", "middle"])
            a["modifiers"] = rng.choice([[], [], ["ctrl"], ["shift"], ["alt"], ["meta"]])
        return a
    if kind in ("mouse_down", "mouse_up"):
        return {"type": kind, **_point(rng)}
    if kind == "drag":
        return {"type": "drag", "path": [_point(rng) for _ in range(rng.randint(2, A.MAX_DRAG_POINTS))]}
    if kind == "scroll":
        return {"type": "scroll", **_point(rng), "dx": rng.randint(-3000, 3000), "dy": rng.randint(-3000, 3000)}
    if kind == "type":
        return {"type": "type", "text": rng.choice(HOSTILE_TEXT + ["hello", "42", "Billing"])}
    if kind == "key":
        return {"type": "key", "keys": rng.choice(KEYS[:-1])}
    if kind == "wait":
        return {"type": "wait", "ms": rng.choice([0, 0, 50])}
    if kind == "navigate":
        return {"type": "navigate", "url": _fill(rng.choice(routes), rng)}
    return {"type": "back"}


def test_malformed_actions_never_escape_parse():
    rng = random.Random(15)
    kinds = set()
    for _ in range(20_000):
        raw = malformed(rng)
        try:
            model = A.parse(raw)
        except A.ActionError as e:
            assert str(e)
            kinds.add("error")
        else:
            kinds.add(type(model).__name__)
    assert "error" in kinds and len(kinds) > 3          # the sweep hit valid actions as well as refusals


@pytest.mark.browser
@pytest.mark.parametrize("task", ["meridian/billing-label", "lumen/harrowgate-owners-update"])
def test_fuzzed_episodes_end_ok(task):
    steps = int(os.environ.get("DESKWORLD_FUZZ_STEPS", "300"))
    rng = random.Random(f"fuzz:{task}")
    with DeskEnv(task, max_steps=10_000) as env:
        env.reset(seed=0)
        routes = _routes(env.session.desk().app)
        assert len(routes) > 40
        done_at = sorted(rng.sample(range(1, steps), 3))
        n = errors = 0
        while n < steps:
            n += 1
            action = {"type": "done", "status": "complete", "answer": rng.choice(HOSTILE_TEXT)} \
                if n in done_at else fuzz_action(rng, routes)
            obs, r, term, trunc, info = env.step(action)
            assert info["status"] == "ok", (n, action, info.get("error"))
            errors += bool(obs["last_action_error"])
            assert obs["url"].startswith("http://desk.local/"), (n, action, obs["url"])
            if term or trunc:
                assert info["result"]["status"] in ("passed", "failed"), info["result"]
                env.reset()
        assert 0 < errors < n                             # refusals came back as errors; most steps ran
        assert env.session.page_call(lambda p: p.evaluate("() => window.__x")) is None
