"""Running episodes on a pool of Ray actors (``deskworld run --backend ray``).

Each actor (``EpisodeActor``) is one slot: it owns one ``DeskEnv`` — one
browser — and reuses it across episodes, as a local worker process does. An
episode runs through the same episode loop as locally (``harness.runs.episode``),
so an ``error`` episode is still retried once inside the actor on a fresh browser.

On top of that, the Ray layer handles actors that die (a crash, the OOM
killer, a lost node): actors are created with ``max_restarts``; the episode
that was running when its actor died is re-queued once — it goes to an idle
actor if there is one, else to the restarted one — and if that attempt dies
too it is recorded as ``error`` with the reason. An actor that has used up its
restarts is replaced by a new one.

An actor dies with its parent (the node's raylet, which a local Ray started by
the driver shares its fate with): ``harness.runs.lifetime.watch_parent`` kills its
browser and exits when the parent goes, and an actor whose parent is gone
publishes no episode folder. (When the driver dies on a cluster whose raylets
live on, Ray kills the driver's actors; their Playwright drivers then close
the browsers.)

The driver gathers results as they finish (``ray.wait``) and hands each row
to ``on_row`` exactly once; only the driver appends to ``results.jsonl``.
Episode folders are written by the actors straight into the run folder, so
the run folder must be on a filesystem every node sees (one machine: always;
a cluster: a shared mount at the same path). Each actor checks that when it
starts, against a marker file the driver writes, and the run stops with a
clear message if it cannot see it.

Ray is optional (``pip install 'deskworld[ray]'``) and imported only here,
only when this backend is used.
"""
from __future__ import annotations

import logging
import os
import shutil
import socket
import time
import uuid
from collections import deque
from pathlib import Path

from harness.runs import layout
from harness.runs.episode import error_row, play
from harness.runs.lifetime import watch_parent

log = logging.getLogger(__name__)

# Test hook (tests/harness/test_ray_backend.py only): "task_id:n[,task_id:n…]" makes the actor
# running that task's episode exit abruptly (os._exit) on its first n attempts.
# Read by the driver, which tells the actor; never set outside the tests.
TEST_CRASH_ENV = "DESKWORLD_RAY_TEST_CRASH"

MARKER_PREFIX = ".ray-run-"          # a dot-file: readers of the run layout skip it
SHARE_WAIT_S = 30.0                  # how long an actor waits for the marker (NFS attribute caching)


class RayBackendError(RuntimeError):
    """The Ray backend cannot run: Ray missing, the run folder not shared, no actor could start."""


class RunFolderNotShared(RuntimeError):
    """Raised in an actor that cannot see the driver's run folder."""


def require_ray():
    """Import Ray, or fail with how to install it."""
    try:
        import ray
    except ImportError:
        raise RayBackendError("the Ray backend needs Ray: pip install 'deskworld[ray]' "
                              "(or: .venv/bin/pip install 'ray>=2.60,<3')") from None
    return ray


class EpisodeActor:
    """One slot of the pool: a ``DeskEnv`` (one browser) reused across episodes.

    ``env`` is the attribute ``harness.runs.episode.episode_with_retry`` reads and replaces."""

    def __init__(self, cwd: str | None = None, in_worker: bool = False):
        self.env = None
        if cwd and os.path.isdir(cwd):
            os.chdir(cwd)                # relative paths (replay:DIR, caches) mean what they mean on the driver
        if in_worker:                    # in a Ray worker process (not when a test makes the class itself)
            watch_parent(os.getppid(), handle_sigterm=False)   # Ray's own SIGTERM handler exits the worker

    def ready(self, out: str | None, marker: str | None) -> dict:
        """Called when the actor (re)starts: where it runs; checks that it sees the run folder."""
        if out and marker:
            self._check_shared(out, marker)
        return {"host": socket.gethostname(), "pid": os.getpid()}

    @staticmethod
    def _check_shared(out: str, marker: str) -> None:
        deadline = time.monotonic() + SHARE_WAIT_S
        while not (Path(out) / marker).exists():
            if time.monotonic() > deadline:
                raise RunFolderNotShared(
                    f"the run folder {out} is not shared with Ray node {socket.gethostname()} "
                    f"(it cannot see {marker} there): on a multi-node cluster --out must be a "
                    "shared filesystem mounted at the same path on every node")
            time.sleep(0.5)

    def episode(self, agent_name: str, task_id: str, sample: int, out: str | None, trace: bool, seed: int,
                agent_opts: dict | None, crash: bool = False, env_opts: dict | None = None) -> dict:
        if crash:
            self._crash()
        # If the node's raylet is gone, nobody will record this episode: the actor dies with its browser.
        return play(self, agent_name, task_id, sample, out, trace, seed, agent_opts, env_opts)

    @staticmethod
    def _crash() -> None:
        """Test hook (TEST_CRASH_ENV): the actor's process exits the hard way, as on a segfault or the
        OOM killer, before the episode starts. (An open browser goes too: Chromium exits with its
        Playwright driver when the process that owns the driver dies.)"""
        os._exit(70)

    def close(self) -> None:
        if self.env is not None:
            try:
                self.env.close()
            finally:
                self.env = None


def _crash_plan() -> dict[str, int]:
    plan = {}
    for part in filter(None, (os.environ.get(TEST_CRASH_ENV) or "").split(",")):
        tid, _, n = part.strip().rpartition(":")
        plan[tid] = int(n)
    return plan


def _reason(e: BaseException) -> str:
    """The first line of a Ray error, short enough for a results row."""
    text = " ".join(str(e).split("\n", 1)[0].split())
    return f"{type(e).__name__}: {text}"[:300]


def _drop_partial(out: str | None, task_id: str, sample: int) -> None:
    """Remove what a dead actor left of an episode (its hidden ``.<sample>.partial-<pid>`` folder)."""
    if not out:
        return
    for tmp in layout.partial_dirs(out, task_id, sample):
        shutil.rmtree(tmp, ignore_errors=True)


def _connect(ray, address: str | None, cpus_needed: int) -> bool:
    """Connect to ``address`` (or RAY_ADDRESS), else start a local Ray. True if this call did either
    (``ray.shutdown()`` at the end then disconnects, or stops the local Ray); False if Ray was already
    initialised by the caller (left as it is)."""
    if ray.is_initialized():
        return False
    if address or os.environ.get("RAY_ADDRESS"):
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except Exception as e:
            chain, c = [], e
            while c is not None and len(chain) < 5:
                chain.append(str(c))
                c = c.__cause__ or c.__context__
            hint = ("; the cluster uses token authentication: set RAY_AUTH_MODE=token here, with its token in "
                    "~/.ray/auth_token or RAY_AUTH_TOKEN" if "authtoken" in " ".join(chain).lower().replace(" ", "")
                    else "")
            first = (str(e).splitlines() or [type(e).__name__])[0]
            raise RayBackendError(f"cannot connect to the Ray cluster at {address or os.environ['RAY_ADDRESS']}: "
                                  f"{first}{hint}") from None
        return True
    ray.init(address="local",           # a new Ray, even if this machine runs a cluster (that is --address auto)
             num_cpus=max(os.cpu_count() or 1, cpus_needed), include_dashboard=False,
             object_store_memory=128 * 1024 * 1024, logging_level=logging.WARNING)
    return True


def run_ray(agent_name: str, items: list[tuple[str, int]], *, workers: int = 1, out: str | Path | None = None,
            trace: bool = False, seed: int = 0, agent_opts: dict | None = None, address: str | None = None,
            on_row=None, env_opts: dict | None = None, num_cpus: float = 1, max_restarts: int = 3) -> list[dict]:
    """Run ``items`` (``(task id, sample)`` pairs) on ``workers`` Ray actors; return the rows in the order
    they finished, calling ``on_row(row)`` once for each as it arrives (the caller records it).

    ``address``: a Ray cluster (``auto``, ``HOST:6379``); default RAY_ADDRESS, else a new local Ray, shut
    down at the end (a Ray the caller initialised is used as it is). ``num_cpus``: CPUs Ray reserves per
    actor (one browser and its app server). ``max_restarts``: how often Ray restarts a crashed actor
    before it is replaced by a new one."""
    ray = require_ray()
    if not items:
        return []
    workers = max(1, min(workers, len(items)))
    out_s = str(Path(out).resolve()) if out else None
    ours = _connect(ray, address, int(workers * num_cpus + 0.999))
    marker = f"{MARKER_PREFIX}{uuid.uuid4().hex}" if out_s else None
    crash = _crash_plan()
    Actor = ray.remote(EpisodeActor).options(num_cpus=num_cpus, max_restarts=max_restarts, max_task_retries=0)
    cwd = os.getcwd()

    actors: list = []
    deaths: list[int] = []                      # deaths seen since the actor was created
    hosts: list[str] = []
    idle: deque[int] = deque()
    pending: dict = {}                          # ObjectRef -> ("ready", slot, fresh) | ("episode", slot, item)
    queue: deque = deque((tid, s, 0, None) for tid, s in items)   # (task, sample, attempt, why re-queued)
    rows: list[dict] = []
    start_failures: list[str] = []

    def spawn(slot: int) -> None:
        actor = Actor.remote(cwd, True)
        if slot == len(actors):
            actors.append(actor)
            deaths.append(0)
            hosts.append("?")
        else:
            actors[slot], deaths[slot], hosts[slot] = actor, 0, "?"
        probe(slot, fresh=True)

    def probe(slot: int, fresh: bool) -> None:
        # Retried while Ray restarts the actor: a call to a restarting actor would fail at once.
        ref = actors[slot].ready.options(max_task_retries=-1).remote(out_s, marker)
        pending[ref] = ("ready", slot, fresh)

    def retire(slot: int) -> None:
        try:
            ray.kill(actors[slot], no_restart=True)
        except Exception:
            pass

    def emit(row: dict) -> None:
        rows.append(row)
        if on_row:
            on_row(row)

    finished = False
    try:
        if marker:
            (Path(out_s) / marker).write_text("deskworld: run folder check for Ray actors; removed at the end\n")
        total_cpus = ray.cluster_resources().get("CPU", 0)
        if workers * num_cpus > total_cpus:
            log.warning("the Ray cluster has %s CPUs for %d actors × %s CPUs: some actors wait for CPUs",
                        total_cpus, workers, num_cpus)
        for slot in range(workers):
            spawn(slot)
        while queue or any(p[0] == "episode" for p in pending.values()):
            while queue and idle:
                slot = idle.popleft()
                tid, s, attempt, why = queue.popleft()
                ref = actors[slot].episode.remote(agent_name, tid, s, out_s, trace, seed, agent_opts,
                                                  attempt < crash.get(tid, 0), env_opts)
                pending[ref] = ("episode", slot, (tid, s, attempt, why))
            if not pending:                     # every actor failed to start
                raise RayBackendError("no Ray actor could start: " + "; ".join(start_failures[-3:]))
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                kind, slot, detail = pending.pop(ref)
                if kind == "ready":
                    try:
                        hosts[slot] = ray.get(ref)["host"]
                        idle.append(slot)
                    except RunFolderNotShared as e:
                        raise RayBackendError(str(e)) from None
                    except ray.exceptions.RayError as e:
                        retire(slot)
                        if detail:              # a new actor that cannot start: whatever broke it would
                            start_failures.append(_reason(e))          # break the next one; not replaced
                            log.warning("a Ray actor could not start: %s", _reason(e))
                        else:                   # a restart that did not come back: a new actor instead
                            spawn(slot)
                    continue
                tid, s, attempt, why = detail
                try:
                    row = ray.get(ref)
                except ray.exceptions.RayTaskError as e:      # the episode code raised (an env failure is a row)
                    row = error_row(agent_name, tid, s, f"episode raised: {_reason(e.cause or e)}")
                except ray.exceptions.RayError as e:           # the actor died (crash, OOM, lost node)
                    deaths[slot] += 1
                    reason = f"actor on {hosts[slot]} died: {_reason(e)}"
                    _drop_partial(out_s, tid, s)
                    if isinstance(e, ray.exceptions.ActorDiedError) or deaths[slot] > max_restarts:
                        retire(slot)
                        spawn(slot)             # a fresh actor; it joins `idle` when ready
                    else:
                        probe(slot, fresh=False)     # Ray restarts it; it is idle again once it answers
                    if attempt == 0:
                        log.warning("%s/%s: %s; re-queued", tid, s, reason)
                        queue.appendleft((tid, s, 1, reason))
                    else:
                        emit(error_row(agent_name, tid, s, f"{reason} (twice; the first time: {why})"))
                    continue
                if why:
                    row["requeued"] = why
                idle.append(slot)
                emit(row)
        finished = True
    finally:
        if finished:                            # close the browsers; on an interrupt, just kill the actors
            closing = [actors[slot].close.remote() for slot in idle]
            if closing:
                ray.wait(closing, num_returns=len(closing), timeout=30)
        for slot in range(len(actors)):
            retire(slot)
        if not finished:                        # interrupted: what the killed actors had half-written
            for kind, _slot, detail in pending.values():
                if kind == "episode":
                    _drop_partial(out_s, detail[0], detail[1])
        if marker:
            try:
                (Path(out_s) / marker).unlink()
            except OSError:
                pass
        if ours:
            ray.shutdown()
    return rows
