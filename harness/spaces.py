"""Gymnasium spaces for deskworld: text of any Unicode, and the action space.

``spaces.Text`` only accepts characters of its charset; observations carry
URLs, mail subjects and prompts with any character, so ``AnyText`` accepts
every string up to ``max_length`` (sampling still draws from the charset).

``ActionSpace`` holds an action as its JSON text (DESIGN.md) and samples
valid actions, so random rollouts and ``check_env`` exercise the real path.
"""
from __future__ import annotations

import json
import string

from gymnasium import spaces

from harness.browser import VIEWPORT

CHARSET = string.ascii_letters + string.digits + string.punctuation + " "


class AnyText(spaces.Text):
    def contains(self, x) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"


SAMPLE_KEYS = ("Enter", "Tab", "Escape", "Backspace", "ArrowDown", "ArrowUp", "PageDown", "j", "k", "e", "c", "/",
               "ctrl+a", "shift+Tab")
SAMPLE_WORDS = ("survey", "Pryce", "fund", "limit", "hello", "17,950", "from:sofia", "Board pack", "x")


class ActionSpace(AnyText):
    """Actions as JSON text. ``sample()`` draws click, move, scroll, key, type
    and wait actions uniformly over the screen from the space's seeded RNG."""

    def __init__(self, seed=None):
        super().__init__(max_length=20_000, min_length=2, charset=CHARSET, seed=seed)

    def sample(self, mask=None, probability=None) -> str:
        r = self.np_random
        w, h = VIEWPORT["width"], VIEWPORT["height"]
        kind = ["click", "click", "click", "double_click", "move", "scroll", "key", "type", "wait"][int(r.integers(9))]
        x, y = int(r.integers(w)), int(r.integers(h))
        if kind in ("click", "double_click", "move"):
            a = {"type": kind, "x": x, "y": y}
        elif kind == "scroll":
            a = {"type": "scroll", "x": x, "y": y, "dx": 0, "dy": int(r.integers(-600, 601))}
        elif kind == "key":
            a = {"type": "key", "keys": SAMPLE_KEYS[int(r.integers(len(SAMPLE_KEYS)))]}
        elif kind == "type":
            a = {"type": "type", "text": SAMPLE_WORDS[int(r.integers(len(SAMPLE_WORDS)))]}
        else:
            a = {"type": "wait", "ms": int(r.integers(0, 200))}
        return json.dumps(a)
