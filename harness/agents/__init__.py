"""Agents: something that turns observations into actions.

The protocol (``Agent``) is small so model agents slot in later:
``reset(task)`` before an episode, ``act(observation) -> action | [actions]``
after each observation. Built in: ``oracle`` (the task's scripted solution,
through the same coordinate actions a model sends), ``noop`` (does nothing),
``random`` (seeded random clicks and keys, for fuzzing) and ``replay``
(re-runs a recorded ``steps.jsonl``).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, task) -> None: ...

    def act(self, observation: dict) -> dict | list[dict]: ...


def make(name: str, env=None, **kw) -> Agent:
    """An agent by name; the oracle needs the env (it reads the page to aim)."""
    if name == "oracle":
        from harness.agents.oracle import OracleAgent
        return OracleAgent(env)
    if name == "noop":
        from harness.agents.simple import NoopAgent
        return NoopAgent()
    if name == "random":
        from harness.agents.simple import RandomAgent
        return RandomAgent(seed=kw.get("seed", 0))
    if name.startswith("replay:"):
        from harness.agents.simple import ReplayAgent
        return ReplayAgent(name.split(":", 1)[1])
    raise ValueError(f"unknown agent {name!r}; use oracle, noop, random or replay:<run dir>")


AGENTS = ("oracle", "noop", "random", "replay:<dir>")
