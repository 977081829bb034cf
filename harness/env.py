"""``DeskEnv``: a deskworld task as a Gymnasium environment.

Observation (``Dict``):
    ``screenshot``  (800, 1280, 3) uint8, what the browser shows;
    ``url``          the page's address (on the stable origin http://desk.local);
    ``goal``         the task's prompt;
    ``last_action_error``  "" or why the last action could not be carried out;
    ``axtree``       (``axtree=True``) Playwright's ARIA snapshot of the page;
    ``som``          (``som=True``) ``image``: the screenshot with numbered boxes over
                     interactive elements, ``elements``: the matching list.

Actions: a JSON object (or its text) with a ``type`` — see ``harness.actions``
(``click``, ``double_click``, ``triple_click``, ``move``, ``mouse_down``,
``mouse_up``, ``drag``, ``scroll``, ``type``, ``key``, ``wait``, ``navigate``,
``back``, ``done``). A bad action never raises: it comes back in
``last_action_error`` and counts as a step.

Reward: 0 until the episode ends, then the verifier's score in [0, 1].

Episode end: ``terminated`` when the agent sends ``done``; ``truncated`` at the
task's ``max_steps`` (the verifier still runs) or when the environment breaks
(``info["status"] == "error"``: not the agent's failure).

Every Playwright call runs on one thread the env owns, so the env can be used
from asyncio code, notebooks and thread pools. ``close()`` is idempotent; the
env is a context manager.
"""
from __future__ import annotations

import json
import queue
import threading
from concurrent.futures import Future

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from harness import actions as A
from harness.browser import VIEWPORT, launch_args
from harness.observe import axtree, draw_marks, marks, marks_text, to_array
from harness.spaces import ActionSpace, AnyText
from harness.tasks.registry import load_task
from harness.tasks.schema import Task
from harness.verify import Result, Status, error_result, verify


class ResetNeeded(RuntimeError):
    """``step()`` before ``reset()``, or after the episode ended: call ``reset()``."""


class _BrowserThread:
    """A thread that owns Playwright and one Chromium; runs submitted calls in order."""

    def __init__(self):
        self._q: queue.Queue = queue.Queue()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.browser = None
        self._thread = threading.Thread(target=self._run, name="deskworld-browser", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error:
            raise self._error

    def _run(self) -> None:
        from playwright.sync_api import sync_playwright
        try:
            self._pw = sync_playwright().start()
            self.browser = self._pw.chromium.launch(**launch_args())
        except BaseException as e:            # surface launch errors in the caller's thread
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        while True:
            fn, fut = self._q.get()
            if fn is None:
                break
            try:
                fut.set_result(fn())
            except BaseException as e:
                fut.set_exception(e)
        try:
            self.browser.close()
        except Exception:
            pass
        try:
            self._pw.stop()
        except Exception:
            pass
        fut.set_result(None)

    def call(self, fn):
        fut: Future = Future()
        self._q.put((fn, fut))
        return fut.result()

    def relaunch(self) -> None:
        def _do():
            try:
                self.browser.close()
            except Exception:
                pass
            self.browser = self._pw.chromium.launch(**launch_args())
        self.call(_do)

    def stop(self) -> None:
        if self._thread.is_alive():
            fut: Future = Future()
            self._q.put((None, fut))
            fut.result(timeout=30)
            self._thread.join(timeout=10)


class DeskEnv(gym.Env):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, task: str | Task, *, axtree: bool = False, som: bool = False,
                 render_mode: str | None = None, trace: bool = False, max_steps: int | None = None):
        self.task = load_task(task) if isinstance(task, str) else task
        self.use_axtree = axtree
        self.use_som = som
        self.render_mode = render_mode
        self.trace = trace
        self._max_steps_override = max_steps
        shape = (VIEWPORT["height"], VIEWPORT["width"], 3)
        obs = {
            "screenshot": spaces.Box(0, 255, shape, dtype=np.uint8),
            "url": AnyText(max_length=8192, min_length=0),
            "goal": AnyText(max_length=50_000, min_length=0),
            "last_action_error": AnyText(max_length=8192, min_length=0),
        }
        if axtree:
            obs["axtree"] = AnyText(max_length=2_000_000, min_length=0)
        if som:
            obs["som"] = spaces.Dict({"image": spaces.Box(0, 255, shape, dtype=np.uint8),
                                      "elements": AnyText(max_length=500_000, min_length=0)})
        self.observation_space = spaces.Dict(obs)
        self.action_space = ActionSpace()
        self._worker: _BrowserThread | None = None
        self._runner = None
        self._steps = 0
        self._started = False
        self._ended = False
        self._last_png: bytes | None = None
        self._last_obs = None
        self.result: Result | None = None
        self.answer: str | None = None

    # ------------------------------------------------------------------ plumbing
    def _call(self, fn):
        if self._worker is None:
            from harness.episode import EpisodeRunner
            self._worker = _BrowserThread()
            self._runner = self._worker.call(lambda: EpisodeRunner(self._worker.browser, trace=self.trace))
        return self._worker.call(fn)

    @property
    def max_steps(self) -> int:
        return self._max_steps_override or self.task.max_steps

    def _observe(self, error: str) -> dict:
        def grab():
            png = self._runner.screenshot()
            url = self._runner.url()
            extra = {}
            if self.use_axtree:
                extra["axtree"] = axtree(self._runner.page)
            if self.use_som:
                extra["marks"] = marks(self._runner.page)
            return png, url, extra
        png, url, extra = self._call(grab)
        self._last_png = png
        arr = to_array(png)
        obs = {"screenshot": arr, "url": url, "goal": self.task.prompt, "last_action_error": error or ""}
        if self.use_axtree:
            obs["axtree"] = extra["axtree"]
        if self.use_som:
            els = extra["marks"]
            obs["som"] = {"image": draw_marks(arr, els), "elements": marks_text(els)}
        self._last_obs = obs
        return obs

    def _blank_obs(self, error: str) -> dict:
        shape = (VIEWPORT["height"], VIEWPORT["width"], 3)
        obs = {"screenshot": np.zeros(shape, np.uint8), "url": "", "goal": self.task.prompt,
               "last_action_error": error}
        if self.use_axtree:
            obs["axtree"] = ""
        if self.use_som:
            obs["som"] = {"image": np.zeros(shape, np.uint8), "elements": ""}
        return obs

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options and options.get("task"):
            t = options["task"]
            self.task = load_task(t) if isinstance(t, str) else t
        self._steps = 0
        self._ended = False
        self.result = None
        self.answer = None
        self._started = True
        self._status = "ok"
        try:
            self._call(lambda: self._runner.reset(self.task))
            obs = self._observe("")
        except Exception as e:
            # A browser that died is relaunched once; the reset is retried on the new one.
            self._recover()
            self._call(lambda: self._runner.reset(self.task))
            obs = self._observe("")
        return obs, self._info()

    def _recover(self) -> None:
        if self._worker is None:
            return
        from harness.episode import EpisodeRunner

        def _rebuild():
            try:
                self._runner.close()
            except Exception:
                pass
            return EpisodeRunner(self._worker.browser, trace=self.trace)
        self._worker.relaunch()
        self._runner = self._worker.call(_rebuild)

    def _info(self, **extra) -> dict:
        info = {"step": self._steps, "task": self.task.id, "status": self._status}
        info.update(extra)
        return info

    def step(self, action):
        if not self._started:
            raise ResetNeeded("call reset() before step()")
        if self._ended:
            raise ResetNeeded("the episode has ended; call reset() to start another")
        self._steps += 1
        error = ""
        parsed = None
        try:
            parsed = A.parse(action)
        except A.ActionError as e:
            error = str(e)
        done = isinstance(parsed, A.Done)
        try:
            if parsed is not None and not done:
                error = self._call(lambda: self._runner.execute(parsed)) or ""
            if not done:
                self._call(self._runner.advance_clock)
        except Exception as e:
            return self._broken(e)
        terminated = done
        truncated = not terminated and self._steps >= self.max_steps
        reward = 0.0
        extra = {}
        if done:
            self.answer = parsed.answer
        if terminated or truncated:
            self._ended = True
            try:
                self.result = self._verify(parsed.status if done else None, parsed.answer if done else None)
            except Exception as e:
                return self._broken(e)
            reward = float(self.result.score)
            extra["result"] = self.result.to_dict()
        try:
            obs = self._observe(error)
        except Exception as e:
            return self._broken(e)
        return obs, reward, terminated, truncated, self._info(**extra)

    def _verify(self, done_status: str | None, answer: str | None) -> Result:
        initial, final, diff = self._call(self._runner.final_state)
        world_root = self._runner.current.world.root
        return verify(self.task, initial, final, diff, answer=answer, done_status=done_status,
                      world_root=world_root)

    def _broken(self, exc: BaseException):
        """The environment failed: end the episode as ``error`` (never the agent's failure)."""
        self._ended = True
        self._status = "error"
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
        self.result = error_result(msg)
        obs = self._last_obs if self._last_obs is not None else self._blank_obs(msg)
        obs = {**obs, "last_action_error": ""}
        return obs, 0.0, False, True, self._info(result=self.result.to_dict(), error=msg)

    def render(self):
        if self.render_mode == "rgb_array":
            return None if self._last_obs is None else self._last_obs["screenshot"]
        return None

    # ------------------------------------------------------------------ privileged (oracles, recorder)
    def page_call(self, fn):
        """Run ``fn(page)`` on the browser thread (oracles resolve locators this way)."""
        return self._call(lambda: fn(self._runner.page))

    def last_png(self) -> bytes | None:
        return self._last_png

    def final_diff(self) -> dict:
        return self._call(self._runner.final_state)[2]

    def save_trace(self, path: str) -> None:
        self._call(lambda: self._runner.stop_trace(path))

    def close(self) -> None:
        if self._worker is not None:
            try:
                self._worker.call(self._runner.close)
            except Exception:
                pass
            self._worker.stop()
            self._worker = None
            self._runner = None
        super().close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def describe_actions() -> str:
    return A.describe()


def action_json(action: dict) -> str:
    return json.dumps(action)
