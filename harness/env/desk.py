"""``DeskEnv``: a deskworld task as a Gymnasium environment (the base env).

Observation (``Dict``):
    ``screenshot``  (H, W, 3) uint8, what the browser shows: (800, 1280, 3) by default, the
                     variant's screen otherwise (``variant=``, below);
    ``url``          the page's address (on the stable origin http://desk.local);
    ``goal``         the task's prompt;
    ``last_action_error``  "" or why the last action could not be carried out;
    ``user_reply``   "" or, after an ``ask_user``, what the task's principal answered.
More is a wrapper away (``harness.env.wrappers``), each applied by ``make_env``
(``harness.env.make``, the entry point of ``gym.make("deskworld/Desk-v0", ...)``) when
its flag asks: ``tools=True`` (a hybrid episode: ``tool_call`` actions, ``tool_result``,
an MCP server), ``axtree=True`` (Playwright's ARIA snapshot), ``som=True`` (set-of-marks:
the screenshot with numbered boxes over interactive elements, and the matching list),
``obs_mode="pixels"`` (the screenshot alone).

Actions: a JSON object (or its text) with a ``type`` — see ``harness.env.actions``
(``click``, ``double_click``, ``triple_click``, ``move``, ``mouse_down``,
``mouse_up``, ``drag``, ``scroll``, ``type``, ``key``, ``wait``, ``navigate``,
``back``, ``done``). A bad action never raises: it comes back in
``last_action_error`` and counts as a step.

Reward: ``reward="final"`` (the default): 0 until the episode ends, then the verifier's score
in [0, 1]. ``reward="milestones"``: a task with checkpoints pays each checkpoint's share of the
score on the step it first holds, and the last step pays the rest (or takes back what was
undone), so an episode's rewards sum to its score (``harness.verify.milestones``); a task
without checkpoints pays as ``final``. Either way ``info["checkpoints"]`` names the checkpoints
a step reached.

Episode end: ``terminated`` when the agent sends ``done``; ``truncated`` at the
task's ``max_steps`` (the verifier still runs) or when the environment breaks
(``info["status"] == "error"``: not the agent's failure).

Where a step goes: ``DeskEnv.step`` parses the action (``actions.py``) and hands it
to its session (``session.py``: the browser thread) → ``Driver.act`` (``driver.py``)
→ the executor (``execute.py``: Playwright calls) → the settle (``settle.py``) and the
containment (``containment.py``) → world time moves on → the observation
(``Session.observe``, ``observe.py``).

Every Playwright call runs on the session's one thread, so the env can be used
from asyncio code, notebooks and thread pools. ``close()`` is idempotent; the
env is a context manager. The browser starts on the first ``reset()``, never in the
constructor, so building an env (or pickling one: it pickles without its
browser) is cheap and safe in any process.

See ``DeskEnv`` for task sampling and vector envs.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import harness.env.actions as A
from harness.env.observe import to_array
from harness.env.session import Session
from harness.env.spaces import ActionSpace, AnyText, screen_space
from harness.env.variant import ANY, Variant, VariantError, variant_or_any
from harness.tasks.families import InstanceRef
from harness.tasks.registry import TaskError, load_instance, load_task, select, select_instances
from harness.tasks.schema import Task
from harness.verify import Result, Status, error_result, verify
from harness.verify.milestones import REWARDS, Milestones


class ResetNeeded(RuntimeError):
    """``step()`` before ``reset()``, or after the episode ended: call ``reset()``."""


def base_observation_space(variant=None) -> spaces.Dict:
    """The observation space of ``DeskEnv`` itself (the wrappers add to it); the screenshot's shape
    is ``variant``'s screen (default 1280×800).

    Every shape is fixed and the text spaces are ``AnyText`` of fixed maximum
    lengths, so all sub-environments of a vector env have the same space
    whatever their task, and it batches."""
    v = variant if isinstance(variant, Variant) else Variant.of(None if variant in (None, ANY) else variant)
    return spaces.Dict({
        "screenshot": screen_space(v.shape),
        "url": AnyText(max_length=8192, min_length=0),
        "goal": AnyText(max_length=50_000, min_length=0),
        "last_action_error": AnyText(max_length=8192, min_length=0),
        "user_reply": AnyText(max_length=8192, min_length=0),
    })


GLOB_CHARS = set("*?[,")


def resolve_tasks(spec, split: str | None = None) -> list:
    """``tasks=``: a pattern (``"meridian/*"``, a world, ids separated by commas)
    or a list of ids, patterns and ``Task`` objects, expanded in the given order
    (the order fixes which task a seed draws). With ``split`` (``train``, ``dev``, ``test``):
    the instances of the matching families in that split, as ``InstanceRef``s (each rendered
    when a reset draws it)."""
    if split is not None:
        pats = [spec] if isinstance(spec, str) else [t if isinstance(t, str) else t.id for t in spec]
        return select_instances(",".join(pats), split=split)
    items = [spec] if isinstance(spec, (str, Task)) else list(spec)
    out: list[Task] = []
    for item in items:
        if isinstance(item, (Task, InstanceRef)):
            out.append(item)
        elif "/" in item and not GLOB_CHARS & set(item):
            out.append(load_task(item))              # one id: fast, and its error names the file
        else:
            out.extend(select(item))
    if not out:
        raise TaskError(f"no task in {spec!r}")
    return out


@dataclass
class Episode:
    """Where the env's episode stands (``env.episode``: a new one on each reset)."""
    started: bool = False
    steps: int = 0
    ended: bool = False
    status: str = "ok"                        # "error": the environment broke (not the agent's failure)
    result: Result | None = None              # the verifier's, once the episode has ended
    answer: str | None = None                 # the answer of the agent's done action
    end_states: tuple[dict, dict] | None = None   # the (initial, final) exports the verifier read
    milestones: Milestones | None = None      # the task's checkpoints as they were reached


class DeskEnv(gym.Env[dict, dict]):
    """A deskworld task (or a pool of tasks) as a Gymnasium environment.

    ``DeskEnv(task)`` runs one task on every reset, as ``gym.make(ENV_ID, task=...)``
    always did. ``DeskEnv(tasks=[...])`` or ``DeskEnv(tasks="meridian/*")`` gives it
    a pool: each ``reset()`` runs ``options["task"]`` when given (an id or a
    ``Task``), else draws one from the pool with the env's seeded ``np_random``,
    so ``reset(seed=s)`` followed by seedless resets replays the same sequence of
    tasks. ``info["task"]`` names the task on every reset and step.

    ``env.episode`` is where the episode stands (steps, status, the verifier's
    ``result``, the ``answer``); ``env.session`` is the browser side, for privileged
    callers (oracles, QC, the runner, the bench). ``make_env`` (``gym.make``'s entry
    point) adds the wrappers for ``tools=``, ``axtree=``, ``som=`` and ``obs_mode=``.

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
    drops the parent's browser and starts its own (``harness.env.session``).

    Appearance variants (``harness.env.variant``: viewport, device scale factor, browser zoom, theme,
    density, list arrangement):
    ``DeskEnv(variant={"viewport": "1440x900", "scale": 2})`` (or its text,
    ``"viewport=1440x900,scale=2"``) runs every episode on that screen; ``reset(options={"variant":
    ...})`` runs one episode on another. The screenshot is the variant's screen (``viewport × scale``
    pixels) and actions are in its pixels. The observation space is fixed by the constructor's
    variant (a vector env needs one shape): a reset variant of another screen size is refused
    (``VariantError``) — a variant of the same size (another zoom) is fine. ``variant="any"`` lifts
    that: every reset may change the screen, and ``observation_space`` follows the episode's (not for
    vector envs). ``info["variant"]`` names the episode's variant (its canonical text) on every reset
    and step when it isn't the default; ``env.variant`` is the ``Variant``.

    Autoreset: Gymnasium 1.x vector envs autoreset on the *next* step. The step
    that ends an episode returns its reward and ``infos["result"]`` (the verifier's
    result, with the ``infos["_result"]`` mask); the following ``step()`` ignores
    that sub-env's action and returns the first observation of its next episode
    (a new task drawn from the pool) with reward 0, ``terminated=truncated=False``.
    Text observations pass through shared memory as code points (``harness.env.spaces``),
    so the default ``shared_memory=True`` works for the dict observation too.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, task: str | Task | None = None, *, tasks=None, split: str | None = None,
                 render_mode: str | None = None, trace: bool = False, max_steps: int | None = None,
                 reward: str = "final", variant=None, headed: bool = False):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if (task is None) == (tasks is None):
            raise ValueError("give DeskEnv either task= (one task) or tasks= (a list or a pattern to draw from)")
        if split is not None and tasks is None:
            raise ValueError("split= selects instances from a pool: give tasks= (a pattern such as 'meridian/*')")
        self.tasks: list = [load_task(task) if isinstance(task, str) else task] if task is not None \
            else resolve_tasks(tasks, split)
        self.split = split
        # With a pool, the task is only known once reset() has drawn one.
        self.task: Task | None = self._loaded(self.tasks[0]) if len(self.tasks) == 1 else None
        self.render_mode = render_mode
        self.fixed_variant = variant_or_any(variant)       # a Variant, or "any" (the screen may change at reset)
        self.variant: Variant = Variant() if self.fixed_variant == ANY else self.fixed_variant
        self.observation_space = base_observation_space(self.variant)
        self.action_space = ActionSpace(screen=self.variant.screen)
        self.session = Session(trace=trace, headed=headed)
        self.episode = Episode()
        self._max_steps = max_steps
        self.reward_mode = reward
        self._last_obs: dict | None = None

    def __getstate__(self) -> dict:
        """Pickles without its browser (the session's): the copy starts its own on its first reset."""
        state = self.__dict__.copy()
        state.update(_last_obs=None, episode=replace(self.episode, started=False))
        return state

    @property
    def max_steps(self) -> int:
        """The step limit: ``max_steps=`` when given (or set), else the task's."""
        return self._max_steps or self.task.max_steps

    @max_steps.setter
    def max_steps(self, value: int | None) -> None:
        self._max_steps = value

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        variant = self._pick_variant(options)
        self.task = self._pick_task(options)
        self.episode = Episode(started=True)
        self._use_variant(variant)
        try:
            self.session.reset(self.task, variant)
            obs = self._observe("")
        except Exception:
            # A browser that died is relaunched once; the reset is retried on the new one.
            self.session.relaunch()
            self.session.reset(self.task, variant)
            obs = self._observe("")
        self.episode.milestones = Milestones(self.task, self.session.desk().world.root)
        return obs, self._info()

    def step(self, action):
        ep = self.episode
        if not ep.started:
            raise ResetNeeded("call reset() before step()")
        if ep.ended:
            raise ResetNeeded("the episode has ended; call reset() to start another")
        ep.steps += 1
        error = ""
        parsed = None
        try:
            parsed = A.parse(action, screen=self.variant.screen)
        except A.ActionError as e:
            error = str(e)
        done = isinstance(parsed, A.Done)
        if isinstance(parsed, A.ToolCall) and not self.session.tools:
            error, parsed = "tool_call needs an env made with tools=True (a hybrid episode)", None
        try:
            error = self.session.act(parsed) or error
        except Exception as e:
            return self._broken(e)
        terminated = done
        truncated = not terminated and ep.steps >= self.max_steps
        reward = 0.0
        extra = {}
        if done:
            ep.answer = parsed.answer
        ms = ep.milestones
        if terminated or truncated:
            ep.ended = True
            try:
                ep.result = self._verify(parsed.status if done else None, parsed.answer if done else None)
            except Exception as e:
                return self._broken(e)
            owed, new = ms.finish(ep.steps, ep.result) if ms is not None else (ep.result.score, [])
            reward = float(owed if self.reward_mode == "milestones" else ep.result.score)
            extra["result"] = ep.result.to_dict()
            if new:
                extra["checkpoints"] = new
        elif ms is not None and ms.active:
            try:
                paid, new = self.session.call(lambda: self._judge_milestones(ms, ep.steps))
            except Exception as e:
                return self._broken(e)
            if self.reward_mode == "milestones":
                reward = paid
            if new:
                extra["checkpoints"] = new
        try:
            obs = self._observe(error)
        except Exception as e:
            return self._broken(e)
        return obs, reward, terminated, truncated, self._info(**extra)

    def render(self):
        if self.render_mode == "rgb_array":
            return None if self._last_obs is None else self._last_obs["screenshot"]
        return None

    def close(self) -> None:
        self.session.close()
        super().close()

    def episode_state(self) -> dict:
        """Where the episode stands (the env server's ``/state``)."""
        ep = self.episode
        return {"task": self.task.id if self.task else None, "step_count": ep.steps,
                "max_steps": self.max_steps if self.task else None, "started": ep.started,
                "done": ep.ended, "status": ep.status,
                "checkpoints": dict(ep.milestones.reached) if ep.milestones is not None else {},
                "url": (self._last_obs or {}).get("url", ""),
                "result": ep.result.to_dict() if ep.result is not None else None}

    # ------------------------------------------------------------------ the episode
    def _pick_variant(self, options: dict | None) -> Variant:
        """``options["variant"]`` when given (a dict, its text or a ``Variant``), else the constructor's.
        A variant of another screen size than the observation space's is refused unless the env was
        made with ``variant="any"``."""
        if not options or options.get("variant") is None:
            return Variant() if self.fixed_variant == ANY else self.fixed_variant
        v = Variant.of(options["variant"])
        if self.fixed_variant != ANY and v.screen != self.fixed_variant.screen:
            w, h = self.fixed_variant.screen
            raise VariantError(f"variant {v} has a {v.screen[0]}x{v.screen[1]} screen, but this env's observation "
                               f"space is {w}x{h} (fixed by DeskEnv(variant=...), a vector env needs one shape); "
                               f"make the env with that variant, or with variant='any' to let each reset "
                               "change the screen")
        return v

    def _use_variant(self, v: Variant) -> None:
        """The episode's variant; with ``variant="any"`` the spaces follow its screen."""
        if v.screen != self.variant.screen:
            self.observation_space = base_observation_space(v)
            self.action_space = ActionSpace(screen=v.screen)
        self.variant = v

    def _pick_task(self, options: dict | None) -> Task:
        """``options["task"]`` when given; else the one task, or a draw from the pool."""
        if options and options.get("task"):
            t = options["task"]
            return load_task(t) if isinstance(t, str) else self._loaded(t)
        if len(self.tasks) == 1:
            # A single task= env keeps whatever an earlier options["task"] set (as it always did).
            return self.task or self._loaded(self.tasks[0])
        return self._loaded(self.tasks[int(self.np_random.integers(len(self.tasks)))])

    @staticmethod
    def _loaded(item) -> Task:
        """A pool item as a task: an ``InstanceRef`` is rendered when drawn."""
        return load_instance(item) if isinstance(item, InstanceRef) else item

    def _observe(self, error: str) -> dict:
        png, url = self.session.observe()
        obs = {"screenshot": to_array(png, self.variant.screen), "url": url, "goal": self.task.goal, "last_action_error": error or "",
               "user_reply": self.session.user_reply[:8192]}
        self._last_obs = obs
        return obs

    def _info(self, **extra) -> dict:
        return {"step": self.episode.steps, "task": self.task.id, "status": self.episode.status,
                **({"variant": str(self.variant)} if not self.variant.is_default else {}), **extra}

    def _judge_milestones(self, ms: Milestones, step: int) -> tuple[float, list[str]]:
        desk = self.session.desk()
        with desk.slot.store() as st:
            return ms.after_step(step, st, desk.initial_state())

    def _verify(self, done_status: str | None, answer: str | None) -> Result:
        initial, final, diff = self.session.final_state()
        self.episode.end_states = (initial, final)
        return verify(self.task, initial, final, diff, answer=answer, done_status=done_status,
                      world_root=self.session.desk().world.root, locale=self.variant.locale)

    def _broken(self, exc: BaseException):
        """The environment failed: end the episode as ``error`` (never the agent's failure);
        the observation is the last one again (a blank one before any)."""
        ep = self.episode
        ep.ended = True
        ep.status = Status.ERROR
        msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
        ep.result = error_result(msg)
        obs = self._last_obs if self._last_obs is not None else {
            "screenshot": np.zeros(self.variant.shape, np.uint8), "url": "", "goal": self.task.goal}
        obs = {**obs, "last_action_error": "", "user_reply": ""}
        return obs, 0.0, False, True, self._info(result=ep.result.to_dict(), error=msg)
