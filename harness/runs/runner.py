"""Running episodes: one (``run_episode``), or many across worker processes (``run``).

Each worker process owns one env (and so one browser) and reuses it across
episodes. An episode whose status is ``error`` (the environment broke) is
retried once; if it errors again it is kept as ``error`` and left out of
pass@k. Results are appended to ``results.jsonl`` as they finish.
``run(..., backend="ray")`` runs the same episodes on Ray actors instead
(``harness.runs.ray_backend``).

A run folder holds one run: ``resume=True`` refuses a folder whose ``run.json``
names another agent, model, k, seed, world hash or task revision
(``ResumeMismatch``), keeps the first start and records each resume in
``run.json``'s ``resumes``. Worker processes die with the process that started
them (``watch_parent``: ``PR_SET_PDEATHSIG`` on Linux, and a thread watching the
parent's pid everywhere) and kill their browsers as they go; a worker whose
parent is gone publishes no episode folder (``harness.runs.recorder.ParentGone``).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import platform
import signal
import sys
import threading
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from harness.runs import recorder as _recorder
from harness.runs.recorder import EpisodeRecorder, ParentGone, append_result, read_results

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
            recorder.screen(0, env.unwrapped.session.last_png())
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
                shot = recorder.screen(steps, env.unwrapped.session.last_png()) if recorder else None
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
    result = env_u.episode.result.to_dict() if env_u.episode.result is not None else None
    if status_override == "error" or result is None:
        from harness.verify import error_result
        result = error_result(error or "the episode ended without a result").to_dict()
    diff = None
    if result["status"] != "error":
        try:
            diff = env_u.session.final_diff()
        except Exception:
            diff = None
    if trace and recorder:
        try:
            env_u.session.save_trace(recorder.trace_path())
        except Exception:
            pass
    seconds = time.perf_counter() - t0
    result.update({"task": task.id, "revision": task.revision, "sample": sample, "steps": steps,
                   "answer": env_u.episode.answer, "seconds": round(seconds, 2)})
    if usage is not None:
        result["usage"] = usage
    if recorder:
        recorder.finish(result, diff, states=env_u.episode.end_states if result["status"] != "error" else None)
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
    try:
        return episode_with_retry(WORKER, agent_name, task_id, sample, out, trace, seed, agent_opts)
    except ParentGone:                      # the run that wanted this episode is gone: so is this worker
        die_with_browsers()


# ---------------------------------------------------------------- dying with the parent
PR_SET_PDEATHSIG = 1
_WATCHED: list[int] = []                    # the parent pid watched in this process (set once)


def watch_parent(parent_pid: int, *, handle_sigterm: bool = True, every: float = 0.5) -> None:
    """Make this process (a worker) die with ``parent_pid``, taking its browsers along.

    On Linux the kernel sends SIGTERM when the parent dies (``PR_SET_PDEATHSIG``); the handler (when
    ``handle_sigterm``) kills the browsers and exits at once. Everywhere, a daemon thread checks every
    ``every`` s that the parent is still ours (``os.getppid()``) and does the same if not — also the
    fallback when the main thread is stuck in native code. ``harness.runs.recorder`` refuses to publish an
    episode folder once the parent is gone, which closes the gap between the parent's death and ours."""
    if _WATCHED:
        return
    _WATCHED.append(parent_pid)
    _recorder.PARENT_PID = parent_pid
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass                                 # the watcher thread still covers it
    if handle_sigterm and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: die_with_browsers(128 + signum))
    if os.getppid() != parent_pid:               # it died before the signal was armed
        die_with_browsers()

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(every)
        die_with_browsers()
    threading.Thread(target=watch, name="deskworld-parent-watch", daemon=True).start()


def _process_table() -> dict[int, tuple[int, int]]:
    """pid -> (ppid, process group) of every process (``/proc`` on Linux, else ``ps``)."""
    table = {}
    if os.path.isdir("/proc/self"):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    raw = f.read().decode(errors="replace")
            except OSError:
                continue
            fields = raw[raw.rindex(")") + 2:].split()
            if fields[0] not in ("Z", "X"):
                table[int(name)] = (int(fields[1]), int(fields[2]))
        return table
    import subprocess
    try:
        lines = subprocess.run(["ps", "-A", "-o", "pid=,ppid=,pgid="], capture_output=True, text=True,
                               timeout=5).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return table
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            table[int(parts[0])] = (int(parts[1]), int(parts[2]))
    return table


def descendants(pid: int | None = None) -> dict[int, int]:
    """The live descendants of ``pid`` (default: this process), as pid -> process group."""
    root = os.getpid() if pid is None else pid
    table = _process_table()
    children: dict[int, list[int]] = {}
    for p, (pp, _) in table.items():
        children.setdefault(pp, []).append(p)
    found, todo = {}, [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in found and c != root:
                found[c] = table[c][1]
                todo.append(c)
    return found


def kill_browsers() -> None:
    """SIGKILL this process's browsers: every descendant process group but ours (Playwright starts Chromium
    in a session of its own; its zygotes and renderers share that group). The Playwright driver, a plain
    child, then sees its browser gone and exits when we do (its stdin closes), removing the profile."""
    own = os.getpgrp()
    for group in {g for g in descendants().values() if g != own}:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass


def die_with_browsers(code: int = 1) -> None:
    """Kill this process's browsers and exit now, without cleanup that could hang or write."""
    try:
        kill_browsers()
    finally:
        os._exit(code)


def episode_with_retry(holder, agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                       agent_opts: dict | None = None) -> dict:
    """One episode on ``holder.env`` (a ``DeskEnv`` reused across episodes; made when None); an ``error``
    is retried once on a fresh browser. Shared by the worker processes here (``WORKER``) and the Ray
    actors of ``harness.runs.ray_backend`` (the actor is the holder)."""
    from harness.agents import make
    from harness.env import DeskEnv
    from harness.tasks.registry import load_task
    task = load_task(task_id)
    row = None
    retried = False
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
        # Start the retry (or the next episode) from a fresh browser.
        try:
            holder.env.close()
        except Exception:
            pass                                  # a broken browser may not close cleanly; it is dropped
        finally:
            holder.env = None
        retried = retried or attempt == 0
    if retried:
        row["retried"] = True                     # the row is the retry's, whatever its status
    return row


def _close_worker_env() -> None:
    if WORKER.env is not None:
        WORKER.env.close()
        WORKER.env = None


class ResumeMismatch(ValueError):
    """``resume=True`` on a run folder recorded by a different run (or one that can't say which)."""


# Agent options that change how the model is reached, not what it does: a resume may differ in them.
TRANSPORT_OPTIONS = ("max_retries", "timeout")


def run(agent_name: str, tasks: list, *, k: int = 1, workers: int = 1, out: str | Path | None = None,
        resume: bool = False, trace: bool = False, seed: int = 0, progress: bool = True,
        agent_opts: dict | None = None, backend: str = "local", address: str | None = None,
        ray_options: dict | None = None) -> list[dict]:
    """Run ``k`` samples of each task. ``agent_opts`` go to ``harness.agents.make`` (model agents:
    ``model``, ``base_url``…; never an API key — the SDKs read those from the environment).

    ``resume``: skip the episodes already in ``out/results.jsonl``; raises ``ResumeMismatch`` (before
    anything in ``out`` is touched) if ``out/run.json`` was recorded with another agent, model, agent
    options, k, seed, world hash or task revision.

    ``backend``: ``local`` (worker processes on this machine) or ``ray`` (``workers`` Ray actors, on the
    cluster at ``address`` or a local Ray; ``ray_options``: ``num_cpus`` per actor, ``max_restarts``;
    see ``harness.runs.ray_backend``). Either way only this process appends to ``results.jsonl``."""
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}; use local or ray")
    if backend == "ray":
        from harness.runs.ray_backend import require_ray
        require_ray()                         # a missing Ray fails before the run folder is touched
    out = Path(out) if out else None
    done_keys = set()
    resumed = None
    if out:
        ident = _run_identity(agent_name, tasks, k, seed, agent_opts)
        if resume:
            resumed = _check_resume(out, ident, agent_name)
            done_keys = {(r["task"], r["sample"]) for r in read_results(out)}
    items = [(t.id, s) for t in tasks for s in range(k) if (t.id, s) not in done_keys]
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resumed is None and (out / "results.jsonl").exists():
            (out / "results.jsonl").unlink()
        _start_run_json(out, ident, workers, backend, resumed, pending=len(items))
    rows: list[dict] = []

    def record(row):
        rows.append(row)
        if out:
            append_result(out, row)

    bar = _Progress(len(items), enabled=progress)
    try:
        if backend == "ray":
            from harness.runs.ray_backend import run_ray

            def on_row(row):
                record(row)
                bar.advance(row)
            run_ray(agent_name, items, workers=workers, out=out, trace=trace, seed=seed, agent_opts=agent_opts,
                    address=address, on_row=on_row, **(ray_options or {}))
        elif workers <= 1:
            try:
                for tid, s in items:
                    bar.describe(tid)
                    record(_worker_episode(agent_name, tid, s, str(out) if out else None, trace, seed, agent_opts))
                    bar.advance(rows[-1])
            finally:
                _close_worker_env()
        else:
            ctx = mp.get_context("spawn")
            # Each worker dies with this process (and kills its browser): see watch_parent.
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=watch_parent,
                                     initargs=(os.getpid(),)) as pool:
                futs = {pool.submit(_worker_episode, agent_name, tid, s, str(out) if out else None, trace, seed,
                                    agent_opts): (tid, s)
                        for tid, s in items}
                for fut in as_completed(futs):
                    tid, s = futs[fut]
                    try:
                        row = fut.result()
                    except Exception as e:            # a worker process died
                        row = {"task": tid, "agent": agent_name, "sample": s, "score": 0.0, "passed": False,
                               "steps": 0, "seconds": 0.0, "status": "error", "error": f"worker died: {e}"}
                    record(row)
                    bar.advance(row)
    finally:
        bar.close()
    if out:
        _finish_run_json(out, resumed is not None, added=len(rows))
    return rows


def _run_identity(agent: str, tasks: list, k: int, seed: int, agent_opts: dict | None) -> dict:
    """What makes episodes of one run comparable: what a resume must match."""
    from apps.core.store.compile import world_hash
    from apps.core.world import load_world
    opts = {k2: v for k2, v in (agent_opts or {}).items() if v is not None and k2 != "model"}
    return {"agent": agent, "model": (agent_opts or {}).get("model"), "agent_options": opts, "k": k,
            "seed": seed, "worlds": {w: world_hash(load_world(w)) for w in sorted({t.world for t in tasks})},
            "tasks": {t.id: t.revision for t in tasks}}


def _check_resume(out: Path, ident: dict, agent: str) -> dict | None:
    """The run.json to resume, or None when ``out`` holds nothing yet; ResumeMismatch if it is another run's."""
    path = out / "run.json"
    rows = read_results(out)
    if not path.exists():
        if rows or (out / "episodes").is_dir():
            raise ResumeMismatch(f"cannot resume {out}: it holds episodes but no run.json to say which run "
                                 "recorded them; use a new --out")
        return None
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(old, dict):
            raise ValueError("not an object")
    except ValueError as e:
        raise ResumeMismatch(f"cannot resume {out}: its run.json is unreadable ({e}); use a new --out") from None

    def show(v):
        return json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v
    diffs = []
    for key in ("agent", "model", "k", "seed"):
        if key == "seed" and "seed" not in old:
            continue                              # recorded before run.json had the seed
        if old.get(key) != ident[key]:
            diffs.append(f"run.json says {key}={show(old.get(key))}, this run is {key}={show(ident[key])}")
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
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("deskworld")
    except PackageNotFoundError:
        return "dev"


def _save_run_json(out: Path, data: dict) -> None:
    path = out / "run.json"
    tmp = path.with_name(f".run.json-{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
    os.replace(tmp, path)                         # a reader never sees half a run.json


def _start_run_json(out: Path, ident: dict, workers: int, backend: str, resumed: dict | None, *,
                    pending: int) -> None:
    """A new run's run.json; or, resuming, the first run's with this resume added to ``resumes``."""
    if resumed is None:
        data = {"schema": SCHEMA_VERSION, "deskworld": _version(), "workers": workers, "start": _now(), "end": None,
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
    _save_run_json(out, data)


def _finish_run_json(out: Path, resumed: bool, *, added: int) -> None:
    path = out / "run.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["end"] = _now()
    if resumed and data.get("resumes"):
        data["resumes"][-1].update(end=data["end"], added=added)
    _save_run_json(out, data)


def _write_run_json(out: Path, agent: str, tasks: list, k: int, workers: int, *, started: bool,
                    agent_opts: dict | None = None, backend: str = "local", seed: int = 0) -> None:
    """A fresh run.json (``started``), or the end time set in the one there."""
    if started or not (out / "run.json").exists():
        _start_run_json(out, _run_identity(agent, tasks, k, seed, agent_opts), workers, backend, None, pending=0)
    else:
        _finish_run_json(out, False, added=0)


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
