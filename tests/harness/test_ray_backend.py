"""The Ray backend (``deskworld run --backend ray``): the same results as the local backend,
a crashed actor's episode re-queued once, results written once by the driver, and a clear
error without Ray. The Ray tests share one lean local Ray (2 CPUs, no dashboard); the ``ray``
extra is installed by ``make``."""
from __future__ import annotations

import json
import sys

import pytest

from harness.runs import ray_backend
from harness.runs.layout import read_results
from harness.runs.runner import run
from harness.tasks.registry import load_task

TASKS = ("meridian/corvane-deductible", "meridian/pelagic-hearing-date")


def table(rows):
    return sorted((r["task"], r["sample"], r["passed"], r["score"], r["status"]) for r in rows)


@pytest.fixture(scope="module")
def local_ray():
    import ray                            # the ray extra: installed by make
    ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=100 * 1024 * 1024,
             logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.browser
def test_ray_gives_the_local_results(local_ray, tmp_path):
    tasks = [load_task(t) for t in TASKS]
    local = run("oracle", tasks, out=tmp_path / "local", progress=False)
    out = tmp_path / "ray"
    rows = run("oracle", tasks, workers=2, out=out, progress=False, backend="ray")
    assert table(rows) == table(local) == [(t, 0, True, 1.0, "passed") for t in TASKS]
    assert table(read_results(out)) == table(rows)                  # one line per episode, by the driver
    assert json.loads((out / "run.json").read_text())["backend"] == "ray"
    for t in TASKS:                                                 # the actors recorded the episodes
        ep = out / "episodes" / t / "0"
        assert json.loads((ep / "result.json").read_text())["passed"]
        assert (ep / "steps.jsonl").read_text().count("\n") == next(r["steps"] for r in rows if r["task"] == t)
    assert not list(out.glob(".ray-run-*")) and not list(out.rglob(".*partial*"))


@pytest.mark.browser
def test_a_crashed_actor_is_requeued_once(local_ray, tmp_path, monkeypatch):
    # The actor exits abruptly (os._exit) on corvane's first attempt, and on both of pelagic's.
    monkeypatch.setenv(ray_backend.TEST_CRASH_ENV, f"{TASKS[0]}:1,{TASKS[1]}:2")
    out = tmp_path / "crash"
    rows = run("oracle", [load_task(t) for t in TASKS], workers=2, out=out, progress=False, backend="ray",
               ray_options={"max_restarts": 1})
    assert table(rows) == [(TASKS[0], 0, True, 1.0, "passed"), (TASKS[1], 0, False, 0.0, "error")]
    by_task = {r["task"]: r for r in rows}
    assert "died" in by_task[TASKS[0]]["requeued"]
    assert "died" in by_task[TASKS[1]]["error"] and "twice" in by_task[TASKS[1]]["error"]
    lines = read_results(out)
    assert len(lines) == 2 and {(r["task"], r["sample"]) for r in lines} == {(t, 0) for t in TASKS}
    assert (out / "episodes" / TASKS[0] / "0" / "result.json").exists()
    assert not (out / "episodes" / TASKS[1] / "0").exists()


def test_without_ray_the_error_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)                   # import ray → ImportError
    with pytest.raises(ray_backend.RayBackendError, match=r"pip install 'deskworld\[ray\]'"):
        run("oracle", [load_task(TASKS[0])], out=tmp_path / "r", progress=False, backend="ray")
    assert not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match="unknown backend"):
        run("oracle", [load_task(TASKS[0])], progress=False, backend="dask")


def test_an_actor_that_cannot_see_the_run_folder_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(ray_backend, "SHARE_WAIT_S", 0.0)
    actor = ray_backend.EpisodeActor()                              # the class itself, in this process
    (tmp_path / ".ray-run-abc").write_text("")
    assert actor.ready(str(tmp_path), ".ray-run-abc")["pid"]
    with pytest.raises(ray_backend.RunFolderNotShared, match="shared filesystem"):
        actor.ready(str(tmp_path), ".ray-run-elsewhere")
