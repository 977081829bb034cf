"""Agents: something that turns observations into actions.

The protocol (``Agent``) is small so model agents slot in later:
``reset(task)`` before an episode, ``act(observation) -> action | [actions]``
after each observation. Built in: ``oracle`` (the task's scripted solution,
through the same coordinate actions a model sends), ``noop`` (does nothing),
``random`` (seeded random clicks and keys, for fuzzing) and ``replay``
(re-runs a recorded ``steps.jsonl``). Model agents (``anthropic``,
``openai``, ``vlm``) take their options (``model``, ``base_url``, …) as
keywords; they may also offer ``take_record()`` (what the model said for the
step just taken, written into ``steps.jsonl``) and ``episode_usage()``
(tokens and cost, written into the results row).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, task) -> None: ...

    def act(self, observation: dict) -> dict | list[dict]: ...


MODEL_AGENTS = ("anthropic", "openai", "vlm")


def make(name: str, env=None, **kw) -> Agent:
    """An agent by name; the oracle needs the env (it reads the page to aim).
    Model agents take ``model`` (required) and their own options; unknown ones are an error."""
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
    if name in MODEL_AGENTS:
        opts = {k: v for k, v in kw.items() if k != "seed" and v is not None}
        if not opts.get("model"):
            raise ValueError(f"the {name} agent needs --model")
        if name == "anthropic":
            from harness.agents.anthropic_cu import AnthropicAgent as cls
        elif name == "openai":
            from harness.agents.openai_cu import OpenAIAgent as cls
        else:
            from harness.agents.vlm import VLMAgent as cls
        model = opts.pop("model")
        try:
            return cls(model, **opts)
        except TypeError as e:
            raise ValueError(f"{name} agent: {e}") from None
    raise ValueError(f"unknown agent {name!r}; use oracle, noop, random, replay:<run dir>, anthropic, openai or vlm")


AGENTS = ("oracle", "noop", "random", "replay:<dir>") + MODEL_AGENTS
