"""deskworld harness: browser launch, the Gymnasium env, tasks, verifiers, agents, runner and CLI.

Importing ``harness`` registers ``deskworld/Desk-v0``: pass ``task=`` (one task) or
``tasks=`` (a list or a pattern to draw from) to ``gym.make`` or ``gym.make_vec``, and
``tools=``, ``axtree=``, ``som=``, ``obs_mode=`` for the wrappers (``harness.env.make``).
Vector envs: ``harness.env.DeskEnv``; the env server: ``harness.servers.envserver`` (README "Server mode").
"""
from __future__ import annotations

ENV_ID = "deskworld/Desk-v0"


def _register() -> None:
    import gymnasium as gym
    if ENV_ID in gym.registry:
        return
    # Deterministic: same task, seed and actions give the same observations
    # (pinned world time, fixed fonts and viewport, settled pages).
    gym.register(id=ENV_ID, entry_point="harness.env.make:make_env", nondeterministic=False)


_register()


def __getattr__(name: str):
    if name == "DeskEnv":
        from harness.env import DeskEnv
        return DeskEnv
    raise AttributeError(name)
