"""deskworld through TRL itself (trl 1.16): the spec's environment class turned into tools by
``GRPOTrainer``, and one ``GRPOTrainer.train()`` step on a real deskworld task in which a scripted
policy plays the task's oracle (reward 1) in one rollout and does nothing in the other (reward 0).

The model is a tiny Qwen2.5-VL-architecture model built from a local config (``tiny_vlm.py``); only
its generation is scripted (``_generate_single_turn`` returns the tool calls in the chat template's
``<tool_call>`` format). The rest is TRL's: chat template with the tool schemas, response parsing,
tool dispatch, screenshots into the vision tower, rewards, loss and the optimizer step.
"""
from __future__ import annotations

import inspect
import json
import os
import re

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import pytest                                                       # noqa: E402
from PIL import Image                                               # noqa: E402
from transformers.utils import get_json_schema                     # noqa: E402
from trl import GRPOConfig, GRPOTrainer                             # noqa: E402

from harness.agents.oracle import OracleAgent                       # noqa: E402
from harness.env import make_env                                    # noqa: E402
from harness.integrations.trl import DeskworldSpec, passed_reward, score_reward   # noqa: E402
from tiny_vlm import tiny_model, tiny_processor, tiny_tokenizer     # noqa: E402

TASK = "meridian/corvane-deductible"     # an answer task whose oracle is six actions
SIZE = (320, 200)                        # the screenshots the model sees (a quarter of the browser's 1280×800)
SCREEN_TOOLS = ["back", "click", "done", "double_click", "drag", "key", "move", "navigate", "scroll",
                "triple_click", "type", "wait"]


def oracle_actions(task: str) -> list[dict]:
    """The actions the task's oracle takes on a fresh episode (seed 0), recorded on a local env."""
    env = make_env(task)
    try:
        obs, _ = env.reset(seed=0)
        agent = OracleAgent(env)
        agent.reset(env.unwrapped.task)
        actions = []
        while True:
            action = agent.act(obs)
            actions.append(action)
            obs, _r, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                assert info["result"]["passed"], "the oracle itself must pass"
                return actions
    finally:
        env.close()


def corpus_for(spec: DeskworldSpec, calls: list[dict]) -> list[str]:
    """Texts to train the tiny tokenizer on, so prompts (tool schemas, goal, URLs) stay short."""
    cls = spec.environment_factory
    schemas = [json.dumps(get_json_schema(f)) for n, f in inspect.getmembers(cls, inspect.isfunction)
               if not n.startswith("_") and n != "reset"]
    return schemas + [json.dumps(c) for c in calls] + [
        load_goal(spec), "URL: http://desk.local/drive/my-drive The screenshot is 320×200 pixels;",
        "The episode is over (done was called); no more actions are taken."]


def load_goal(spec: DeskworldSpec) -> str:
    from harness.tasks.registry import load_task
    return load_task(spec.task_ids[0]).goal


def processor_for(spec: DeskworldSpec, calls: list[dict]):
    return tiny_processor(tiny_tokenizer(corpus_for(spec, calls)))


class ScriptedGRPOTrainer(GRPOTrainer):
    """GRPOTrainer whose generation is scripted: rollout *i* of the group plays ``scripts[i]``, one tool
    call per turn, then a closing message. What the model was given to look at is recorded."""

    scripts: list[list[dict]] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.generations: list[dict] = []          # one entry per _generate_single_turn call

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        self.generations.append({"prompt_ids": prompt_ids, "images": images,
                                 "fields": dict(multimodal_fields or {}), "has_tool_images": has_tool_images})
        completions = []
        for i, ids in enumerate(prompt_ids):
            text = self._tokenizer.decode(ids)
            turns = text.split("<|im_start|>assistant\n")[1:]          # the last one is the generation prompt
            script = self.scripts[i] if len(turns) == 1 else self._script_of(turns[0])
            k = len(turns) - 1
            if k < len(script):
                reply = f"<tool_call>\n{json.dumps(script[k])}\n</tool_call><|im_end|>"
            else:
                reply = "Finished.<|im_end|>"
            completions.append(self._tokenizer.encode(reply, add_special_tokens=False))
        return completions, None

    def _script_of(self, first_turn: str) -> list[dict]:
        """Which script a rollout follows, told by its first tool call."""
        name = re.search(r'"name": "(\w+)"', first_turn).group(1)
        (script,) = [s for s in self.scripts if s[0]["name"] == name]
        return script


@pytest.fixture(scope="module")
def oracle_calls() -> list[dict]:
    spec = DeskworldSpec(TASK, image_size=SIZE)
    return [spec.tool_call(a) for a in oracle_actions(TASK)]


def grpo_args(tmp_path, **kw) -> GRPOConfig:
    return GRPOConfig(output_dir=str(tmp_path), use_cpu=True, bf16=False, per_device_train_batch_size=2,
                      num_generations=2, max_completion_length=4096, max_tool_calling_iterations=10, max_steps=1,
                      logging_steps=1, report_to=[], save_strategy="no", **kw)


def test_trl_makes_tools_of_the_environment_class(tmp_path):
    """GRPOTrainer's own init probes the factory and turns its methods into tools; their JSON schemas
    (transformers' get_json_schema, the chat template's input) are what the model is shown."""
    spec = DeskworldSpec(TASK, image_size=SIZE, tools=True)
    processor = processor_for(spec, [])
    trainer = GRPOTrainer(model=tiny_model(processor.tokenizer), processing_class=processor, args=grpo_args(tmp_path),
                          train_dataset=spec.train_dataset, environment_factory=spec.environment_factory,
                          reward_funcs=spec.reward_funcs)
    (probe,) = trainer._environment_pool[None]
    assert type(probe) is spec.environment_factory and probe._env is None       # the probe launched no browser
    names = sorted(t.__name__ for t in trainer._env_tools[None])
    assert [n for n in names if not n.startswith("drive_")] == SCREEN_TOOLS
    assert {"drive_search", "drive_read", "drive_share"} <= set(names)
    schemas = {t.__name__: get_json_schema(t)["function"] for t in trainer._env_tools[None]}
    assert schemas["click"]["parameters"] == {
        "type": "object", "required": ["x", "y"], "properties": {
            "x": {"type": "integer", "description": "Pixels from the left edge of the screenshot."},
            "y": {"type": "integer", "description": "Pixels from the top edge of the screenshot."},
            "button": {"type": "string", "enum": ["left", "right", "middle"], "description": "The mouse button."}}}
    assert "required" not in schemas["done"]["parameters"]                     # done() ends with no answer
    assert schemas["done"]["parameters"]["properties"]["status"]["enum"] == ["complete", "infeasible"]
    assert schemas["type"]["parameters"]["required"] == ["text"]
    share = schemas["drive_share"]["parameters"]
    assert share["required"] == ["item_id", "people", "role"]
    assert share["properties"]["people"] == {"type": "array", "items": {"type": "string"},
                                             "description": "Person ids or email addresses from the directory."}
    assert share["properties"]["role"]["enum"] == ["viewer", "commenter", "editor"]
    # The prompt TRL renders carries every tool.
    rendered = processor.apply_chat_template([{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
                                             tools=trainer._env_tools[None], tokenize=False)
    for name in names:
        assert f'"name": "{name}"' in rendered, name
    # Another spec's class has its own tools: the app tools bound here did not leak.
    assert not hasattr(DeskworldSpec(TASK).environment_factory, "drive_search")


def test_grpo_step_oracle_scores_1_and_doing_nothing_0(tmp_path, oracle_calls):
    spec = DeskworldSpec(TASK, image_size=SIZE, rewards=("score", "passed"))
    processor = processor_for(spec, oracle_calls)
    idle = [{"name": "done", "arguments": {}}]
    ScriptedGRPOTrainer.scripts = [oracle_calls, idle]
    trainer = ScriptedGRPOTrainer(
        model=tiny_model(processor.tokenizer), processing_class=processor,
        args=grpo_args(tmp_path, reward_weights=[0.5, 0.5]),
        train_dataset=spec.train_dataset, environment_factory=spec.environment_factory,
        reward_funcs=spec.reward_funcs)
    assert trainer.reward_funcs == [score_reward, passed_reward]
    trainer.train()
    try:
        # The rewards TRL logged, per rollout (oracle, do-nothing) and as the step's means.
        assert list(trainer._logs["rewards"]["score_reward"]) == [1.0, 0.0]
        assert list(trainer._logs["rewards"]["passed_reward"]) == [1.0, 0.0]
        (logged, *_) = trainer.state.log_history
        assert logged["rewards/score_reward/mean"] == 0.5 and logged["rewards/passed_reward/mean"] == 0.5
        assert logged["reward"] == 0.5
        assert logged["tools/call_frequency"] == (len(oracle_calls) + 1) / 2
        assert logged["tools/failure_frequency"] == 0.0
        # Each rollout's episode ended by its done call, verified by deskworld.
        envs = trainer.environments
        assert [e.result["passed"] for e in envs] == [True, False]
        assert envs[0].result["answer"] is not None

        # The screenshots reached the model as images: reset's, in the first generation's prompt ...
        image_pad = processor.tokenizer.convert_tokens_to_ids("<|image_pad|>")
        first = trainer.generations[0]
        assert [len(imgs) for imgs in first["images"]] == [1, 1]
        assert all(isinstance(img, Image.Image) and img.size == SIZE for imgs in first["images"] for img in imgs)
        assert len(first["fields"]["pixel_values"]) > 0 and len(first["fields"]["image_grid_thw"]) == 2
        assert all(ids.count(image_pad) > 0 for ids in first["prompt_ids"])
        # ... and every tool's, in the following turns (the oracle's rollout sees one more each turn: reset's
        # screenshot and one per action at the last).
        later = trainer.generations[1:]
        assert later and all(g["has_tool_images"] and len(g["fields"]["pixel_values"]) > 0 for g in later)
        seen = max((imgs or [] for g in later for imgs in g["images"]), key=len)
        assert len(seen) == 1 + len(oracle_calls)
        # They are the screens themselves, at the model's size: pages of the apps (many colours, not a blank
        # or black frame), and the screen the oracle opened is not the one it started on.
        assert all(isinstance(img, Image.Image) and img.size == SIZE for img in seen)
        assert all(len(img.getcolors(SIZE[0] * SIZE[1])) > 20 for img in seen)
        assert seen[-1].tobytes() != seen[0].tobytes()
        tool_messages = [m for m in trainer._logs["completion"][0] if m["role"] == "tool"]
        assert len(tool_messages) == len(oracle_calls)
        assert [b["type"] for b in tool_messages[0]["content"]] == ["image", "text"]
        assert "URL: http://desk.local/" in tool_messages[0]["content"][1]["text"]
        assert "The episode is over (done was called)" in tool_messages[-1]["content"][1]["text"]
    finally:
        for env in trainer._environment_pool[None]:
            if env._env is not None:
                env._env.close()
