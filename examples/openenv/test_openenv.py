"""The ``deskworld_env`` OpenEnv package against OpenEnv's own code: ``openenv validate`` on the folder
(static) and on its running server (runtime: OpenAPI, health, metadata, schema, MCP, mode); the stock
``GenericEnvClient``, the package's ``DeskworldEnv`` client and OpenEnv's ``MCPToolClient`` reset, step,
list tools and get the verifier's reward. The server is the package's own entry point
(``deskworld_env.server.app:main``, what the Dockerfile runs) on the main install's Python
(``../../.venv``: deskworld); this venv holds openenv-core and the client."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient

from deskworld_env import DeskworldEnv

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MAIN_PYTHON = ROOT / ".venv" / "bin" / "python"
TASK = "meridian/pelagic-hearing-date"


def start(token: str | None = None, tools: bool = False):
    if not MAIN_PYTHON.exists():
        raise RuntimeError(f"{MAIN_PYTHON} is missing: run `make setup` at the repository's root first")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DESKWORLD_")}
    env.update(DESKWORLD_TASKS=TASK, DESKWORLD_CAPACITY="2", PYTHONPATH=str(HERE), PYTHONUNBUFFERED="1")
    if token:
        env["DESKWORLD_ENV_TOKEN"] = token                       # as `--token`, kept off the command line
    if tools:
        env["DESKWORLD_TOOLS"] = "1"
    proc = subprocess.Popen([str(MAIN_PYTHON), "-m", "deskworld_env.server.app", "--host", "127.0.0.1",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    banner = proc.stdout.readline()
    found = re.search(r"(http://\S+) \(WebSocket", banner)
    assert found, f"no server banner: {banner!r} {proc.stderr.read() if proc.poll() is not None else ''}"
    return proc, found.group(1)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def server():
    proc, url = start(tools=True)
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


def openenv_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(HERE / ".venv" / "bin" / "openenv"), *args], capture_output=True, text=True,
                          timeout=300, cwd=HERE)


def test_openenv_validates_the_package_folder():
    r = openenv_cli("validate", "deskworld_env")
    assert r.returncode == 0 and "[OK]" in r.stdout and "Ready for multi-mode deployment" in r.stdout, r.stdout


def test_openenv_validates_the_running_server_on_every_criterion(server):
    r = openenv_cli("validate", "--url", server)
    report = json.loads(r.stdout)
    failed = [c["id"] for c in report["criteria"] if not c["passed"]]
    assert r.returncode == 0 and report["passed"] and not failed, failed
    assert report["mode"] == "simulation" and report["standard_profile"] == "openenv-http/1.x"
    assert {c["id"] for c in report["criteria"]} >= {"openapi_version_available", "mcp_endpoint",
                                                     "mode_endpoint_consistency", "schema_endpoint"}


def test_openenvs_mcp_client_calls_the_apps_tools_as_steps_of_an_episode(server):
    with MCPToolClient(base_url=server).sync() as env:              # its default: /ws, steps with rewards
        env.reset(task=TASK, seed=0)
        tools = {t.name: t for t in env.list_tools()}
        assert {"chat_read", "mail_search", "sheets_get"} <= set(tools), sorted(tools)[:20]
        assert tools["chat_read"].input_schema["properties"]["channel"]
        messages = env.call_tool("chat_read", channel="general")
        assert isinstance(messages, (dict, list)) and messages      # the tool's JSON result
        with pytest.raises(RuntimeError, match="No tool 'chat_fly'.*tool_not_found"):
            env.call_tool("chat_fly")
        with pytest.raises(RuntimeError, match="no-such-room"):
            env.call_tool("chat_read", channel="no-such-room")
    with MCPToolClient(base_url=server).sync() as env:
        env.use_production_mode = True                              # JSON-RPC over HTTP POST /mcp
        assert "chat_read" in {t.name for t in env.list_tools()}
        with pytest.raises(RuntimeError, match="no episode yet: POST /reset"):
            env.call_tool("chat_read", channel="general")


def test_the_lock_file_matches_the_packages_dependencies():
    r = subprocess.run([str(HERE / ".venv" / "bin" / "uv"), "lock", "--check"], capture_output=True, text=True,
                       timeout=300, cwd=HERE / "deskworld_env")
    assert r.returncode == 0, r.stderr[-2000:]


def test_every_file_the_dockerfile_copies_is_in_its_build_context():
    text = (HERE / "deskworld_env" / "server" / "Dockerfile").read_text()
    sources = [src for line in text.splitlines() if line.startswith("COPY ")
               for src in line.split()[1:-1] if not src.startswith("--")]
    assert sources and all((ROOT / src).exists() for src in sources), [s for s in sources if not (ROOT / s).exists()]
    assert 'CMD ["server"' in text and "server = \"deskworld_env.server.app:main\"" in (
        HERE / "deskworld_env" / "pyproject.toml").read_text()
