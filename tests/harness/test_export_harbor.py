"""``deskworld export-tasks --format harbor``: Harbor task folders, and their scripts run on this machine
(no Docker here) with their roots redirected — the oracle's solve.sh then test.sh must write reward 1, a
do-nothing trial reward 0. Harbor's own loader, linter and reward parser check the same folders in
``examples/harbor`` (Python 3.12, its own virtualenv)."""
from __future__ import annotations

import json
import socket
import tarfile
import tomllib

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.integrations.harbor import PORT, START_ORIGIN, host_trial, read_answer

ANSWER_TASK = "meridian/corvane-deductible"            # the answer: six oracle actions
STATE_TASK = "meridian/snooze-elevator-notice"         # snoozes a mail: six oracle actions
INSTANCE = "meridian/corvane-deductible/v1"            # an instance, in world variant meridian@1
FOLDERS = {ANSWER_TASK: "meridian-corvane-deductible", STATE_TASK: "meridian-snooze-elevator-notice",
           INSTANCE: "meridian-corvane-deductible-v1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("harbor") / "tasks"
    res = CliRunner().invoke(main, ["export-tasks", "--format", "harbor", "--tasks", ",".join(FOLDERS),
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "wrote 3 Harbor task folders" in res.output
    return out


def test_the_folders_are_harbor_tasks_with_a_separate_verifier(exported):
    assert sorted(p.name for p in exported.iterdir()) == sorted(FOLDERS.values())
    for tid, name in FOLDERS.items():
        d = exported / name
        for f in ("task.toml", "instruction.md", "environment/Dockerfile", "environment/deskworld-start.sh",
                  "environment/deskworld-0.1.0.tar.gz", "environment/world.tar.gz", "tests/Dockerfile",
                  "tests/test.sh", "tests/deskworld-0.1.0.tar.gz", "tests/world.tar.gz", "solution/solve.sh",
                  "solution/tasks.tar.gz"):
            assert (d / f).is_file(), f"{name}: {f}"
        with tarfile.open(d / "environment/deskworld-0.1.0.tar.gz") as tar:
            names = tar.getnames()
        assert "deskworld-0.1.0/pyproject.toml" in names and "deskworld-0.1.0/harness/integrations/harbor.py" in names
        assert not [n for n in names if "__pycache__" in n]
        config = tomllib.loads((d / "task.toml").read_text())
        assert config["schema_version"] == "1.4"
        assert config["task"]["name"] == f"deskworld/{name}"
        meta = config["metadata"]
        assert meta["task_id"] == tid and meta["world"] == "meridian" and meta["split"] in ("train", "dev", "test")
        assert config["verifier"]["environment_mode"] == "separate"
        assert config["verifier"]["collect"] == [{"command": "deskworld harbor snapshot", "timeout_sec": 120.0}]
        assert config["environment"]["healthcheck"]["command"].endswith(f"{START_ORIGIN}/")
        # The agent's image has the world without its tasks (no checks or answers); the verifier's has them.
        with tarfile.open(d / "environment/world.tar.gz") as tar:
            agent_world = tar.getnames()
        with tarfile.open(d / "tests/world.tar.gz") as tar:
            verifier_world = tar.getnames()
        assert "meridian/world.yaml" in agent_world and not [n for n in agent_world if n.startswith("meridian/tasks")]
        assert f"meridian/tasks/{tid.split('/')[1]}.yaml" in verifier_world
        docker = (d / "environment/Dockerfile").read_text()
        for pkg in ("chromium", "xvfb", "xfce4", "x11vnc", "websockify", "xdotool", "wmctrl", "scrot",
                    "imagemagick", "webp"):
            assert pkg in docker.split(), pkg
        assert 'ENTRYPOINT ["/usr/local/bin/deskworld-start.sh"]' in docker
        assert f"--port \"${{DESKWORLD_PORT:-{PORT}}}\"" in (d / "environment/deskworld-start.sh").read_text()
    meta = tomllib.loads((exported / FOLDERS[INSTANCE] / "task.toml").read_text())["metadata"]
    assert meta["world_ref"] == "meridian@1" and meta["variant"] == 1 and meta["family"] == ANSWER_TASK
    instruction = (exported / FOLDERS[ANSWER_TASK] / "instruction.md").read_text()
    assert "Corvane" in instruction and "ANSWER:" in instruction
    assert f"{START_ORIGIN}/drive/" in instruction
    assert "RUN deskworld compile meridian@1" in (exported / FOLDERS[INSTANCE] / "environment/Dockerfile").read_text()


@pytest.mark.parametrize("tid", list(FOLDERS))
def test_oracle_scores_one_and_doing_nothing_scores_zero(exported, tmp_path, tid):
    """solve.sh then test.sh → 1; test.sh after a do-nothing episode → 0 (roots redirected to tmp_path)."""
    # Both on one served world, as Harbor's trials would each see it: first nothing happens, then the oracle.
    nothing, oracle = host_trial(exported / FOLDERS[tid], tmp_path, agents=("nothing", "oracle"), port=free_port())
    assert nothing["reward"]["reward"] == 0.0 and nothing["reward"]["passed"] == 0
    assert nothing["result"]["task"] == tid and nothing["result"]["status"] == "failed"
    assert oracle["reward"] == {"reward": 1.0, "passed": 1, "checks_passed": oracle["reward"]["checks_total"],
                                "checks_total": oracle["reward"]["checks_total"]}
    assert oracle["reward"]["checks_total"] >= 1
    assert all(isinstance(v, (int, float)) for v in oracle["reward"].values())      # Harbor: numbers only
    result = oracle["result"]
    assert result["status"] == "passed" and any(ln.startswith("✓") for ln in result["lines"])
    if tid != STATE_TASK:
        # The answer reached the verifier through the artifacts only (computer-1's final_answer.txt).
        assert result["answer"]["passed"] and "ANSWER:" in (tmp_path / "agent-logs/agent/final_answer.txt").read_text()
        assert nothing["result"]["answer"] is not None and not nothing["result"]["answer"]["passed"]
    else:
        assert nothing["reward"]["checks_passed"] < nothing["reward"]["checks_total"]


def test_grading_without_a_collected_state_is_zero_and_says_why(tmp_path):
    res = CliRunner().invoke(main, ["harbor", "grade", ANSWER_TASK, "--artifacts", str(tmp_path / "none"),
                                    "--out", str(tmp_path / "verifier")])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "verifier/reward.json").read_text()) == {
        "reward": 0.0, "passed": 0, "checks_passed": 0, "checks_total": 0}
    assert "no end state collected" in json.loads((tmp_path / "verifier/result.json").read_text())["error"]


@pytest.mark.parametrize("args, message", [
    (["--tasks", f"{ANSWER_TASK},meridian/no-such-task"], "no task 'meridian/no-such-task'"),   # (a glob reads every task: slow)
    (["--tasks", "meridian/corvane-deductible/v99999"], "no instance 'meridian/corvane-deductible/v99999'"),
    (["--tasks", ANSWER_TASK, "--instances", "zero"], "a number of instances per family, or all"),
])
def test_bad_patterns_are_refused_and_nothing_is_written(tmp_path, args, message):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["export-tasks", "--format", "harbor", *args, "--out", str(out)])
    assert res.exit_code != 0 and message in res.output, res.output
    assert not out.exists()


def test_bad_format_and_out_are_refused(tmp_path):
    run = CliRunner().invoke
    res = run(main, ["export-tasks", "--format", "croissant", "--tasks", ANSWER_TASK, "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "'croissant' is not 'harbor'" in res.output, res.output
    assert not (tmp_path / "o").exists()
    a_file = tmp_path / "file"
    a_file.write_text("x")
    res = run(main, ["export-tasks", "--format", "harbor", "--tasks", ANSWER_TASK, "--out", str(a_file)])
    assert res.exit_code == 1 and f"--out {a_file} is a file, not a folder" in res.output, res.output
    assert a_file.read_text() == "x"
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    res = run(main, ["export-tasks", "--format", "harbor", "--tasks", ANSWER_TASK, "--out", str(full)])
    assert res.exit_code == 1 and f"--out {full} is not empty" in res.output, res.output
    assert [p.name for p in full.iterdir()] == ["keep.txt"]


def test_a_final_message_is_the_answer_and_infeasible_is_its_first_word(tmp_path):
    msg = tmp_path / "final_answer.txt"
    assert read_answer(msg) == (None, None)                           # computer-1 wrote nothing
    msg.write_text("The deductible is stated in clause 4.\nANSWER: $2,500,000\n")
    assert read_answer(msg) == ("The deductible is stated in clause 4.\nANSWER: $2,500,000", "complete")
    msg.write_text("infeasible: there is no such file in the Drive\n")
    assert read_answer(msg) == ("there is no such file in the Drive", "infeasible")


def test_the_container_commands_refuse_what_they_cannot_use(tmp_path):
    run = CliRunner().invoke
    res = run(main, ["harbor", "solve", ANSWER_TASK, "--state", str(tmp_path / "none.sqlite"),
                     "--answer-out", str(tmp_path / "a.txt")])
    assert res.exit_code == 1 and "no served store at" in res.output, res.output
    res = run(main, ["harbor", "snapshot", "--state", str(tmp_path / "none.sqlite"), "--logs", str(tmp_path)])
    assert res.exit_code == 1 and "no served store at" in res.output, res.output
    res = run(main, ["harbor", "try", str(tmp_path), "--work", str(tmp_path / "w")])
    assert res.exit_code == 1 and "is not a Harbor task folder (no task.toml)" in res.output, res.output
