"""Recording episodes in the run layout of DESIGN.md.

An episode is written into a hidden temporary folder and renamed into
``episodes/<world>/<task>/<sample>/`` when complete; its line in
``results.jsonl`` is appended last, so ``--resume`` and a live viewer never
see half an episode.

Each episode keeps its end state, so it can be scored again by later
verifiers (``deskworld regrade``): ``final.json.gz`` holds the end export's
tables that differ from the start (and its write log), and the start export
is kept once per world template in ``states/<world>-<template>.json.gz``.

In a worker process (``harness.runs.runner.watch_parent`` sets ``PARENT_PID``) an
episode is published only while the run that started the worker is alive:
once the worker's parent has changed, ``finish`` drops the episode and raises
``ParentGone`` instead of writing into a run nobody records.
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

STATES = "states"

PARENT_PID: int | None = None      # set in worker processes: the pid of the run that owns them


class ParentGone(BaseException):
    """The run that started this worker is gone: the episode is not published. A BaseException, so the
    retry and error handling around an episode (``except Exception``) lets it through."""


def parent_alive() -> bool:
    return PARENT_PID is None or os.getppid() == PARENT_PID


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


class EpisodeRecorder:
    def __init__(self, run_dir: Path, task_id: str, sample: int):
        world, name = task_id.split("/", 1)
        self.run_dir = Path(run_dir)
        self.final = self.run_dir / "episodes" / world / name / str(sample)
        self.tmp = self.final.parent / f".{sample}.partial-{os.getpid()}"
        shutil.rmtree(self.tmp, ignore_errors=True)
        (self.tmp / "screens").mkdir(parents=True)
        self._steps = open(self.tmp / "steps.jsonl", "w", encoding="utf-8")

    def screen(self, index: int, png: bytes | None) -> str | None:
        if png is None:
            return None
        rel = f"screens/{index:04d}.png"
        (self.tmp / rel).write_bytes(png)
        return rel

    def step(self, record: dict) -> None:
        self._steps.write(_dump(record) + "\n")
        self._steps.flush()

    def trace_path(self) -> str:
        return str(self.tmp / "trace.zip")

    def finish(self, result: dict, diff: dict | None, states: tuple[dict, dict] | None = None) -> Path:
        self._orphan_check()
        self._steps.close()
        (self.tmp / "result.json").write_text(_dump(result), encoding="utf-8")
        (self.tmp / "diff.json").write_text(_dump(diff or {"tables": {}}), encoding="utf-8")
        if states is not None:
            initial, final = states
            start = save_start(self.run_dir, initial)
            _write_gz(self.tmp / "final.json.gz", end_delta(initial, final, start))
        self._orphan_check()                     # again, as late as it can be
        if self.final.exists():
            shutil.rmtree(self.final)
        os.replace(self.tmp, self.final)
        return self.final

    def _orphan_check(self) -> None:
        if not parent_alive():
            self.abandon()
            raise ParentGone(f"the parent process {PARENT_PID} is gone; episode {self.final} not published")

    def abandon(self) -> None:
        try:
            self._steps.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


def _write_gz(path: Path, obj) -> None:
    tmp = path.with_name(f".{path.name}-{os.getpid()}")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as f:
        f.write(_dump(obj))
    os.replace(tmp, path)


def _read_gz(path: Path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def start_name(export: dict) -> str:
    return f"{export.get('world')}-{(export.get('template') or 'unknown')[:16]}.json.gz"


def save_start(run_dir: Path, initial: dict) -> str:
    """The start export, once per world template in the run; returns its file name."""
    name = start_name(initial)
    path = Path(run_dir) / STATES / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_gz(path, initial)
    return name


def end_delta(initial: dict, final: dict, start: str) -> dict:
    """The end export as what differs from the start: whole tables that changed, and the top level."""
    tables = {n: t for n, t in final["tables"].items() if initial["tables"].get(n) != t}
    return {**{k: v for k, v in final.items() if k != "tables"}, "start": start, "tables": tables}


def load_end_states(run_dir: Path, episode_dir: Path) -> tuple[dict, dict] | None:
    """An episode's (start, end) exports, or None when it didn't keep them (older runs, errors)."""
    path = Path(episode_dir) / "final.json.gz"
    if not path.exists():
        return None
    delta = _read_gz(path)
    initial = _read_gz(Path(run_dir) / STATES / delta["start"])
    final = {**{k: v for k, v in delta.items() if k not in ("tables", "start")},
             "tables": {**initial["tables"], **delta["tables"]}}
    return initial, final


def append_result(run_dir: Path, row: dict) -> None:
    with open(Path(run_dir) / "results.jsonl", "a", encoding="utf-8") as f:
        f.write(_dump(row) + "\n")
        f.flush()
        os.fsync(f.fileno())


def read_results(run_dir: Path) -> list[dict]:
    path = Path(run_dir) / "results.jsonl"
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue          # a line cut short by a crash is not a result
    return rows
