"""Task and TaskConfig: one deskworld task as a CUBE episode.

``DeskTask.reset`` starts the deskworld episode (a fresh copy of the task's world, the browser on
the task's start page) and returns the goal, the page's URL and the screenshot. The agent acts
through ``DeskTool``'s actions; the episode ends when it sends ``done`` (or CUBE's ``final_step``)
or reaches the task's step limit. ``evaluate`` returns the verifier's score and its result (passed,
checks, milestones …).

``DeskTaskConfig`` is the serialisable boundary (JSON): task metadata, seed and tool config only.
"""
from __future__ import annotations

from typing import Any, Literal

from cube.benchmark import RuntimeContext
from cube.core import ImageContent, Observation, TextContent
from cube.task import Task, TaskConfig, TaskMetadata

from deskworld_cube.tool import DeskTool, DeskToolConfig


class DeskTaskMetadata(TaskMetadata):
    """A deskworld task instance: ``id`` is deskworld's (``meridian/corvane-deductible``,
    ``meridian/corvane-deductible/v17``); ``split`` maps deskworld's train/dev/test to CUBE's
    train/val/test (``deskworld_split`` keeps deskworld's name)."""

    world: str
    family: str
    variant: int = 0
    params: list[str] = []
    published: bool = False                  # the hand-made task (variant 0, default params)
    deskworld_split: Literal["train", "dev", "test"] = "train"


class DeskTask(Task[DeskTaskMetadata, DeskTool]):
    """One episode of a deskworld task on a ``DeskTool``."""

    seed: int | None = None

    def reset(self) -> tuple[Observation, dict[str, Any]]:
        self.tool.reset()
        obs = self.tool.open_episode(self.metadata.id, self.seed)
        contents = [
            TextContent(name="goal", data=obs["goal"]),
            TextContent(name="page", data=_page_text(obs)),
            ImageContent(name="screenshot", data=self.tool.screenshot()),
        ]
        return Observation(contents=contents), {"task": self.metadata.id, "url": obs["url"]}

    def obs_postprocess(self, obs: Observation, role: str | None = None) -> Observation:
        """The actions return the screenshot; the page's URL, the action's error and a reply join it as text."""
        if self.tool.last_observation is None:
            return obs
        return Observation(contents=[TextContent(name="page", data=_page_text(self.tool.last_observation)),
                                     *obs.contents], error=obs.error)

    def finished(self, obs: Observation | None = None) -> bool:
        """The episode ended: ``done`` was sent, or the task's step limit was reached."""
        return self.tool.ended

    def evaluate(self, obs: Observation | None = None) -> tuple[float, dict[str, Any]]:
        """The verifier's score in [0, 1] and its result, once the episode has ended (0 before).

        An environment error (deskworld's result status ``error``: the browser or the apps broke, never
        the agent's failure) raises, so ``Task.step`` raises and CUBE's runner records an episode error
        rather than a reward the agent earned."""
        result = self.tool.result
        if result is None:
            return 0.0, {"ended": False, "message": "the episode has not ended: send done to have it verified"}
        if result["status"] == "error":
            raise RuntimeError(f"deskworld's environment broke on {self.metadata.id} (not the agent's failure): "
                               f"{result['error']}")
        return float(result["score"]), {"ended": True, **result}

    def close(self) -> None:
        super().close()                      # DeskTool.close: idempotent


def _page_text(obs: dict) -> str:
    lines = [f"URL: {obs['url']}"]
    if obs.get("last_action_error"):
        lines.append(f"Last action error: {obs['last_action_error']}")
    if obs.get("user_reply"):
        lines.append(f"User reply: {obs['user_reply']}")
    return "\n".join(lines)


class DeskTaskConfig(TaskConfig[DeskTaskMetadata]):
    """Serialisable factory of a ``DeskTask`` (metadata stamped by ``DeskBenchmarkConfig.get_task_configs``)."""

    def verify_installed(self) -> None:
        """deskworld's worlds must be on disk: an editable install has them, else ``DESKWORLD_WORLDS``."""
        from apps.core.world import worlds_root

        root = worlds_root()
        if not (root / self.metadata.world / "tasks").is_dir():
            raise RuntimeError(
                f"deskworld's world {self.metadata.world!r} is not under {root}: install deskworld editable "
                "(pip install -e <deskworld checkout>) or set DESKWORLD_WORLDS to the checkout's worlds/ folder")

    def make(self, runtime_context: RuntimeContext | None = None) -> DeskTask:
        self.verify_installed()
        return DeskTask(
            metadata=self.metadata,
            execution_info=None,
            tool_config=self.tool_config or DeskToolConfig(),
            runtime_context=runtime_context,
            seed=self.seed,
        )


# cube-standard 0.1.0rc10: the Task model is only complete once TaskMetadata is importable here
# (as generated by `cube init`, episodes fail with "DeskTask is not fully defined").
DeskTask.model_rebuild()
