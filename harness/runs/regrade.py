"""Scoring recorded episodes again with today's tasks and verifiers: ``deskworld regrade DIR``.

Each episode keeps its start and end state (``final.json.gz`` and the run's ``states/``), its
answer and how it ended (``result.json``), so a fixed verifier never strands old runs: every
episode is verified again with the current revision of its task, and what changed is reported
per task — pass → fail and back, and score changes — the trajectory analysis of a data team
checking that its verifiers agree with what the episodes actually did. With ``write`` the new
results replace the old in ``result.json`` (the old verdict kept under ``regraded_from``),
``results.jsonl`` and ``summary.json``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from apps.core.store.compile import world_hash
from apps.core.store.export import diff as state_diff
from apps.core.world import load_world
from harness.env.variant import Variant
from harness.runs import layout
from harness.runs.metrics import summarize
from harness.tasks.registry import TaskError, load_task
from harness.verify import Status, verify


class RegradeError(Exception):
    """The folder is not a run, or can't be regraded."""


@dataclass
class Change:
    task: str
    sample: int
    revision: tuple[int, int]              # (recorded, current)
    before: tuple[bool, float]
    after: tuple[bool, float]
    lines: list[str] = field(default_factory=list)

    @property
    def flipped(self) -> str | None:
        if self.before[0] != self.after[0]:
            return "pass → fail" if self.before[0] else "fail → pass"
        return None


@dataclass
class RegradeReport:
    episodes: int = 0
    same: int = 0
    changes: list[Change] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)     # episodes that can't be regraded, and why
    worlds_changed: set = field(default_factory=set)

    def to_dict(self) -> dict:
        return {"episodes": self.episodes, "same": self.same, "skipped": self.skipped,
                "worlds_changed": sorted(self.worlds_changed),
                "changes": [{"task": c.task, "sample": c.sample, "revision": list(c.revision),
                             "before": {"passed": c.before[0], "score": c.before[1]},
                             "after": {"passed": c.after[0], "score": c.after[1]},
                             "flipped": c.flipped, "lines": c.lines} for c in self.changes]}

    def per_task(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for c in self.changes:
            t = out.setdefault(c.task, {"pass → fail": 0, "fail → pass": 0, "score": 0})
            if c.flipped:
                t[c.flipped] += 1
            else:
                t["score"] += 1
        return out


def regrade(run_dir: str | Path, *, write: bool = False, progress=None) -> RegradeReport:
    run_dir = Path(run_dir)
    if not (run_dir / layout.RESULTS).exists():
        raise RegradeError(f"{run_dir} is not a run folder (no results.jsonl)")
    report = RegradeReport()
    tasks, roots, hashes = {}, {}, {}
    new_rows: dict[tuple[str, int], dict] = {}
    for ep in layout.episode_dirs(run_dir):
        if not (ep / layout.RESULT).exists():
            continue
        old = layout.read_json(ep / layout.RESULT)
        tid, sample = old.get("task"), int(old.get("sample", ep.name))
        if old.get("status") == Status.ERROR:
            report.skipped.append(f"{tid}/{sample}: an environment error (nothing to grade)")
            continue
        states = layout.load_end_states(run_dir, ep)
        if states is None:
            report.skipped.append(f"{tid}/{sample}: no end state kept (recorded before regrading existed)")
            continue
        try:
            task = tasks.get(tid) or load_task(tid)
        except TaskError as e:
            report.skipped.append(f"{tid}/{sample}: {e}")
            continue
        tasks[tid] = task
        initial, final = states
        ref = task.world_ref
        if ref not in roots:
            world = load_world(ref)
            roots[ref] = world.root
            hashes[ref] = world_hash(world)[:16]
        if (initial.get("template") or "")[:16] != hashes[ref]:
            report.worlds_changed.add(ref)
        res = verify(task, initial, final, state_diff(initial, final), answer=old.get("answer"),
                     done_status=old.get("done_status"), world_root=roots[ref],
                     locale=Variant.parse(old.get("variant") or "").locale)
        report.episodes += 1
        before = (bool(old.get("passed")), float(old.get("score") or 0))
        after = (res.passed, float(res.score))
        if before == after and old.get("revision") == task.revision:
            report.same += 1
        else:
            report.changes.append(Change(tid, sample, (old.get("revision") or 0, task.revision), before, after,
                                         [ln for ln in res.lines if ln.startswith("✗")]))
        if write:
            new = {**old, **res.to_dict(), "task": tid, "revision": task.revision, "sample": sample,
                   "answer": old.get("answer"),
                   "regraded_from": {k: old.get(k) for k in ("revision", "passed", "score", "lines", "status")}}
            layout.write_json(ep / layout.RESULT, new)
            new_rows[(tid, sample)] = new
        if progress:
            progress(tid)
    if write and new_rows:
        _rewrite_results(run_dir, new_rows, tasks)
    return report


def _rewrite_results(run_dir: Path, new: dict, tasks: dict) -> None:
    def update(r: dict) -> None:
        got = new.get((r["task"], r["sample"]))
        if got is not None:
            r.update(score=got["score"], passed=got["passed"], status=str(got["status"]), revision=got["revision"])
    rescored(run_dir, update, tasks)


def rescored(run_dir: str | Path, update, tasks: dict) -> None:
    """Rewrite ``results.jsonl`` with ``update(row)`` applied to each row, and ``summary.json`` from
    the new rows (``deskworld regrade``, the rubric judges): ``tasks`` are the tasks already loaded."""
    run_dir = Path(run_dir)
    rows = layout.read_results(run_dir)
    for r in rows:
        update(r)
    layout.write_results(run_dir, rows)
    run = layout.read_run_json(run_dir) if (run_dir / layout.RUN_JSON).exists() else {}
    known = {}
    for tid in {r["task"] for r in rows}:
        try:
            known[tid] = tasks.get(tid) or load_task(tid)
        except TaskError:
            pass
    # As regrade and the judges have always written it: the layout's one-line JSON (``deskworld run`` indents it).
    layout.write_json(run_dir / layout.SUMMARY, summarize(rows, int(run.get("k") or 1), known))
