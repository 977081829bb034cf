"""Gymnasium spaces for deskworld: the screen, text of any Unicode, and the action space.

``spaces.Text`` only accepts characters of its charset; observations carry
URLs, mail subjects and prompts with any character, so ``AnyText`` accepts
every string up to ``max_length`` (sampling still draws from the charset).

``ActionSpace`` holds an action as its JSON text (DESIGN.md) and samples
valid actions, so random rollouts and ``check_env`` exercise the real path.

``AsyncVectorEnv`` passes observations through shared memory by default, and
Gymnasium stores a ``Text`` there as indices into its charset (a URL's ``/`` or
an accented name would not fit) and reads it back once, at start (so it never
changes). ``AnyText`` is stored as Unicode code points (``-1`` pads) and read
through a live view, so ``gym.make_vec(..., vectorization_mode="async")`` works
with its defaults.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import string
from collections.abc import Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import shared_memory as _shm

from harness.env.browser import VIEWPORT

CHARSET = string.ascii_letters + string.digits + string.punctuation + " "
SCREEN_SHAPE = (VIEWPORT["height"], VIEWPORT["width"], 3)


def screen_space(shape: tuple[int, int, int] = SCREEN_SHAPE) -> spaces.Box:
    """A screenshot: (800, 1280, 3) uint8 by default, or a variant's ``shape`` (``Variant.shape``)."""
    return spaces.Box(0, 255, tuple(shape), dtype=np.uint8)


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
    and wait actions uniformly over the screen from the space's seeded RNG
    (action types of ``harness.env.actions.ACTIONS``, in a fixed mix: a sampling
    policy, not a second action table)."""

    def __init__(self, seed=None, screen: tuple[int, int] | None = None):
        super().__init__(max_length=20_000, min_length=2, charset=CHARSET, seed=seed)
        self.screen = tuple(screen) if screen else (VIEWPORT["width"], VIEWPORT["height"])

    def sample(self, mask=None, probability=None) -> str:
        r = self.np_random
        w, h = self.screen
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


# ---------------------------------------------------------------- AnyText in shared memory (vector envs)
PAD = -1


def _codes(text: str, size: int) -> np.ndarray:
    raw = text.encode("utf-32-le", errors="surrogatepass")
    return np.frombuffer(raw, dtype="<u4").astype(np.int32)[:size]


def _text(codes: np.ndarray) -> str:
    return codes[codes != PAD].astype("<u4").tobytes().decode("utf-32-le", errors="surrogatepass")


@_shm.create_shared_memory.register(AnyText)
def _create_anytext_shared_memory(space: AnyText, n: int = 1, ctx=mp):
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


class SharedTexts(Sequence):
    """The ``n`` strings of an ``AnyText`` in shared memory, decoded when read.

    ``AsyncVectorEnv`` reads its shared memory once, at start, and relies on the
    result being a live view (as a Box's array is); Gymnasium's own ``Text``
    reader returns strings decoded at that moment, which never change. A copy
    (``copy=True``, the default, deep-copies what ``step`` returns) or a pickle
    is a plain tuple."""

    def __init__(self, data: np.ndarray):
        self._data = data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(_text(row) for row in self._data[i])
        return _text(self._data[i])

    def __deepcopy__(self, memo) -> tuple[str, ...]:
        return tuple(self)

    def __reduce__(self):
        return tuple, (tuple(self),)

    def __eq__(self, other) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return repr(tuple(self))


@_shm.read_from_shared_memory.register(AnyText)
def _read_anytext_from_shared_memory(space: AnyText, shared_memory, n: int = 1) -> SharedTexts:
    return SharedTexts(np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length)))


@_shm.write_to_shared_memory.register(AnyText)
def _write_anytext_to_shared_memory(space: AnyText, index: int, value: str, shared_memory) -> None:
    size = space.max_length
    dest = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size:(index + 1) * size]
    codes = _codes(value, size)
    dest[:len(codes)] = codes
    dest[len(codes):] = PAD
