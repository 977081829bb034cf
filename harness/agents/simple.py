"""The agents that need no model: noop, random, replay."""
from __future__ import annotations

import json
import zlib
from pathlib import Path

from harness.env.spaces import ActionSpace
from harness.runs.layout import STEPS, episode_dirs, read_steps


class NoopAgent:
    """Does nothing and says it is done: every task must fail for it."""
    name = "noop"

    def reset(self, task) -> None:
        pass

    def act(self, observation: dict) -> dict:
        return {"type": "done", "status": "complete"}


class RandomAgent:
    """Seeded random clicks, keys, typing and scrolling (never ``done``): a fuzzer."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.space = ActionSpace()
        self.space.seed(seed)

    def reset(self, task) -> None:
        self.space.seed(self.seed + (zlib.crc32(task.id.encode()) % 100_000 if task else 0))

    def act(self, observation: dict) -> dict:
        shot = observation.get("screenshot") if isinstance(observation, dict) else None
        if shot is not None and hasattr(shot, "shape"):
            self.space.screen = (shot.shape[1], shot.shape[0])       # the episode's screen (a variant's)
        return json.loads(self.space.sample())


class ReplayAgent:
    """Re-sends the actions of a recorded episode (``…/steps.jsonl`` or a run folder)."""
    name = "replay"

    def __init__(self, source: str):
        self.source = Path(source)
        self.actions: list = []

    def reset(self, task) -> None:
        path = self.source
        if path.is_dir():
            cands = [ep / STEPS for ep in episode_dirs(path, task=task.id) if (ep / STEPS).exists()]
            if not cands:
                raise FileNotFoundError(f"no recorded episode of {task.id} under {path}")
            path = cands[0]
        self.actions = [s["action"] for s in read_steps(path) if s.get("action") is not None]

    def act(self, observation: dict):
        if not self.actions:
            return {"type": "done", "status": "complete"}
        return self.actions.pop(0)
