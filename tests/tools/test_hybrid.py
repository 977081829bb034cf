"""Hybrid episodes: one env gives an agent the GUI and the apps' tools at once — as ``tool_call``
actions and as an MCP server bound to the live episode — and both kinds of work are verified,
attributed to the agent and recorded in ``steps.jsonl``."""
from __future__ import annotations

import json

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from harness.env import DeskEnv, make_env
from harness.runs.recorder import EpisodeRecorder
from harness.runs.episode import run_episode
from harness.tasks.registry import load_task
from tests.tools.conftest import run_async

TASK = "meridian/pelagic-hearing-date"


class Scripted:
    name = "scripted"

    def __init__(self, actions):
        self.actions = list(actions)

    def reset(self, task):
        pass

    def act(self, obs):
        return self.actions.pop(0)


@pytest.fixture(scope="module")
def env():
    e = make_env(TASK, tools=True)
    yield e
    e.close()


def test_tool_call_actions_read_and_write_in_the_episode_and_are_recorded(env, tmp_path):
    agent = Scripted([
        {"type": "tool_call", "tool": "chat.read", "arguments": {"channel": "pelagic-freight"}},
        {"type": "tool_call", "tool": "chat.read", "arguments": {"channel": "no-such-channel"}},
        {"type": "tool_call", "tool": "chat.post", "arguments": {"channel": "general", "text": "Hybrid hello"}},
        {"type": "done", "answer": "ANSWER: 2026-04-28"},
    ])
    rec = EpisodeRecorder(tmp_path, TASK, 0)
    row = run_episode(env, agent, load_task(TASK), recorder=rec)
    steps = [json.loads(x) for x in (tmp_path / "episodes/meridian/pelagic-hearing-date/0/steps.jsonl").read_text().splitlines()]
    assert "motion to compel" in steps[0]["tool_result"] and steps[0]["error"] == ""
    assert steps[1]["error"].startswith("tool chat.read:") and "tool_result" not in steps[1]
    diff = json.loads((tmp_path / "episodes/meridian/pelagic-hearing-date/0/diff.json").read_text())
    added = diff["tables"]["chat_messages"]["added"]
    assert [(a["record"]["text"], a["actor"]) for a in added if a["actor"] == "agent"] == [("Hybrid hello", "agent")]
    # The answer was right, but posting in #general is collateral damage for a question-only task.
    assert row["status"] == "failed" and row["score"] == 0.0
    result = json.loads((tmp_path / "episodes/meridian/pelagic-hearing-date/0/result.json").read_text())
    assert any(ln.startswith("✓ answer") for ln in result["lines"]) and result["collateral"][0]["table"] == "chat_messages"


def test_mcp_calls_act_in_the_live_episode_and_reach_the_next_step(env):
    obs, _ = env.reset(options={"task": TASK})
    url = env.mcp_url()

    async def talk():
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            names = {t.name for t in (await s.list_tools()).tools}
            assert {"chat_read", "mail_search", "tickets_get"} <= names
            got = await s.call_tool("chat_read", {"channel": "pelagic-freight"})
            assert not got.is_error and "motion to compel" in got.content[0].text
            bad = await s.call_tool("chat_read", {"channel": "nowhere"})
            assert bad.is_error
    run_async(talk)
    obs, reward, term, trunc, info = env.step({"type": "wait", "ms": 0})
    assert [c["tool"] for c in info["tool_calls"]] == ["chat.read", "chat.read"]
    assert "error" in info["tool_calls"][1] and "result" in info["tool_calls"][0]
    obs, reward, term, trunc, info = env.step({"type": "done", "answer": "ANSWER: 2026-04-28"})
    assert reward == 1.0 and "tool_calls" not in info


def test_tool_calls_need_tools_true():
    with DeskEnv(TASK) as plain:
        plain.reset()
        obs, *_ = plain.step({"type": "tool_call", "tool": "chat.read", "arguments": {"channel": "general"}})
        assert "tools=True" in obs["last_action_error"] and "tool_result" not in obs
        assert not plain.has_wrapper_attr("mcp_url")        # no MCP server without tools=True
