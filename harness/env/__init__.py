"""The env room: the Gymnasium environment and how an action reaches the browser.

Where a click goes: ``DeskEnv.step`` (``desk.py``: the base env — tasks, episodes,
reward, the dict observation) → its ``Session`` (``session.py``: the browser thread,
and the privileged API, ``env.unwrapped.session``) → ``Driver.act`` (``driver.py``:
the episode slot — store slot, app server, browser context, clock — and the reset
sequence) → the executor (``execute.py``: one handler per action type, as Playwright
calls) → ``settle.py`` (waiting until the page is still) and ``containment.py`` (the
agent stays on the workspace) → the observation (``observe.py``: screenshot,
accessibility tree, set-of-marks).

Beside it: ``actions.py`` (the action table: models, parser, schema, description),
``adapters.py`` (model-native actions mapped onto ours), ``spaces.py`` (Gymnasium
spaces), ``wrappers/`` (tools, axtree, set-of-marks, pixels-only), ``make.py``
(``make_env``, the entry point ``gym.make`` calls, and ``observation_space``),
``browser.py`` (finding and launching Chromium) and ``appserver.py`` (the apps on a
loopback port).
"""
from __future__ import annotations

import importlib

# Loaded on first use (PEP 562), so ``python -m harness.env.browser`` and the light
# submodules don't pull in Gymnasium, Playwright and the apps.
_EXPORTS = {"DeskEnv": "desk", "ResetNeeded": "desk", "resolve_tasks": "desk",
            "make_env": "make", "observation_space": "make"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"harness.env.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'harness.env' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_EXPORTS])
