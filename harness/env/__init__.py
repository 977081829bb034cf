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
from harness.env.desk import DeskEnv, ResetNeeded, resolve_tasks
from harness.env.make import make_env, observation_space

__all__ = ["DeskEnv", "ResetNeeded", "make_env", "observation_space", "resolve_tasks"]
