"""Deterministic debug agent for testing DeskBenchmarkConfig end-to-end without an LLM.

Each debug task replays the actions deskworld's oracle (``harness.agents.oracle.OracleAgent``, the
task's scripted solution) sent through this package's tool, recorded in ``debug_actions.json`` by
``python -m deskworld_cube.record`` (``make record``). deskworld's worlds are deterministic, so the
replay reaches the same end state and the verifier gives 1.0.

Public API
----------
get_debug_benchmark()        → DeskBenchmarkConfig (the debug tasks)
make_debug_agent(task_id)    → DebugAgent

Usage::

    # Run all debug tasks and print a JSON report
    python -m deskworld_cube.debug
"""
from __future__ import annotations

import json
import logging
from functools import cache
from importlib.resources import files

from cube.core import Action, ActionSchema, Observation

from deskworld_cube.benchmark import DeskBenchmarkConfig

logger = logging.getLogger(__name__)

# Fast tasks: an answer task (reading a PDF in Drive) and one that changes the mail store (a snooze).
# The first one is the one `cube test` resets twice at once (reset reproducibility).
DEBUG_TASKS = ["meridian/corvane-deductible", "meridian/snooze-elevator-notice"]
ACTIONS_FILE = "debug_actions.json"


@cache
def recorded() -> dict:
    """``{task_id: {"revision": int, "actions": [{"name", "arguments"}, …]}}`` from ``debug_actions.json``."""
    return json.loads(files("deskworld_cube").joinpath(ACTIONS_FILE).read_text(encoding="utf-8"))


class DebugAgent:
    """Replays a task's recorded oracle actions.

    Interface is compatible with cube.testing:
        agent = make_debug_agent(task_id)
        action = agent(obs, action_set)   # __call__ shorthand

    Raises:
        ValueError: the task has no recording, or it was recorded for another revision of the task.
    """

    def __init__(self, task_id: str) -> None:
        rec = recorded()
        if task_id not in rec:
            raise ValueError(f"No debug actions recorded for task {task_id!r} in {ACTIONS_FILE}; "
                             f"known tasks: {list(rec)} (record them with `make record`)")
        from harness.tasks.registry import load_task

        revision = load_task(task_id).revision
        if rec[task_id]["revision"] != revision:
            raise ValueError(f"{ACTIONS_FILE} holds {task_id!r} at revision {rec[task_id]['revision']}, the task "
                             f"is at revision {revision}: re-record its oracle with `make record`")
        self._task_id = task_id
        self._step = 0
        self._actions = [Action(**a) for a in rec[task_id]["actions"]]

    def get_action(self, obs: Observation) -> Action:
        """Return the next recorded action."""
        if self._step >= len(self._actions):
            raise StopIteration(f"[DebugAgent] task={self._task_id!r}: all {len(self._actions)} actions exhausted")
        action = self._actions[self._step]
        logger.info("[DebugAgent] task=%r  step=%d/%d  action=%s", self._task_id, self._step + 1,
                    len(self._actions), action.name)
        self._step += 1
        return action

    def __call__(self, obs: Observation, action_set: list[ActionSchema]) -> Action:
        return self.get_action(obs)


def get_debug_benchmark() -> DeskBenchmarkConfig:
    """The debug tasks of DeskBenchmarkConfig."""
    return DeskBenchmarkConfig().subset_from_list(DEBUG_TASKS)


def make_debug_agent(task_id: str) -> DebugAgent:
    """Return a fresh DebugAgent for the given task_id."""
    return DebugAgent(task_id)


if __name__ == "__main__":
    import sys

    import deskworld_cube.debug as _mod
    from cube.testing import run_debug_suite

    logging.basicConfig(level=logging.INFO, format="%(asctime)s  %(levelname)-8s  %(name)s  %(message)s",
                        datefmt="%H:%M:%S")
    results = run_debug_suite("deskworld", _mod)
    failed = [r for r in results if r["error"] or not r["done"] or r["reward"] <= 0]
    sys.exit(1 if failed else 0)
