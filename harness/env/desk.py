"""``DeskEnv``: a deskworld task as a Gymnasium environment.

Observation (``Dict``):
    ``screenshot``  (800, 1280, 3) uint8, what the browser shows;
    ``url``          the page's address (on the stable origin http://desk.local);
    ``goal``         the task's prompt;
    ``last_action_error``  "" or why the last action could not be carried out;
    ``axtree``       (``axtree=True``) Playwright's ARIA snapshot of the page;
    ``som``          (``som=True``) ``image``: the screenshot with numbered boxes over
                     interactive elements, ``elements``: the matching list.

Actions: a JSON object (or its text) with a ``type`` — see ``harness.env.actions``
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
env is a context manager. The browser starts on the first ``reset()``, never in
the constructor, so building an env (or pickling one: it pickles without its
browser) is cheap and safe in any process.

See ``DeskEnv`` for task sampling, the pixels-only observation and vector envs.
"""
from __future__ import annotations

import json
import os
import queue
import threading
from concurrent.futures import Future

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from harness.env import actions as A
from harness.env.browser import VIEWPORT, launch_args
from harness.env.observe import axtree, draw_marks, marks, marks_text, to_array
from harness.env.spaces import ActionSpace, AnyText
from harness.tasks.registry import TaskError, load_task, select
from harness.tasks.schema import Task
from harness.verify import Result, error_result, verify


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


OBS_MODES = ("dict", "pixels")
TOOL_RESULT_CHARS = 200_000
SCREEN_SHAPE = (VIEWPORT["height"], VIEWPORT["width"], 3)


def observation_space(*, axtree: bool = False, som: bool = False, obs_mode: str = "dict",
                      tools: bool = False) -> spaces.Space:
    """The observation space of ``DeskEnv`` (and of ``harness.servers.remote.RemoteEnv``).

    Every shape is fixed and the text spaces are ``AnyText`` of fixed maximum
    lengths, so all sub-environments of a vector env have the same space
    whatever their task, and it batches (``obs_mode="pixels"``: one Box)."""
    if obs_mode not in OBS_MODES:
        raise ValueError(f"obs_mode must be one of {OBS_MODES}, not {obs_mode!r}")
    screen = spaces.Box(0, 255, SCREEN_SHAPE, dtype=np.uint8)
    if obs_mode == "pixels":
        if axtree or som:
            raise ValueError('obs_mode="pixels" is the screenshot alone: it cannot carry axtree or som')
        return screen
    obs = {
        "screenshot": screen,
        "url": AnyText(max_length=8192, min_length=0),
        "goal": AnyText(max_length=50_000, min_length=0),
        "last_action_error": AnyText(max_length=8192, min_length=0),
    }
    if axtree:
        obs["axtree"] = AnyText(max_length=2_000_000, min_length=0)
    if tools:
        obs["tool_result"] = AnyText(max_length=TOOL_RESULT_CHARS, min_length=0)
    if som:
        obs["som"] = spaces.Dict({"image": spaces.Box(0, 255, SCREEN_SHAPE, dtype=np.uint8),
                                  "elements": AnyText(max_length=500_000, min_length=0)})
    return spaces.Dict(obs)


GLOB_CHARS = set("*?[,")


def resolve_tasks(spec) -> list[Task]:
    """``tasks=``: a pattern (``"meridian/*"``, a world, ids separated by commas)
    or a list of ids, patterns and ``Task`` objects, expanded in the given order
    (the order fixes which task a seed draws)."""
    items = [spec] if isinstance(spec, (str, Task)) else list(spec)
    out: list[Task] = []
    for item in items:
        if isinstance(item, Task):
            out.append(item)
        elif "/" in item and not GLOB_CHARS & set(item):
            out.append(load_task(item))              # one id: fast, and its error names the file
        else:
            out.extend(select(item))
    if not out:
        raise TaskError(f"no task in {spec!r}")
    return out


class DeskEnv(gym.Env):
    """A deskworld task (or a pool of tasks) as a Gymnasium environment.

    ``DeskEnv(task)`` runs one task on every reset, as ``gym.make(ENV_ID, task=...)``
    always did. ``DeskEnv(tasks=[...])`` or ``DeskEnv(tasks="meridian/*")`` gives it
    a pool: each ``reset()`` runs ``options["task"]`` when given (an id or a
    ``Task``), else draws one from the pool with the env's seeded ``np_random``,
    so ``reset(seed=s)`` followed by seedless resets replays the same sequence of
    tasks. ``info["task"]`` names the task on every reset and step.

    ``tools=True`` makes a hybrid episode: the agent may also call the apps' tools
    (``harness.tools``) — as ``{"type": "tool_call", "tool": "mail.search",
    "arguments": {...}}`` actions, answered in the observation's ``tool_result``
    (JSON text), and over MCP at ``env.mcp_url()``, reported in the next step's
    ``info["tool_calls"]``. Tool writes are the agent's, verified like GUI work.

    ``obs_mode="pixels"`` makes the observation the (800, 1280, 3) uint8
    screenshot alone, for pixel-based RL; the goal, url and last action error move
    to ``info`` (``axtree``/``som`` need the default ``obs_mode="dict"``).

    Vector envs: each sub-env is its own process with its own browser and slot::

        envs = gym.make_vec("deskworld/Desk-v0", num_envs=4, vectorization_mode="async",
                            tasks="meridian/*", obs_mode="pixels",
                            vector_kwargs={"context": "spawn"})
        obs, infos = envs.reset(seed=0)       # obs (4, 800, 1280, 3); infos["task"]: 4 ids
        obs, r, term, trunc, infos = envs.step([{"type": "wait", "ms": 0}] * 4)

    ``make_vec`` passes no multiprocessing context, so Python's default is used
    (``fork`` on Linux up to 3.13). A fork is fine while the parent has no browser
    running; pass ``vector_kwargs={"context": "spawn"}`` (or ``"forkserver"``) when it
    may have one (a notebook that also runs a local env, a test session): forking a
    process whose Playwright threads hold locks can hang the child. The parent only
    builds one env to read the spaces, which starts no browser; each worker starts
    its own browser on its first reset. A ``DeskEnv`` copied into a forked child
    drops the parent's browser and starts its own.

    Autoreset: Gymnasium 1.x vector envs autoreset on the *next* step. The step
    that ends an episode returns its reward and ``infos["result"]`` (the verifier's
    result, with the ``infos["_result"]`` mask); the following ``step()`` ignores
    that sub-env's action and returns the first observation of its next episode
    (a new task drawn from the pool) with reward 0, ``terminated=truncated=False``.
    Text observations pass through shared memory as code points (``harness.env.spaces``),
    so the default ``shared_memory=True`` works for the dict observation too.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, task: str | Task | None = None, *, tasks=None, obs_mode: str = "dict",
                 axtree: bool = False, som: bool = False, render_mode: str | None = None,
                 trace: bool = False, max_steps: int | None = None, tools: bool = False):
        if (task is None) == (tasks is None):
            raise ValueError("give DeskEnv either task= (one task) or tasks= (a list or a pattern to draw from)")
        self.tasks: list[Task] = [load_task(task) if isinstance(task, str) else task] if task is not None \
            else resolve_tasks(tasks)
        # With a pool, the task is only known once reset() has drawn one.
        self.task: Task | None = self.tasks[0] if len(self.tasks) == 1 else None
        self.obs_mode = obs_mode
        self.use_axtree = axtree
        self.use_som = som
        self.use_tools = tools
        self._mcp = None
        self.render_mode = render_mode
        self.trace = trace
        self._max_steps_override = max_steps
        self.observation_space = observation_space(axtree=axtree, som=som, obs_mode=obs_mode, tools=tools)
        self.action_space = ActionSpace()
        self._worker: _BrowserThread | None = None
        self._runner = None
        self._owner_pid = os.getpid()
        self._steps = 0
        self._started = False
        self._ended = False
        self._status = "ok"
        self._last_png: bytes | None = None
        self._last_obs = None
        self.result: Result | None = None
        self.answer: str | None = None

    def __getstate__(self) -> dict:
        """Pickles without its browser (a thread and a Chromium can't travel):
        the copy starts its own on its first reset."""
        state = self.__dict__.copy()
        state.update(_worker=None, _runner=None, _last_png=None, _last_obs=None, _started=False, _mcp=None)
        return state

    # ------------------------------------------------------------------ plumbing
    def _call(self, fn):
        if self._worker is not None and self._owner_pid != os.getpid():
            # A forked copy: that browser thread belongs to the parent (and does not exist here).
            self._worker = self._runner = None
        if self._worker is None:
            self._owner_pid = os.getpid()
            from harness.env.driver import EpisodeRunner
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
        obs = {"screenshot": arr, "url": url, "goal": self.task.goal, "last_action_error": error or ""}
        if self.use_tools:
            obs["tool_result"] = (self._runner.tool_result or "")[:TOOL_RESULT_CHARS]
        if self.use_axtree:
            obs["axtree"] = extra["axtree"]
        if self.use_som:
            els = extra["marks"]
            obs["som"] = {"image": draw_marks(arr, els), "elements": marks_text(els)}
        self._last_obs = obs
        return obs

    def _blank_obs(self, error: str) -> dict:
        obs = {"screenshot": np.zeros(SCREEN_SHAPE, np.uint8), "url": "", "goal": self.task.goal,
               "last_action_error": error}
        if self.use_axtree:
            obs["axtree"] = ""
        if self.use_tools:
            obs["tool_result"] = ""
        if self.use_som:
            obs["som"] = {"image": np.zeros(SCREEN_SHAPE, np.uint8), "elements": ""}
        return obs

    def _present(self, obs: dict):
        """The observation as the space has it: the dict, or the screenshot alone."""
        return obs["screenshot"] if self.obs_mode == "pixels" else obs

    def _pick_task(self, options: dict | None) -> Task:
        """``options["task"]`` when given; else the one task, or a draw from the pool."""
        if options and options.get("task"):
            t = options["task"]
            return load_task(t) if isinstance(t, str) else t
        if len(self.tasks) == 1:
            # A single task= env keeps whatever an earlier options["task"] set (as it always did).
            return self.task or self.tasks[0]
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.task = self._pick_task(options)
        self._steps = 0
        self._ended = False
        self.result = None
        self.answer = None
        self.end_states = None                  # (initial, final) exports the verifier read
        self._started = True
        self._status = "ok"
        try:
            self._call(lambda: self._runner.reset(self.task))
            obs = self._observe("")
        except Exception:
            # A browser that died is relaunched once; the reset is retried on the new one.
            self._recover()
            self._call(lambda: self._runner.reset(self.task))
            obs = self._observe("")
        return self._present(obs), self._info(obs)

    def _recover(self) -> None:
        if self._worker is None:
            return
        from harness.env.driver import EpisodeRunner

        def _rebuild():
            try:
                self._runner.close()
            except Exception:
                pass
            return EpisodeRunner(self._worker.browser, trace=self.trace)
        self._worker.relaunch()
        self._runner = self._worker.call(_rebuild)

    def _info(self, obs: dict | None = None, **extra) -> dict:
        info = {"step": self._steps, "task": self.task.id, "status": self._status}
        if self.obs_mode == "pixels" and obs is not None:
            # What the dict observation carries besides pixels, for agents that need the goal.
            info.update(goal=obs["goal"], url=obs["url"], last_action_error=obs["last_action_error"])
        info.update(extra)
        return info

    def episode_state(self) -> dict:
        """Where the episode stands (the env server's ``/state``)."""
        return {"task": self.task.id if self.task else None, "step_count": self._steps,
                "max_steps": self.max_steps if self.task else None, "started": self._started,
                "done": self._ended, "status": self._status,
                "url": (self._last_obs or {}).get("url", ""),
                "result": self.result.to_dict() if self.result is not None else None}

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
        if isinstance(parsed, A.ToolCall) and not self.use_tools:
            error, parsed = "tool_call needs an env made with tools=True (a hybrid episode)", None
        try:
            if self.use_tools:
                self._call(self._runner.clear_tool_result)
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
        if self._mcp is not None:
            calls = self._mcp.drain()
            if calls:
                extra["tool_calls"] = calls
        return self._present(obs), reward, terminated, truncated, self._info(obs, **extra)

    def _verify(self, done_status: str | None, answer: str | None) -> Result:
        initial, final, diff = self._call(self._runner.final_state)
        self.end_states = (initial, final)
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
        return self._present(obs), 0.0, False, True, self._info(obs, result=self.result.to_dict(), error=msg)

    def render(self):
        if self.render_mode == "rgb_array":
            return None if self._last_obs is None else self._last_obs["screenshot"]
        return None

    # ------------------------------------------------------------------ hybrid episodes
    def mcp_url(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve this env's apps as MCP tools (streamable HTTP) next to the GUI: a hybrid episode.

        Calls act in the live episode (its slot, as the task's user, actor ``agent``) and are
        reported in the next step's ``info["tool_calls"]`` (so the runner records them in
        ``steps.jsonl``); after a write the page hears ``deskworld:refresh``. Needs ``tools=True``
        and the ``mcp`` extra; the server lives as long as the env."""
        if not self.use_tools:
            raise ValueError("mcp_url() needs an env made with tools=True")
        if self._mcp is None:
            from harness.tools.hybrid import EpisodeMCP
            self._mcp = EpisodeMCP(self, host=host, port=port)
        return self._mcp.url

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
        if self._mcp is not None:
            self._mcp.stop()
            self._mcp = None
        if self._worker is not None and self._owner_pid != os.getpid():
            self._worker = self._runner = None          # a forked copy: the browser is the parent's
        if self._worker is not None:
            try:
                self._worker.call(self._runner.close)
            except Exception:
                pass
            self._worker.stop()
            self._worker = None
            self._runner = None
        super().close()


def describe_actions() -> str:
    return A.describe()


def action_json(action: dict) -> str:
    return json.dumps(action)
