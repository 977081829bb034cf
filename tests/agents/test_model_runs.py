"""``deskworld run --agent anthropic|openai|vlm`` end to end: a real task in a real browser, the model a
fake vendor server whose replies are the task's oracle aimed at the live page and spoken in the vendor's
wire format (in the coordinates of the screenshot the agent sent). The run must pass the verifier and be
recorded with each model call, the usage and cost, and no API key anywhere."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from harness.runs import runner
from harness.cli import main
from harness.tasks.registry import load_task
from harness.viewer import create_viewer
from tests.agents.fakes import FakeVendor, OracleModel

TASK = "meridian/corvane-deductible"
KEYS = {"ANTHROPIC_API_KEY": "sk-ant-e2e-NEVER-WRITTEN", "OPENAI_API_KEY": "sk-oai-e2e-NEVER-WRITTEN"}


@pytest.mark.parametrize("agent,model,api,path,extra", [
    ("anthropic", "claude-sonnet-5-5", "anthropic", "", []),
    ("anthropic", "claude-opus-4-8", "anthropic", "", ["--computer-tool", "computer_20251124", "--screen-size", "1024x640"]),
    ("openai", "gpt-5.4", "responses", "/v1", []),
    ("vlm", "Qwen/Qwen2.5-VL-72B-Instruct", "chat", "/v1", []),
])
def test_model_agent_completes_a_task_and_is_recorded(tmp_path, monkeypatch, agent, model, api, path, extra):
    for k, v in KEYS.items():
        monkeypatch.setenv(k, v)
    fake = FakeVendor().start()
    try:
        fake.script(api, *[OracleModel(load_task(TASK), lambda: runner.WORKER.env, api)] * 20)
        out = tmp_path / "run"
        res = CliRunner().invoke(main, ["run", "--agent", agent, "--model", model, "--base-url", fake.url + path,
                                        "--tasks", TASK, "--out", str(out), *extra])
    finally:
        fake.stop()
    assert res.exit_code == 0, res.output
    assert not fake.rejections, fake.rejections
    (row,) = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert row["status"] == "passed" and row["score"] == 1.0, row
    assert row["usage"]["model"] == model and row["usage"]["calls"] == len(fake.calls(api)) >= 3
    assert "model usage" in res.output
    run_json = json.loads((out / "run.json").read_text())
    assert run_json["model"] == model and run_json["agent"] == agent
    assert run_json["agent_options"]["base_url"].startswith("http://127.0.0.1:")
    ep = out / "episodes/meridian/corvane-deductible/0"
    steps = [json.loads(x) for x in (ep / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["model_calls"] and steps[0]["model"] == model and steps[0]["usage"]["calls"] >= 1
    assert steps[-1]["action"]["type"] == "done" and "2,500,000" in steps[-1]["action"]["answer"]
    assert sum(len(s.get("model_calls", [])) for s in steps) == len(fake.calls(api))
    everything = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".png")
    assert not any(v in everything for v in KEYS.values())
    page = " ".join(create_viewer(out).test_client().get("/episode/meridian/corvane-deductible/0").data.decode().split())
    assert "model calls" in page and f"{model} · " in page and " in (" in page


def test_model_agent_option_errors_are_reported_before_any_episode(tmp_path):
    res = CliRunner().invoke(main, ["run", "--agent", "anthropic", "--tasks", TASK, "--out", str(tmp_path / "r")])
    assert res.exit_code != 0 and "needs --model" in res.output
    res = CliRunner().invoke(main, ["run", "--agent", "oracle", "--model", "x", "--tasks", TASK])
    assert res.exit_code != 0 and "is for model agents" in res.output
    res = CliRunner().invoke(main, ["run", "--agent", "vlm", "--model", "m", "--screen-size", "big", "--base-url",
                                    "http://127.0.0.1:9/v1", "--tasks", TASK])
    assert res.exit_code != 0 and "WIDTHxHEIGHT" in res.output
    assert not (tmp_path / "r").exists()


def test_run_with_a_judge_grades_a_real_rubric_task(tmp_path, monkeypatch):
    """The oracle on a long lumen task; its judge criteria are graded after the run from the real evidence."""
    from tests.agents.fakes import anthropic_message
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEYS["ANTHROPIC_API_KEY"])
    fake = FakeVendor().start()

    def verdict(crit):
        tables = {q["table"]: list(q["records"].values()) for q in crit["records"]}
        if "crm_opportunities" in tables:                 # the Next Step reads as an at-risk flag
            (opp,) = tables["crm_opportunities"]
            return "at risk" in opp["next_step"].lower(), "next step flags it"
        chat, incidents = tables.get("chat_messages", []), tables.get("tk_incidents", [])
        return len(chat) == 1 and "INC0010421" in chat[0]["text"] and len(incidents) == 5, \
            f"{len(incidents)} incidents checked"

    def judge(body):
        evidence = json.loads(body["messages"][0]["content"].split("\n\n", 1)[1])
        verdicts = [{"criterion": c["criterion"], "passed": ok, "reason": why}
                    for c in evidence["criteria"] for ok, why in [verdict(c)]]
        return anthropic_message([{"type": "text", "text": json.dumps({"verdicts": verdicts})}])
    fake.script("anthropic", judge)
    try:
        out = tmp_path / "run"
        res = CliRunner().invoke(main, ["run", "--agent", "oracle", "--tasks", "lumen/harrowgate-renewal-risk",
                                        "--out", str(out), "--judge", f"anthropic:claude-opus-5-5@{fake.url}"])
    finally:
        fake.stop()
    assert res.exit_code == 0, res.output
    judged = [c for c in load_task("lumen/harrowgate-renewal-risk").rubric if c.judge]
    assert len(judged) >= 2
    assert f"judged {len(judged)} criteria in 1 episodes" in res.output and not fake.rejections
    result = json.loads((out / "episodes/lumen/harrowgate-renewal-risk/0/result.json").read_text())
    crits = [c for c in result["rubric"] if c["kind"] == "judge"]
    assert len(crits) == len(judged) and all(c["passed"] is True for c in crits), crits
    assert {c["reason"] for c in crits} == {"5 incidents checked", "next step flags it"} and result["score"] == 1.0
