"""``deskworld export-tasks --format harbor``: Harbor task folders, and their scripts run on this machine
(no Docker here) with their roots redirected — the oracle's solve.sh then test.sh must write reward 1, a
do-nothing trial reward 0. Harbor's own loader, linter and reward parser check the same folders in
``examples/harbor`` (Python 3.12, its own virtualenv)."""
from __future__ import annotations

import copy
import gzip
import hashlib
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tarfile
import tomllib
import urllib.error
import urllib.parse
import urllib.request

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.integrations.harbor import DESK, EVIDENCE, PORT, START_ORIGIN
from harness.integrations.harbor_run import grade, read_answer
from harness.integrations.harbor_trial import host_trial
from harness.qc.adversaries.workbench import Workbench
from harness.tasks.registry import load_task

ANSWER_TASK = "meridian/corvane-deductible"            # the answer: six oracle actions
STATE_TASK = "meridian/snooze-elevator-notice"         # snoozes a mail: six oracle actions
INSTANCE = "meridian/corvane-deductible/v1"            # an instance, in world variant meridian@1
FOLDERS = {ANSWER_TASK: "meridian-corvane-deductible", STATE_TASK: "meridian-snooze-elevator-notice",
           INSTANCE: "meridian-corvane-deductible-v1"}
SDIST = "deskworld-0.1.0.tar.gz"


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


def build_context(d):
    """What Docker sends as the agent's (main's) build context: environment/ less its .dockerignore."""
    env = d / "environment"
    ignored = [ln.strip().rstrip("/") for ln in (env / ".dockerignore").read_text().splitlines()
               if ln.strip() and not ln.startswith("#")]
    return sorted(str(p.relative_to(env)) for p in env.rglob("*")
                  if p.is_file() and not any(p.relative_to(env).parts[0] == i for i in ignored))


def test_the_folders_are_harbor_tasks_with_the_world_in_a_sidecar(exported):
    assert sorted(p.name for p in exported.iterdir()) == sorted(FOLDERS.values())
    for tid, name in FOLDERS.items():
        d = exported / name
        for f in ("task.toml", "instruction.md", "environment/Dockerfile", "environment/.dockerignore",
                  "environment/docker-compose.yaml", f"environment/{DESK}/Dockerfile",
                  f"environment/{DESK}/{SDIST}", f"environment/{DESK}/world.tar.gz", "tests/Dockerfile",
                  "tests/test.sh", f"tests/{SDIST}", "tests/world.tar.gz", "solution/solve.sh",
                  "solution/tasks.tar.gz"):
            assert (d / f).is_file(), f"{name}: {f}"
        with tarfile.open(d / f"environment/{DESK}/{SDIST}") as tar:
            names = tar.getnames()
        assert "deskworld-0.1.0/pyproject.toml" in names and "deskworld-0.1.0/harness/integrations/harbor.py" in names
        assert not [n for n in names if "__pycache__" in n]
        config = tomllib.loads((d / "task.toml").read_text())
        assert config["schema_version"] == "1.4"
        assert config["task"]["name"] == f"deskworld/{name}"
        meta = config["metadata"]
        assert meta["task_id"] == tid and meta["world"] == "meridian" and meta["split"] in ("train", "dev", "test")
        assert config["verifier"]["environment_mode"] == "separate"
        # The end state is snapshotted in the desk service and collected from its own filesystem.
        hooks = config["verifier"]["collect"]
        assert [h.get("service", "main") for h in hooks] == ["main", DESK]
        assert hooks[1]["command"] == "deskworld harbor snapshot" and "final_answer.txt" in hooks[0]["command"]
        assert config["artifacts"] == [{"source": EVIDENCE, "service": DESK}]
        assert config["environment"]["healthcheck"]["command"].endswith(f"{START_ORIGIN}/")
        # H1/H3: the agent's service holds the browser and nothing of deskworld — no code, world or store.
        assert build_context(d) == [".dockerignore", "Dockerfile", "docker-compose.yaml"]
        docker = (d / "environment/Dockerfile").read_text()
        for pkg in ("chromium", "xvfb", "xfce4", "x11vnc", "websockify", "xdotool", "wmctrl", "scrot",
                    "imagemagick", "webp", "curl"):
            assert pkg in docker.split(), pkg
        for word in ("deskworld-0", "world.tar", "pip install", "COPY", "ADD", "DESKWORLD_", "sqlite", "ENTRYPOINT"):
            assert word not in docker, word
        compose = (d / "environment/docker-compose.yaml").read_text()
        assert f"context: ./{DESK}" in compose and "condition: service_healthy" in compose
        desk = (d / f"environment/{DESK}/Dockerfile").read_text()
        assert f'"--port", "{PORT}"' in desk and '"--host", "0.0.0.0"' in desk
        # The desk's world has no tasks (no checks or answers); the verifier's has them.
        with tarfile.open(d / f"environment/{DESK}/world.tar.gz") as tar:
            desk_world = tar.getnames()
        with tarfile.open(d / "tests/world.tar.gz") as tar:
            verifier_world = tar.getnames()
        assert "meridian/world.yaml" in desk_world and not [n for n in desk_world if n.startswith("meridian/tasks")]
        assert f"meridian/tasks/{tid.split('/')[1]}.yaml" in verifier_world
        # The oracle's token is in solution/ only; the desk keeps its SHA-256.
        token = re.search(r"X-Deskworld-Oracle: (\w+)", (d / "solution/solve.sh").read_text()).group(1)
        assert f"DESKWORLD_ORACLE_SHA256={hashlib.sha256(token.encode()).hexdigest()}" in desk and token not in desk
        # M2/M3: how to answer without computer-1, and the budget.
        instruction = (d / "instruction.md").read_text()
        assert "/logs/agent/final_answer.txt" in instruction and f"{load_task(tid).max_steps} steps" in instruction
        assert f"--ak max_turns={load_task(tid).max_steps}" in (d / "README.md").read_text()
    meta = tomllib.loads((exported / FOLDERS[INSTANCE] / "task.toml").read_text())["metadata"]
    assert meta["world_ref"] == "meridian@1" and meta["variant"] == 1 and meta["family"] == ANSWER_TASK
    instruction = (exported / FOLDERS[ANSWER_TASK] / "instruction.md").read_text()
    assert "Corvane" in instruction and "ANSWER:" in instruction
    assert f"{START_ORIGIN}/drive/" in instruction
    assert "RUN deskworld compile meridian@1" in (exported / FOLDERS[INSTANCE] / f"environment/{DESK}/Dockerfile").read_text()


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
    assert result["unlogged_changes"] == 0           # the oracle's writes went through the apps, logged
    if tid != STATE_TASK:
        # The answer reached the verifier through the artifacts only (computer-1's final_answer.txt).
        assert result["answer"]["passed"] and "ANSWER:" in (tmp_path / "agent-logs/agent/final_answer.txt").read_text()
        assert nothing["result"]["answer"] is not None and not nothing["result"]["answer"]["passed"]
    else:
        assert nothing["reward"]["checks_passed"] < nothing["reward"]["checks_total"]


def reward_of(out):
    return json.loads((out / "reward.json").read_text()), json.loads((out / "result.json").read_text())


def test_grading_without_a_collected_state_is_zero_and_says_why(tmp_path):
    res = CliRunner().invoke(main, ["harbor", "grade", ANSWER_TASK, "--evidence", str(tmp_path / "none"),
                                    "--answer", str(tmp_path / "none.txt"), "--out", str(tmp_path / "verifier")])
    assert res.exit_code == 0, res.output
    reward, result = reward_of(tmp_path / "verifier")
    assert reward == {"reward": 0.0, "passed": 0, "checks_passed": 0, "checks_total": 0}
    assert result["status"] == "error" and "no end state collected" in result["error"]


def test_a_corrupt_collection_or_a_crashing_grader_still_leaves_reward_zero(exported, tmp_path):
    """M1: test.sh always leaves a reward.json Harbor can read; whatever broke, the reward is 0."""
    test_sh = exported / FOLDERS[STATE_TASK] / "tests/test.sh"
    evidence, logs = tmp_path / "evidence", tmp_path / "logs"
    evidence.mkdir()
    (evidence / "final.json.gz").write_bytes(gzip.compress(b"x"))                 # not JSON
    env = {**os.environ, "DESKWORLD_EVIDENCE": str(evidence), "DESKWORLD_HARBOR_LOGS": str(logs),
           "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    assert subprocess.run(["bash", str(test_sh)], env=env, capture_output=True).returncode == 0
    reward, result = reward_of(logs / "verifier")
    assert reward["reward"] == 0.0 and result["status"] == "error" and "JSONDecodeError" in result["error"]
    (evidence / "final.json.gz").write_bytes(b"not even gzip")
    assert subprocess.run(["bash", str(test_sh)], env=env, capture_output=True).returncode == 0
    assert reward_of(logs / "verifier")[0]["reward"] == 0.0
    # deskworld itself failing (here: not the command at all): test.sh's own fallback.
    assert subprocess.run(["bash", str(test_sh)], env={**env, "DESKWORLD": "false"}, capture_output=True).returncode == 0
    reward, result = reward_of(logs / "verifier")
    assert reward == {"reward": 0.0, "passed": 0, "checks_passed": 0, "checks_total": 0}
    assert result["status"] == "error" and "without a reward" in result["error"]


def test_the_agent_cannot_reach_the_graded_state_but_through_the_apps(exported, tmp_path):
    """H1/H2: the red team's attacks on the compose layout. A forged end state in the agent's artifacts is not
    what gets graded; the desk's oracle door refuses the agent; changes no app logged count as the agent's
    (and an agent's own work through the served apps is all logged: right 1, overdone 0); an export of another
    world, variant or template scores 0."""
    task = load_task(STATE_TASK)
    bench = Workbench(task.world_ref)                 # the task's tool solution, no browser: a passing end state
    try:
        final = bench.attempt(task, task.solution).final
    finally:
        bench.close()
    reward, result = grade_state(task, final, tmp_path / "solved")
    assert reward["reward"] == 1.0 and result["unlogged_changes"] == 0   # graded 1 when the desk collects it

    def forger(agent_logs, desk_url):
        for sub in ("artifacts/deskworld", f"artifacts{EVIDENCE}"):       # the convention dir, and the desk's path
            (agent_logs / sub).mkdir(parents=True, exist_ok=True)
            (agent_logs / sub / "final.json.gz").write_bytes(gzip.compress(json.dumps(final).encode()))
        req = urllib.request.Request(f"{desk_url}/_harbor/solve?task={STATE_TASK}", data=b"", method="POST",
                                     headers={"X-Deskworld-Oracle": "guessed"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=30)
        assert refused.value.code == 403
    # Then, on the same served world, an agent working through the apps as a browser would (HTTP to the desk):
    # the notice snoozed scores 1, every write logged; snoozing the rest of the inbox too scores 0.
    (forged, snoozed, everything) = host_trial(exported / FOLDERS[STATE_TASK], tmp_path / "b", port=free_port(),
                                               agents=(forger, snooze("elevator bank B"), snooze("")))
    assert forged["reward"]["reward"] == 0.0 and forged["result"]["status"] == "failed"
    assert snoozed["reward"]["reward"] == 1.0 and snoozed["result"]["unlogged_changes"] == 0
    assert everything["reward"]["reward"] == 0.0 and everything["result"]["unlogged_changes"] == 0
    assert any(ln.startswith("✗ collateral damage") for ln in everything["result"]["lines"])

    # E: the correct snooze plus raw edits no app logged (other inbox mails trashed): the agent's collateral.
    tampered = copy.deepcopy(final)
    boxes = [r for r in tampered["tables"]["mail_boxes"]["records"].values()
             if r.get("inbox") and not r.get("snoozed_until")][:3]
    assert len(boxes) == 3
    for r in boxes:
        r.update(trashed=1, inbox=0)
    reward, result = grade_state(task, tampered, tmp_path / "e")
    assert reward["reward"] == 0.0 and result["unlogged_changes"] >= 3
    assert any(ln.startswith("✗") and "collateral" in ln for ln in result["lines"]), result["lines"]
    # An export that is not this task's world state.
    for key, value in (("template", "0" * 16), ("variant", 7), ("world", "lumen")):
        reward, result = grade_state(task, {**final, key: value}, tmp_path / f"meta-{key}")
        assert reward["reward"] == 0.0 and result["status"] == "error" and f"its {key} is" in result["error"]


def snooze(subject: str):
    """An agent snoozing the inbox conversations whose subject has ``subject`` to next Monday 8:00, through
    the served mail app's own form (``/mail/act``), as its Snooze menu posts it."""
    def agent(agent_logs, desk_url):
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        inbox = browser.open(f"{desk_url}/mail/inbox", timeout=60).read().decode()
        ids = [i for i, label in re.findall(r'name="t" value="(\d+)" aria-label="Select: ([^"]*)"', inbox)
               if subject in label]
        assert ids, inbox[:2000]
        form = [("action", "snooze"), ("until", "2026-04-13T08:00"), *(("t", i) for i in ids)]
        browser.open(f"{desk_url}/mail/act", data=urllib.parse.urlencode(form).encode(), timeout=60)
    agent.__name__ = f"snooze-{len(subject)}"
    return agent


def grade_state(task, final, d):
    (d / "evidence").mkdir(parents=True)
    (d / "evidence/final.json.gz").write_bytes(gzip.compress(json.dumps(final).encode()))
    grade(task, d / "evidence", d / "none.txt", d / "verifier")
    return reward_of(d / "verifier")


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
    for text in ("infeasible: there is no such file in the Drive", "**INFEASIBLE:** no such file",
                 "I looked everywhere.\n**INFEASIBLE** — no such file", "ANSWER: INFEASIBLE"):
        msg.write_text(text + "\n")
        assert read_answer(msg) == (text, "infeasible"), text
    msg.write_text("The file is not infeasible to find.\nANSWER: $2,500,000\n")
    assert read_answer(msg)[1] == "complete"


def test_the_container_commands_refuse_what_they_cannot_use(tmp_path):
    run = CliRunner().invoke
    res = run(main, ["harbor", "snapshot", "--state", str(tmp_path / "none.sqlite"), "--evidence", str(tmp_path)])
    assert res.exit_code == 1 and "no served store at" in res.output, res.output
    res = run(main, ["harbor", "grade", "meridian/no-such-task", "--evidence", str(tmp_path), "--answer",
                     str(tmp_path / "a.txt"), "--out", str(tmp_path / "v")])
    assert res.exit_code == 1 and "no task 'meridian/no-such-task'" in res.output, res.output
    assert reward_of(tmp_path / "v")[0]["reward"] == 0.0                 # still a reward Harbor can read
    res = run(main, ["harbor", "try", str(tmp_path), "--work", str(tmp_path / "w")])
    assert res.exit_code == 1 and "is not a Harbor task folder (no task.toml)" in res.output, res.output
