"""Recording episodes in the run layout of DESIGN.md.

An episode is written into a hidden temporary folder and renamed into
``episodes/<world>/<task>/<sample>/`` when complete; its line in
``results.jsonl`` is appended last, so ``--resume`` and a live viewer never
see half an episode.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


class EpisodeRecorder:
    def __init__(self, run_dir: Path, task_id: str, sample: int):
        world, name = task_id.split("/", 1)
        self.final = Path(run_dir) / "episodes" / world / name / str(sample)
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

    def finish(self, result: dict, diff: dict | None) -> Path:
        self._steps.close()
        (self.tmp / "result.json").write_text(_dump(result), encoding="utf-8")
        (self.tmp / "diff.json").write_text(_dump(diff or {"tables": {}}), encoding="utf-8")
        if self.final.exists():
            shutil.rmtree(self.final)
        os.replace(self.tmp, self.final)
        return self.final

    def abandon(self) -> None:
        try:
            self._steps.close()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


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
