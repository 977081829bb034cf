"""Benchmark: deskworld's task registry as a CUBE ``BenchmarkConfig``.

The tasks are every instance of every task family of deskworld's worlds (``harness.tasks``):
the hand-made tasks (``meridian/corvane-deductible``) and their instances in other world variants
and with other parameters (``meridian/corvane-deductible/v17``), each in deskworld's fixed split
(``harness.tasks.splits``: train / dev / test, here train / val / test). The registry is read from
the worlds on disk when this module is imported (a few seconds).

Named subsets: ``train``, ``val``, ``test`` (by split), ``published`` (the hand-made tasks), and one
per world (``meridian``, ``lumen``, ``halden``).
"""
from __future__ import annotations

import re
from typing import ClassVar

from cube.benchmark import Benchmark, BenchmarkConfig, BenchmarkMetadata, ResetIsolation
from cube.task import TaskConfig, TaskMetadata

from deskworld_cube.task import DeskTaskConfig, DeskTaskMetadata

VERSION = "0.1.0"
SPLITS = {"train": "train", "dev": "val", "test": "test"}      # deskworld's split → CUBE's
DEFAULT_MAX_STEPS = 40                                          # harness.tasks.schema.Task.max_steps


def _field(text: str, name: str) -> str | None:
    m = re.search(rf"^{name}:[ \t]*(.+?)[ \t]*$", text, re.MULTILINE)
    return m.group(1).strip("\"'") if m else None


def deskworld_tasks() -> dict[str, DeskTaskMetadata]:
    """Every task instance of deskworld's worlds, by id, in deskworld's order."""
    from harness.tasks.families import all_families

    out: dict[str, DeskTaskMetadata] = {}
    for fam in all_families():
        title = _field(fam.text, "title") or fam.id
        max_steps = _field(fam.text, "max_steps")
        for ref in fam.instances():
            out[ref.id] = DeskTaskMetadata(
                id=ref.id,
                split=SPLITS[ref.split],
                abstract_description=title,
                recommended_max_steps=int(max_steps) if max_steps and max_steps.isdigit() else DEFAULT_MAX_STEPS,
                world=ref.world,
                family=ref.family,
                variant=ref.variant,
                params=list(ref.keys),
                published=ref.id == ref.family,
                deskworld_split=ref.split,
            )
    return out


class DeskBenchmark(Benchmark):
    """Runtime pair. Each task brings its own app server and browser (DeskTool), so nothing is shared;
    ``_setup`` only checks that a Chromium can be found, to fail early with deskworld's install hint."""

    def _setup(self) -> None:
        from harness.env import browser

        if browser.find_chromium() is None:
            raise RuntimeError(f"deskworld needs a Chromium and found none: {browser.install_hint()}")

    def close(self) -> None:
        """Nothing shared to stop (each task closes its own desk)."""


_TASKS = deskworld_tasks()
_WORLDS = sorted({t.world for t in _TASKS.values()})


class DeskBenchmarkConfig(BenchmarkConfig[DeskTaskMetadata]):
    """deskworld's tasks (see the module's docstring)."""

    benchmark_metadata: ClassVar[BenchmarkMetadata] = BenchmarkMetadata(
        name="deskworld",
        version=VERSION,
        description=(
            "Office work for computer-use agents: mail, chat, calendar, drive, docs, sheets, slides, a CRM "
            "and a service desk, as clones of web apps seeded from synthetic company worlds, operated through "
            "screenshots, mouse and keyboard in a headless Chromium. Each task is a prompt and a verifier "
            "reading the apps' state (and the answer) at the end; families of tasks vary over world variants "
            "and parameters, with fixed train/val/test splits."
        ),
        authors=["deskworld maintainers"],
        license="Apache-2.0",
        requirements={"python": ">=3.12", "browser": "Chromium (found by deskworld: harness.env.browser)",
                      "docker": False},
        num_tasks=len(_TASKS),
        tags=["web", "gui", "desktop", "browser", "multimodal"],
        reset_isolation=ResetIsolation.APP_LEVEL,
        named_subsets={
            "train": ("split", "train"),
            "val": ("split", "val"),
            "test": ("split", "test"),
            "published": ("published", "True"),
            **{w: ("world", w) for w in _WORLDS},
        },
    )

    task_metadata: ClassVar[dict[str, TaskMetadata]] = _TASKS

    task_config_class: ClassVar[type[TaskConfig]] = DeskTaskConfig
    benchmark_class: ClassVar[type[Benchmark]] = DeskBenchmark
