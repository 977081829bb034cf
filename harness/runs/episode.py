"""The episode loop: one episode from reset to its results row, the same on every backend.

``run_episode`` resets the env, lets the agent act until the episode ends, records each step
(``harness.runs.recorder``), verifies and returns the row ``results.jsonl`` gets.
``episode_with_retry`` is what a slot — a local worker process (``harness.runs.runner``) or a Ray
actor (``harness.runs.ray_backend``) — runs for each episode: on the slot's reused ``DeskEnv``
(one browser), an episode whose status is ``error`` (the environment broke) retried once on a
fresh browser. ``play`` is the same in a worker whose run is gone: the worker then dies with its
browsers (``harness.runs.lifetime``).
"""
from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from harness.agents import make
from harness.agents.oracle import OracleFailed
from harness.env import DeskEnv
from harness.env.variant import ANY, Variant
from harness.runs.lifetime import ParentGone, die_with_browsers
from harness.runs.recorder import EpisodeRecorder
from harness.tasks.registry import load_task
from harness.verify import Status, error_result


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
                trace: bool = False, variant=None) -> dict:
    """Reset (on ``variant``'s screen when given: ``harness.env.variant``), let the agent act until the
    episode ends, verify; return the results row (with the variant's name when one was given)."""
    t0 = time.perf_counter()
    steps = 0
    status_override = None
    error = None
    variant = Variant.of(variant) if variant is not None else None
    try:
        obs, info = env.reset(options={"task": task, **({"variant": variant} if variant is not None else {})})
        agent.reset(task)
        if recorder:
            recorder.screen(0, env.unwrapped.session.last_png())
        ended = False
        while not ended:
            t_act = time.perf_counter()
            try:
                out = agent.act(obs)
            except OracleFailed as e:
                status_override, error = Status.ERROR, f"oracle failed: {e}"
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
                                   **({"checkpoints": info["checkpoints"]} if info.get("checkpoints") else {}),
                                   **_tool_record(obs, info), **said})
                act_ms, said = 0.0, {}
                if terminated or truncated:
                    ended = True
                    break
    except Exception as e:                       # the environment (or the model's API) broke outside step()
        status_override, error = Status.ERROR, f"{type(e).__name__}: {e}".splitlines()[0]
    usage = agent.episode_usage() if hasattr(agent, "episode_usage") else None
    env_u = env.unwrapped
    result = env_u.episode.result.to_dict() if env_u.episode.result is not None else None
    if status_override == Status.ERROR or result is None:
        result = error_result(error or "the episode ended without a result").to_dict()
    diff = None
    if result["status"] != Status.ERROR:
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
    if variant is not None:
        result["variant"] = {"name": str(variant), **variant.to_dict(), "screen": list(variant.screen)}
    if usage is not None:
        result["usage"] = usage
    if recorder:
        recorder.finish(result, diff, states=env_u.episode.end_states if result["status"] != Status.ERROR else None)
    return {"task": task.id, "revision": task.revision, "agent": agent.name, "sample": sample,
            **({"variant": str(variant)} if variant is not None else {}),
            **({"split": task.split} if task.family and task.id != task.family else {}),
            "score": result["score"], "passed": result["passed"], "steps": steps, "seconds": round(seconds, 2),
            **({"checkpoints": [sum(1 for c in result["checkpoints"] if c["reached"]), len(result["checkpoints"])]}
               if result.get("checkpoints") else {}),
            "status": result["status"], **({"error": result.get("error")} if result.get("error") else {}),
            **({"usage": usage} if usage is not None else {})}


def error_row(agent_name: str, task_id: str, sample: int, error: str, *, revision: int | None = None) -> dict:
    """The results row of an episode that didn't get as far as a verdict (status ``error``)."""
    return {"task": task_id, **({"revision": revision} if revision is not None else {}), "agent": agent_name,
            "sample": sample, "score": 0.0, "passed": False, "steps": 0, "seconds": 0.0, "status": Status.ERROR,
            "error": error}


@dataclass
class EnvHolder:
    """Where a slot keeps its reused ``DeskEnv`` (None until the first episode, and after a breakage)."""
    env: object = None


def variant_of_sample(env_opts: dict | None, sample: int) -> str | None:
    """The variant a sample runs on: with ``env_opts["variants"]`` (their names) and ``env_opts["k"]``,
    samples ``v*k … v*k+k-1`` run on variant ``v``; None when the run has no variants."""
    names = (env_opts or {}).get("variants")
    if not names:
        return None
    return names[min(sample // max(1, int(env_opts.get("k") or 1)), len(names) - 1)]


def episode_with_retry(holder, agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                       agent_opts: dict | None = None, env_opts: dict | None = None) -> dict:
    """One episode on ``holder.env`` (a ``DeskEnv`` reused across episodes; made when None); an ``error``
    is retried once on a fresh browser. ``holder`` is any object with an ``env`` attribute: an
    ``EnvHolder``, or the Ray actor itself. ``env_opts``: the run's ``max_steps`` (every task's limit,
    when set), ``reward``, and its appearance ``variants`` with ``k`` (``variant_of_sample``)."""
    task = load_task(task_id)
    env_opts = env_opts or {}
    variant = variant_of_sample(env_opts, sample)
    row = None
    retried = False
    for attempt in range(2):
        if holder.env is None:
            holder.env = DeskEnv(task, trace=trace, variant=ANY)      # each episode resets to its own variant
        holder.env.reward_mode = env_opts.get("reward") or "final"
        holder.env.max_steps = env_opts.get("max_steps")          # None: the task's own limit
        agent = make(agent_name, env=holder.env, seed=seed + sample, **(agent_opts or {}))
        rec = EpisodeRecorder(Path(out), task_id, sample) if out else None
        try:
            row = run_episode(holder.env, agent, task, sample=sample, recorder=rec, trace=trace, variant=variant)
        except Exception as e:
            if rec:
                rec.abandon()
            row = error_row(agent_name, task_id, sample,
                            f"{type(e).__name__}: {e}".splitlines()[0] + " | " + traceback.format_exc(limit=2)[-300:],
                            revision=task.revision)
            if variant is not None:
                row["variant"] = variant
        if row["status"] != Status.ERROR:
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


def play(holder, agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
         agent_opts: dict | None = None, env_opts: dict | None = None) -> dict:
    """``episode_with_retry`` in a slot of a run: if the run that wants the episode is gone, so is
    the slot's process (its browsers killed, nothing published)."""
    try:
        return episode_with_retry(holder, agent_name, task_id, sample, out, trace, seed, agent_opts, env_opts)
    except ParentGone:
        die_with_browsers()
