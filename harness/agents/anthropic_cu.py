"""Claude as a computer-use agent (``--agent anthropic --model claude-…``).

The Messages API loop of Anthropic's reference implementation:

1. The first user turn holds the task and a screenshot; the system prompt is
   cached (``cache_control`` on its block, plus the top-level rolling
   breakpoint so the growing conversation is cached too).
2. Claude answers with ``tool_use`` blocks. With the current tool,
   ``computer_toolset_20260801`` (GA, no beta header), each block is one
   member (``left_click``, ``type``, ``screenshot``, ``zoom``…) carrying
   ``toolset_name: "computer"``, often several per turn (a batch). With the
   previous tool, ``computer_20251124`` (``--computer-tool computer_20251124``,
   beta header ``computer-use-2025-11-24``), it is one ``computer`` tool with
   an ``action`` and a declared display size.
3. Each action is one env step; a batch runs in order and stops at the first
   failure (later calls: "Not executed"). ``screenshot``, ``zoom`` and
   ``cursor_position`` are answered from the latest observation without a step.
4. Every ``tool_use`` id gets its ``tool_result`` in the next user turn:
   an acknowledgement ("Clicked."), an image (screenshot, zoom) or the error
   (``is_error``). The previous tool gets a fresh screenshot with the last
   result of each turn, as its reference loop does.
5. A turn with no tool calls ends the episode: its text becomes ``done``
   (``ANSWER:`` and ``INFEASIBLE`` are read by the verifier / ``final_action``).
   ``pause_turn`` is continued; malformed tool input is answered with an
   error and Claude is asked again (three times at most).

The screenshot is sent 1:1 when it is within the API's image limits (1280×800 is)
and shrunk to fit them otherwise (an appearance variant's 2560×1600 is sent as
1356×847: ``harness.agents.model.Screen``), or at ``--screen-size``; coordinates are
mapped back to the screenshot's pixels. Only the newest ``history_images`` screenshots are kept in the
conversation (older ones become a text stub, trimmed in chunks so the
prompt cache keeps hitting). Rate limits, overloads (529), 5xx and timeouts
are retried with backoff by the SDK (``max_retries``); the retries taken are
counted in the usage.
"""
from __future__ import annotations

import base64
import io

from PIL import Image

from harness.env.actions import ActionError, parse
from harness.env.adapters import from_anthropic
from harness.agents.model import (ModelAgentBase, Pending, call_usage, create, final_action, goal_of, asked_user,
                                  reply_text, sdk_client, system_prompt)

TOOLSET = "computer_toolset_20260801"
PREVIOUS = "computer_20251124"
PREVIOUS_BETA = "computer-use-2025-11-24"
MAX_MALFORMED_TURNS = 3
TRIM_CHUNK = 4                       # images removed together, so the cached prefix changes rarely

ACKS = {"left_click": "Clicked.", "right_click": "Right-clicked.", "middle_click": "Middle-clicked.",
        "double_click": "Double-clicked.", "triple_click": "Triple-clicked.", "left_click_drag": "Dragged.",
        "type": "Typed.", "mouse_move": "Moved the mouse.", "left_mouse_down": "Left mouse button pressed.",
        "left_mouse_up": "Left mouse button released."}
OBSERVE_ONLY = ("screenshot", "zoom", "cursor_position")


def _image_block(png: bytes) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                        "data": base64.b64encode(png).decode("ascii")}}


def _param_block(block) -> dict:
    """A response content block as the request param that echoes it back."""
    d = block.to_dict(mode="json") if hasattr(block, "to_dict") else dict(block)
    t = d.get("type")
    keep = {"text": ("type", "text"), "thinking": ("type", "thinking", "signature"),
            "redacted_thinking": ("type", "data"),
            "tool_use": ("type", "id", "name", "input", "toolset_name", "caller")}.get(t)
    if keep is None:
        return d
    return {k: d[k] for k in keep if d.get(k) is not None}


class AnthropicAgent(ModelAgentBase):
    name = "anthropic"

    def __init__(self, model: str, *, base_url: str | None = None, computer_tool: str = TOOLSET,
                 screen_size: tuple[int, int] | str | None = None, max_tokens: int = 4096,
                 history_images: int = 3, max_retries: int = 4, timeout: float = 120.0, client=None):
        if computer_tool not in (TOOLSET, PREVIOUS):
            raise ValueError(f"computer tool must be {TOOLSET} or {PREVIOUS}, not {computer_tool!r}")
        super().__init__(model, screen_size=screen_size, history_images=history_images)
        self.client = client or sdk_client("anthropic", base_url=base_url, max_retries=max_retries, timeout=timeout)
        self.tool = computer_tool
        self.max_tokens = max_tokens

    # ------------------------------------------------------------------ the conversation
    def reset(self, task) -> None:
        super().reset(task)
        self.messages: list[dict] = []
        self._sent = 0                        # messages already recorded in an earlier call
        self.cursor = (self.screen.size[0] // 2, self.screen.size[1] // 2)
        self._obs = None

    def _tools(self) -> list[dict]:
        if self.tool == TOOLSET:
            return [{"type": TOOLSET}]
        w, h = self.screen.size
        return [{"type": PREVIOUS, "name": "computer", "display_width_px": w, "display_height_px": h,
                 "enable_zoom": True}]

    def _start(self, obs: dict) -> None:
        self._obs = obs
        self.messages.append({"role": "user", "content": [
            {"type": "text", "text": goal_of(self.task, obs)}, _image_block(self.screen.png(obs["screenshot"]))]})

    def _continue(self, obs: dict, results: list[Pending]) -> None:
        self._obs = obs
        if asked_user(results):               # a text turn that asked: the answer is the next user turn
            self.messages.append({"role": "user", "content": [{"type": "text", "text": reply_text(obs)},
                                                              _image_block(self.screen.png(obs["screenshot"]))]})
            return
        by_id: dict[str, list[Pending]] = {}
        for p in results:
            by_id.setdefault(p.call_id, []).append(p)
        content = []
        for call_id, ps in by_id.items():
            content.append(self._result(call_id, ps))
        if self.tool == PREVIOUS and content and not content[-1].get("is_error"):
            last = content[-1]
            if not any(b.get("type") == "image" for b in last["content"]):
                last["content"].append(_image_block(self.screen.png(obs["screenshot"])))
        self.messages.append({"role": "user", "content": content})

    def _result(self, call_id: str, ps: list[Pending]) -> dict:
        out = {"type": "tool_result", "tool_use_id": call_id}
        if self.tool == TOOLSET:
            out["toolset_name"] = "computer"
        err = next((p.error for p in ps if p.error), "")
        if err:
            out.update(is_error=True, content=[{"type": "text", "text": err}])
            return out
        blocks = []
        for p in ps:
            if p.output is not None:
                blocks.append(p.output)
        if not blocks:
            blocks = [{"type": "text", "text": ps[-1].ack or "Done."}]
        out["content"] = blocks
        return out

    # ------------------------------------------------------------------ observation-only members
    def observe(self, p: Pending, obs: dict) -> None:
        kind = p.observe
        if kind == "screenshot":
            p.output = _image_block(self.screen.png(obs["screenshot"]))
        elif kind == "cursor_position":
            p.output = {"type": "text", "text": f"X={self.cursor[0]},Y={self.cursor[1]}"}
        elif kind == "zoom":
            x0, y0, x1, y1 = p.region
            sx, sy = self.screen.scale
            sw, sh = self.screen.source
            box = (max(0, round(x0 * sx)), max(0, round(y0 * sy)),
                   min(sw, round(x1 * sx)), min(sh, round(y1 * sy)))
            im = Image.fromarray(obs["screenshot"], "RGB").crop(box)
            mw, mh = self.screen.size                # the zoomed view is at most the size of a screenshot sent
            f = min(mw / im.width, mh / im.height)
            im = im.resize((max(1, int(im.width * f)), max(1, int(im.height * f))), Image.LANCZOS)
            buf = io.BytesIO()
            im.save(buf, "PNG")
            p.output = _image_block(buf.getvalue())

    # ------------------------------------------------------------------ one model turn
    def _request(self) -> dict:
        req = {"model": self.model, "max_tokens": self.max_tokens,
               "system": [{"type": "text", "text": system_prompt(size=self.screen.size), "cache_control": {"type": "ephemeral"}}],
               "tools": self._tools(), "messages": self.messages, "cache_control": {"type": "ephemeral"}}
        if self.tool == PREVIOUS:
            req["betas"] = [PREVIOUS_BETA]
        return req

    def _create(self, req: dict):
        return create(self.client.beta.messages if self.tool == PREVIOUS else self.client.messages, **req)

    def _call(self) -> list[Pending]:
        malformed = 0
        while True:
            self._trim_images()
            req = self._request()
            resp, retries = self._create(req)
            usage = call_usage(self.model, resp, retries)
            blocks = [_param_block(b) for b in resp.content]
            thought = "\n".join(b.get("text") or b.get("thinking") or "" for b in blocks
                                if b["type"] in ("text", "thinking")).strip()
            new = self.messages[self._sent:]
            self._sent = len(self.messages) + 1
            self.note_call({**{k: v for k, v in req.items() if k != "messages"}, "messages": new,
                            "n_messages": len(self.messages)},
                           resp.to_dict(mode="json"), usage, thought=thought or None,
                           stop_reason=resp.stop_reason)
            self.messages.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "…"}]})
            if resp.stop_reason == "pause_turn":
                continue
            uses = [b for b in blocks if b["type"] == "tool_use"]
            if not uses:
                text = "\n".join(b["text"] for b in blocks if b["type"] == "text")
                return [Pending("", final_action(text))]
            pending, errors = [], {}
            for b in uses:
                try:
                    pending += self._convert(b)
                except ActionError as e:
                    errors[b["id"]] = f"Invalid input: {e}"
            if not errors:
                return pending
            malformed += 1
            content = []
            for b in uses:
                r = {"type": "tool_result", "tool_use_id": b["id"], "is_error": True,
                     "content": [{"type": "text", "text": errors.get(
                         b["id"], "Not executed: another computer action in this turn had invalid input.")}]}
                if self.tool == TOOLSET:
                    r["toolset_name"] = "computer"
                content.append(r)
            self.messages.append({"role": "user", "content": content})
            if malformed >= MAX_MALFORMED_TURNS:
                return [Pending("", {"type": "done", "status": "complete", "answer": None},
                                ack="gave up after malformed tool input")]

    def _convert(self, block: dict) -> list[Pending]:
        if self.tool == TOOLSET:
            if block.get("toolset_name") not in (None, "computer"):
                raise ActionError(f"unknown toolset {block.get('toolset_name')!r}")
            inp = {"action": block["name"], **(block.get("input") or {})}
        else:
            if block["name"] != "computer":
                raise ActionError(f"unknown tool {block['name']!r}")
            inp = dict(block.get("input") or {})
        if not isinstance(inp.get("action"), str):
            raise ActionError("missing 'action'")
        act = inp["action"]
        if act in OBSERVE_ONLY:
            p = Pending(block["id"], None, observe=act)
            if act == "zoom":
                region = inp.get("region")
                if (not isinstance(region, list) or len(region) != 4
                        or not all(isinstance(v, (int, float)) for v in region)
                        or region[2] <= region[0] or region[3] <= region[1]):
                    raise ActionError(f"zoom needs region [x0, y0, x1, y1] with x1 > x0 and y1 > y0, got {region!r}")
                p.region = region
            return [p]
        if act in ("left_click", "right_click", "middle_click", "double_click", "triple_click") \
                and inp.get("coordinate") is None:
            inp["coordinate"] = list(self.cursor)
        if act == "scroll" and inp.get("coordinate") is None:
            inp["coordinate"] = list(self.cursor)
        if act in ("wait", "hold_key") and "duration" in inp:
            try:
                inp["duration"] = min(float(inp["duration"]), 10.0)
            except (TypeError, ValueError):
                raise ActionError(f"duration must be a number of seconds, got {inp['duration']!r}") from None
        if act == "key" and inp.get("repeat") is not None:
            try:
                n = max(1, min(int(inp.pop("repeat")), 50))
            except (TypeError, ValueError):
                raise ActionError("repeat must be a whole number") from None
            inp["text"] = " ".join([str(inp.get("text", ""))] * n)
        actions = from_anthropic(inp, scale=self.screen.scale)
        for a in actions:
            parse(a, screen=self.screen.source)  # bad coordinates are the model's error, reported now
        if isinstance(inp.get("coordinate"), list) and len(inp["coordinate"]) == 2:
            self.cursor = tuple(int(v) for v in inp["coordinate"])
        ack = ACKS.get(act) or {"key": f"Pressed {inp.get('text', '')}.", "hold_key": f"Pressed {inp.get('text', '')}.",
                                "scroll": f"Scrolled {inp.get('scroll_direction', '')}.",
                                "wait": f"Waited {inp.get('duration', 1)}s."}.get(act, "Done.")
        return [Pending(block["id"], a, ack=ack) for a in actions]

    # ------------------------------------------------------------------ bounded history
    def _trim_images(self) -> None:
        """Keep the newest ``max_history_images`` screenshots; older ones become a text stub."""
        spots = []
        for m in self.messages:
            if m["role"] != "user" or not isinstance(m["content"], list):
                continue
            for blk in m["content"]:
                if blk.get("type") == "image":
                    spots.append((m["content"], blk))
                elif blk.get("type") == "tool_result" and isinstance(blk.get("content"), list):
                    for inner in blk["content"]:
                        if inner.get("type") == "image":
                            spots.append((blk["content"], inner))
        extra = len(spots) - self.max_history_images
        if extra < TRIM_CHUNK:
            return
        for holder, blk in spots[:extra]:
            holder[holder.index(blk)] = {"type": "text", "text": "[older screenshot removed]"}
