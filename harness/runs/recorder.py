"""Recording one episode into its run folder (``harness.runs.layout``), all or nothing.

An episode is written into a hidden temporary folder and renamed into
``episodes/<world>/<task>/<sample>/`` when complete; its line in
``results.jsonl`` is appended last (by the runner), so ``--resume`` and a live
viewer never see half an episode.

Each episode keeps its end state, so it can be scored again by later
verifiers (``deskworld regrade``): ``final.json.gz`` holds the end export's
tables that differ from the start (and its write log), and the start export
is kept once per world template in ``states/<world>-<template>.json.gz``.

In a worker process (``harness.runs.lifetime.watch_parent``) an episode is
published only while the run that started the worker is alive: once the
worker's parent has changed, ``finish`` drops the episode and raises
``ParentGone`` instead of writing into a run nobody records.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from harness.runs import layout, lifetime
from harness.runs.lifetime import ParentGone


class EpisodeRecorder:
    """The files of one episode as it is played: screenshots and steps as they come, then its result,
    diff and end state, published at once by ``finish`` (or dropped by ``abandon``)."""

    def __init__(self, run_dir: Path, task_id: str, sample: int):
        self.run_dir = Path(run_dir)
        self.final = layout.episode_dir(self.run_dir, task_id, sample)
        self.tmp = layout.partial_dir(self.run_dir, task_id, sample, os.getpid())
        shutil.rmtree(self.tmp, ignore_errors=True)
        (self.tmp / layout.SCREENS).mkdir(parents=True)
        self._steps = open(self.tmp / layout.STEPS, "w", encoding="utf-8")

    def screen(self, index: int, png: bytes | None) -> str | None:
        if png is None:
            return None
        rel = layout.screen_name(index)
        (self.tmp / rel).write_bytes(png)
        return rel

    def step(self, record: dict) -> None:
        self._steps.write(layout.dumps(record) + "\n")
        self._steps.flush()

    def trace_path(self) -> str:
        return str(self.tmp / layout.TRACE)

    def finish(self, result: dict, diff: dict | None, states: tuple[dict, dict] | None = None) -> Path:
        self._orphan_check()
        self._steps.close()
        (self.tmp / layout.RESULT).write_text(layout.dumps(result), encoding="utf-8")
        (self.tmp / layout.DIFF).write_text(layout.dumps(diff or {"tables": {}}), encoding="utf-8")
        if states is not None:
            layout.write_end_states(self.run_dir, self.tmp, *states)
        self._orphan_check()                     # again, as late as it can be
        if self.final.exists():
            shutil.rmtree(self.final)
        os.replace(self.tmp, self.final)
        return self.final

    def _orphan_check(self) -> None:
        if not lifetime.parent_alive():
            self.abandon()
            raise ParentGone(f"the parent process {lifetime.PARENT_PID} is gone; episode {self.final} not published")

    def abandon(self) -> None:
        try:
            self._steps.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
