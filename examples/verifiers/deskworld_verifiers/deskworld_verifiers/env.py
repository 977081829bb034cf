"""A deskworld episode as a multi-turn verifiers exchange.

The env plays the user (as verifiers' OpenEnv env does): it resets a deskworld env
(`make_env`, or `RemoteEnv` against `deskworld env-server` when the task names a
server), sends the screenshot as an `image_url` part with the goal, the URL and the
last action's error as text, takes the model's reply as one deskworld action (a JSON
object, see the system prompt) and steps the env with it, until the episode ends
(`done`, or the task's step limit). Gymnasium calls block, so they run in a thread.

A reply that is not a valid action is stepped like any action: deskworld reports why in
`last_action_error` (it comes back as the next turn's text) and counts it as a step; the
trace's `malformed_replies` metric counts them.

Rewards, recorded inside the interaction (so the rollout's reward includes them):
`deskworld` = the verifier's score in [0, 1] (weight 1), `passed` = 1.0 or 0.0
(weight 0: reported, not added); the verifier's result (status, lines, checks) goes to
the trace's `info["deskworld_result"]`. An exchange that ends before the episode does (a
turn or token limit) scores 0. An environment error (deskworld's result status `error`,
never the agent's failure) raises: the episode fails and verifiers may retry it.
"""

import asyncio
import json
from typing import Any

import verifiers.v1 as vf

from harness.env.actions import ActionError, parse
from harness.servers.wire import png_b64


class DeskworldVerifiersEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig()


def make_desk_env(task: str, server: str | None, max_steps: int | None):
    """A local `DeskEnv` for `task`, or a `RemoteEnv` on `server` with `task` fixed (the server runs
    each task with its own step limit; the taskset's config refuses `max_steps` with a server)."""
    if server:
        from harness.servers.remote import RemoteEnv

        return RemoteEnv(server, task=task)
    from harness.env.make import make_env

    return make_env(task, max_steps=max_steps)


def data_url(screenshot: Any) -> str:
    """The screenshot (H×W×3 uint8) as a PNG data URL."""
    return "data:image/png;base64," + png_b64(screenshot)


def strip_fence(reply: str) -> str:
    """A reply's JSON without a Markdown code fence around it (models add one)."""
    reply = reply.strip()
    if reply.startswith("```") and reply.endswith("```"):
        reply = "\n".join(reply.splitlines()[1:-1]).strip()
    return reply


def observation_turn(obs: dict, step: int, max_steps: int | None) -> list[dict]:
    """One user turn: the goal, the URL, the last action's error (and the user's reply to
    an ask_user) as text, then the screenshot as an image part."""
    lines = [f"Goal: {obs['goal']}", f"URL: {obs['url']}"]
    if step:
        lines.append(f"Step {step}" + (f" of {max_steps}" if max_steps else "") + " done.")
    error = obs.get("last_action_error") or ""
    lines.append(
        f"Your last action failed: {error}\nReply with one JSON action as the system prompt describes."
        if error
        else "Last action error: none."
    )
    if obs.get("user_reply"):
        lines.append(f"The user replied: {obs['user_reply']}")
    return [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "\n".join(lines)},
                {"type": "image_url", "image_url": {"url": data_url(obs["screenshot"])}},
            ],
        }
    ]


class DeskworldVerifiersEnv(vf.Env[DeskworldVerifiersEnvConfig]):
    async def run(self, task, agents):
        data = task.data
        env = await asyncio.to_thread(make_desk_env, data.task, data.server, data.max_steps)
        try:
            obs, _ = await asyncio.to_thread(env.reset, seed=data.seed, options={"task": data.task})
            max_steps = getattr(env.unwrapped, "max_steps", None) if not data.server else None
            result: dict | None = None
            steps = malformed = 0
            async with agents.player.interaction(task) as interaction:
                trace = interaction.trace
                segment = await interaction.turn(observation_turn(obs, steps, max_steps))
                while not segment.terminated:
                    reply = strip_fence(segment.last_reply)
                    screen = (obs["screenshot"].shape[1], obs["screenshot"].shape[0])
                    try:
                        parse(reply, screen=screen)
                        action: Any = json.loads(reply)
                    except ActionError:
                        malformed += 1
                        action = reply  # deskworld reports it in last_action_error; it counts as a step
                    obs, _, terminated, truncated, info = await asyncio.to_thread(env.step, action)
                    steps += 1
                    if terminated or truncated:
                        result = info.get("result")
                        if result and result.get("status") == "error":
                            # deskworld's environment broke: the episode failed, not the agent
                            raise RuntimeError(f"deskworld's environment broke on {data.task}: {result.get('error')}")
                        trace.record_metric("truncated", float(truncated))
                        break
                    segment = await interaction.turn(observation_turn(obs, steps, max_steps))
                score = float(result["score"]) if result else 0.0
                passed = bool(result and result.get("passed"))
                trace.record_reward("deskworld", score)
                trace.record_reward("passed", float(passed), weight=0.0)
                trace.record_metric("steps", float(steps))
                trace.record_metric("malformed_replies", float(malformed))
                trace.record_metric("episode_ended", float(result is not None))
                if result is not None:
                    trace.info["deskworld_result"] = {
                        k: result[k] for k in ("status", "passed", "score", "lines", "checks") if k in result
                    }
        finally:
            await asyncio.to_thread(env.close)
