"""deskworld's env server through OpenEnv's own client.

``deskworld env-server`` speaks OpenEnv's wire format, so OpenEnv's
``GenericEnvClient`` works with it as it is (observations stay JSON, the
screenshot a base64 PNG). ``DeskworldEnv`` is the thin adapter for code that
wants what a Gymnasium loop needs: the screenshot as an array, and
``terminated`` / ``truncated`` / ``info`` kept apart::

    with DeskworldEnv(base_url="http://127.0.0.1:8000").sync() as env:
        r = env.reset(task="meridian/corvane-deductible", seed=0)
        r = env.step({"type": "done", "answer": "ANSWER: $2,500,000"})
        r.reward, r.terminated, r.info["result"]["lines"]

It needs only openenv-core, numpy and Pillow — not deskworld.
"""
from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field

import numpy as np
from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from PIL import Image


def png_array(b64: str) -> np.ndarray:
    with Image.open(io.BytesIO(base64.b64decode(b64))) as im:
        return np.asarray(im.convert("RGB"))


@dataclass
class DeskStepResult(StepResult):
    """OpenEnv's result plus what tells the two endings of an episode apart."""
    terminated: bool = False
    truncated: bool = False
    info: dict = field(default_factory=dict)


class DeskworldEnv(EnvClient):
    def _step_payload(self, action: dict) -> dict:
        return action                       # OpenEnv's convention: the step's data is the action itself

    def _parse_result(self, payload: dict) -> DeskStepResult:
        obs = dict(payload["observation"])
        obs["screenshot"] = png_array(obs["screenshot"])
        return DeskStepResult(observation=obs, reward=payload.get("reward"), done=bool(payload.get("done")),
                              terminated=bool(payload.get("terminated")), truncated=bool(payload.get("truncated")),
                              info=payload.get("info") or {})

    def _parse_state(self, payload: dict) -> dict:
        return payload
