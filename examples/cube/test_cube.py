"""deskworld as a CUBE benchmark, tested against cube-standard's own code (no mocks).

Run in this example's venv (make test): a real deskworld desk (app server + headless Chromium) per
episode, cube's compliance suite (`cube test deskworld --ci`), cube.testing's assertion helper,
`Task.step` for a do-nothing agent, JSON round-trips of every task config, and the registry entry
against the registry's JSON schema.
"""
from __future__ import annotations

import base64
import importlib.metadata
import io
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml
from PIL import Image

from cube.core import STOP_ACTION, Action, ActionSchema, ImageContent, TextContent
from cube.task import TaskConfig
from cube.testing import assert_debug_tasks_reward_one

import deskworld_cube.debug as debug_mod
from deskworld_cube.benchmark import DeskBenchmarkConfig
from deskworld_cube.task import DeskTaskConfig, DeskTaskMetadata
from deskworld_cube.tool import DeskToolConfig

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
COMPLIANCE = {"test_debug_tasks_exist", "test_debug_agent_exists", "test_full_episode",
              "test_reset_reproducibility", "test_tools_list", "test_close_idempotent", "test_benchmark_metadata"}
ANSWER_TASK, STATE_TASK = debug_mod.DEBUG_TASKS
SCREEN = (1280, 800)


def config_of(task_id: str) -> DeskTaskConfig:
    (tc,) = DeskBenchmarkConfig().subset_from_list([task_id]).get_task_configs()
    return tc


def texts(obs) -> str:
    return "\n".join(c.data for c in obs.contents if isinstance(c, TextContent))


def images(obs) -> list[Image.Image]:
    return [c.data for c in obs.contents if isinstance(c, ImageContent)]


# ---------------------------------------------------------------- cube's own compliance suite
def test_cube_test_ci_passes_every_compliance_check(tmp_path):
    """`cube test deskworld --ci`: the debug tasks at reward 1 (in parallel threads), two concurrent resets
    byte-identical (screenshot included), the tools list, close twice, the metadata. The CLI exits 0 even
    when a non-episode check fails, so the JSON report's lists are asserted too."""
    report = tmp_path / "report.json"
    proc = subprocess.run([str(BIN / "cube"), "test", "deskworld", "--ci", f"--output={report}"],
                          cwd=HERE, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "CUBE_CI": "1", "NO_COLOR": "1"})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    data = json.loads(report.read_text())
    assert data["compliance"]["failed"] == [], out
    assert set(data["compliance"]["passed"]) == COMPLIANCE, out
    assert f"tasks={len(debug_mod.DEBUG_TASKS)}  failures=0" in out, out
    assert "PASSED" in out


def test_debug_tasks_reward_one():
    """cube.testing's helper: every debug task, replaying the oracle's actions through Task.step, scores 1."""
    assert_debug_tasks_reward_one(debug_mod)


# ---------------------------------------------------------------- an episode through Task.step
def test_do_nothing_agent_scores_zero_and_observations_carry_the_screenshot():
    task = config_of(STATE_TASK).make()
    try:
        obs, info = task.reset()
        assert info["task"] == STATE_TASK
        goal = next(c.data for c in obs.contents if isinstance(c, TextContent) and c.name == "goal")
        assert "elevator bank B" in goal
        assert "URL: http://desk.local/mail" in texts(obs)
        (shot,) = images(obs)
        assert shot.size == SCREEN and shot.mode == "RGB"
        # the screenshot reaches a model as an image: a PNG data URL in the LLM message
        parts = [p for m in obs.to_llm_messages() if isinstance(m["content"], list) for p in m["content"]]
        url = next(p["image_url"]["url"] for p in parts if p.get("type") == "image_url")
        assert url.startswith("data:image/png;base64,")
        assert Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size == SCREEN
        assert len(task.action_set) > 10 and all(isinstance(a, ActionSchema) for a in task.action_set)

        # bad input: a clear error naming what was wrong, the episode goes on
        out = task.step(Action(name="click", arguments={"x": 5000, "y": 10}))
        assert not out.done and out.reward == 0.0
        assert "Last action error: invalid click action: x: x=5000 is outside the screen (0..1279)" in texts(out.obs)
        assert len(images(out.obs)) == 1

        # the do-nothing agent: stops at once with CUBE's own stop action (final_step: a plain deskworld done)
        out = task.step(Action(name=STOP_ACTION.name, arguments={}))
        assert out.done is True
        assert out.reward == 0.0
        assert out.info["ended"] is True and out.info["passed"] is False and out.info["score"] == 0.0
        assert out.info["checks"], out.info
        assert task.finished() is True
    finally:
        task.close()
        task.close()


def test_an_environment_error_is_an_episode_error_not_a_reward():
    """The browser dies mid-episode: deskworld ends the episode as an environment error, ``evaluate`` raises,
    and cube's own episode loop reports an error rather than a reward 0 the agent earned."""
    from cube.testing import run_debug_episode

    task = config_of(ANSWER_TASK).make()

    def agent(obs, action_set):
        session = task.tool.env.unwrapped.session
        session.call(lambda: session.browser.close())            # the browser dies mid-episode
        return Action(name="click", arguments={"x": 90, "y": 192})

    report = run_debug_episode(task, agent)
    assert (report["error"] or "").startswith(f"RuntimeError: deskworld's environment broke on {ANSWER_TASK} "
                                      "(not the agent's failure): "), report
    assert report["done"] is False and report["steps"] == 0 and report["close_idempotent_ok"], report


def test_actions_before_reset_say_so():
    task = config_of(ANSWER_TASK).make()
    try:
        out = task.step(Action(name="wait", arguments={"ms": 0}))
        assert not out.done
        assert "reset the task first" in texts(out.obs)
        assert out.error is not None and out.error.error_type == "RuntimeError"
        with pytest.raises(ValueError, match="Action fly does not exist in DeskTool"):
            task.step(Action(name="fly", arguments={}))
    finally:
        task.close()


# ---------------------------------------------------------------- configs, tools, metadata (no browser)
def test_every_task_config_round_trips_through_json():
    configs = list(DeskBenchmarkConfig().get_task_configs())
    assert len(configs) == DeskBenchmarkConfig.benchmark_metadata.num_tasks > 1000
    for tc in configs:
        back = TaskConfig.model_validate_json(tc.model_dump_json())
        assert type(back) is DeskTaskConfig and type(back.metadata) is DeskTaskMetadata
        assert back == tc, tc.task_id


def test_a_worker_makes_the_task_from_the_json_alone():
    """The config crosses a process boundary as JSON; the worker needs neither the BenchmarkConfig nor the
    task registry (which takes seconds to read) to make the task."""
    tc = config_of(STATE_TASK)
    code = ("import sys; from cube.task import TaskConfig; "
            "tc = TaskConfig.model_validate_json(sys.stdin.read()); task = tc.make(); "
            "print(type(tc).__name__, type(task).__name__, task.metadata.id, task.metadata.deskworld_split, "
            "'deskworld_cube.benchmark' in sys.modules); task.close()")
    proc = subprocess.run([sys.executable, "-c", code], input=tc.model_dump_json(), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["DeskTaskConfig", "DeskTask", STATE_TASK, "train", "False"]


def test_tools_list():
    tool = DeskToolConfig().make()
    schemas = {a.name: a for a in tool.action_set}
    assert {"click", "double_click", "triple_click", "move", "drag", "scroll", "type", "key", "wait", "navigate",
            "back", "done", "ask_user", "final_step"} <= set(schemas)
    click = schemas["click"].parameters
    assert click["required"] == ["x", "y"]
    assert click["properties"]["x"]["type"] == "integer"
    assert click["properties"]["button"]["enum"] == ["left", "middle", "right"]
    assert schemas["done"].parameters["properties"]["status"]["enum"] == ["complete", "infeasible"]
    # each parameter's description from the one table (deskworld's action table where it says the same)
    assert click["properties"]["x"]["description"] == "Pixels from the left edge of the screenshot."
    assert schemas["drag"].parameters["properties"]["path"] == {
        "type": "array", "items": {},
        "description": "Two or more points [x, y] in screenshot pixels, e.g. [[100, 200], [300, 200]]."}
    assert schemas["type"].parameters["properties"]["text"]["description"] == "The text (at most 10000 characters)."
    assert schemas["ask_user"].parameters["properties"]["text"]["description"].startswith("The question.")
    assert schemas["back"].parameters == {"type": "object", "properties": {}}
    tool.close()
    tool.close()


def test_benchmark_metadata_and_splits():
    meta = DeskBenchmarkConfig.benchmark_metadata
    assert meta.name == "deskworld" and meta.license == "Apache-2.0"
    tasks = DeskBenchmarkConfig.task_metadata
    assert meta.num_tasks == len(tasks)
    assert {t.split for t in tasks.values()} == {"train", "val", "test"}
    assert all(t.split == {"dev": "val"}.get(t.deskworld_split, t.deskworld_split) for t in tasks.values())
    test = DeskBenchmarkConfig().named_subset("test")
    assert test.num_tasks > 0 and all(t.deskworld_split == "test" for t in test.tasks().values())
    published = DeskBenchmarkConfig().named_subset("published").tasks()
    from harness.tasks.families import task_files
    assert len(published) == len(task_files())
    assert set(debug_mod.DEBUG_TASKS) <= set(published)
    assert tasks[ANSWER_TASK].abstract_description == "Corvane's deductible"
    assert tasks[ANSWER_TASK].recommended_max_steps == 30
    # the entry point `cube list` and `cube test deskworld` resolve
    (ep,) = importlib.metadata.entry_points(group="cube.benchmarks", name="deskworld")
    assert ep.load() is DeskBenchmarkConfig


def test_missing_worlds_are_named(monkeypatch, tmp_path):
    """A worker without deskworld's worlds (a non-editable install, DESKWORLD_WORLDS unset or wrong) is told how to fix it."""
    monkeypatch.setenv("DESKWORLD_WORLDS", str(tmp_path))
    with pytest.raises(RuntimeError, match="world 'meridian' is not under .*DESKWORLD_WORLDS"):
        config_of(ANSWER_TASK).make()


def test_unknown_debug_task_is_named():
    with pytest.raises(ValueError, match="No debug actions recorded for task 'meridian/nope'"):
        debug_mod.make_debug_agent("meridian/nope")


# ---------------------------------------------------------------- the registry entry
def test_registry_entry_validates_against_the_registry_schema():
    entry = yaml.safe_load((HERE / "cube-registry-entry.yaml").read_text(encoding="utf-8"))
    schema = json.loads((HERE / "registry-schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(entry)
    # author-provided fields only; supported_infra is for VM cubes
    assert not {"task_count", "status", "resources", "has_debug_task", "has_debug_agent", "action_space",
                "features", "infra_class", "supported_infra"} & set(entry)
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert entry["package"] == project["name"] and entry["version"] == project["version"]
    assert entry["version"] == DeskBenchmarkConfig.benchmark_metadata.version
    assert entry["id"] == project["name"].removesuffix("-cube") == DeskBenchmarkConfig.benchmark_metadata.name
    assert entry["legal"]["wrapper_license"] == project["license"] == "Apache-2.0"
    assert "live_website_clone" in {n["type"] for n in entry["legal"]["notices"]}
    assert entry["parallelization_mode"] == "task-parallel" and entry["max_concurrent_tasks"] >= 1


def test_registry_schema_check_can_fail():
    """The schema refuses what the registry would: a tag outside its list, a field it doesn't know."""
    entry = yaml.safe_load((HERE / "cube-registry-entry.yaml").read_text(encoding="utf-8"))
    schema = json.loads((HERE / "registry-schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError, match="'office' is not one of"):
        jsonschema.validate({**entry, "tags": ["office"]}, schema)
    with pytest.raises(jsonschema.ValidationError, match="Additional properties are not allowed"):
        jsonschema.validate({**entry, "task_total": 3}, schema)


def test_reset_reproducibility_of_the_other_debug_task():
    """cube's check (two resets at once, observations compared byte for byte) runs on the first debug task
    only; the same check of cube.testing on the second one."""
    from types import SimpleNamespace

    from cube.testing import check_reset_reproducibility

    module = SimpleNamespace(get_debug_benchmark=lambda: DeskBenchmarkConfig().subset_from_list([STATE_TASK]))
    ok, message, diff = check_reset_reproducibility(module)
    assert ok, f"{message}\n{diff}"
