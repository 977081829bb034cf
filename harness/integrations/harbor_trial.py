"""A trial of an exported Harbor folder on this machine, without Docker (``deskworld harbor try``): the
compose layout played with each service's roots in its own folder — the ``desk`` service's world, store and
evidence under ``<work>/desk``; the agent's side only its logs (``<work>/agent-logs``) and the desk's URL;
the verifier's side the artifacts Harbor would hand it."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

from harness.integrations.harbor import DESK, EVIDENCE, MAIN_SERVICE, PORT, WORLD_TAR, untar

# An agent: "oracle" (solution/solve.sh), "nothing", or a callable(agent_logs, desk_url) acting as the
# agent's container could (its logs, and the desk over HTTP only).
Agent = str | Callable[[Path, str], None]


def desk_command(folder: Path, port: int) -> tuple[list[str], dict[str, str]]:
    """The desk service's command (its Dockerfile's CMD, served on ``port`` here) and its ENV."""
    text = (folder / "environment" / DESK / "Dockerfile").read_text()
    cmd = json.loads(re.search(r"(?m)^CMD (\[.*\])$", text).group(1))
    cmd[cmd.index("--host") + 1] = "127.0.0.1"
    cmd[cmd.index("--port") + 1] = str(port)
    env = dict(re.findall(r"(DESKWORLD_[A-Z0-9_]+)=(\S+)", text))
    return cmd, env


def _wait(url: str, timeout: float, log: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the desk service never answered at {url}: " + log.read_text()[-2000:])
        time.sleep(0.2)


def host_trial(folder: str | Path, work: str | Path, *, agents: tuple[Agent, ...] = ("oracle",), port: int,
               timeout: float = 120.0) -> list[dict]:
    """Play an exported folder's trial as Harbor's docker-compose environment does, every root redirected
    into ``work`` (new or empty): the desk service started from its build context (world, store and evidence
    its own) and its start URL awaited (the healthcheck); then for each of ``agents`` in turn on that served
    world — ``oracle``: ``solution/solve.sh``; ``nothing``; or a callable — the ``main`` collect hooks in the
    agent's roots, the ``desk`` hooks in the desk's, the artifacts handed to a fresh verifier side (the
    agent's convention dir to /logs/artifacts, the desk's evidence to its own path), ``tests/test.sh``.
    Returns one ``{"reward": reward.json, "result": result.json, "reward_json": path}`` per agent; the desk
    is stopped."""
    folder, work = Path(folder).resolve(), Path(work).resolve()
    config = tomllib.loads((folder / "task.toml").read_text())
    desk, agent_logs = work / "desk", work / "agent-logs"
    untar(folder / "environment" / DESK / WORLD_TAR, desk / "worlds")           # as the desk image's ADD
    untar(folder / "tests" / WORLD_TAR, work / "verifier-worlds")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    base = {k: v for k, v in os.environ.items() if not k.startswith("DESKWORLD_") or k == "DESKWORLD_CACHE"}
    base["PATH"] = path
    cmd, image_env = desk_command(folder, port)
    desk_env = {**base, "DESKWORLD_ORACLE_SHA256": image_env["DESKWORLD_ORACLE_SHA256"], "DESKWORLD_WORLDS": str(desk / "worlds"),
                "DESKWORLD_STATE": str(desk / "state.sqlite"), "DESKWORLD_EVIDENCE": str(desk / "evidence")}
    desk_url = f"http://127.0.0.1:{port}"
    # The agent's side: its logs and the desk's URL; no world, no store, no evidence folder of the desk's.
    agent_env = {**base, "DESKWORLD_HARBOR_LOGS": str(agent_logs), "DESKWORLD_DESK": desk_url,
                 "DESKWORLD_WORLDS": str(work / "agent-has-no-worlds")}
    log = work / "desk.log"
    work.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as f:
        proc = subprocess.Popen(cmd, env=desk_env, stdout=f, stderr=subprocess.STDOUT)
    out = []
    try:
        url = config["metadata"]["start_url"].replace(f"http://{DESK}:{PORT}", desk_url, 1)
        _wait(url, timeout, log, proc)
        hooks = config.get("verifier", {}).get("collect", [])
        for i, agent in enumerate(agents):
            for sub in ("agent", "artifacts"):
                shutil.rmtree(agent_logs / sub, ignore_errors=True)
                (agent_logs / sub).mkdir(parents=True)
            name = agent if isinstance(agent, str) else getattr(agent, "__name__", "agent")
            if agent == "oracle":
                subprocess.run(["bash", str(folder / "solution" / "solve.sh")], env=agent_env, check=True)
            elif callable(agent):
                agent(agent_logs, desk_url)
            elif agent != "nothing":
                raise ValueError(f"agent {agent!r}: oracle, nothing or a callable")
            # Harbor: main's hooks, then (main stopped) the sidecars' — best effort, failures only logged.
            for service in (MAIN_SERVICE, DESK):
                for hook in (h for h in hooks if h.get("service", MAIN_SERVICE) == service):
                    subprocess.run(["sh", "-c", hook["command"]], env=desk_env if service == DESK else agent_env,
                                   timeout=hook.get("timeout_sec"))
            logs, evidence = work / f"verifier-{i}-{name}" / "logs", work / f"verifier-{i}-{name}" / "evidence"
            (logs / "verifier").mkdir(parents=True)
            shutil.copytree(agent_logs / "artifacts", logs / "artifacts")      # the main convention dir
            for art in config.get("artifacts", []):                            # the desk's evidence
                if isinstance(art, dict) and art.get("service") == DESK and art["source"] == EVIDENCE \
                        and (desk / "evidence").is_dir():
                    shutil.copytree(desk / "evidence", evidence)
            subprocess.run(["bash", str(folder / "tests" / "test.sh")], check=True,
                           env={**base, "DESKWORLD_WORLDS": str(work / "verifier-worlds"),
                                "DESKWORLD_HARBOR_LOGS": str(logs), "DESKWORLD_EVIDENCE": str(evidence)})
            out.append({"reward": json.loads((logs / "verifier" / "reward.json").read_text()),
                        "result": json.loads((logs / "verifier" / "result.json").read_text()),
                        "reward_json": logs / "verifier" / "reward.json"})
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return out
