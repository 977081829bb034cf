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

A server started with ``--token`` (``deskworld env-server --token X``) wants it on
the WebSocket upgrade: ``DeskworldEnv(base_url=..., token="X")`` (default
``$DESKWORLD_ENV_TOKEN``) sends it as ``Authorization: Bearer X``; OpenEnv's stock
client can't send headers, so it works only with a server without a token.

It needs only openenv-core, numpy and Pillow — not deskworld.
"""
from __future__ import annotations

import base64
import io
import os
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
    def __init__(self, base_url: str, *args, token: str | None = None, **kwargs):
        super().__init__(base_url, *args, **kwargs)
        self._token = token if token is not None else os.environ.get("DESKWORLD_ENV_TOKEN") or None

    async def connect(self) -> "DeskworldEnv":
        """OpenEnv's connect, with the server's token on the upgrade request."""
        if self._ws is not None or not self._token:
            return await super().connect()
        from urllib.parse import urlsplit

        from websockets.asyncio.client import connect as ws_connect
        loopback = urlsplit(self._ws_url).hostname in ("127.0.0.1", "localhost", "::1")
        try:
            self._ws = await ws_connect(self._ws_url, open_timeout=self._connect_timeout,
                                        max_size=self._max_message_size,
                                        additional_headers={"Authorization": f"Bearer {self._token}"},
                                        **({"proxy": None} if loopback else {}))
        except Exception as e:
            raise ConnectionError(f"Failed to connect to {self._ws_url}: {e}") from e
        return self

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
