"""An OpenAI model as a computer-use agent (``--agent openai --model …``).

The Responses API loop of OpenAI's computer-use guide:

1. The first request holds the task and a screenshot (``input_image``) and
   the computer tool: ``{"type": "computer"}`` (GPT-5.4 and later: the
   model answers with a ``computer_call`` holding a batch of ``actions``),
   or for ``computer-use-preview`` models ``computer_use_preview`` with the
   display size and ``environment: "browser"`` (one ``action`` per call;
   ``truncation: "auto"``, which bounds the server-side history).
2. Each action of a ``computer_call`` is one env step (a ``screenshot``
   action needs none); after the batch, the call is answered with a
   ``computer_call_output`` carrying the current screenshot.
3. Requests are chained with ``previous_response_id``, so the conversation
   (and its screenshots) lives on the server.
4. ``pending_safety_checks`` are recorded in the step and handled by the
   ``safety`` policy: ``acknowledge`` (default: the workspace is a sandbox)
   sends them back in ``acknowledged_safety_checks``; ``stop`` ends the
   episode there (recorded as the reason).
5. A response without a ``computer_call`` ends the episode: its text becomes
   ``done``. Reasoning summaries are recorded as the step's thought.

Retries on 429/5xx/timeouts are the SDK's (``max_retries``), counted in the
usage. The screenshot is sent as it is when within ``LIMITS["openai"]`` (1280×800 is), shrunk
otherwise or to ``--screen-size``; coordinates are mapped back, as for Claude.
"""
from __future__ import annotations

from harness.env.actions import ActionError, parse
from harness.env.adapters import from_openai
from harness.agents.model import (ModelAgentBase, Pending, call_usage, create, final_action, goal_of, asked_user,
                                  reply_text, sdk_client, system_prompt)

SAFETY_POLICIES = ("acknowledge", "stop")


def is_preview(model: str) -> bool:
    return model.startswith("computer-use-preview")


class OpenAIAgent(ModelAgentBase):
    name = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, screen_size=None, safety: str = "acknowledge",
                 reasoning_summary: str | None = "concise", max_retries: int = 4, timeout: float = 120.0,
                 history_images: int = 3, client=None):
        if safety not in SAFETY_POLICIES:
            raise ValueError(f"safety policy must be one of {', '.join(SAFETY_POLICIES)}, not {safety!r}")
        super().__init__(model, screen_size=screen_size, history_images=history_images)
        self.client = client or sdk_client("openai", base_url=base_url, max_retries=max_retries, timeout=timeout)
        self.safety = safety
        self.reasoning_summary = reasoning_summary

    def reset(self, task) -> None:
        super().reset(task)
        self.previous_id: str | None = None
        self.input: list = []
        self.calls: dict[str, list] = {}              # call_id -> pending safety checks
        self.safety_log: list[dict] = []

    def _tool(self) -> dict:
        if is_preview(self.model):
            w, h = self.screen.size
            return {"type": "computer_use_preview", "display_width": w, "display_height": h,
                    "environment": "browser"}
        return {"type": "computer"}

    def _start(self, obs: dict) -> None:
        self.input = [{"role": "user", "content": [
            {"type": "input_text", "text": goal_of(self.task, obs)},
            {"type": "input_image", "image_url": self.screen.data_url(obs["screenshot"]),
             "detail": "high" if is_preview(self.model) else "original"}]}]

    def _continue(self, obs: dict, results: list[Pending]) -> None:
        self.input = []
        shot = self.screen.data_url(obs["screenshot"])
        if asked_user(results):
            # A text turn that asked: the principal's answer is the next user message.
            self.input.append({"role": "user", "content": [{"type": "input_text", "text": reply_text(obs)},
                                                           {"type": "input_image", "image_url": shot}]})
            return
        order = list(dict.fromkeys(p.call_id for p in results))
        for call_id in order:
            item = {"type": "computer_call_output", "call_id": call_id,
                    "output": {"type": "computer_screenshot", "image_url": shot}}
            checks = self.calls.pop(call_id, [])
            if checks:
                item["acknowledged_safety_checks"] = checks
            self.input.append(item)

    def observe(self, p: Pending, obs: dict) -> None:
        pass                                   # the call's output is always the current screenshot

    def _request(self) -> dict:
        req = {"model": self.model, "instructions": system_prompt(size=self.screen.size), "tools": [self._tool()], "input": self.input}
        if self.previous_id:
            req["previous_response_id"] = self.previous_id
        # The conversation lives on the server; "auto" drops its oldest items when the context is full
        # (and computer-use-preview requires it).
        req["truncation"] = "auto"
        if self.reasoning_summary:
            req["reasoning"] = {"summary": self.reasoning_summary}
        return req

    def _call(self) -> list[Pending]:
        req = self._request()
        resp, retries = create(self.client.responses, **req)
        self.previous_id = resp.id
        usage = call_usage(self.model, resp, retries)
        thought, text, pending, checks_seen = [], [], [], []
        for item in resp.output:
            if item.type == "reasoning":
                thought += [s.text for s in (item.summary or []) if getattr(s, "text", None)]
            elif item.type == "message":
                text += [c.text for c in item.content if getattr(c, "type", "") == "output_text"]
            elif item.type == "computer_call":
                checks = [c.to_dict(mode="json") for c in item.pending_safety_checks or []]
                if checks:
                    checks_seen += [{"call_id": item.call_id, **c} for c in checks]
                self.calls[item.call_id] = checks
                pending += self._convert(item)
        self.note_call(req, resp.to_dict(mode="json"), usage, thought="\n".join(thought) or None)
        if checks_seen:
            self._record["safety_checks"] = [{**c, "policy": self.safety} for c in checks_seen]
        if checks_seen and self.safety == "stop":
            self.safety_log += checks_seen
            msg = "; ".join(c.get("message") or c.get("code") or c["id"] for c in checks_seen)
            return [Pending("", {"type": "done", "status": "complete", "answer": None},
                            ack=f"stopped at a safety check: {msg}")]
        if not pending:
            return [Pending("", final_action("\n".join(text)))]
        return pending

    def _convert(self, item) -> list[Pending]:
        raw = item.to_dict(mode="json")
        batch = raw.get("actions") if raw.get("actions") is not None else ([raw["action"]] if raw.get("action") else [])
        out: list[Pending] = []
        for a in batch:
            if a.get("type") == "screenshot":
                out.append(Pending(item.call_id, None, observe="screenshot"))
                continue
            try:
                acts = from_openai(a, scale=self.screen.scale)
                for one in acts:
                    parse(one, screen=self.screen.source)
            except ActionError as e:
                # The API has no error channel back to the model (the call's output is a screenshot), so
                # the batch stops here; the model sees on the next screenshot that nothing happened.
                self._record.setdefault("invalid_actions", []).append({"call_id": item.call_id, "action": a,
                                                                        "error": str(e)})
                break
            out += [Pending(item.call_id, one) for one in acts]
        if not out:
            out.append(Pending(item.call_id, None, observe="screenshot"))
        return out
