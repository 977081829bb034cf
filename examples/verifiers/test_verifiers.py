"""The deskworld verifiers environment through verifiers' own evaluation loop (`vf-eval`).

One `vf-eval deskworld-env` run (real verifiers 0.4.0: its loader, `null` chat harness,
interception relay, scoring and traces.jsonl) plays three rollouts of one fast task
against `fake_openai.py`, a scripted streaming OpenAI-compatible server. New conversations
take its scripts in turn:

- the oracle: the actions deskworld's OracleAgent recorded on this task (`deskworld run
  --agent oracle`, replayed as the model's replies) → reward 1;
- a malformed reply (prose, not JSON), then the oracle's actions → the error comes back
  as the next turn's text, the episode goes on, and still scores 1;
- do nothing: `done` with no answer → reward 0.

Run with `make test` (this folder's venv; its bin on PATH for the harness's `uv`).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.agents.simple import ReplayAgent
from harness.tasks.registry import load_task

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
TASK = "meridian/corvane-deductible"   # an answer task: the oracle searches Drive, opens a file, answers
MALFORMED = "I will click on the search box now."
NOOP = json.dumps({"type": "done", "status": "complete"})
SCRIPTS = ("oracle", "malformed", "noop")
SCREEN = [1280, 800]


def wait_for(condition, what: str, limit: float = 60.0, proc: subprocess.Popen | None = None):
    """Poll `condition` until it holds (`limit` only bounds a failure), failing early if `proc` died."""
    end = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"{what}: the process exited with {proc.returncode}")
        if time.monotonic() > end:
            pytest.fail(f"{what}: not after {limit:.0f} s")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def oracle_actions(tmp_path_factory) -> list[dict]:
    """The actions deskworld's oracle takes on TASK, recorded by `deskworld run`."""
    out = tmp_path_factory.mktemp("oracle")
    subprocess.run([str(BIN / "deskworld"), "run", "--agent", "oracle", "--tasks", TASK, "--out", str(out)],
                   check=True, capture_output=True, text=True)
    agent = ReplayAgent(str(out))
    agent.reset(load_task(TASK))
    assert agent.actions and agent.actions[-1]["type"] == "done", agent.actions
    return agent.actions


@pytest.fixture(scope="module")
def run(oracle_actions, tmp_path_factory):
    """One vf-eval run of three rollouts; returns the traces by script name, the server's
    request log and vf-eval's output."""
    work = tmp_path_factory.mktemp("vf")
    oracle = [json.dumps(a) for a in oracle_actions]
    (work / "replies.json").write_text(json.dumps([oracle, [MALFORMED, *oracle], [NOOP]]))
    port_file, log = work / "port", work / "requests.jsonl"
    if shutil.which("uv", path=os.environ.get("PATH")) is None and not (BIN / "uv").exists():
        pytest.fail("uv is missing: verifiers' null harness runs its chat program with uv (make venv installs it)")
    server = subprocess.Popen([sys.executable, str(HERE / "fake_openai.py"), "--replies", str(work / "replies.json"),
                               "--log", str(log), "--port-file", str(port_file)])
    try:
        port = wait_for(lambda: port_file.exists() and port_file.read_text(), "the fake server's port", proc=server)
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "FAKE_OPENAI_KEY": "unused"}
        proc = subprocess.run(
            [str(BIN / "vf-eval"), "deskworld-env", "-m", "fake", "-n", "1", "-r", "3",
             "--env.taskset.tasks", TASK, "--env.taskset.seed", "0",
             "--client.base-url", f"http://127.0.0.1:{port}/v1", "--client.api-key-var", "FAKE_OPENAI_KEY",
             "--no-push", "--no-rich", "--env.player.harness.id", "null",
             "--env.player.runtime.type", "subprocess", "-o", str(work / "out"), "--clean"],
            env=env, capture_output=True, text=True, cwd=work)
    finally:
        server.terminate()
        server.wait(timeout=30)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-4000:]
    (traces_file,) = (work / "out").glob("deskworld-env--fake--null--*/traces.jsonl")
    episodes = [json.loads(line) for line in traces_file.read_text().splitlines()]
    assert len(episodes) == 3, output[-4000:]
    by_script = {}
    for episode in episodes:
        assert episode["ok"], episode["errors"]
        (trace,) = episode["traces"]
        replies = [n["message"]["content"] for n in trace["nodes"] if n["message"]["role"] == "assistant"]
        name = "noop" if replies[0] == NOOP else "malformed" if replies[0] == MALFORMED else "oracle"
        by_script[name] = trace
    assert sorted(by_script) == sorted(SCRIPTS), list(by_script)
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    return {"traces": by_script, "requests": requests, "output": output, "oracle": oracle}


def user_turns(trace: dict) -> list[list[dict]]:
    """The content parts of each user message the trace recorded."""
    return [n["message"]["content"] for n in trace["nodes"] if n["message"]["role"] == "user"]


def test_oracle_scores_one(run):
    trace = run["traces"]["oracle"]
    assert trace["rewards"]["deskworld"]["score"] == 1.0
    assert trace["rewards"]["passed"]["score"] == 1.0
    assert trace["metrics"]["steps"] == len(run["oracle"])
    assert trace["metrics"]["malformed_replies"] == 0
    assert trace["stop_condition"] == "user_closed"
    assert trace["info"]["deskworld_result"]["passed"] is True
    # the rollout's reward as verifiers logs it (recorded inside the interaction)
    assert "reward=1.000" in run["output"]


def test_do_nothing_scores_zero(run):
    trace = run["traces"]["noop"]
    assert trace["rewards"]["deskworld"]["score"] == 0.0
    assert trace["rewards"]["passed"]["score"] == 0.0
    assert trace["metrics"]["steps"] == 1
    assert trace["metrics"]["episode_ended"] == 1.0
    assert "reward=0.000" in run["output"]


def test_screenshots_reach_the_model_as_images(run):
    by_script = {}
    for request in run["requests"]:
        by_script.setdefault(request["script"], []).append(request)
    oracle_requests = by_script[0]
    assert len(oracle_requests) == len(run["oracle"])
    for request in oracle_requests:
        assert request["stream"] and request["system"]
        # every turn's last message carries this turn's screenshot; the whole request, all turns' so far
        assert request["last_images"] == [{"media": "image/png", "size": SCREEN}]
        assert len(request["images"]) == request["n_assistant"] + 1
        assert request["last_user_text"].startswith("Goal: What deductible does Corvane bear")
        assert "URL: http://desk.local/" in request["last_user_text"]
    # the system prompt states the action schema
    system = run["traces"]["oracle"]["nodes"][0]["message"]
    assert system["role"] == "system" and '"type"' in system["content"] and "double_click(" in system["content"]
    # and the trace holds each turn as text + image_url parts
    for parts in user_turns(run["traces"]["oracle"]):
        assert [p["type"] for p in parts] == ["text", "image_url"]
        assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_malformed_reply_gets_an_error_and_the_episode_goes_on(run):
    trace = run["traces"]["malformed"]
    assert trace["metrics"]["malformed_replies"] == 1
    turns = user_turns(trace)
    assert "Last action error: none." in turns[0][0]["text"]
    error_text = turns[1][0]["text"]
    assert "Your last action failed: action is not valid JSON" in error_text, error_text
    assert turns[1][1]["type"] == "image_url"
    # the same request, as the server saw it
    second = [r for r in run["requests"] if r["script"] == 1 and r["n_assistant"] == 1]
    assert second and "action is not valid JSON" in second[0]["last_user_text"]
    # the bad reply counted as a step, then the oracle's actions finished the task
    assert trace["metrics"]["steps"] == len(run["oracle"]) + 1
    assert trace["rewards"]["deskworld"]["score"] == 1.0
