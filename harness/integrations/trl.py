"""deskworld tasks for TRL's ``GRPOTrainer``: ``DeskworldSpec``, shaped like TRL's own environment specs
(``trl.experimental.openreward.OpenRewardSpec``, ``trl.experimental.harbor.HarborSpec``).

Example (TRL's own virtualenv: ``examples/trl``)::

    from trl import GRPOConfig, GRPOTrainer
    from harness.integrations.trl import DeskworldSpec

    spec = DeskworldSpec("meridian/corvane-deductible", seeds=[0, 1], image_size=(640, 400))
    trainer = GRPOTrainer(model="Qwen/Qwen3-VL-2B-Instruct", args=GRPOConfig(...),
                          train_dataset=spec.train_dataset,
                          environment_factory=spec.environment_factory,
                          reward_funcs=spec.reward_funcs)
    trainer.train()

- ``spec.train_dataset``: a ``datasets.Dataset``, one row per task instance and seed: ``prompt`` (one
  user message with empty content: the environment's ``reset`` supplies the goal and the first
  screenshot, as TRL's specs do), ``task``, ``seed`` and (``include_metadata``) ``world``.
- ``spec.environment_factory``: a class, made for this spec, with a no-argument constructor that
  starts nothing (TRL builds one at init to find the tools); ``reset(**row)`` starts the episode (the
  browser on the first one) and returns ``[image, text]``; every public method is a tool for the
  model: ``click``, ``double_click``, ``triple_click``, ``move``, ``drag``, ``scroll``, ``type``,
  ``key``, ``wait``, ``navigate``, ``back``, ``done``, ``ask_user`` when a selected task has
  someone to ask, and with ``tools=True`` the apps' tools of the selected tasks' apps
  (``mail_search``, ``drive_read`` …). Each returns the screenshot after the action as an image
  block and a text block (the URL, the action's error if any). Coordinates are pixels of the
  screenshot the model sees (``image_size``), mapped onto the browser's screen. Once the episode
  has ended (``done``, or the task's step limit) the tools say so and act no more.
- ``spec.reward_funcs``: ``[score_reward]`` by default (the verifier's score in [0, 1]: the weighted
  share of a task's checkpoints where it has them); ``rewards=("passed", "score")`` adds the binary
  ``passed_reward``. They read the environments TRL hands them (``environments=``, GRPOTrainer; TRL
  1.16's ``AsyncGRPOTrainer`` passes none, so they refuse it by name). A rollout that never ended its
  episode (the model stopped without calling ``done`` before the step limit) scores 0; one whose
  environment failed (the browser or the apps broke: never the policy's doing) gets ``None``, which
  GRPOTrainer leaves out of the group's baseline.

The env is local (``make_env``, a headless Chromium per environment instance) or, with
``server="http://host:port"``, a session of ``deskworld env-server`` (``RemoteEnv``; with ``tools=True``
the server must run with ``--tools``).
Nothing here imports TRL, torch or transformers; ``datasets`` is imported by ``train_dataset``.
"""
from __future__ import annotations

import functools
import weakref

from harness.agents.model import SCREEN, Screen
from harness.env import actions as A
from harness.env.desk import resolve_tasks
from harness.tasks.families import InstanceRef
from harness.tasks.registry import TaskError, load_task

REWARDS = ("score", "passed")
# The deskworld actions the environment's tools carry out, each by the tool of its name (and ``tool_call``
# by the app tool it names).
ACTED = ("click", "double_click", "triple_click", "move", "drag", "scroll", "type", "key", "wait", "navigate",
         "back", "done", "ask_user")
# The tools' enums are the actions' own (harness.env.actions), so the two cannot drift apart.
Button = A.Click.model_fields["button"].annotation          # Literal["left", "right", "middle"]
Status = A.Done.model_fields["status"].annotation           # Literal["complete", "infeasible"]


class DeskworldSpec:
    """Everything ``GRPOTrainer`` needs to train on deskworld tasks.

    Args:
        tasks: task ids, patterns (``"meridian/*"``, a world) or a list of them (``DeskEnv``'s ``tasks=``).
        split: ``"train"``, ``"dev"`` or ``"test"``: the instances of the matching families in that split
            instead of the hand-made tasks.
        per_family: with ``split``, this many instances of each family, drawn with ``sample_seed``.
        sample_seed: the seed of that draw.
        seeds: the reset seeds; each task instance gives one row per seed.
        num_tasks: keep the first this many rows.
        image_size: ``(width, height)`` of the screenshots the model sees (``None``: the browser's screen,
            1280×800 unless ``variant`` says otherwise); tool coordinates are in these pixels.
        axtree: add the page's accessibility tree (text) to every observation.
        tools: also give the model the apps' tools of the selected tasks (a hybrid episode; with ``server``,
            the server must run with ``--tools``).
        server: the URL of a ``deskworld env-server`` to run the episodes on instead of locally.
        token: the server's ``--token`` (default ``$DESKWORLD_ENV_TOKEN``).
        max_steps: the step limit of an episode (default: each task's).
        variant: the appearance variant (``DeskEnv``'s ``variant=``; local only).
        rewards: which reward functions ``reward_funcs`` lists: ``"score"`` and/or ``"passed"``.
        include_metadata: add a ``world`` column.
    """

    def __init__(self, tasks, *, split: str | None = None, per_family: int | None = None, sample_seed: int = 0,
                 seeds=(0,), num_tasks: int | None = None, image_size: tuple[int, int] | None = None,
                 axtree: bool = False, tools: bool = False, server: str | None = None, token: str | None = None,
                 max_steps: int | None = None, variant=None, rewards=("score",), include_metadata: bool = True):
        if isinstance(rewards, str):
            rewards = (rewards,)
        bad = [r for r in rewards if r not in REWARDS]
        if bad or not rewards:
            raise ValueError(f"rewards: choose among {REWARDS}, not {list(rewards)!r}")
        if isinstance(seeds, int):
            raise TypeError(f"seeds is a list of reset seeds (seeds=[{seeds}]), not an int")
        seeds = list(seeds)
        if not seeds or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
            raise ValueError(f"seeds must be a non-empty list of ints, not {seeds!r}")
        if image_size is not None:
            if (not isinstance(image_size, (tuple, list)) or len(image_size) != 2
                    or not all(isinstance(n, int) and n >= 28 for n in image_size)):
                raise ValueError(f"image_size is (width, height) in pixels, each at least 28, not {image_size!r}")
            image_size = (int(image_size[0]), int(image_size[1]))
        if server is not None:
            if not str(server).startswith(("http://", "https://")):
                raise ValueError(f"server is the env server's URL (http://host:port), not {server!r}")
            if tools:
                _require_server_tools(server, token)
            if variant is not None:
                raise ValueError("variant= is for a local env; the env server's episodes use its own settings")
        if per_family is not None and split is None:
            raise ValueError("per_family= samples the instances of a split: give split= too")
        if num_tasks is not None and num_tasks < 1:
            raise ValueError(f"num_tasks must be at least 1, not {num_tasks}")
        self.split, self.seeds, self.num_tasks = split, seeds, num_tasks
        self.image_size, self.axtree, self.tools = image_size, axtree, tools
        self.server, self.token, self.max_steps, self.variant = server, token, max_steps, variant
        self.rewards, self.include_metadata = tuple(rewards), include_metadata
        # Unknown ids, patterns and splits fail here, with the registry's message.
        items = resolve_tasks(tasks, split)
        if per_family is not None:
            from harness.tasks.registry import sample_instances
            items = sample_instances(items, per_family, seed=sample_seed)
        self.task_ids: list[str] = [t.id for t in items]
        self._families = _family_tasks(items)

    # ------------------------------------------------------------------ TRL's three attributes
    @functools.cached_property
    def train_dataset(self):
        """A ``datasets.Dataset``: one row per task instance and seed."""
        from datasets import Dataset
        return Dataset.from_list(self.rows())

    @functools.cached_property
    def environment_factory(self) -> type:
        """The environment class for ``GRPOTrainer(environment_factory=...)``: a subclass of
        ``DeskworldEnv`` made for this spec (its tools bound on it, so another spec's don't leak in)."""
        asks = any(t.principal is not None for t in self._families)      # someone to ask: the ask_user tool
        cls = type(f"DeskworldEnv_{id(self):x}", (DeskworldEnv, _AskUser) if asks else (DeskworldEnv,),
                   {"_spec": self, "__module__": __name__})
        if self.tools:
            from harness.integrations._trl_tools import bind_app_tool
            from harness.tools.registry import registry
            apps = sorted({a for t in self._families for a in t.apps})
            for app in apps:
                for tool in registry(app):
                    bind_app_tool(cls, tool)
        return cls

    @functools.cached_property
    def reward_funcs(self) -> list:
        """The reward functions for ``GRPOTrainer(reward_funcs=...)``."""
        return [{"score": score_reward, "passed": passed_reward}[r] for r in self.rewards]

    # ------------------------------------------------------------------
    def rows(self) -> list[dict]:
        """The dataset's rows, as plain dicts."""
        out = []
        for task_id in self.task_ids:
            for seed in self.seeds:
                row = {"prompt": [{"role": "user", "content": ""}], "task": task_id, "seed": seed}
                if self.include_metadata:
                    row["world"] = task_id.split("/", 1)[0]
                out.append(row)
        return out[:self.num_tasks] if self.num_tasks is not None else out

    def tool_call(self, action: dict, screen: tuple[int, int] = SCREEN) -> dict:
        """The tool call (``{"name": ..., "arguments": {...}}``) that carries out a deskworld action —
        one an oracle run recorded, say — for this spec's model: points mapped from the browser's
        ``screen`` (width, height) into the screenshot the model sees. For scripted policies and
        supervised data."""
        kind = action.get("type")
        if kind == "tool_call":
            return {"name": action["tool"].replace(".", "_"), "arguments": dict(action.get("arguments") or {})}
        if kind not in ACTED:
            raise ValueError(f"no tool carries out a {kind!r} action; the tools act out: "
                             f"{', '.join(ACTED + ('tool_call',))}")
        if action.get("modifiers"):
            raise ValueError(f"the {kind} tool takes no modifiers (action {action!r})")
        view = Screen(self.image_size, tuple(screen))
        (w, h), (sx, sy) = view.size, view.scale

        def pt(p: dict, xn: str = "x", yn: str = "y") -> dict:
            x, y = view.to_model(p["x"], p["y"])
            return {xn: min(w - 1, x), yn: min(h - 1, y)}

        args = {k: v for k, v in action.items() if k not in ("type", "modifiers") and v is not None}
        if kind in ("click", "double_click", "triple_click", "move", "scroll"):
            args.update(pt(action))
            if kind == "scroll":
                args.update(dx=round(action.get("dx", 0) / sx), dy=round(action.get("dy", 0) / sy))
        elif kind == "drag":
            path = action["path"]
            if len(path) != 2:
                raise ValueError(f"the drag tool goes from one point to another, not along {len(path)} points")
            args = {**pt(path[0], "start_x", "start_y"), **pt(path[1], "end_x", "end_y")}
        elif kind == "key":
            args = {"keys": action.get("keys", action.get("key"))}
        return {"name": kind, "arguments": args}

    def make_env(self, task_id: str):
        """A new env for this spec's settings (local ``make_env`` or ``RemoteEnv``)."""
        if self.server is not None:
            from harness.servers.remote import RemoteEnv
            return RemoteEnv(self.server, token=self.token)
        from harness.env import make_env
        return make_env(task_id, tools=self.tools, axtree=self.axtree, max_steps=self.max_steps,
                        variant=self.variant)


def _require_server_tools(server: str, token: str | None) -> None:
    """``tools=True`` on an env server: the server must have been started with ``--tools`` (its
    sessions then take ``tool_call`` actions); asked once, when the spec is made."""
    import os

    from harness.servers.remote import server_metadata
    token = token if token is not None else os.environ.get("DESKWORLD_ENV_TOKEN") or None
    served = (server_metadata(server, token=token).get("observation") or {}).get("tools")
    if not served:
        raise ValueError(f"tools=True: the env server at {server} serves no app tools; start it with "
                         f"--tools (or DESKWORLD_TOOLS=1), or leave tools off")


def _family_tasks(items) -> list:
    """The tasks that stand for ``items`` when asking what they use (apps, a principal): an instance's
    family's hand-made task, loaded once per family."""
    out, seen = [], set()
    for item in items:
        key = item.family if isinstance(item, InstanceRef) else item.id
        if key in seen:
            continue
        seen.add(key)
        out.append(load_task(item.family) if isinstance(item, InstanceRef) else item)
    return out


# ---------------------------------------------------------------------- the environment class
class DeskworldEnv:
    """One rollout's deskworld episode, for TRL. Use a spec's ``environment_factory`` (a subclass bound
    to the spec); this base class has no spec. The browser starts on the first ``reset``."""

    _spec: DeskworldSpec | None = None

    def __init__(self):
        if self._spec is None:
            raise TypeError("DeskworldEnv is made by a spec: pass DeskworldSpec(...).environment_factory")
        self._env = None
        self._over = "no episode has started"       # why the episode is over; "" while it runs
        self._result: dict | None = None            # the verifier's, once the episode has ended
        self._view = Screen.of(self._spec.image_size)   # the screenshot the model sees, mapped onto the screen

    # ---- what the reward functions read (properties without side effects: TRL reads them at init)
    @property
    def result(self) -> dict | None:
        """The verifier's result of the episode (``None`` until it has ended)."""
        return self._result

    @property
    def reward(self) -> float | None:
        """The verifier's score in [0, 1] (``score_reward``'s value for this rollout)."""
        return _verdict(self, "score")

    # ---- TRL's contract
    def reset(self, task: str | None = None, seed: int | None = 0, **row) -> list:
        """Start an episode of ``task`` (the dataset row's columns arrive as keyword arguments)."""
        if not task or not isinstance(task, str):
            raise ValueError(f"reset() needs the row's task id (task='world/name'), not {task!r}")
        if self._env is None:
            self._env = self._spec.make_env(task)
            weakref.finalize(self, self._env.close)
        # The last episode's verdict goes first: a reset that fails must not leave its reward readable.
        self._over, self._result = "its reset failed", None
        obs, _info = self._env.reset(seed=seed, options={"task": task})
        self._over = ""
        self._view.see(obs)
        w, h = self._view.size
        text = (f"{obs['goal']}\n\nURL: {obs['url']}\nThe screenshot is {w}×{h} pixels; x grows to the right, "
                "y downwards. Act with the tools; when you are finished call done (with your answer if the "
                "task asks for one).")
        return [self._image(obs), {"type": "text", "text": text + self._extra(obs)}]

    # ---- tools (each public function of the class is one; docstrings make their JSON schemas)
    def click(self, x: int, y: int, button: Button = "left") -> list:
        """Click at a point of the screenshot.

        Args:
            x: Pixels from the left edge of the screenshot.
            y: Pixels from the top edge of the screenshot.
            button: The mouse button.
        """
        return self._act("click", {**self._point(x, y), "button": button})

    def double_click(self, x: int, y: int) -> list:
        """Double-click at a point of the screenshot (opens a file, selects a word).

        Args:
            x: Pixels from the left edge of the screenshot.
            y: Pixels from the top edge of the screenshot.
        """
        return self._act("double_click", self._point(x, y))

    def triple_click(self, x: int, y: int) -> list:
        """Triple-click at a point of the screenshot (selects a line or a paragraph).

        Args:
            x: Pixels from the left edge of the screenshot.
            y: Pixels from the top edge of the screenshot.
        """
        return self._act("triple_click", self._point(x, y))

    def move(self, x: int, y: int) -> list:
        """Move the mouse to a point of the screenshot (hover).

        Args:
            x: Pixels from the left edge of the screenshot.
            y: Pixels from the top edge of the screenshot.
        """
        return self._act("move", self._point(x, y))

    def drag(self, start_x: int, start_y: int, end_x: int, end_y: int) -> list:
        """Press the left mouse button at the start point, move to the end point and release it.

        Args:
            start_x: Pixels from the left edge where the drag starts.
            start_y: Pixels from the top edge where the drag starts.
            end_x: Pixels from the left edge where the drag ends.
            end_y: Pixels from the top edge where the drag ends.
        """
        return self._act("drag", {"path": [self._point(start_x, start_y, "start_x", "start_y"),
                                           self._point(end_x, end_y, "end_x", "end_y")]})

    def scroll(self, x: int, y: int, dy: int, dx: int = 0) -> list:
        """Scroll what is under a point of the screenshot.

        Args:
            x: Pixels from the left edge of the screenshot.
            y: Pixels from the top edge of the screenshot.
            dy: Pixels to scroll down (negative: up).
            dx: Pixels to scroll right (negative: left).
        """
        sx, sy = self._view.scale
        return self._act("scroll", {**self._point(x, y), "dx": round(_int(dx, "dx") * sx),
                                    "dy": round(_int(dy, "dy") * sy)})

    def type(self, text: str) -> list:
        """Type text at the keyboard focus.

        Args:
            text: The text to type.
        """
        return self._act("type", {"text": text})

    def key(self, keys: str) -> list:
        """Press a key or a chord, or several separated by spaces: "Enter", "ctrl+a", "shift+Tab", "Page_Down".

        Args:
            keys: The key names, joined with + for a chord.
        """
        return self._act("key", {"keys": keys})

    def wait(self, ms: int = 1000) -> list:
        """Wait (at most 10 seconds) and look again.

        Args:
            ms: Milliseconds to wait.
        """
        return self._act("wait", {"ms": ms})

    def navigate(self, url: str) -> list:
        """Go to an address of the workspace, such as /mail/inbox or /drive/.

        Args:
            url: A path of the workspace or a full URL of it.
        """
        return self._act("navigate", {"url": url})

    def back(self) -> list:
        """Go back in the browser's history."""
        return self._act("back", {})

    def done(self, answer: str = "", status: Status = "complete") -> list:
        """End the episode: the task is complete (with the answer when the task asks a question) or infeasible.

        Args:
            answer: Your final message; for a question, end it with ANSWER: and the answer.
            status: "complete", or "infeasible" when the task cannot be done (say why in the answer).
        """
        return self._act("done", {"status": status, "answer": answer or None})

    # ---- the episode
    def _act(self, kind: str, fields: dict) -> list:
        if self._env is None:
            raise RuntimeError("the episode has not started: call reset() first")
        if self._over:
            return [{"type": "text", "text": f"The episode is over ({self._over}); no more actions are taken."}]
        obs, _reward, terminated, truncated, info = self._env.step({"type": kind, **fields})
        text = f"URL: {obs['url']}"
        if obs.get("last_action_error"):
            text += f"\nError: {obs['last_action_error']}"
        if terminated or truncated:
            self._result = info["result"]
            self._over = ("done was called" if terminated else
                          "the environment failed" if info.get("status") == "error" else
                          "the step limit was reached")
            text += f"\nThe episode is over ({self._over})."
        return [self._image(obs), {"type": "text", "text": text + self._extra(obs)}]

    def _call_app_tool(self, name: str, arguments: dict) -> list:
        """One of the apps' tools, as a ``tool_call`` action (``tools=True``)."""
        return self._act("tool_call", {"tool": name, "arguments": arguments})

    def _extra(self, obs: dict) -> str:
        parts = []
        if obs.get("user_reply"):
            parts.append(f"Reply: {obs['user_reply']}")
        if obs.get("tool_result"):
            parts.append(f"Result: {obs['tool_result']}")
        if obs.get("axtree"):
            parts.append(f"Accessibility tree:\n{obs['axtree']}")
        return "".join("\n" + p for p in parts)

    def _point(self, x, y, xname: str = "x", yname: str = "y") -> dict:
        """A point of the model's screenshot as one of the browser's screen; outside it: ``ValueError``."""
        x, y = _int(x, xname), _int(y, yname)
        w, h = self._view.size
        if not 0 <= x < w:
            raise ValueError(f"{xname}={x} is outside the screenshot (0..{w - 1})")
        if not 0 <= y < h:
            raise ValueError(f"{yname}={y} is outside the screenshot (0..{h - 1})")
        (sx, sy), (sw, sh) = self._view.scale, self._view.source
        return {"x": min(sw - 1, round(x * sx)), "y": min(sh - 1, round(y * sy))}

    def _image(self, obs: dict) -> dict:
        """The screenshot at the size the model sees (``Screen.image``)."""
        return {"type": "image", "image": self._view.image(obs["screenshot"])}


class _AskUser:
    """The ``ask_user`` tool, on the environment classes of specs whose tasks name someone to ask."""

    def ask_user(self, text: str) -> list:
        """Ask the person who gave you the task a question, when something only they know is missing.

        Args:
            text: The question.
        """
        return self._act("ask_user", {"text": text})


def _int(value, name: str) -> int:
    """A whole number from a tool call's argument (JSON may bring 12.0 or "12"); else ``ValueError``."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number of pixels, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise ValueError(f"{name} must be a whole number of pixels, not {value!r}")


# ---------------------------------------------------------------------- reward functions
def _verdict(env: DeskworldEnv, key: str) -> float | None:
    """``score`` or ``passed`` of the episode's result as a reward: 0 when the episode never ended, None
    when the environment failed (not the policy's doing; GRPOTrainer leaves a rollout all of whose
    rewards are None out of its group's baseline, with advantage 0)."""
    result = env.result
    if result is None:
        return 0.0
    return None if result.get("status") == "error" else float(result[key])


def _environments(environments) -> list:
    if environments is None:
        raise ValueError("a deskworld reward function reads the rollouts' environments= (GRPOTrainer with "
                         "environment_factory=spec.environment_factory) and got none (TRL 1.16's "
                         "AsyncGRPOTrainer passes none)")
    return environments


def score_reward(environments=None, **kwargs) -> list[float | None]:
    """The verifier's score of each rollout's episode, in [0, 1] (0 when it never ended, None when the
    environment failed)."""
    return [_verdict(env, "score") for env in _environments(environments)]


def passed_reward(environments=None, **kwargs) -> list[float | None]:
    """1.0 for each rollout whose episode the verifier passed, else 0.0 (None when the environment failed)."""
    return [_verdict(env, "passed") for env in _environments(environments)]


__all__ = ["DeskworldSpec", "DeskworldEnv", "score_reward", "passed_reward", "TaskError"]
