"""``make_env``: the entry point of ``gym.make("deskworld/Desk-v0", ...)`` — a ``DeskEnv``
with the wrappers its flags ask for — and ``observation_space``, the space that env has.

The wrappers go on in a fixed order, innermost first: ``HybridTools`` (``tools=True``),
``AddAxTree`` (``axtree=True``), ``AddSetOfMarks`` (``som=True``), ``PixelsOnly``
(``obs_mode="pixels"``); so the dict observation's keys come in the order screenshot,
url, goal, last_action_error, user_reply, tool_result, axtree, som. ``env.unwrapped`` is the
``DeskEnv``; ``gym.make_vec`` builds each sub-env through here.
"""
from __future__ import annotations

import gymnasium as gym
from gymnasium import spaces

from harness.env.desk import DeskEnv, base_observation_space
from harness.env.wrappers.axtree import AddAxTree
from harness.env.wrappers.pixels import PixelsOnly
from harness.env.wrappers.som import AddSetOfMarks
from harness.env.wrappers.tools import HybridTools

OBS_MODES = ("dict", "pixels")


def _check_obs_mode(obs_mode: str) -> None:
    if obs_mode not in OBS_MODES:
        raise ValueError(f"obs_mode must be one of {OBS_MODES}, not {obs_mode!r}")


def make_env(task=None, *, tasks=None, split: str | None = None, obs_mode: str = "dict", axtree: bool = False,
             som: bool = False, tools: bool = False, render_mode: str | None = None, trace: bool = False,
             max_steps: int | None = None, reward: str = "final", variant=None) -> gym.Env:
    """A ``DeskEnv`` (``task``, ``tasks``, ``split``, ``render_mode``, ``trace``, ``max_steps``, ``reward``,
    ``variant``: its own arguments) wrapped for ``tools``, ``axtree``, ``som`` and ``obs_mode``."""
    env: gym.Env = DeskEnv(task, tasks=tasks, split=split, render_mode=render_mode, trace=trace,
                           max_steps=max_steps, reward=reward, variant=variant)
    _check_obs_mode(obs_mode)
    if tools:
        env = HybridTools(env)
    if axtree:
        env = AddAxTree(env)
    if som:
        env = AddSetOfMarks(env)
    if obs_mode == "pixels":
        env = PixelsOnly(env)
    return env


# gym.make reads the entry point's render modes here (to add HumanRendering or RenderCollection).
make_env.metadata = DeskEnv.metadata


def observation_space(*, axtree: bool = False, som: bool = False, obs_mode: str = "dict",
                      tools: bool = False, variant=None) -> spaces.Space:
    """The observation space of ``make_env(...)`` with these flags (and of
    ``harness.servers.remote.RemoteEnv``), without making an env.

    Every shape is fixed and the text spaces are ``AnyText`` of fixed maximum lengths, so
    all sub-environments of a vector env have the same space whatever their task, and it
    batches (``obs_mode="pixels"``: one Box)."""
    _check_obs_mode(obs_mode)
    space: spaces.Space = base_observation_space(variant)
    if tools:
        space = HybridTools.space(space)
    if axtree:
        space = AddAxTree.space(space)
    if som:
        space = AddSetOfMarks.space(space)
    if obs_mode == "pixels":
        space = PixelsOnly.space(space)
    return space
