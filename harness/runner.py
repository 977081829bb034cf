"""Running episodes: one (``run_episode``), or many across worker processes (``run``).

Each worker process owns one env (and so one browser) and reuses it across
episodes. An episode whose status is ``error`` (the environment broke) is
retried once; if it errors again it is kept as ``error`` and left out of
pass@k. Results are appended to ``results.jsonl`` as they finish.
``run(..., backend="ray")`` runs the same episodes on Ray actors instead
(``harness.ray_backend``).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import platform
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from harness.recorder import EpisodeRecorder, append_result, read_results

SCHEMA_VERSION = 1


def _action_record(a) -> object:
    if isinstance(a, (dict, list)):
        return a
    if isinstance(a, str):
        try:
            return json.loads(a)
        except json.JSONDecodeError:
            return a
    return str(a)


def _tool_record(obs, info: dict) -> dict:
    """Hybrid episodes: a ``tool_call`` action's result and the MCP calls made since the last step."""
    out = {}
    if isinstance(obs, dict) and obs.get("tool_result"):
        out["tool_result"] = obs["tool_result"]
    if info.get("tool_calls"):
        out["tool_calls"] = info["tool_calls"]
    return out


def run_episode(env, agent, task, *, sample: int = 0, recorder: EpisodeRecorder | None = None,
                trace: bool = False) -> dict:
    """Reset, let the agent act until the episode ends, verify; return the results row."""
    from harness.agents.oracle import OracleFailed
    t0 = time.perf_counter()
    steps = 0
    status_override = None
    error = None
    try:
        obs, info = env.reset(options={"task": task})
        agent.reset(task)
        if recorder:
            recorder.screen(0, env.unwrapped.last_png())
        ended = False
        while not ended:
            t_act = time.perf_counter()
            try:
                out = agent.act(obs)
            except OracleFailed as e:
                status_override, error = "error", f"oracle failed: {e}"
                break
            act_ms = (time.perf_counter() - t_act) * 1000
            said = agent.take_record() if hasattr(agent, "take_record") else {}
            for a in (out if isinstance(out, list) else [out]):
                t_env = time.perf_counter()
                obs, reward, terminated, truncated, info = env.step(a)
                steps += 1
                shot = recorder.screen(steps, env.unwrapped.last_png()) if recorder else None
                if recorder:
                    recorder.step({"step": steps, "action": _action_record(a), "url": obs["url"],
                                   "error": obs["last_action_error"], "screenshot": shot,
                                   "ms": {"agent": round(act_ms, 1), "env": round((time.perf_counter() - t_env) * 1000, 1)},
                                   "reward": reward, "terminated": terminated, "truncated": truncated,
                                   **_tool_record(obs, info), **said})
                act_ms, said = 0.0, {}
                if terminated or truncated:
                    ended = True
                    break
    except Exception as e:                       # the environment (or the model's API) broke outside step()
        status_override, error = "error", f"{type(e).__name__}: {e}".splitlines()[0]
    usage = agent.episode_usage() if hasattr(agent, "episode_usage") else None
    env_u = env.unwrapped
    result = env_u.result.to_dict() if env_u.result is not None else None
    if status_override == "error" or result is None:
        from harness.verify import error_result
        result = error_result(error or "the episode ended without a result").to_dict()
    diff = None
    if result["status"] != "error":
        try:
            diff = env_u.final_diff()
        except Exception:
            diff = None
    if trace and recorder:
        try:
            env_u.save_trace(recorder.trace_path())
        except Exception:
            pass
    seconds = time.perf_counter() - t0
    result.update({"task": task.id, "revision": task.revision, "sample": sample, "steps": steps,
                   "answer": env_u.answer, "seconds": round(seconds, 2)})
    if usage is not None:
        result["usage"] = usage
    if recorder:
        recorder.finish(result, diff, states=getattr(env_u, "end_states", None) if result["status"] != "error" else None)
    return {"task": task.id, "revision": task.revision, "agent": agent.name, "sample": sample,
            "score": result["score"], "passed": result["passed"], "steps": steps, "seconds": round(seconds, 2),
            "status": result["status"], **({"error": result.get("error")} if result.get("error") else {}),
            **({"usage": usage} if usage is not None else {})}


# ---------------------------------------------------------------- worker processes
@dataclass
class EnvHolder:
    """Where an episode loop keeps its reused ``DeskEnv`` (None until the first episode)."""
    env: object = None


WORKER = EnvHolder()           # this worker process's env


def _worker_episode(agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                    agent_opts: dict | None = None) -> dict:
    """Runs in a worker process: one env per process, reused; an error is retried once."""
    return episode_with_retry(WORKER, agent_name, task_id, sample, out, trace, seed, agent_opts)


def episode_with_retry(holder, agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                       agent_opts: dict | None = None) -> dict:
    """One episode on ``holder.env`` (a ``DeskEnv`` reused across episodes; made when None); an ``error``
    is retried once on a fresh browser. Shared by the worker processes here (``WORKER``) and the Ray
    actors of ``harness.ray_backend`` (the actor is the holder)."""
    from harness.agents import make
    from harness.env import DeskEnv
    from harness.tasks.registry import load_task
    task = load_task(task_id)
    row = None
    for attempt in range(2):
        if holder.env is None:
            holder.env = DeskEnv(task, trace=trace)
        agent = make(agent_name, env=holder.env, seed=seed + sample, **(agent_opts or {}))
        rec = EpisodeRecorder(Path(out), task_id, sample) if out else None
        try:
            row = run_episode(holder.env, agent, task, sample=sample, recorder=rec, trace=trace)
        except Exception as e:
            if rec:
                rec.abandon()
            row = {"task": task_id, "revision": task.revision, "agent": agent_name, "sample": sample, "score": 0.0,
                   "passed": False, "steps": 0, "seconds": 0.0, "status": "error",
                   "error": f"{type(e).__name__}: {e}".splitlines()[0] + " | " + traceback.format_exc(limit=2)[-300:]}
        if row["status"] != "error":
            break
        # Start the retry from a fresh browser.
        try:
            holder.env.close()
        finally:
            holder.env = None
        row["retried"] = attempt == 0
    return row


def _close_worker_env() -> None:
    if WORKER.env is not None:
        WORKER.env.close()
        WORKER.env = None


def run(agent_name: str, tasks: list, *, k: int = 1, workers: int = 1, out: str | Path | None = None,
        resume: bool = False, trace: bool = False, seed: int = 0, progress: bool = True,
        agent_opts: dict | None = None, backend: str = "local", address: str | None = None,
        ray_options: dict | None = None) -> list[dict]:
    """Run ``k`` samples of each task. ``agent_opts`` go to ``harness.agents.make`` (model agents:
    ``model``, ``base_url``…; never an API key — the SDKs read those from the environment).

    ``backend``: ``local`` (worker processes on this machine) or ``ray`` (``workers`` Ray actors, on the
    cluster at ``address`` or a local Ray; ``ray_options``: ``num_cpus`` per actor, ``max_restarts``;
    see ``harness.ray_backend``). Either way only this process appends to ``results.jsonl``."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}; use local or ray")
    if backend == "ray":
        from harness.ray_backend import require_ray
        require_ray()                         # a missing Ray fails before the run folder is touched
    out = Path(out) if out else None
    done_keys = set()
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resume:
            done_keys = {(r["task"], r["sample"]) for r in read_results(out)}
        elif (out / "results.jsonl").exists():
            (out / "results.jsonl").unlink()
        _write_run_json(out, agent_name, tasks, k, workers, started=True, agent_opts=agent_opts,
                        backend=backend)
    items = [(t.id, s) for t in tasks for s in range(k) if (t.id, s) not in done_keys]
    rows: list[dict] = []

    def record(row):
        rows.append(row)
        if out:
            append_result(out, row)

    bar = _Progress(len(items), enabled=progress)
    if backend == "ray":
        from harness.ray_backend import run_ray

        def on_row(row):
            record(row)
            bar.advance(row)
        try:
            run_ray(agent_name, items, workers=workers, out=out, trace=trace, seed=seed, agent_opts=agent_opts,
                    address=address, on_row=on_row, **(ray_options or {}))
        finally:
            bar.close()
        if out:
            _write_run_json(out, agent_name, tasks, k, workers, started=False)
        return rows
    if workers <= 1:
        try:
            for tid, s in items:
                bar.describe(tid)
                record(_worker_episode(agent_name, tid, s, str(out) if out else None, trace, seed, agent_opts))
                bar.advance(rows[-1])
        finally:
            _close_worker_env()
    else:
        ctx = mp.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futs = {pool.submit(_worker_episode, agent_name, tid, s, str(out) if out else None, trace, seed,
                                agent_opts): (tid, s)
                    for tid, s in items}
            for fut in as_completed(futs):
                tid, s = futs[fut]
                try:
                    row = fut.result()
                except Exception as e:            # a worker process died
                    row = {"task": tid, "agent": agent_name, "sample": s, "score": 0.0, "passed": False, "steps": 0,
                           "seconds": 0.0, "status": "error", "error": f"worker died: {e}"}
                record(row)
                bar.advance(row)
    bar.close()
    if out:
        _write_run_json(out, agent_name, tasks, k, workers, started=False)
    return rows


def _write_run_json(out: Path, agent: str, tasks: list, k: int, workers: int, *, started: bool,
                    agent_opts: dict | None = None, backend: str = "local") -> None:
    from importlib.metadata import PackageNotFoundError, version

    from apps.common.store.compile import world_hash
    from apps.common.world import load_world
    path = out / "run.json"
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if started or not path.exists():
        try:
            ver = version("deskworld")
        except PackageNotFoundError:
            ver = "dev"
        worlds = sorted({t.world for t in tasks})
        opts = {k2: v for k2, v in (agent_opts or {}).items() if v is not None and k2 != "model"}
        data = {"schema": SCHEMA_VERSION, "agent": agent, "model": (agent_opts or {}).get("model"),
                "agent_options": opts, "deskworld": ver, "k": k, "workers": workers,
                "worlds": {w: world_hash(load_world(w)) for w in worlds},
                "tasks": {t.id: t.revision for t in tasks}, "start": now, "end": None,
                "host": {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}}
        if backend != "local":
            data["backend"] = backend             # the local run.json stays as it was
    else:
        data = json.loads(path.read_text())
        data["end"] = now
    path.write_text(json.dumps(data, indent=2, sort_keys=True))


class _Progress:
    def __init__(self, total: int, enabled: bool):
        self.enabled = enabled and total > 0
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
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
        if row["status"] == "error":
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
