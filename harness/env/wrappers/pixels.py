"""``PixelsOnly``: the screenshot alone as the observation (``obs_mode="pixels"``)."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

TEXT_KEYS = ("goal", "url", "last_action_error", "user_reply")


class PixelsOnly(gym.Wrapper[np.ndarray, dict, dict, dict], gym.utils.RecordConstructorArgs):
    """The observation is the (800, 1280, 3) uint8 screenshot, for pixel-based RL; the goal,
    url and last action error move to ``info`` (right after ``status``, where the env has
    always put them). It goes outside the other wrappers: it cannot carry ``axtree`` or ``som``.

    Example::

        env = PixelsOnly(DeskEnv("meridian/gross-tonnage"))   # or gym.make(ENV_ID, task=..., obs_mode="pixels")
        obs, info = env.reset()                               # obs: (800, 1280, 3) uint8; info["goal"], info["url"]
    """

    def __init__(self, env: gym.Env[dict, dict]):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self.observation_space = self.space(env.observation_space)

    @staticmethod
    def space(inner: spaces.Dict) -> spaces.Box:
        """The screenshot's space, out of the dict observation's ``inner``."""
        if "axtree" in inner.spaces or "som" in inner.spaces:
            raise ValueError('obs_mode="pixels" is the screenshot alone: it cannot carry axtree or som')
        return inner["screenshot"]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        return obs["screenshot"], self._info(obs, info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs["screenshot"], reward, terminated, truncated, self._info(obs, info)

    @staticmethod
    def _info(obs: dict, info: dict) -> dict:
        out = {}
        for key, value in info.items():
            out[key] = value
            if key == "status":
                out.update((k, obs[k]) for k in TEXT_KEYS)
        return out
