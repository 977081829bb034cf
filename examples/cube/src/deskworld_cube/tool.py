"""Tool layer: deskworld's computer-use actions as CUBE ``@tool_action`` methods.

``DeskTool`` wraps one deskworld env (``harness.env.make_env``: a ``DeskEnv`` — the apps on a
loopback port, a headless Chromium, the task's verifier). Each action is one env step; it returns
the screenshot after the step (a PIL image, which CUBE wraps as ``ImageContent``). The page's URL,
the last action's error and the principal's reply come as text beside it (``DeskTask.obs_postprocess``).
Coordinates are screenshot pixels (1280×800 by default).

The env's Playwright calls all run on its own session thread (``harness.env.session``), so the
tool may be driven from any thread, by the sync or the async call-site of ``Tool``.
"""
from __future__ import annotations

import inspect
import json
from typing import Any, get_args

from PIL import Image

from cube.container import Container
from cube.core import ActionSchema, AgentStop
from cube.tool import Tool, ToolConfig, tool_action
from harness.env import actions as A


def _one_of(model: type, field: str) -> str:
    """A ``Literal`` field of deskworld's action model as the ``{...}`` set CUBE turns into an enum."""
    return "{" + ", ".join(json.dumps(v) for v in get_args(model.model_fields[field].annotation)) + "}"


def _doc(model: type, field: str) -> str:
    """The description deskworld's action table gives a field (``harness.env.actions``)."""
    text = model.model_fields[field].description
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The numpy-docstring type and description of every action parameter (``"action.param"`` when one
# action means something else by it), the descriptions from deskworld's action table but for the
# drag's path, which CUBE's agents give as [x, y] lists.
_PARAMS: dict[str, tuple[str, str]] = {
    "x": ("int", _doc(A.Click, "x")),
    "y": ("int", _doc(A.Click, "y")),
    "button": (_one_of(A.Click, "button"), _doc(A.Click, "button")),
    "modifiers": ("list", _doc(A.Click, "modifiers")),
    "path": ("list", "Two or more points [x, y] in screenshot pixels, e.g. [[100, 200], [300, 200]]."),  # lists here
    "dy": ("int", _doc(A.Scroll, "dy")),
    "dx": ("int", _doc(A.Scroll, "dx")),
    "keys": ("str", _doc(A.Key, "keys")),
    "ms": ("int", _doc(A.Wait, "ms")),
    "url": ("str", _doc(A.Navigate, "url")),
    "text": ("str", _doc(A.Type, "text")),
    "ask_user.text": ("str", _doc(A.AskUser, "text")),
    "answer": ("str", _doc(A.Done, "answer")),
    "status": (_one_of(A.Done, "status"), _doc(A.Done, "status")),
}


def _params(func):
    """Append to ``func``'s one-line docstring the numpy "Parameters" section that CUBE's ``@tool_action``
    reads (``cube.utils.function_to_dict``: each parameter's type, a ``{...}`` set as an enum, its
    description), one entry per parameter from ``_PARAMS``."""
    lines = [func.__doc__.strip(), "", "Parameters", "----------"]
    for name in list(inspect.signature(func).parameters)[1:]:           # past self
        kind, text = _PARAMS.get(f"{func.__name__}.{name}") or _PARAMS[name]
        lines += [f"{name} : {kind}", f"    {text}"]
    func.__doc__ = "\n".join(lines)
    return func


class DeskToolConfig(ToolConfig):
    """How the desk is set up; the defaults are deskworld's (1280×800, the task's own step limit).

    ``variant`` is an appearance variant of ``harness.env.variant`` in its text form
    (``"viewport=1440x900,scale=2"``, ``"theme=dark"``); ``max_steps`` overrides the task's step limit.
    """

    variant: str | None = None
    max_steps: int | None = None

    def make(self, container: Container | None = None) -> "DeskTool":
        return DeskTool(self)


class DeskTool(Tool):
    """A deskworld desk: the apps in a browser, driven by screenshot-pixel actions.

    ``open_episode(task_id, seed)`` (called by ``DeskTask.reset``) starts an episode; the env is
    made on first use and kept across episodes of the same tool. ``env`` is the deskworld env
    (privileged: for the task's evaluation, not for agents).
    """

    def __init__(self, config: DeskToolConfig) -> None:
        self._config = config
        self._env = None
        self._last: dict | None = None

    # ------------------------------------------------------------------ lifecycle (not actions)
    @property
    def env(self):
        if self._env is None:
            raise RuntimeError("the desk has no episode: reset the task first (task.reset())")
        return self._env

    @property
    def last_observation(self) -> dict | None:
        """deskworld's last observation dict (screenshot, url, goal, last_action_error, user_reply); None before."""
        return self._last

    def open_episode(self, task_id: str, seed: int | None = None) -> dict:
        """Start an episode of ``task_id``: a fresh copy of its world, the browser on its start page."""
        if self._env is None:
            from harness.env import make_env     # Playwright and the apps load here, not at import

            self._env = make_env(task_id, variant=self._config.variant, max_steps=self._config.max_steps)
        obs, _info = self._env.reset(seed=seed, options={"task": task_id})
        self._last = obs
        return obs

    @property
    def ended(self) -> bool:
        return self._env is not None and self._env.unwrapped.episode.ended

    @property
    def result(self) -> dict | None:
        """The verifier's result (score, passed, checks, …) once the episode has ended."""
        if self._env is None or self._env.unwrapped.episode.result is None:
            return None
        return self._env.unwrapped.episode.result.to_dict()

    def close(self) -> None:
        """Stop the browser and the app server; safe to call twice."""
        env, self._env = self._env, None
        if env is not None:
            env.close()

    def screenshot(self) -> Image.Image:
        if self._last is None:
            raise RuntimeError("the desk has no episode: reset the task first (task.reset())")
        return Image.fromarray(self._last["screenshot"])

    @property
    def action_set(self) -> list[ActionSchema]:
        """The actions (``Tool``'s discovery), with each enum's values in a fixed order: cube reads them
        from a docstring set (``{"left", "right"}``), whose order changes from process to process."""
        actions = super().action_set
        for a in actions:
            for prop in a.parameters.get("properties", {}).values():
                if "enum" in prop:
                    prop["enum"] = sorted(prop["enum"])
        return actions

    def _act(self, action: dict[str, Any]) -> Image.Image:
        obs, _reward, _terminated, _truncated, _info = self.env.step(action)
        self._last = obs
        return Image.fromarray(obs["screenshot"])

    # ------------------------------------------------------------------ actions
    # Each docstring is the action's one-line description; @_params adds the numpy "Parameters"
    # section CUBE reads (``_PARAMS``: one entry per parameter, shared by the actions taking it).
    @tool_action
    @_params
    def click(self, x: int, y: int, button: str = "left", modifiers: list[str] | None = None) -> Image.Image:
        """Click at a point of the screenshot."""
        return self._act({"type": "click", "x": x, "y": y, "button": button, "modifiers": modifiers or []})

    @tool_action
    @_params
    def double_click(self, x: int, y: int, modifiers: list[str] | None = None) -> Image.Image:
        """Double-click at a point (opens a file, selects a word)."""
        return self._act({"type": "double_click", "x": x, "y": y, "modifiers": modifiers or []})

    @tool_action
    @_params
    def triple_click(self, x: int, y: int) -> Image.Image:
        """Triple-click at a point (selects a line or a paragraph)."""
        return self._act({"type": "triple_click", "x": x, "y": y})

    @tool_action
    @_params
    def move(self, x: int, y: int) -> Image.Image:
        """Move the mouse to a point (hover)."""
        return self._act({"type": "move", "x": x, "y": y})

    @tool_action
    @_params
    def drag(self, path: list[list[int]]) -> Image.Image:
        """Press at the first point, move through the others, release at the last."""
        points = [{"x": p[0], "y": p[1]} if isinstance(p, (list, tuple)) else p for p in path]
        return self._act({"type": "drag", "path": points})

    @tool_action
    @_params
    def scroll(self, x: int, y: int, dy: int = 0, dx: int = 0) -> Image.Image:
        """Scroll the element under a point."""
        return self._act({"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy})

    @tool_action
    @_params
    def key(self, keys: str) -> Image.Image:
        """Press a key or a chord; several presses separated by spaces."""
        return self._act({"type": "key", "keys": keys})

    @tool_action
    @_params
    def wait(self, ms: int = 1000) -> Image.Image:
        """Wait (at most 10 s), then look again."""
        return self._act({"type": "wait", "ms": ms})

    @tool_action
    @_params
    def navigate(self, url: str) -> Image.Image:
        """Go to a page of the workspace."""
        return self._act({"type": "navigate", "url": url})

    @tool_action
    def back(self) -> Image.Image:
        """Go back in the browser's history."""
        return self._act({"type": "back"})

    @tool_action
    @_params
    def ask_user(self, text: str) -> Image.Image:
        """Ask the person who gave you the task a question, when something only they know is missing."""
        return self._act({"type": "ask_user", "text": text})

    @tool_action
    @_params
    def done(self, answer: str | None = None, status: str = "complete") -> Image.Image:
        """End the episode: the work is finished (with the answer if the task asks a question), or can't be done."""
        return self._act({"type": "done", "status": status, "answer": answer})

    @tool_action
    def final_step(self) -> str:
        """Stop the task execution."""
        # CUBE's stop action: ends the deskworld episode as a plain done (no answer) so the verifier runs.
        if self._env is not None and not self.ended:
            self._act({"type": "done", "status": "complete"})
        raise AgentStop()

    # Last, so the builtin stays usable in the class body above.
    @tool_action
    @_params
    def type(self, text: str) -> Image.Image:
        """Type text at the keyboard focus."""
        return self._act({"type": "type", "text": text})
