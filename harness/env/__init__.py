"""The env and its browser driver: how an action reaches the browser and a screenshot comes back.

``DeskEnv`` (``desk.py``) is the Gymnasium environment. Below it, one room each:
``driver.py`` (the episode slot: store slot, app server, browser context, clock, and
the executor that carries actions out), ``actions.py`` (the action table: schema,
parser, description), ``adapters.py`` (model-native actions mapped onto ours),
``settle.py`` (waiting until a page is still), ``containment.py`` (the agent stays on
the workspace), ``observe.py`` (screenshot, accessibility tree, set-of-marks),
``spaces.py`` (Gymnasium spaces), ``browser.py`` (finding and launching Chromium) and
``appserver.py`` (the apps on a loopback port).
"""
from harness.env.desk import DeskEnv, ResetNeeded, observation_space, resolve_tasks

__all__ = ["DeskEnv", "ResetNeeded", "observation_space", "resolve_tasks"]
