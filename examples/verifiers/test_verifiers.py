"""The deskworld verifiers environment through verifiers' own evaluation loop (`vf-eval`).

`vf-eval deskworld-verifiers` (real verifiers 0.4.0: its loader, the `null` chat harness, the
interception relay, scoring, traces.jsonl) plays one fast task against `fake_openai.py`, a
scripted streaming OpenAI-compatible server whose conversations take its scripts in turn.
The oracle's script is the actions deskworld's OracleAgent recorded on the task (`deskworld
run --agent oracle`), replayed as the model's replies. Two runs:

- on a `deskworld env-server` (`--env.taskset.server`, RemoteEnv): the oracle → reward 1 (the
  server's /health shows the session open during the run and closed after), and every turn's
  screenshot reaches the fake model server as an image;
- on a local browser, two rollouts: a malformed reply (prose, not JSON) then the oracle's
  actions → the error comes back as the next turn's text, the episode goes on and scores 1;
  do nothing (`done` with no answer) → reward 0.

Run with `make test` (this folder's venv, its bin on PATH for the harness's `uv`).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from harness.agents.simple import ReplayAgent
from harness.tasks.registry import load_task

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
TASK = "meridian/corvane-deductible"   # an answer task: the oracle searches Drive, opens a file, answers
MALFORMED = "I will click on the search box now."
NOOP = json.dumps({"type": "done", "status": "complete"})
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
    proc = subprocess.run([str(BIN / "deskworld"), "run", "--agent", "oracle", "--tasks", TASK, "--out", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    agent = ReplayAgent(str(out))
    agent.reset(load_task(TASK))
    assert agent.actions and agent.actions[-1]["type"] == "done", agent.actions
    return agent.actions


def vf_eval(work: Path, scripts: list[list[str]], *args: str) -> tuple[list[dict], list[dict], str]:
    """`vf-eval deskworld-verifiers` on TASK with one rollout per script against the fake server:
    its traces (one per episode), the server's request log and vf-eval's output."""
    (work / "replies.json").write_text(json.dumps(scripts))
    port_file, log = work / "port", work / "requests.jsonl"
    if shutil.which("uv", path=os.environ.get("PATH")) is None:
        pytest.fail("uv is not on PATH: verifiers' null harness runs its chat program with uv (use `make test`)")
    server = subprocess.Popen([sys.executable, str(HERE / "fake_openai.py"), "--replies", str(work / "replies.json"),
                               "--log", str(log), "--port-file", str(port_file)])
    try:
        port = wait_for(lambda: port_file.exists() and port_file.read_text(), "the fake server's port", proc=server)
        proc = subprocess.run(
            [str(BIN / "vf-eval"), "deskworld-verifiers", "-m", "fake", "-n", "1", "-r", str(len(scripts)),
             "--env.taskset.tasks", TASK, "--env.taskset.seed", "0",
             "--client.base-url", f"http://127.0.0.1:{port}/v1", "--client.api-key-var", "FAKE_OPENAI_KEY",
             "--no-push", "--no-rich", "--env.player.harness.id", "null",
             "--env.player.runtime.type", "subprocess", "-o", str(work / "out"), "--clean", *args],
            env={**os.environ, "FAKE_OPENAI_KEY": "unused"}, capture_output=True, text=True, cwd=work)
    finally:
        server.terminate()
        server.wait(timeout=30)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-4000:]
    (traces_file,) = (work / "out").glob("deskworld-verifiers--fake--null--*/traces.jsonl")
    episodes = [json.loads(line) for line in traces_file.read_text().splitlines()]
    assert len(episodes) == len(scripts), output[-4000:]
    for episode in episodes:
        assert episode["ok"], episode["errors"]
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    return [t for episode in episodes for t in episode["traces"]], requests, output


def replies(trace: dict) -> list[str]:
    return [n["message"]["content"] for n in trace["nodes"] if n["message"]["role"] == "assistant"]


@pytest.fixture(scope="module")
def local(oracle_actions, tmp_path_factory):
    """Two rollouts on a local browser: a malformed reply then the oracle's actions; do nothing."""
    oracle = [json.dumps(a) for a in oracle_actions]
    traces, requests, output = vf_eval(tmp_path_factory.mktemp("local"), [[MALFORMED, *oracle], [NOOP]])
    by_script = {"noop" if replies(t)[0] == NOOP else "malformed": t for t in traces}
    assert sorted(by_script) == ["malformed", "noop"], [replies(t)[:1] for t in traces]
    return {"traces": by_script, "requests": requests, "output": output, "oracle": oracle}


@pytest.fixture(scope="module")
def remote(oracle_actions, tmp_path_factory):
    """One rollout playing the oracle's actions on a `deskworld env-server` (RemoteEnv)."""
    server = subprocess.Popen([str(BIN / "deskworld"), "env-server", "--port", "0", "--tasks", TASK,
                               "--capacity", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={k: v for k, v in os.environ.items() if not k.startswith("DESKWORLD_")})
    try:
        seen = []
        for line in server.stdout:                       # the banner comes once the port is bound
            seen.append(line)
            if found := re.search(r"(http://\S+) \(WebSocket", line):
                break
        else:
            pytest.fail(f"deskworld env-server exited with {server.wait()}: {''.join(seen)[-2000:]}")
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()   # keep draining
        url, done, sessions = found.group(1), threading.Event(), []

        def active() -> int:
            with urllib.request.urlopen(f"{url}/health", timeout=30) as r:
                return json.load(r)["active_sessions"]

        def watch():  # the env-server's open sessions while vf-eval runs: the episode must be one of them
            while not done.is_set():
                sessions.append(active())
                done.wait(0.1)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        oracle = [json.dumps(a) for a in oracle_actions]
        try:
            (trace,), requests, output = vf_eval(tmp_path_factory.mktemp("remote"), [oracle],
                                                 "--env.taskset.server", url)
        finally:
            done.set()
            watcher.join(timeout=60)
        closed = wait_for(lambda: active() == 0, "the env-server's session closed after the episode")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    return {"trace": trace, "requests": requests, "output": output, "oracle": oracle, "sessions": sessions,
            "closed": closed}


def user_turns(trace: dict) -> list[list[dict]]:
    """The content parts of each user message the trace recorded."""
    return [n["message"]["content"] for n in trace["nodes"] if n["message"]["role"] == "user"]


def test_oracle_scores_one_on_env_server(remote):
    assert max(remote["sessions"]) == 1 and remote["closed"]   # the episode ran there, and was closed
    trace = remote["trace"]
    assert replies(trace) == remote["oracle"]
    assert trace["rewards"]["deskworld"]["score"] == 1.0
    assert trace["rewards"]["passed"]["score"] == 1.0
    assert trace["metrics"]["steps"] == len(remote["oracle"])
    assert trace["metrics"]["malformed_replies"] == 0
    assert trace["stop_condition"] == "user_closed"
    assert trace["info"]["deskworld_result"]["passed"] is True
    # the rollout's reward as verifiers logs it (recorded inside the interaction block)
    assert "reward=1.000" in remote["output"]


def test_screenshots_reach_the_model_as_images(remote):
    requests = remote["requests"]
    assert len(requests) == len(remote["oracle"])
    for request in requests:
        assert request["stream"] and request["system"]
        # each turn's message carries this turn's screenshot; the request, every turn's so far
        assert request["last_images"] == [{"media": "image/png", "size": SCREEN}]
        assert len(request["images"]) == request["n_assistant"] + 1
        assert request["last_user_text"].startswith("Goal: What deductible does Corvane bear")
        assert "URL: http://desk.local/" in request["last_user_text"]
    # the system prompt states the action schema
    system = remote["trace"]["nodes"][0]["message"]
    assert system["role"] == "system" and '"type"' in system["content"] and "double_click(" in system["content"]
    # and the trace holds each turn as text + image_url parts
    for parts in user_turns(remote["trace"]):
        assert [p["type"] for p in parts] == ["text", "image_url"]
        assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_do_nothing_scores_zero(local):
    trace = local["traces"]["noop"]
    assert trace["rewards"]["deskworld"]["score"] == 0.0
    assert trace["rewards"]["passed"]["score"] == 0.0
    assert trace["metrics"]["steps"] == 1
    assert trace["metrics"]["episode_ended"] == 1.0
    assert "reward=0.000" in local["output"]


def test_malformed_reply_gets_an_error_and_the_episode_goes_on(local):
    trace = local["traces"]["malformed"]
    assert trace["metrics"]["malformed_replies"] == 1
    turns = user_turns(trace)
    assert "Last action error: none." in turns[0][0]["text"]
    error_text = turns[1][0]["text"]
    assert "Your last action failed: action is not valid JSON" in error_text, error_text
    assert turns[1][1]["type"] == "image_url"
    # the same turn as the server saw it (script 0: the malformed one)
    second = [r for r in local["requests"] if r["script"] == 0 and r["n_assistant"] == 1]
    assert second and "action is not valid JSON" in second[0]["last_user_text"]
    assert second[0]["last_images"] == [{"media": "image/png", "size": SCREEN}]
    # the bad reply counted as a step, then the oracle's actions finished the task on the local browser
    assert trace["metrics"]["steps"] == len(local["oracle"]) + 1
    assert trace["rewards"]["deskworld"]["score"] == 1.0
    assert "reward=1.000" in local["output"]


def test_verifiers_loads_the_env_and_bad_config_is_named():
    import verifiers.v1 as vf
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    from deskworld_verifiers import (DeskworldVerifiersConfig, DeskworldVerifiersEnv, DeskworldVerifiersEnvConfig,
                                     DeskworldVerifiersTaskset)

    # the id users pass to vf-eval resolves to this package's classes, by verifiers' own loader
    assert taskset_class("deskworld-verifiers") is DeskworldVerifiersTaskset
    assert environment_class("deskworld-verifiers") is DeskworldVerifiersEnv
    env = vf.load_environment(DeskworldVerifiersEnvConfig(taskset={"id": "deskworld-verifiers", "tasks": TASK,
                                                                   "seed": 3}))
    assert isinstance(env, DeskworldVerifiersEnv)
    assert [(t.data.task, t.data.seed, t.data.prompt) for t in env.taskset] == [(TASK, 3, None)]

    # a split takes the family's instances in it
    dev = list(DeskworldVerifiersTaskset(DeskworldVerifiersConfig(id="deskworld-verifiers", tasks=TASK, split="dev")))
    assert dev and all(t.data.task.startswith(f"{TASK}/v") for t in dev)

    with pytest.raises(ValueError, match="unknown split 'nope'; splits: train, dev, test"):
        DeskworldVerifiersConfig(id="deskworld-verifiers", split="nope")
    with pytest.raises(ValueError, match="--env.taskset.max_steps is for a local browser: deskworld env-server"):
        DeskworldVerifiersConfig(id="deskworld-verifiers", server="http://127.0.0.1:8765", max_steps=5)
    taskset = DeskworldVerifiersTaskset(DeskworldVerifiersConfig(id="deskworld-verifiers", tasks="meridian/nosuch"))
    with pytest.raises(ValueError, match=r"--env.taskset.tasks 'meridian/nosuch': no task 'meridian/nosuch'"):
        list(taskset)
