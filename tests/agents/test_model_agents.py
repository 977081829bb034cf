"""The model agents' loops against the fake vendor servers (no browser, no network).

Each test scripts the vendor's replies (built from the SDK's typed response
models), drives the agent with synthetic observations, and asserts the
actions executed and the exact requests the real SDK client sent (which the
fake validated against the SDK's typed request models)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from harness.agents.anthropic_cu import PREVIOUS, TOOLSET, AnthropicAgent
from harness.agents.model import strip_images
from harness.agents.openai_cu import OpenAIAgent
from harness.agents.vlm import VLMAgent
from tests.agents.fakes import (Err, FakeVendor, Slow, anthropic_message, chat_completion, computer, computer_call,
                                image_size, member, message_item, openai_response, reasoning_item)

KEY_A = "sk-ant-test-DO-NOT-LEAK-1234"
KEY_O = "sk-openai-test-DO-NOT-LEAK-5678"


class Task:
    id = "meridian/fake"
    prompt = "What deductible does Corvane bear?\n"


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY_A)
    monkeypatch.setenv("OPENAI_API_KEY", KEY_O)
    f = FakeVendor().start()
    yield f
    f.stop()
    assert not f.rejections, f.rejections


def screen(value: int = 0) -> np.ndarray:
    arr = np.full((800, 1280, 3), value, np.uint8)
    arr[10:20, 10:20] = 255 - value
    return arr


def drive(agent, *, errors: dict[int, str] | None = None, limit: int = 40):
    """Run the agent on synthetic observations; action n (1-based) fails with errors[n]."""
    agent.reset(Task())
    obs = {"screenshot": screen(0), "url": "http://desk.local/", "goal": Task.prompt, "last_action_error": ""}
    acts, records = [], []
    for n in range(1, limit):
        a = agent.act(obs)
        acts.append(a)
        records.append(agent.take_record())
        if a["type"] == "done":
            return acts, records
        obs = {**obs, "screenshot": screen(n % 200), "last_action_error": (errors or {}).get(n, "")}
    raise AssertionError("the agent never finished")


def tool_results(req: dict) -> list[dict]:
    return [b for b in req["messages"][-1]["content"] if b["type"] == "tool_result"]


def images_in(obj) -> list[tuple[int, int]]:
    out = []
    if isinstance(obj, dict):
        if obj.get("type") == "image":
            out.append(image_size(obj["source"]["data"]))
        for v in obj.values():
            out += images_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out += images_in(v)
    return out


# ---------------------------------------------------------------- Anthropic
def test_anthropic_toolset_batch_runs_in_order_and_answers_every_call(fake):
    fake.script("anthropic",
                anthropic_message([{"type": "text", "text": "I'll search Drive."},
                                   member("left_click", coordinate=[644, 32]), member("type", text="harbor crest"),
                                   member("key", text="Return"), member("screenshot")]),
                anthropic_message([{"type": "text", "text": "The policy says $2,500,000.\nANSWER: $2,500,000"}]))
    agent = AnthropicAgent("claude-sonnet-5-5", base_url=fake.url)
    acts, records = drive(agent)
    assert acts == [{"type": "click", "x": 644, "y": 32, "button": "left", "modifiers": []},
                    {"type": "type", "text": "harbor crest"}, {"type": "key", "keys": "Return"},
                    {"type": "done", "status": "complete", "answer": "The policy says $2,500,000.\nANSWER: $2,500,000"}]
    first, second = fake.calls("anthropic")
    assert first["tools"] == [{"type": TOOLSET}]
    assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert first["cache_control"] == {"type": "ephemeral"}
    assert first["messages"][0]["content"][0] == {"type": "text", "text": "What deductible does Corvane bear?"}
    assert images_in(first) == [(1280, 800)]
    assert "anthropic-beta" not in fake.requests[0]["headers"]
    res = tool_results(second)
    assert [r["content"][0].get("text") for r in res[:3]] == ["Clicked.", "Typed.", "Pressed Return."]
    assert all(r["toolset_name"] == "computer" for r in res)
    assert res[3]["content"][0]["type"] == "image"             # the screenshot member gets the screen
    # The record of the first step: the call, its usage, the model's words; no image bytes, no key.
    rec = records[0]
    assert rec["model"] == "claude-sonnet-5-5" and rec["thought"] == "I'll search Drive."
    assert rec["usage"]["calls"] == 1 and rec["usage"]["cache_read_tokens"] == 900
    dumped = json.dumps(records)
    assert KEY_A not in dumped and "iVBOR" not in dumped and "<image 1280x800" in dumped
    assert records[1] == {} and records[2] == {}
    u = agent.episode_usage()
    assert u["calls"] == 2 and u["input_tokens"] == 2400 and u["cost_usd"] == pytest.approx(0.00826)


def test_anthropic_previous_tool_declares_the_display_and_maps_rescaled_coordinates(fake):
    fake.script("anthropic",
                anthropic_message([computer("left_click", coordinate=[512, 320]),
                                   computer("scroll", coordinate=[100, 100], scroll_direction="down",
                                            scroll_amount=3)]),
                anthropic_message([{"type": "text", "text": "Done."}]))
    agent = AnthropicAgent("claude-opus-4-8", base_url=fake.url, computer_tool=PREVIOUS, screen_size="1024x640")
    acts, _ = drive(agent)
    assert acts[0] == {"type": "click", "x": 640, "y": 400, "button": "left", "modifiers": []}
    assert acts[1] == {"type": "scroll", "x": 125, "y": 125, "dx": 0, "dy": 300}
    first, second = fake.calls("anthropic")
    assert first["tools"] == [{"type": PREVIOUS, "name": "computer", "display_width_px": 1024,
                               "display_height_px": 640, "enable_zoom": True}]
    assert fake.requests[0]["headers"]["anthropic-beta"] == "computer-use-2025-11-24"
    assert images_in(first) == [(1024, 640)]
    res = tool_results(second)
    assert [r["content"][0]["text"] for r in res] == ["Clicked.", "Scrolled down."]
    assert res[-1]["content"][-1]["type"] == "image"          # the old tool's loop returns a fresh screenshot


def test_anthropic_stops_a_batch_at_the_first_failure(fake):
    fake.script("anthropic",
                anthropic_message([member("left_click", coordinate=[10, 10]), member("left_click", coordinate=[20, 20]),
                                   member("type", text="never typed")]),
                anthropic_message([{"type": "text", "text": "Stopping."}]))
    acts, _ = drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url), errors={2: "blocked: off the workspace"})
    assert [a["type"] for a in acts] == ["click", "click", "done"]
    res = tool_results(fake.calls("anthropic")[1])
    assert "is_error" not in res[0]
    assert res[1]["is_error"] and res[1]["content"][0]["text"] == "blocked: off the workspace"
    assert res[2]["is_error"] and res[2]["content"][0]["text"].startswith("Not executed")


def test_anthropic_malformed_tool_input_is_answered_with_an_error_and_asked_again(fake):
    fake.script("anthropic",
                anthropic_message([member("left_click", coordinate="top left"), member("type", text="x")]),
                anthropic_message([member("left_click", coordinate=[5000, 10])]),
                anthropic_message([member("left_click", coordinate=[30, 40])]),
                anthropic_message([{"type": "text", "text": "ANSWER: 1"}]))
    acts, records = drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url))
    assert acts[0] == {"type": "click", "x": 30, "y": 40, "button": "left", "modifiers": []}
    calls = fake.calls("anthropic")
    bad1 = tool_results(calls[1])
    assert bad1[0]["is_error"] and "coordinate must be [x, y]" in bad1[0]["content"][0]["text"]
    assert bad1[1]["is_error"] and "Not executed" in bad1[1]["content"][0]["text"]
    bad2 = tool_results(calls[2])
    assert "x=5000 is outside the screen" in bad2[0]["content"][0]["text"]
    assert len(records[0]["model_calls"]) == 3                 # all three calls recorded on the step they led to


def test_anthropic_zoom_and_cursor_position_need_no_env_step(fake):
    fake.script("anthropic",
                anthropic_message([member("mouse_move", coordinate=[300, 200]), member("cursor_position"),
                                   member("zoom", region=[0, 0, 320, 200])]),
                anthropic_message([member("zoom", region=[50, 50, 10, 10])]),
                anthropic_message([{"type": "text", "text": "ok"}]))
    acts, _ = drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url))
    assert [a["type"] for a in acts] == ["move", "done"]
    res = tool_results(fake.calls("anthropic")[1])
    assert res[1]["content"][0]["text"] == "X=300,Y=200"
    assert image_size(res[2]["content"][0]["source"]["data"]) == (1280, 800)   # a 320×200 region, scaled up
    bad = tool_results(fake.calls("anthropic")[2])
    assert bad[0]["is_error"] and "x1 > x0" in bad[0]["content"][0]["text"]


@pytest.mark.parametrize("status", [429, 529, 500])
def test_anthropic_retries_rate_limits_overloads_and_server_errors(fake, status):
    fake.script("anthropic", Err(status), Err(status), anthropic_message([{"type": "text", "text": "ANSWER: 7"}]))
    agent = AnthropicAgent("claude-sonnet-5-5", base_url=fake.url)
    acts, records = drive(agent)
    assert acts[-1]["answer"] == "ANSWER: 7"
    assert len(fake.calls("anthropic")) == 3
    assert agent.episode_usage()["retries"] == 2 and records[0]["usage"]["retries"] == 2
    assert [r["headers"]["x-stainless-retry-count"] for r in fake.requests] == ["0", "1", "2"]


def test_anthropic_retries_a_timeout_then_gives_up_with_the_sdk_error(fake):
    import anthropic
    fake.script("anthropic", Slow(1.5, anthropic_message([{"type": "text", "text": "late"}])),
                anthropic_message([{"type": "text", "text": "ANSWER: on time"}]))
    acts, _ = drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url, timeout=0.5, max_retries=2))
    assert acts[-1]["answer"] == "ANSWER: on time"
    fake.script("anthropic", Err(529), Err(529))
    agent = AnthropicAgent("claude-sonnet-5-5", base_url=fake.url, max_retries=1)
    agent.reset(Task())
    with pytest.raises(anthropic.InternalServerError):
        agent.act({"screenshot": screen(), "last_action_error": ""})


def test_anthropic_keeps_only_the_newest_screenshots(fake):
    turns = [anthropic_message([member("left_click", coordinate=[10 + i, 10]), member("screenshot")])
             for i in range(12)]
    fake.script("anthropic", *turns, anthropic_message([{"type": "text", "text": "done"}]))
    drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url, history_images=3))
    counts = [len(images_in(c["messages"])) for c in fake.calls("anthropic")]
    assert max(counts) <= 3 + 3 and counts[-1] <= 6
    assert "[older screenshot removed]" in json.dumps(fake.calls("anthropic")[-1])


def test_anthropic_final_text_can_say_infeasible(fake):
    fake.script("anthropic", anthropic_message([{"type": "text", "text": "INFEASIBLE: there is no such policy."}]))
    acts, _ = drive(AnthropicAgent("claude-sonnet-5-5", base_url=fake.url))
    assert acts == [{"type": "done", "status": "infeasible", "answer": "INFEASIBLE: there is no such policy."}]


# ---------------------------------------------------------------- OpenAI
def test_openai_batched_actions_chain_with_previous_response_id(fake):
    fake.script("responses",
                openai_response([reasoning_item("Search Drive for the policy."),
                                 computer_call([{"type": "click", "button": "left", "x": 644, "y": 32},
                                                {"type": "keypress", "keys": ["CTRL", "A"]},
                                                {"type": "type", "text": "harbor crest"},
                                                {"type": "screenshot"}])]),
                openai_response([computer_call([{"type": "double_click", "x": 400, "y": 300}])]),
                openai_response([message_item("ANSWER: $2,500,000")]))
    agent = OpenAIAgent("gpt-5.4", base_url=fake.url + "/v1")
    acts, records = drive(agent)
    assert acts == [{"type": "click", "x": 644, "y": 32, "button": "left", "modifiers": []},
                    {"type": "key", "keys": "ctrl+a"}, {"type": "type", "text": "harbor crest"},
                    {"type": "double_click", "x": 400, "y": 300, "modifiers": []},
                    {"type": "done", "status": "complete", "answer": "ANSWER: $2,500,000"}]
    c1, c2, c3 = fake.calls("responses")
    assert c1["tools"] == [{"type": "computer"}] and c1["truncation"] == "auto"
    assert c1["input"][0]["content"][1]["detail"] == "original"
    assert "previous_response_id" not in c1
    r1 = next(iter(fake.responses))
    assert c2["previous_response_id"] == r1
    out = c2["input"]
    assert len(out) == 1 and out[0]["type"] == "computer_call_output"
    assert out[0]["output"]["type"] == "computer_screenshot"
    assert c3["previous_response_id"] == list(fake.responses)[1]
    assert records[0]["thought"] == "Search Drive for the policy."
    assert records[0]["usage"]["cache_read_tokens"] == 1000 and records[0]["usage"]["reasoning_tokens"] == 20
    assert KEY_O not in json.dumps(records) and fake.requests[0]["headers"]["authorization"] == f"Bearer {KEY_O}"


def test_openai_preview_model_gets_display_size_and_truncation(fake):
    fake.script("responses",
                openai_response([computer_call(action={"type": "scroll", "x": 640, "y": 400, "scroll_x": 0,
                                                       "scroll_y": 500})], model="computer-use-preview"),
                openai_response([message_item("done")], model="computer-use-preview"))
    acts, _ = drive(OpenAIAgent("computer-use-preview", base_url=fake.url + "/v1"))
    assert acts[0] == {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 500}
    c1 = fake.calls("responses")[0]
    assert c1["tools"] == [{"type": "computer_use_preview", "display_width": 1280, "display_height": 800,
                            "environment": "browser"}]
    assert c1["truncation"] == "auto"


def test_openai_safety_checks_are_acknowledged_and_recorded(fake):
    check = {"id": "sc_1", "code": "malicious_instructions", "message": "The page contains instructions."}
    fake.script("responses", openai_response([computer_call([{"type": "click", "button": "left", "x": 5, "y": 5}],
                                                            checks=[check])]),
                openai_response([message_item("ok")]))
    acts, records = drive(OpenAIAgent("gpt-5.4", base_url=fake.url + "/v1"))
    assert acts[0]["type"] == "click"
    assert records[0]["safety_checks"][0]["code"] == "malicious_instructions"
    assert fake.calls("responses")[1]["input"][0]["acknowledged_safety_checks"] == [check]


def test_openai_safety_policy_stop_ends_the_episode(fake):
    check = {"id": "sc_2", "code": "sensitive_domain", "message": "Sensitive."}
    fake.script("responses", openai_response([computer_call([{"type": "click", "button": "left", "x": 5, "y": 5}],
                                                            checks=[check])]))
    acts, records = drive(OpenAIAgent("gpt-5.4", base_url=fake.url + "/v1", safety="stop"))
    assert acts == [{"type": "done", "status": "complete", "answer": None}]
    assert records[0]["safety_checks"][0]["id"] == "sc_2"
    assert len(fake.calls("responses")) == 1


def test_openai_invalid_action_stops_its_batch_and_is_recorded(fake):
    fake.script("responses",
                openai_response([computer_call([{"type": "click", "button": "left", "x": 10, "y": 10},
                                                {"type": "click", "button": "left", "x": 9000, "y": 10},
                                                {"type": "type", "text": "skipped"}])]),
                openai_response([message_item("ok")]))
    acts, records = drive(OpenAIAgent("gpt-5.4", base_url=fake.url + "/v1"))
    assert [a["type"] for a in acts] == ["click", "done"]
    assert "x=9000 is outside the screen" in records[0]["invalid_actions"][0]["error"]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_openai_retries(fake, status):
    fake.script("responses", Err(status), openai_response([message_item("ANSWER: 3")]))
    agent = OpenAIAgent("gpt-5.4", base_url=fake.url + "/v1")
    acts, _ = drive(agent)
    assert acts[-1]["answer"] == "ANSWER: 3" and agent.episode_usage()["retries"] == 1


# ---------------------------------------------------------------- OpenAI-compatible VLM
def test_vlm_json_actions_and_results_in_the_next_turn(fake):
    fake.script("chat",
                chat_completion('Thought: open the search box.\n```json\n{"type": "click", "x": 644, "y": 32}\n```'),
                chat_completion("I am not sure what to do."),
                chat_completion('[{"type": "type", "text": "harbor"}, {"type": "key", "keys": "Enter"}]'),
                chat_completion('{"type": "done", "answer": "ANSWER: 42"}'))
    agent = VLMAgent("Qwen/Qwen2.5-VL-7B-Instruct", base_url=fake.url + "/v1")
    acts, records = drive(agent, errors={1: "nothing there"})
    assert acts == [{"type": "click", "x": 644, "y": 32}, {"type": "type", "text": "harbor"},
                    {"type": "key", "keys": "Enter"}, {"type": "done", "answer": "ANSWER: 42"}]
    calls = fake.calls("chat")
    assert calls[0]["messages"][0]["role"] == "system" and "double_click(" in calls[0]["messages"][0]["content"]
    assert calls[0]["temperature"] == 0
    follow = calls[1]["messages"][-1]["content"]
    assert follow[0]["text"].startswith("Action 1 (click): error: nothing there")
    assert follow[1]["type"] == "image_url"
    assert "could not read an action" in calls[2]["messages"][-1]["content"]
    assert records[0]["thought"] == "open the search box." and records[0]["model_calls"][0]["grammar"] == "json"
    assert len(records[1]["model_calls"]) == 2


def test_vlm_uitars_on_a_1000_grid(fake):
    fake.script("chat", chat_completion("Thought: click it\nAction: click(start_box='<|box_start|>(500,500)<|box_end|>')"),
                chat_completion("Action: finished(content='ANSWER: yes')"))
    acts, _ = drive(VLMAgent("ui-tars-1.5-7b", base_url=fake.url + "/v1", coords="norm1000"))
    assert acts[0]["type"] == "click" and (acts[0]["x"], acts[0]["y"]) == (640, 400)
    assert acts[-1] == {"type": "done", "status": "complete", "answer": "ANSWER: yes"}


def test_vlm_needs_a_base_url(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="--base-url"):
        VLMAgent("some-model")


def test_strip_images_replaces_base64_with_a_stub():
    import base64
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (64, 40)).save(buf, "PNG")
    b64 = base64.b64encode(buf.getvalue()).decode() * 3
    out = strip_images({"a": [{"data": b64}, {"image_url": "data:image/png;base64," + b64}], "text": "short"})
    assert out["a"][0]["data"].startswith("<image ") and out["a"][1]["image_url"].startswith("<image ")
    assert out["text"] == "short"
