"""Any vision-language model behind an OpenAI-compatible Chat Completions
server — vLLM, SGLang, Ollama, LM Studio, or OpenAI itself — as an agent
(``--agent vlm --base-url http://localhost:8000/v1 --model …``).

Each turn sends the conversation with the newest screenshots as ``image_url``
parts (older ones become a text stub: ``history_images``); the model replies
in text, which ``harness.agents.grammar`` parses leniently: JSON actions
(the documented grammar, generated from the action schemas), Qwen-VL
``<tool_call>`` computer-use calls, or UI-TARS ``Action: click(…)`` lines,
with coordinates in screenshot pixels (``coords="pixel"``, mapped back when
``--screen-size`` rescales) or on a 0–1000 grid (``coords="norm1000"``).
Several actions in one reply run one per step; the next user turn reports
each one's result and shows the new screenshot. A reply with no action is
answered with the parse error (three times at most in a row, then the
episode ends). The API key is read from ``OPENAI_API_KEY`` (or the variable
named by ``api_key_env``); local servers that need none get ``EMPTY``.
"""
from __future__ import annotations

import os

from harness.agents.grammar import grammar_prompt, parse_reply
from harness.agents.model import ModelAgentBase, Pending, call_usage, create, goal_of, sdk_client, system_prompt

MAX_UNPARSED_TURNS = 3


class VLMAgent(ModelAgentBase):
    name = "vlm"

    def __init__(self, model: str, *, base_url: str | None = None, screen_size=None, coords: str = "pixel",
                 history_images: int = 3, max_tokens: int = 1024, temperature: float = 0.0,
                 max_retries: int = 4, timeout: float = 120.0, api_key_env: str = "OPENAI_API_KEY", client=None):
        if coords not in ("pixel", "norm1000"):
            raise ValueError(f"coords must be pixel or norm1000, not {coords!r}")
        super().__init__(model, screen_size=screen_size, history_images=history_images)
        if client is None and not base_url and not os.environ.get("OPENAI_BASE_URL"):
            raise ValueError("the vlm agent needs --base-url (or OPENAI_BASE_URL): the server's /v1 address")
        self.client = client or sdk_client("vlm", base_url=base_url, max_retries=max_retries, timeout=timeout,
                                           api_key_env=api_key_env)
        self.coords = coords
        self.max_tokens = max_tokens
        self.temperature = temperature

    def reset(self, task) -> None:
        super().reset(task)
        self.messages: list[dict] = []           # the system prompt names the screen: written with the first screenshot
        self._sent = 0

    def _image(self, obs) -> dict:
        return {"type": "image_url", "image_url": {"url": self.screen.data_url(obs["screenshot"])}}

    def _start(self, obs: dict) -> None:
        self.screen.see(obs)
        self.messages.append({"role": "system", "content": system_prompt(size=self.screen.size) + "\n\n"
                              + grammar_prompt()})
        self.messages.append({"role": "user", "content": [
            {"type": "text", "text": "Task: " + goal_of(self.task, obs)}, self._image(obs)]})

    def _continue(self, obs: dict, results: list[Pending]) -> None:
        lines = []
        for i, p in enumerate(results, 1):
            lines.append(f"Action {i} ({p.action.get('type') if p.action else p.observe}): "
                         + (f"error: {p.error}" if p.error else "ok"))
        said = (obs.get("user_reply") or "").strip()
        self.messages.append({"role": "user", "content": [
            {"type": "text", "text": "\n".join(lines) + (f"\nThe reply: {said}" if said else "")
             + "\nThis is the screen now."}, self._image(obs)]})

    def observe(self, p: Pending, obs: dict) -> None:
        pass

    def _call(self) -> list[Pending]:
        for _ in range(MAX_UNPARSED_TURNS):
            self._trim_images()
            req = {"model": self.model, "messages": self.messages, "max_tokens": self.max_tokens,
                   "temperature": self.temperature}
            resp, retries = create(self.client.chat.completions, **req)
            usage = call_usage(self.model, resp, retries)
            text = (resp.choices[0].message.content or "") if resp.choices else ""
            parsed = parse_reply(text, scale=self.screen.scale, coords=self.coords, screen=self.screen.source)
            new = self.messages[self._sent:]
            self._sent = len(self.messages) + 1
            self.note_call({**{k: v for k, v in req.items() if k != "messages"}, "messages": new,
                            "n_messages": len(self.messages)}, resp.to_dict(mode="json"), usage,
                           thought=parsed.thought or None, grammar=parsed.format,
                           **({"parse_errors": parsed.errors} if parsed.errors else {}))
            self.messages.append({"role": "assistant", "content": text})
            if parsed.actions:
                return [Pending(f"a{i}", a) for i, a in enumerate(parsed.actions)]
            self.messages.append({"role": "user", "content": "I could not read an action in your reply: "
                                  + "; ".join(parsed.errors or ["no action found"])
                                  + ". Reply with one action in the format described."})
        return [Pending("", {"type": "done", "status": "complete", "answer": None})]

    def _trim_images(self) -> None:
        spots = [(m["content"], part) for m in self.messages if m["role"] == "user" and isinstance(m["content"], list)
                 for part in m["content"] if part.get("type") == "image_url"]
        for holder, part in spots[:max(0, len(spots) - self.max_history_images)]:
            holder[holder.index(part)] = {"type": "text", "text": "[older screenshot removed]"}
