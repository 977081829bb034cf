"""Runs that can't lie (issue 15, item 4): ``--resume`` refuses a folder recorded by a different
run and keeps the first start; a killed ``deskworld run`` takes its workers and their browsers
with it and nothing more is written; ``retried`` says when a retry ran.

Every wait here polls for a condition against a deadline (the machine may be loaded)."""
from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

import harness.runs.lifetime as lifetime
from harness.cli import main
from harness.runs.layout import read_results
from harness.runs.recorder import EpisodeRecorder
from harness.runs.runner import ResumeMismatch, run
from harness.tasks.registry import load_task

TASK = "meridian/hearing-date"                 # noop fails it in one step: the cheapest real episode


def wait_for(cond, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def episode_dirs(out: Path) -> set[str]:
    """The published episode folders (``episodes/<world>/<task>/<sample>``; not the hidden partials)."""
    return {str(p.relative_to(out)) for p in out.glob("episodes/*/*/*") if p.is_dir() and not p.name.startswith(".")}


# ------------------------------------------------------------------------------------------ resume
@pytest.mark.browser
def test_resume_refuses_a_different_run_and_records_a_matching_one(tmp_path, monkeypatch):
    out = tmp_path / "run"
    task = load_task(TASK)
    assert [r["status"] for r in run("noop", [task], k=2, out=out, progress=False)] == ["failed", "failed"]
    # An earlier start, and a crash that lost the second episode's line: a resume has one episode to add.
    first = json.loads((out / "run.json").read_text())
    first["start"] = "2020-01-02T03:04:05+00:00"
    (out / "run.json").write_text(json.dumps(first, indent=2, sort_keys=True))
    lines = (out / "results.jsonl").read_text().splitlines()
    (out / "results.jsonl").write_text(lines[0] + "\n")
    before = {p: p.read_bytes() for p in (out / "run.json", out / "results.jsonl")}

    def refused(agent, tasks, match, **kw):
        with pytest.raises(ResumeMismatch, match=match):
            run(agent, tasks, out=out, resume=True, progress=False, **{"k": 2, **kw})
        assert {p: p.read_bytes() for p in before} == before          # nothing touched
    refused("oracle", [task], r"run\.json says agent=noop, this run is agent=oracle")
    refused("noop", [task], r"run\.json says k=2, this run is k=1", k=1)
    refused("noop", [task], r"run\.json says seed=0, this run is seed=7", seed=7)
    newer = copy.copy(task)
    newer.revision = task.revision + 1
    refused("noop", [newer], rf"run\.json says task {TASK} revision={task.revision}, "
                             rf"this run is task {TASK} revision={task.revision + 1}")
    import harness.runs.runner as runner_mod          # where the run's identity looks the world hash up
    real_hash = runner_mod.world_hash
    with monkeypatch.context() as m:
        m.setattr(runner_mod, "world_hash", lambda w: "f" * 64)
        refused("noop", [task],
                r"run\.json says world meridian=[0-9a-f]{12}…, this run is world meridian=ffffffffffff…")
    assert runner_mod.world_hash is real_hash
    # Through the CLI: a clear error, not a traceback.
    res = CliRunner().invoke(main, ["run", "--agent", "random", "--tasks", TASK, "-k", "2", "--out", str(out),
                                    "--resume"])
    assert res.exit_code != 0 and "run.json says agent=noop, this run is agent=random" in res.output, res.output
    assert {p: p.read_bytes() for p in before} == before

    # The same run resumes: the missing episode is added, the first start kept, the resume recorded.
    rows = run("noop", [task], k=2, out=out, resume=True, progress=False)
    assert [(r["task"], r["sample"]) for r in rows] == [(TASK, 1)]
    after = json.loads((out / "run.json").read_text())
    assert after["start"] == "2020-01-02T03:04:05+00:00" and after["end"]
    assert {k: after[k] for k in ("agent", "k", "tasks", "worlds")} == {k: first[k] for k in ("agent", "k", "tasks",
                                                                                                "worlds")}
    [resume] = after["resumes"]
    assert resume["added"] == 1 and resume["pending"] == 1 and resume["start"] and resume["end"]
    assert len(read_results(out)) == 2
    # A resume with nothing left to run is recorded too.
    assert run("noop", [task], k=2, out=out, resume=True, progress=False) == []
    assert [r["added"] for r in json.loads((out / "run.json").read_text())["resumes"]] == [1, 0]


def test_resume_refuses_episodes_of_another_agent_and_a_folder_without_run_json(tmp_path):
    task = load_task(TASK)
    out = tmp_path / "norun"
    out.mkdir()
    (out / "results.jsonl").write_text(json.dumps({"task": TASK, "sample": 0, "agent": "oracle"}) + "\n")
    with pytest.raises(ResumeMismatch, match="no run.json"):
        run("noop", [task], out=out, resume=True, progress=False)
    # run.json says noop, but results.jsonl already mixes in another agent's episodes (the old bug).
    from harness.runs.runner import _write_run_json
    _write_run_json(out, "noop", [task], 1, 1, started=True)
    with pytest.raises(ResumeMismatch, match="results.jsonl holds episodes of agent=oracle"):
        run("noop", [task], out=out, resume=True, progress=False)


# ------------------------------------------------------------------------------------ orphans
def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, session id) of a process, or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[3])


def _tagged(tag: str) -> set[int]:
    """Processes whose environment carries ``tag`` (readable ones: Chromium's renderers hide theirs)."""
    found = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if tag.encode() in (d / "environ").read_bytes():
                    found.add(int(d.name))
            except OSError:
                continue
    return found


def _run_processes(tag: str, sessions: set[int]) -> dict[int, str]:
    """Live processes of the run: tagged, or in a session a tagged process leads (Chromium calls setsid, and
    its zygotes and renderers stay in that session). ``sessions`` collects those sessions as they are seen."""
    tagged = _tagged(tag)
    for pid in tagged:
        st = _stat(pid)
        if st and st[2] == pid:
            sessions.add(pid)
    alive = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        pid = int(d.name)
        st = _stat(pid)
        if st and st[0] not in ("Z", "X") and (pid in tagged or st[2] in sessions):
            try:
                alive[pid] = (d / "comm").read_text().strip()
            except OSError:
                continue
    return alive


@pytest.mark.browser
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_of_run_leaves_no_workers_browsers_or_new_episodes(tmp_path):
    out = tmp_path / "killed"
    tag = f"DESKWORLD_TEST_RUN_TAG={uuid.uuid4().hex}"
    env = {**os.environ, tag.split("=")[0]: tag.split("=")[1]}
    exe = Path(sys.executable).with_name("deskworld")
    cmd = ([str(exe)] if exe.exists() else [sys.executable, "-c", "from harness.cli import main; main()"])
    proc = subprocess.Popen(cmd + ["run", "--agent", "noop", "--tasks", TASK, "-k", "200", "--workers", "2",
                                   "--out", str(out)], env=env, cwd=Path(__file__).parents[2],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    sessions: set[int] = set()
    try:
        # Mid-run: both workers have a browser and episodes are being published.
        wait_for(lambda: sum(c.startswith("chrom") and pid in sessions
                             for pid, c in _run_processes(tag, sessions).items()) >= 2 and len(episode_dirs(out)) >= 2,
                 120, "two workers with browsers, publishing episodes")
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        published = episode_dirs(out)
        wait_for(lambda: not _run_processes(tag, sessions), 30,
                 "the workers, their Playwright drivers and Chromium to exit", every=0.2)
        assert episode_dirs(out) == published          # nothing was published after the kill
        assert len(read_results(out)) <= len(published)
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in _run_processes(tag, sessions):       # whatever a failing run left behind
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def test_an_orphaned_worker_publishes_no_episode(tmp_path, monkeypatch):
    """The check behind it: a worker whose parent is gone (its ppid changed) writes no episode folder."""
    rec = EpisodeRecorder(tmp_path, TASK, 0)
    rec.step({"step": 1})
    monkeypatch.setattr(lifetime, "PARENT_PID", os.getppid() + 1_000_000)       # not our parent: it died
    with pytest.raises(lifetime.ParentGone):
        rec.finish({"status": "failed"}, None)
    assert not episode_dirs(tmp_path) and not list(tmp_path.rglob(".*partial*"))
    monkeypatch.setattr(lifetime, "PARENT_PID", os.getppid())
    rec = EpisodeRecorder(tmp_path, TASK, 0)
    assert rec.finish({"status": "failed"}, None).is_dir()


# ------------------------------------------------------------------------------------- retried
@pytest.mark.browser
def test_retried_is_true_when_a_retry_ran(tmp_path, monkeypatch):
    from harness.env import DeskEnv
    real_reset = DeskEnv.reset
    calls = []

    def flaky_reset(self, *a, **kw):                # the environment breaks on the first reset only
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("injected: the browser went away")
        return real_reset(self, *a, **kw)
    monkeypatch.setattr(DeskEnv, "reset", flaky_reset)
    out = tmp_path / "retry"
    rows = run("noop", [load_task(TASK)], k=2, out=out, progress=False)
    assert [(r["sample"], r["status"], r.get("retried")) for r in rows] == [(0, "failed", True), (1, "failed", None)]
    assert [r.get("retried") for r in read_results(out)] == [True, None]
    # Both attempts break: the row is an error, and it still says a retry ran.
    monkeypatch.setattr(DeskEnv, "reset", lambda self, *a, **kw: (_ for _ in ()).throw(RuntimeError("injected")))
    [row] = run("noop", [load_task(TASK)], k=1, out=tmp_path / "retry2", progress=False)
    assert row["status"] == "error" and row["retried"] is True and "injected" in row["error"]
