"""Running many episodes: ``k`` samples of each task, across worker processes or Ray actors (``run``).

Each worker process owns one env (and so one browser) and reuses it across
episodes; every episode goes through the one episode loop of ``harness.runs.episode``
(an episode whose status is ``error`` — the environment broke — is retried once;
if it errors again it is kept as ``error`` and left out of pass@k). Results are
appended to ``results.jsonl`` as they finish, by this process only.
``run(..., backend="ray")`` runs the same episodes on Ray actors instead
(``harness.runs.ray_backend``).

A run folder (``harness.runs.layout``) holds one run: ``resume=True`` refuses a folder whose ``run.json``
names another agent, model, k, seed, world hash or task revision
(``ResumeMismatch``), keeps the first start and records each resume in
``run.json``'s ``resumes``. Worker processes die with the process that started
them and kill their browsers as they go (``harness.runs.lifetime``); a worker whose
parent is gone publishes no episode folder.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import platform
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from apps.core.store.compile import world_hash
from apps.core.world import load_world
from harness.runs import layout, ray_backend
from harness.env.variant import Variant, VariantError
from harness.runs.episode import EnvHolder, error_row, play, variant_of_sample
from harness.runs.lifetime import watch_parent
from harness.verify import Status

# ---------------------------------------------------------------- worker processes
WORKER = EnvHolder()           # this worker process's env


def _worker_episode(agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                    agent_opts: dict | None = None, env_opts: dict | None = None) -> dict:
    """Runs in a worker process: one env per process, reused; an error is retried once."""
    return play(WORKER, agent_name, task_id, sample, out, trace, seed, agent_opts, env_opts)


def _close_worker_env() -> None:
    if WORKER.env is not None:
        WORKER.env.close()
        WORKER.env = None


def chosen_variants(texts=(), n: int | None = None, seed: int = 0) -> list | None:
    """``deskworld run``'s ``--variant`` (each parsed) or ``--variants N`` (N different variants drawn with
    ``seed``); None: neither. ``VariantError`` names what is wrong."""
    if texts and n:
        raise VariantError("give --variant (named variants) or --variants N (drawn), not both")
    if n:
        return Variant.sample_many(n, seed)
    return [Variant.parse(t) for t in texts] or None


class ResumeMismatch(ValueError):
    """``resume=True`` on a run folder recorded by a different run (or one that can't say which)."""


# Agent options that change how the model is reached, not what it does: a resume may differ in them.
TRANSPORT_OPTIONS = ("max_retries", "timeout")


def run(agent_name: str, tasks: list, *, k: int = 1, workers: int = 1, out: str | Path | None = None,
        resume: bool = False, trace: bool = False, seed: int = 0, progress: bool = True,
        agent_opts: dict | None = None, backend: str = "local", address: str | None = None,
        ray_options: dict | None = None, max_steps: int | None = None, reward: str = "final",
        variants: list | None = None) -> list[dict]:
    """Run ``k`` samples of each task. ``max_steps``: every task's step limit for this run (a fixed
    budget, as OSWorld-Verified reruns at 15/50/100), recorded in run.json; ``reward``: ``final`` or
    ``milestones`` (what each step's recorded reward is). ``agent_opts`` go to ``harness.agents.make`` (model agents:
    ``model``, ``base_url``…; never an API key — the SDKs read those from the environment).

    ``resume``: skip the episodes already in ``out/results.jsonl``; raises ``ResumeMismatch`` (before
    anything in ``out`` is touched) if ``out/run.json`` was recorded with another agent, model, agent
    options, k, seed, world hash or task revision.

    ``backend``: ``local`` (worker processes on this machine) or ``ray`` (``workers`` Ray actors, on the
    cluster at ``address`` or a local Ray; ``ray_options``: ``num_cpus`` per actor, ``max_restarts``;
    see ``harness.runs.ray_backend``). Either way only this process appends to ``results.jsonl``.

    ``variants``: appearance variants (``harness.env.variant``; ``Variant``s, dicts or their text) — each
    task runs ``k`` samples on each, as one run: samples ``v*k … v*k+k-1`` are variant ``v``'s, every
    results row and result.json names its variant, run.json lists them, and the summary has
    ``per_variant`` (pass@k over each variant's k samples). None: the default screen, nothing recorded."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}; use local or ray")
    if backend == "ray":
        ray_backend.require_ray()             # a missing Ray fails before the run folder is touched
    out = Path(out) if out else None
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, not {max_steps}")
    vs = [Variant.of(v) for v in variants] if variants else []
    if len({str(v) for v in vs}) != len(vs):
        raise ValueError(f"the same variant twice in {[str(v) for v in vs]}")
    env_opts = {"max_steps": max_steps, "reward": reward,
                **({"variants": [str(v) for v in vs], "k": k} if vs else {})}
    done_keys = set()
    resumed = None
    if out:
        ident = _run_identity(agent_name, tasks, k, seed, agent_opts, max_steps, reward, vs)
        if resume:
            resumed = _check_resume(out, ident, agent_name)
            done_keys = {(r["task"], r["sample"]) for r in layout.read_results(out)}
    samples = k * max(1, len(vs))                 # with variants: k on each
    items = [(t.id, s) for t in tasks for s in range(samples) if (t.id, s) not in done_keys]
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resumed is None:
            (out / layout.RESULTS).unlink(missing_ok=True)
        _start_run_json(out, ident, workers, backend, resumed, pending=len(items))
    rows: list[dict] = []

    def record(row):
        rows.append(row)
        if out:
            layout.append_result(out, row)

    bar = _Progress(len(items), enabled=progress)
    try:
        if backend == "ray":
            def on_row(row):
                record(row)
                bar.advance(row)
            ray_backend.run_ray(agent_name, items, workers=workers, out=out, trace=trace, seed=seed,
                                agent_opts=agent_opts, address=address, on_row=on_row, env_opts=env_opts,
                                **(ray_options or {}))
        elif workers <= 1:
            try:
                for tid, s in items:
                    bar.describe(tid)
                    record(_worker_episode(agent_name, tid, s, str(out) if out else None, trace, seed, agent_opts,
                                           env_opts))
                    bar.advance(rows[-1])
            finally:
                _close_worker_env()
        else:
            ctx = mp.get_context("spawn")
            # Each worker dies with this process (and kills its browser): see watch_parent.
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=watch_parent,
                                     initargs=(os.getpid(),)) as pool:
                futs = {pool.submit(_worker_episode, agent_name, tid, s, str(out) if out else None, trace, seed,
                                    agent_opts, env_opts): (tid, s)
                        for tid, s in items}
                for fut in as_completed(futs):
                    tid, s = futs[fut]
                    try:
                        row = fut.result()
                    except Exception as e:            # a worker process died
                        row = error_row(agent_name, tid, s, f"worker died: {e}")
                        if vs:
                            row["variant"] = variant_of_sample(env_opts, s)
                    record(row)
                    bar.advance(row)
    finally:
        bar.close()
    if out:
        _finish_run_json(out, resumed is not None, added=len(rows))
    return rows


def _run_identity(agent: str, tasks: list, k: int, seed: int, agent_opts: dict | None,
                  max_steps: int | None = None, reward: str = "final", variants: list | None = None) -> dict:
    """What makes episodes of one run comparable: what a resume must match (``max_steps``, the run's
    step budget, ``reward`` and the appearance ``variants`` are recorded only when set)."""
    opts = {k2: v for k2, v in (agent_opts or {}).items() if v is not None and k2 != "model"}
    return {"agent": agent, "model": (agent_opts or {}).get("model"), "agent_options": opts, "k": k,
            **({"max_steps": max_steps} if max_steps is not None else {}),
            **({"reward": reward} if reward != "final" else {}),
            **({"variants": [{"name": str(v), **v.to_dict()} for v in variants]} if variants else {}),
            "seed": seed, "worlds": {w: world_hash(load_world(w)) for w in sorted({t.world_ref for t in tasks})},
            "tasks": {t.id: t.revision for t in tasks}}


def _check_resume(out: Path, ident: dict, agent: str) -> dict | None:
    """The run.json to resume, or None when ``out`` holds nothing yet; ResumeMismatch if it is another run's."""
    rows = layout.read_results(out)
    if not (out / layout.RUN_JSON).exists():
        if rows or (out / layout.EPISODES).is_dir():
            raise ResumeMismatch(f"cannot resume {out}: it holds episodes but no run.json to say which run "
                                 "recorded them; use a new --out")
        return None
    try:
        old = layout.read_run_json(out)
    except layout.Unreadable as e:
        raise ResumeMismatch(f"cannot resume {out}: {e}; use a new --out") from None

    def show(v):
        return json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v
    diffs = []
    for key in ("agent", "model", "k", "seed", "max_steps", "reward", "variants"):
        if key == "seed" and "seed" not in old:
            continue                              # recorded before run.json had the seed
        if old.get(key) != ident.get(key):
            diffs.append(f"run.json says {key}={show(old.get(key))}, this run is {key}={show(ident.get(key))}")
    was = {k2: v for k2, v in (old.get("agent_options") or {}).items() if k2 not in TRANSPORT_OPTIONS}
    now = {k2: v for k2, v in ident["agent_options"].items() if k2 not in TRANSPORT_OPTIONS}
    if was != now:
        diffs.append(f"run.json says agent_options={show(was)}, this run is agent_options={show(now)}")
    for w, h in ident["worlds"].items():
        if w in (old.get("worlds") or {}) and old["worlds"][w] != h:
            diffs.append(f"run.json says world {w}={str(old['worlds'][w])[:12]}…, this run is world {w}={h[:12]}… "
                         "(the world changed since)")
    for t, rev in ident["tasks"].items():
        if t in (old.get("tasks") or {}) and old["tasks"][t] != rev:
            diffs.append(f"run.json says task {t} revision={old['tasks'][t]}, this run is task {t} revision={rev}")
    mine = {agent, agent.split(":", 1)[0], None}          # rows name the agent as make() names it (replay)
    others = sorted({str(r.get("agent")) for r in rows if r.get("agent") not in mine})
    if others:
        diffs.append(f"results.jsonl holds episodes of agent={', '.join(others)}, this run is agent={agent}")
    if diffs:
        raise ResumeMismatch(f"cannot resume {out}: " + "; ".join(diffs)
                             + ". Episodes of different runs must not share a run folder: use a new --out.")
    return old


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _version() -> str:
    try:
        return version("deskworld")
    except PackageNotFoundError:
        return "dev"


def _start_run_json(out: Path, ident: dict, workers: int, backend: str, resumed: dict | None, *,
                    pending: int) -> None:
    """A new run's run.json; or, resuming, the first run's with this resume added to ``resumes``."""
    if resumed is None:
        data = {"schema": layout.LAYOUT_VERSION, "deskworld": _version(), "workers": workers, "start": _now(), "end": None,
                "host": {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()},
                **ident}
        if backend != "local":
            data["backend"] = backend             # the local run.json stays as it was
    else:
        data = resumed
        added = sorted(set(ident["tasks"]) - set(data.get("tasks") or {}))
        data["tasks"] = {**(data.get("tasks") or {}), **ident["tasks"]}
        data["worlds"] = {**(data.get("worlds") or {}), **ident["worlds"]}
        data.setdefault("seed", ident["seed"])
        entry = {"start": _now(), "end": None, "pending": pending, "added": 0, "workers": workers,
                 "deskworld": _version(), "backend": backend}
        if added:
            entry["tasks_added"] = added
        data["resumes"] = [*(data.get("resumes") or []), entry]
        data["end"] = None
    layout.write_run_json(out, data)


def _finish_run_json(out: Path, resumed: bool, *, added: int) -> None:
    data = layout.read_run_json(out)
    data["end"] = _now()
    if resumed and data.get("resumes"):
        data["resumes"][-1].update(end=data["end"], added=added)
    layout.write_run_json(out, data)


def _write_run_json(out: Path, agent: str, tasks: list, k: int, workers: int, *, started: bool,
                    agent_opts: dict | None = None, backend: str = "local", seed: int = 0) -> None:
    """A fresh run.json (``started``), or the end time set in the one there."""
    if started or not (out / layout.RUN_JSON).exists():
        _start_run_json(out, _run_identity(agent, tasks, k, seed, agent_opts), workers, backend, None, pending=0)
    else:
        _finish_run_json(out, False, added=0)


class _Progress:
    """The episodes bar of a run: passed ✓, failed ✗ and environment errors ! so far."""

    def __init__(self, total: int, enabled: bool):
        self.enabled = enabled and total > 0
        if self.enabled:
            self.p = Progress(TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                              TextColumn("{task.description}"), transient=False)
            self.p.start()
            self.t = self.p.add_task("", total=total)
            self.passed = self.failed = self.errors = 0

    def describe(self, text: str) -> None:
        if self.enabled:
            self.p.update(self.t, description=text)

    def advance(self, row: dict) -> None:
        if not self.enabled:
            return
        if row["status"] == Status.ERROR:
            self.errors += 1
        elif row["passed"]:
            self.passed += 1
        else:
            self.failed += 1
        self.p.update(self.t, advance=1,
                      description=f"{row['task']}  ✓{self.passed} ✗{self.failed} !{self.errors}")

    def close(self) -> None:
        if self.enabled:
            self.p.stop()
