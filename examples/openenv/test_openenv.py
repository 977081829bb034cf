"""OpenEnv's own clients against ``deskworld env-server``: the stock ``GenericEnvClient`` and the
thin ``DeskworldEnv`` adapter reset, step and get the verifier's reward. The server runs from the
main install (``../../.venv``); this venv holds only openenv-core."""
from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from openenv.core.generic_client import GenericEnvClient

from deskworld_openenv import DeskworldEnv

DESKWORLD = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "deskworld"
TASK = "meridian/pelagic-hearing-date"


def start(token: str | None = None):
    if not DESKWORLD.exists():
        raise RuntimeError(f"{DESKWORLD} is missing: run `make setup` at the repository's root first")
    env = {k: v for k, v in os.environ.items() if k != "DESKWORLD_ENV_TOKEN"}
    if token:
        env["DESKWORLD_ENV_TOKEN"] = token                       # as `--token`, kept off the command line
    proc = subprocess.Popen([str(DESKWORLD), "env-server", "--port", "0", "--capacity", "2", "--tasks", TASK],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    banner = proc.stdout.readline()
    found = re.search(r"(http://\S+) \(WebSocket", banner)
    assert found, f"no server banner: {banner!r} {proc.stderr.read() if proc.poll() is not None else ''}"
    return proc, found.group(1)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def server():
    proc, url = start()
    yield url
    stop(proc)


def test_openenv_generic_client_works_as_is(server):
    with GenericEnvClient(base_url=server).sync() as env:
        r = env.reset(task=TASK, seed=0)
        assert not r.done and r.observation["url"].startswith("http://desk.local/chat")
        assert r.observation["screenshot"].startswith("iVBOR")          # a base64 PNG, as sent
        r = env.step({"type": "done", "answer": "ANSWER: 2026-03-01"})
        assert r.done and r.reward == 0.0                               # a wrong date fails


def test_adapter_decodes_the_screenshot_and_keeps_the_endings_apart(server):
    with DeskworldEnv(base_url=server).sync() as env:
        r = env.reset(task=TASK, seed=0)
        assert r.observation["screenshot"].shape == (800, 1280, 3) and not r.done
        r = env.step({"type": "key", "keys": "nonsense+key"})
        assert "unknown key" in r.observation["last_action_error"] and not r.done
        r = env.step({"type": "done", "answer": "ANSWER: 2026-04-28"})
        assert (r.reward, r.done, r.terminated, r.truncated) == (1.0, True, True, False)
        assert r.info["result"]["passed"]
        assert env.state()["step_count"] == 2


def test_a_server_with_a_token_takes_the_adapter_with_it_and_refuses_the_rest():
    proc, url = start(token="t0ken")
    try:
        with pytest.raises(ConnectionError, match="401"):
            with GenericEnvClient(base_url=url).sync() as env:
                env.reset(task=TASK, seed=0)
        with pytest.raises(ConnectionError, match="401"):
            with DeskworldEnv(base_url=url, token="wrong").sync() as env:
                env.reset(task=TASK, seed=0)
        with DeskworldEnv(base_url=url, token="t0ken").sync() as env:
            r = env.reset(task=TASK, seed=0)
            assert r.observation["screenshot"].shape == (800, 1280, 3)
            r = env.step({"type": "done", "answer": "ANSWER: 2026-04-28"})
            assert r.reward == 1.0 and r.info["result"]["passed"]
            assert env.state()["result"]["answer"]["expected"]      # the token's holder sees what was expected
    finally:
        stop(proc)
