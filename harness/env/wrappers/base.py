"""``AddObservationKey``: the base of the wrappers that add one key to ``DeskEnv``'s dict observation."""
from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces


class AddObservationKey(gym.Wrapper[dict, dict, dict, dict], gym.utils.RecordConstructorArgs):
    """Adds ``key`` to the dict observation, read from the live episode (``read``) after
    every reset and step.

    When a step breaks the environment (``info["status"] == "error"``) the env gives its
    last observation again; so does the wrapper for its key (``blank()`` if it never read
    one). A subclass names its ``key``, its ``key_space()``, ``read`` and ``blank``."""

    key: str = ""

    def __init__(self, env: gym.Env[dict, dict]):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        if not isinstance(env.observation_space, spaces.Dict):
            raise ValueError(f"{type(self).__name__} adds {self.key!r} to the dict observation: "
                             "apply it inside PixelsOnly")
        self.observation_space = self.space(env.observation_space)
        self._session = env.unwrapped.session
        self._last: Any = None

    @classmethod
    def space(cls, inner: spaces.Dict) -> spaces.Dict:
        """The observation space with the key added to ``inner``."""
        return spaces.Dict({**inner.spaces, cls.key: cls.key_space()})

    @staticmethod
    def key_space() -> spaces.Space:
        raise NotImplementedError

    def read(self, obs: dict) -> Any:
        """The key's value now (``obs``: the observation it joins)."""
        raise NotImplementedError

    def blank(self) -> Any:
        """The key's value in a blank observation (the env broke before it observed anything)."""
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        return self._add(obs, info), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._add(obs, info), reward, terminated, truncated, info

    def _add(self, obs: dict, info: dict) -> dict:
        if info.get("status") == "error":
            value = self.blank() if self._last is None else self._last
        else:
            value = self._last = self.read(obs)
        return {**obs, self.key: value}

    def __getstate__(self) -> dict:
        """Pickles without the last value, as the env pickles without its last observation."""
        return {**self.__dict__, "_last": None}
