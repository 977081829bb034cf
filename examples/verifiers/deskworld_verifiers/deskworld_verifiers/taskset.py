"""deskworld tasks as a verifiers taskset: one task per deskworld task or instance.

`--env.taskset.tasks` is a deskworld pattern (a task id, an instance id, a glob such as
`meridian/*`, a world name, or several separated by commas), `--env.taskset.split`
(`train`, `dev`, `test`) takes the matching families' instances in that split instead,
`--env.taskset.seed` is the seed of every episode's reset, and `--env.taskset.server`
runs the episodes on a `deskworld env-server` instead of a local browser.

The tasks carry no `@reward`: the episode's verifier runs inside deskworld when the
agent sends `done` (or the step limit is reached), and `DeskworldVerifiers` records its score
and pass on the trace (see `env.py`).
"""

import verifiers.v1 as vf
from pydantic import field_validator, model_validator

from harness.env.actions import describe
from harness.env.desk import resolve_tasks
from harness.tasks.registry import TaskError
from harness.tasks.splits import SPLITS

SYSTEM_PROMPT = (
    "You operate a computer to do office work for a user: web apps (mail, chat, calendar, drive, "
    "docs, sheets, slides, CRM, service desk) in a browser. Each user turn shows the task's goal, "
    "the page's URL, the error of your last action if it failed, and a screenshot of the screen.\n"
    "Reply with exactly one action: one JSON object and nothing else (no prose, no code fence).\n"
    + describe()
    + "\nWhen the task is finished, send done (with the answer when the goal asks a question); "
    'send done with "status": "infeasible" when it cannot be done.'
)


class DeskworldVerifiersData(vf.TaskData):
    """One deskworld episode: which task, with which reset seed, where it runs."""

    task: str
    """deskworld task or instance id (e.g. `meridian/corvane-deductible`)."""
    seed: int = 0
    """Seed of the episode's `reset`."""
    server: str | None = None
    """Base URL of a `deskworld env-server`; None runs a local browser."""
    max_steps: int | None = None
    """Step limit of the episode; None keeps the task's own."""


class DeskworldVerifiersTask(vf.Task[DeskworldVerifiersData]):
    """A deskworld episode; its rewards are recorded by `DeskworldVerifiers.run`."""


class DeskworldVerifiersConfig(vf.TasksetConfig):
    tasks: str = "meridian/corvane-deductible"
    """deskworld tasks: a task or instance id, a glob (`meridian/*`), a world, or several
    separated by commas."""
    split: str | None = None
    """`train`, `dev` or `test`: the matching families' instances in that split."""
    seed: int = 0
    """Seed of every episode's reset (deskworld's worlds are deterministic per seed)."""
    server: str | None = None
    """Base URL of a `deskworld env-server` (e.g. `http://127.0.0.1:8765`); unset: a local
    browser per episode."""
    max_steps: int | None = None
    """Step limit of each episode (a local browser only); unset keeps each task's own."""

    @field_validator("split")
    @classmethod
    def _known_split(cls, value: str | None) -> str | None:
        if value is not None and value not in SPLITS:
            raise ValueError(f"unknown split {value!r}; splits: {', '.join(SPLITS)}")
        return value

    @model_validator(mode="after")
    def _max_steps_is_local(self):
        if self.server and self.max_steps is not None:
            raise ValueError("--env.taskset.max_steps is for a local browser: deskworld env-server runs each "
                             "task with its own step limit; leave max_steps unset with --env.taskset.server")
        return self


class DeskworldVerifiersTaskset(vf.Taskset[DeskworldVerifiersTask, DeskworldVerifiersConfig]):
    def load(self) -> list[DeskworldVerifiersTask]:
        config = self.config
        try:
            chosen = resolve_tasks(config.tasks, config.split)
        except TaskError as e:
            raise ValueError(f"--env.taskset.tasks {config.tasks!r}: {e}") from None
        return [
            DeskworldVerifiersTask(
                DeskworldVerifiersData(
                    id=item.id,
                    name=item.id,
                    prompt=None,  # the env opens each exchange with the first screenshot
                    system_prompt=SYSTEM_PROMPT,
                    task=item.id,
                    seed=config.seed,
                    server=config.server,
                    max_steps=config.max_steps,
                ),
                config.task,
            )
            for item in chosen
        ]
