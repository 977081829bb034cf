"""Record the debug tasks' oracle actions into ``debug_actions.json`` (``make record``).

For each debug task: a ``DeskTask`` is made from the debug benchmark's config and reset, deskworld's
``OracleAgent`` aims on its live page and each action it sends goes through ``DeskTask.step`` as a
CUBE ``Action``; the recording is kept only when the episode ends with reward 1.

    python -m deskworld_cube.record [TASK_ID ...]     # default: deskworld_cube.debug.DEBUG_TASKS
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from cube.core import Action

from deskworld_cube.benchmark import DeskBenchmarkConfig
from deskworld_cube.debug import ACTIONS_FILE, DEBUG_TASKS


def to_cube_action(action: dict) -> Action:
    """A deskworld action dict (``{"type": "click", "x": 3, "y": 4}``) as a call of DeskTool's action."""
    args = {k: v for k, v in action.items() if k != "type"}
    if action["type"] == "drag":
        args["path"] = [[p["x"], p["y"]] for p in args["path"]]
    if action["type"] == "key" and "key" in args:
        args["keys"] = args.pop("key")
    return Action(name=action["type"], arguments=args)


def record(task_id: str, max_steps: int = 20) -> dict:
    from harness.agents.oracle import OracleAgent

    config = DeskBenchmarkConfig().subset_from_list([task_id])
    (tc,) = list(config.get_task_configs())
    task = tc.make()
    try:
        obs, _ = task.reset()
        oracle = OracleAgent(task.tool.env)
        oracle.reset(task.tool.env.unwrapped.task)
        actions = []
        for _ in range(max_steps):
            action = to_cube_action(oracle.act(task.tool.last_observation))
            actions.append({"name": action.name, "arguments": action.arguments})
            out = task.step(action)
            if out.done:
                break
        else:
            raise RuntimeError(f"{task_id}: the oracle did not finish in {max_steps} steps (cube test's limit)")
        if out.reward != 1.0:
            raise RuntimeError(f"{task_id}: the oracle scored {out.reward}, not 1: {out.info}")
        return {"revision": task.tool.env.unwrapped.task.revision, "actions": actions}
    finally:
        task.close()


def main(argv: list[str]) -> int:
    tasks = argv or DEBUG_TASKS
    path = Path(__file__).with_name(ACTIONS_FILE)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for task_id in tasks:
        data[task_id] = record(task_id)
        print(f"{task_id}: {len(data[task_id]['actions'])} actions, reward 1")
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
