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

Every agent is in one registry, ``AGENTS`` (name → ``AgentSpec``), which ``make``, the CLI's
``--agent`` help and its checks read. As Gymnasium names an env's class, a spec names its agent's
class by an entry point (``module:Class``), imported only when the agent is made: listing agents
imports no browser, image or SDK code.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    name: str

    def reset(self, task) -> None: ...

    def act(self, observation: dict) -> dict | list[dict]: ...


@dataclass(frozen=True)
class AgentSpec:
    """One agent ``make`` can build."""
    name: str
    entry_point: str                 # "module:Class", imported when the agent is made
    description: str
    argument: str | None = None      # the agent is named ``name:<argument>`` (replay:<run dir>)
    model: bool = False              # a model agent: ``model`` (required) and its own options as keywords
    needs_env: bool = False          # made with the env (the oracle reads the page to aim)
    seeded: bool = False             # made with the episode's seed

    @property
    def usage(self) -> str:
        """How ``--agent`` names it."""
        return f"{self.name}:<{self.argument}>" if self.argument else self.name

    def load(self):
        module, _, attr = self.entry_point.partition(":")
        return getattr(importlib.import_module(module), attr)


AGENTS: dict[str, AgentSpec] = {s.name: s for s in (
    AgentSpec("oracle", "harness.agents.oracle:OracleAgent",
              "the task's scripted solution, aimed by reading the page, sent as coordinate actions", needs_env=True),
    AgentSpec("noop", "harness.agents.simple:NoopAgent", "does nothing and says it is done: every task must fail"),
    AgentSpec("random", "harness.agents.simple:RandomAgent",
              "seeded random clicks, keys, typing and scrolling, never done: a fuzzer", seeded=True),
    AgentSpec("replay", "harness.agents.simple:ReplayAgent", "re-sends the actions of a recorded episode",
              argument="run dir"),
    AgentSpec("anthropic", "harness.agents.anthropic_cu:AnthropicAgent", "Claude computer use", model=True),
    AgentSpec("openai", "harness.agents.openai_cu:OpenAIAgent", "the OpenAI Responses API computer tool",
              model=True),
    AgentSpec("vlm", "harness.agents.vlm:VLMAgent",
              "any OpenAI-compatible vision model (JSON, Qwen-VL or UI-TARS replies)", model=True),
)}
MODEL_AGENTS = tuple(name for name, s in AGENTS.items() if s.model)


def agent_choices() -> str:
    """The agents as an error message lists them: ``oracle, …, replay:<run dir>, anthropic, openai or vlm``."""
    names = [s.usage for s in AGENTS.values()]
    return ", ".join(names[:-1]) + " or " + names[-1]


def agent_help() -> str:
    """The agents as the CLI's ``--agent`` help lists them."""
    plain = [s.usage for s in AGENTS.values() if not s.model]
    return f"{', '.join(plain)}, or a model agent: {', '.join(MODEL_AGENTS)}."


def agent_spec(name: str) -> AgentSpec:
    """The spec of the agent ``name`` (``replay:<dir>`` names the replay agent); ValueError if none."""
    base, sep, _ = name.partition(":")
    found = AGENTS.get(base)
    if found is None or bool(sep) != bool(found.argument):
        raise ValueError(f"unknown agent {name!r}; use {agent_choices()}")
    return found


def make(name: str, env=None, **kw) -> Agent:
    """An agent by name; the oracle needs the env (it reads the page to aim).
    Model agents take ``model`` (required) and their own options; unknown ones are an error."""
    s = agent_spec(name)
    factory = s.load()
    if s.model:
        opts = {k: v for k, v in kw.items() if k != "seed" and v is not None}
        if not opts.get("model"):
            raise ValueError(f"the {name} agent needs --model")
        model = opts.pop("model")
        try:
            return factory(model, **opts)
        except TypeError as e:
            raise ValueError(f"{name} agent: {e}") from None
    args = [name.split(":", 1)[1]] if s.argument else []
    if s.needs_env:
        args.append(env)
    return factory(*args, **({"seed": kw.get("seed", 0)} if s.seeded else {}))


__doc__ += "\nThe agents:\n\n" + "\n".join(f"- ``{s.usage}``: {s.description}" for s in AGENTS.values()) + "\n"
