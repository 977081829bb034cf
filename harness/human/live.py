"""A person as the agent: the hand-off between the page they use and the episode loop.

``Live`` is what both sides share: the phase of the session, what the page shows (the task, the goal,
the last screenshot, the step, the last action's error, the principal's reply, the verdict) and the
action the person sent. ``HumanAgent`` is an ordinary agent (``harness.agents.Agent``) for the episode
loop (``harness.runs.episode.run_episode``): its ``act`` publishes the observation and waits for the
person's next action, so the time it takes is the person's (``ms.agent`` in ``steps.jsonl``) and the
env's step is timed apart from it (``ms.env``). ``harness.human.recording.Recording`` plays the chosen
tasks one after another into a run folder, as agent ``human:<name>``, and shows the verdict after each.

Nothing lives in the page: closing the tab mid-task loses nothing (the episode waits in this process for
the next action; opening the page again shows where it was). Stopping the command mid-task drops only
that task's unfinished episode; run again with the same ``--out``, it goes on with the tasks not done.
"""
from __future__ import annotations

import threading
from pathlib import Path

from harness.runs import layout

PHASES = ("starting", "acting", "stepping", "verdict", "finished", "failed")
STEP_TIMEOUT_S = 120.0          # how long a POST of an action waits for the env's step


class Busy(Exception):
    """An action (or Next) sent when it isn't the person's turn."""


class WindowClosed(BaseException):
    """``--direct``: the person closed the episode's window mid-task. The episode is dropped (nothing of it
    is recorded) and the task starts again from its beginning in a new window — what the page had can't be
    put back, and a replay would never have closed it. (A BaseException, as ``Stopped``.)"""


class Stopped(BaseException):
    """The command is stopping: the episode loop must not record this as an episode of the person's.
    (A BaseException so that the episode loop, which turns errors into ``error`` episodes, lets it by.)"""


class Live:
    """The session's state, as the page reads it, and the one action in flight."""

    def __init__(self):
        self.cond = threading.Condition()
        self.version = 0
        self.phase = "starting"
        self.view: dict = {}
        self.png: bytes = b""
        self._action = None
        self._next = False
        self._stopping = False
        self.served = -1                  # the newest version a page has been sent

    # ------------------------------------------------------------ the page's side
    def state(self) -> dict:
        with self.cond:
            return self._sent()

    def _sent(self) -> dict:
        self.served = max(self.served, self.version)
        self.cond.notify_all()
        return {"version": self.version, "phase": self.phase, **self.view}

    def wait_change(self, after: int, timeout: float) -> dict:
        """The state once its version is past ``after`` (or after ``timeout`` seconds)."""
        with self.cond:
            self.cond.wait_for(lambda: self.version > after or self._stopping, timeout)
            return self._sent()

    def wait_seen(self, timeout: float) -> bool:
        """Wait until a page has been sent the latest state (the last verdict), at most ``timeout`` s."""
        with self.cond:
            return self.cond.wait_for(lambda: self.served >= self.version, timeout)

    def submit(self, action: dict, timing: dict | None = None) -> dict:
        """Hand the person's action (and the page's timing of it) to the episode; returns the state once the
        env has taken the step."""
        with self.cond:
            if self.phase != "acting" or self._action is not None:
                raise Busy("it isn't your turn: the last action is still being carried out" if self.phase == "stepping"
                           else f"no task is waiting for an action ({self.phase})")
            self._action = (action, timing)
            self.phase = "stepping"
            seen = self.version
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.version > seen or self._stopping, STEP_TIMEOUT_S)
            return {"version": self.version, "phase": self.phase, **self.view}

    def next_task(self) -> dict:
        with self.cond:
            if self.phase != "verdict":
                raise Busy(f"there is no verdict to move on from ({self.phase})")
            self._next = True
            seen = self.version
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.version > seen or self._stopping, STEP_TIMEOUT_S)
            return {"version": self.version, "phase": self.phase, **self.view}

    # ------------------------------------------------------------ the episode's side
    def publish(self, phase: str, png: bytes | None = None, **view) -> None:
        assert phase in PHASES, phase
        with self.cond:
            self.phase = phase
            if png is not None:
                self.png = png
            self.view.update(view)
            self.version += 1
            self.cond.notify_all()

    def take_action(self) -> tuple[dict, dict | None]:
        with self.cond:
            self.cond.wait_for(lambda: self._action is not None or self._stopping)
            if self._stopping:
                raise Stopped()
            a, self._action = self._action, None
            return a

    def poll_action(self) -> tuple[dict, dict | None] | None:
        """The person's action if one was sent (``take_action`` without waiting); raises ``Stopped`` when the
        command is stopping."""
        with self.cond:
            if self._stopping:
                raise Stopped()
            a, self._action = self._action, None
            return a

    def wait_next(self) -> None:
        with self.cond:
            self.cond.wait_for(lambda: self._next or self._stopping)
            if self._stopping:
                raise Stopped()
            self._next = False

    def stop(self) -> None:
        with self.cond:
            self._stopping = True
            self.cond.notify_all()


class HumanAgent:
    """The person, as the episode loop sees an agent."""

    def __init__(self, live: Live, env, name: str):
        self.live, self.env, self.name = live, env, f"human:{name}"
        self.steps = 0
        self._timing: dict | None = None

    def reset(self, task) -> None:
        self.steps = 0

    def act(self, observation: dict) -> dict:
        self.live.publish("acting", png=self.env.unwrapped.session.last_png(), step=self.steps,
                          screen=list(self.env.unwrapped.variant.screen),
                          url=observation.get("url", ""), error=observation.get("last_action_error", ""),
                          user_reply=observation.get("user_reply", ""), goal=observation.get("goal", ""))
        action, self._timing = self.live.take_action()
        self.steps += 1
        return action

    def take_record(self) -> dict:
        """What the episode loop writes into the step: the page's timing of the person's gesture."""
        timing, self._timing = self._timing, None
        return {"person": timing} if timing else {}


def verdict_of(ep_dir: Path, row: dict) -> dict:
    """What the person sees at the end of a task: passed, score and the verifier's lines (✓/✗ per check)."""
    try:
        res = layout.read_object(ep_dir / layout.RESULT)
    except layout.Unreadable:
        res = {}
    return {"passed": bool(row.get("passed")), "score": row.get("score"), "status": row.get("status"),
            "steps": row.get("steps"), "seconds": row.get("seconds"), "error": row.get("error"),
            "lines": [str(x) for x in res.get("lines") or []][:40]}
