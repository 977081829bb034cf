"""A local stand-in for the model vendors' APIs, for tests with no network.

``FakeVendor`` is a small Flask app on a loopback port that speaks three wire
formats: Anthropic's Messages API (``POST /v1/messages``), OpenAI's Responses
API (``POST /v1/responses``) and Chat Completions (``POST /v1/chat/completions``).
The real SDK clients are pointed at it with ``base_url``.

Every request is validated against the SDK's own typed request models
(``pydantic.TypeAdapter`` over the SDK's ``…CreateParamsNonStreaming``
TypedDicts — consumed fully, since their ``Iterable`` fields validate lazily —
plus a key-by-key diff, because TypedDicts silently drop unknown keys), and
against the rules the real APIs enforce that types can't express: every
``tool_use`` answered by a ``tool_result`` in order (with ``toolset_name``),
images that decode and fit the model's limits, the beta header for the old
computer tool, ``previous_response_id`` chaining, every ``computer_call``
answered and its safety checks acknowledged. A request that breaks a rule
gets the vendor's 400 error body, so a test fails loudly.

Responses are built from the SDK's typed response models (``Message``,
``Response``, ``ChatCompletion``) and sent as their JSON, so fixtures can't
drift from the API. A script is a queue per API of items: a payload dict,
``Err(status, …)`` (with ``retry-after`` 0 so retries are quick), ``Slow(s,
item)`` (answers after ``s`` seconds, to exercise timeouts), or a callable
``(request_json) -> item``.
"""
from __future__ import annotations

import base64
import io
import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from flask import Flask, jsonify, request
from PIL import Image
from pydantic import TypeAdapter, ValidationError
from werkzeug.serving import make_server

_ids = itertools.count(1)


def new_id(prefix: str) -> str:
    return f"{prefix}_{next(_ids):04d}"


@dataclass
class Err:
    status: int
    message: str = "error"
    kind: str | None = None
    headers: dict = field(default_factory=lambda: {"retry-after-ms": "1"})


@dataclass
class Slow:
    seconds: float
    item: object


class Rejected(Exception):
    pass


# ---------------------------------------------------------------- validation
def unknown_keys(given, dumped, path="") -> list[str]:
    """Keys present in the request but dropped by the typed model (the real API rejects them)."""
    out = []
    if isinstance(given, dict) and isinstance(dumped, dict):
        for k, v in given.items():
            if k not in dumped:
                out.append(f"{path}.{k}".lstrip("."))
            else:
                out += unknown_keys(v, dumped[k], f"{path}.{k}")
    elif isinstance(given, list) and isinstance(dumped, list):
        for i, (a, b) in enumerate(zip(given, dumped)):
            out += unknown_keys(a, b, f"{path}[{i}]")
    return out


def typed(adapter: TypeAdapter, body: dict) -> dict:
    try:
        dumped = adapter.dump_python(adapter.validate_python(body), mode="json")
    except ValidationError as e:
        raise Rejected(f"request does not match the SDK types: {e.errors()[0]['loc']}: {e.errors()[0]['msg']}")
    extra = unknown_keys(body, dumped)
    if extra:
        raise Rejected(f"unknown fields: {', '.join(extra)}")
    return dumped


def image_size(data: str) -> tuple[int, int]:
    raw = data.split(",", 1)[1] if data.startswith("data:") else data
    try:
        with Image.open(io.BytesIO(base64.b64decode(raw, validate=True))) as im:
            return im.size
    except Exception:
        raise Rejected("an image does not decode as base64 PNG/JPEG")


def check_image(data: str, max_long: int = 1568, max_pixels: int = 1_200_000) -> tuple[int, int]:
    w, h = image_size(data)
    if max(w, h) > max_long or w * h > max_pixels:
        raise Rejected(f"image {w}x{h} exceeds the model's image limits")
    return w, h


def _blocks(content):
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def anthropic_rules(body: dict, headers) -> None:
    tools = body.get("tools") or []
    kinds = {t.get("type") for t in tools}
    beta = headers.get("anthropic-beta", "")
    if "computer_20251124" in kinds and "computer-use-2025-11-24" not in beta:
        raise Rejected("computer_20251124 needs the beta header computer-use-2025-11-24")
    if not headers.get("x-api-key") and not headers.get("authorization", "").startswith("Bearer "):
        raise Rejected("missing credentials (x-api-key or a bearer token)")
    toolset = "computer_toolset_20260801" in kinds
    msgs = body["messages"]
    if not msgs or msgs[0]["role"] != "user":
        raise Rejected("messages must start with a user turn")
    for i, m in enumerate(msgs):
        for b in _blocks(m["content"]):
            if b.get("type") == "image":
                check_image(b["source"]["data"])
            if b.get("type") == "tool_result":
                for inner in _blocks(b.get("content") or []):
                    if inner.get("type") == "image":
                        check_image(inner["source"]["data"])
                if b.get("is_error") and not b.get("content"):
                    raise Rejected("an is_error tool_result needs content")
        if m["role"] == "assistant":
            uses = [b["id"] for b in _blocks(m["content"]) if b.get("type") == "tool_use"]
            if uses:
                if i + 1 >= len(msgs):
                    raise Rejected("tool_use ids without tool_result: " + ", ".join(uses))
                results = [b for b in _blocks(msgs[i + 1]["content"]) if b.get("type") == "tool_result"]
                if [r["tool_use_id"] for r in results] != uses:
                    raise Rejected(f"tool_result ids {[r['tool_use_id'] for r in results]} do not answer "
                                   f"tool_use ids {uses} in order")
                if toolset and any(r.get("toolset_name") != "computer" for r in results):
                    raise Rejected("a tool_result for a computer member must echo toolset_name 'computer'")
    if msgs[-1]["role"] != "user":
        raise Rejected("the last message must be a user turn")


# ---------------------------------------------------------------- building responses
def anthropic_message(content: list[dict], *, stop_reason: str | None = None, model: str = "claude-sonnet-5-5",
                      usage: dict | None = None) -> dict:
    from anthropic.types import Message
    blocks = []
    for b in content:
        if b.get("type") == "tool_use":
            b = {"id": new_id("toolu"), "caller": {"type": "direct"}, **b}
        blocks.append(b)
    stop = stop_reason or ("tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn")
    msg = Message.model_validate({
        "id": new_id("msg"), "type": "message", "role": "assistant", "model": model, "content": blocks,
        "stop_reason": stop, "stop_sequence": None,
        "usage": usage or {"input_tokens": 1200, "output_tokens": 80, "cache_read_input_tokens": 900,
                           "cache_creation_input_tokens": 300}})
    return msg.to_dict(mode="json")


def member(name: str, **inp) -> dict:
    """A ``computer_toolset_20260801`` member call."""
    return {"type": "tool_use", "name": name, "input": inp, "toolset_name": "computer"}


def computer(action: str, **inp) -> dict:
    """A ``computer_20251124`` call."""
    return {"type": "tool_use", "name": "computer", "input": {"action": action, **inp}}


def openai_response(output: list[dict], *, model: str = "gpt-5.4", usage: dict | None = None) -> dict:
    from openai.types.responses import Response
    items = []
    for it in output:
        it = dict(it)
        it.setdefault("id", new_id({"computer_call": "cu", "message": "msg", "reasoning": "rs"}[it["type"]]))
        items.append(it)
    resp = Response.model_validate({
        "id": new_id("resp"), "object": "response", "created_at": 1_780_000_000, "model": model, "output": items,
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "status": "completed",
        "usage": usage or {"input_tokens": 1500, "output_tokens": 60, "total_tokens": 1560,
                           "input_tokens_details": {"cached_tokens": 1000, "cache_write_tokens": 200},
                           "output_tokens_details": {"reasoning_tokens": 20}}})
    return resp.to_dict(mode="json")


def computer_call(actions: list[dict] | None = None, *, action: dict | None = None, checks: list[dict] | None = None,
                  call_id: str | None = None) -> dict:
    item = {"type": "computer_call", "call_id": call_id or new_id("call"), "status": "completed",
            "pending_safety_checks": checks or []}
    if actions is not None:
        item["actions"] = actions
    if action is not None:
        item["action"] = action
    return item


def message_item(text: str) -> dict:
    return {"type": "message", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def reasoning_item(summary: str) -> dict:
    return {"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}]}


def chat_completion(text: str, *, model: str = "qwen2.5-vl-7b") -> dict:
    from openai.types.chat import ChatCompletion
    return ChatCompletion.model_validate({
        "id": new_id("chatcmpl"), "object": "chat.completion", "created": 1_780_000_000, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 2000, "completion_tokens": 40, "total_tokens": 2040}}).to_dict(mode="json")


# ---------------------------------------------------------------- the server
class FakeVendor:
    APIS = ("anthropic", "responses", "chat")

    def __init__(self):
        from anthropic.types.beta.message_create_params import \
            MessageCreateParamsNonStreaming as BetaParams
        from anthropic.types.message_create_params import MessageCreateParamsNonStreaming as AParams
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming as CParams
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming as RParams
        self.adapters = {"anthropic": TypeAdapter(AParams), "anthropic-beta": TypeAdapter(BetaParams),
                         "responses": TypeAdapter(RParams), "chat": TypeAdapter(CParams)}
        self.scripts: dict[str, deque] = {a: deque() for a in self.APIS}
        self.requests: list[dict] = []            # every request received: {api, json, headers}
        self.rejections: list[str] = []
        self.responses: dict[str, dict] = {}      # OpenAI response id -> response (for chaining checks)
        self.lock = threading.Lock()
        self.app = self._build()
        self._server = None

    def script(self, api: str, *items) -> "FakeVendor":
        self.scripts[api].extend(items)
        return self

    def calls(self, api: str) -> list[dict]:
        return [r["json"] for r in self.requests if r["api"] == api]

    # ---- lifecycle
    def start(self) -> "FakeVendor":
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()

    # ---- the app
    def _build(self) -> Flask:
        app = Flask("fake-vendor")

        def serve(api: str, validate):
            body = request.get_json(force=True)
            headers = {k.lower(): v for k, v in request.headers.items()}
            with self.lock:
                self.requests.append({"api": api, "json": body, "headers": headers})
            try:
                validate(body, headers)
            except Rejected as e:
                self.rejections.append(str(e))
                return self._error(api, Err(400, str(e), "invalid_request_error"))
            with self.lock:
                if not self.scripts[api]:
                    self.rejections.append(f"unexpected {api} request #{len(self.calls(api))}")
                    return self._error(api, Err(400, "the fake has no scripted reply left", "invalid_request_error"))
                item = self.scripts[api].popleft()
            if callable(item) and not isinstance(item, (Err, Slow)):
                item = item(body)
            if isinstance(item, Slow):
                time.sleep(item.seconds)
                item = item.item
            if isinstance(item, Err):
                return self._error(api, item)
            if api == "responses":
                self.responses[item["id"]] = item
            return jsonify(item)

        @app.post("/v1/messages")
        def messages():
            def validate(body, headers):
                typed(self.adapters["anthropic-beta" if headers.get("anthropic-beta") else "anthropic"], body)
                anthropic_rules(body, headers)
            return serve("anthropic", validate)

        @app.post("/v1/responses")
        def responses():
            def validate(body, headers):
                typed(self.adapters["responses"], body)
                if not headers.get("authorization", "").startswith("Bearer "):
                    raise Rejected("missing bearer token")
                tools = [t.get("type") for t in body.get("tools") or []]
                if "computer_use_preview" in tools and body.get("truncation") != "auto":
                    raise Rejected("computer_use_preview requires truncation 'auto'")
                prev = body.get("previous_response_id")
                items = body["input"] if isinstance(body["input"], list) else []
                for it in items:
                    for part in it.get("content") or [] if isinstance(it.get("content"), list) else []:
                        if part.get("type") == "input_image":
                            check_image(part["image_url"], 2048, 2_400_000)
                    if it.get("type") == "computer_call_output":
                        check_image(it["output"]["image_url"], 2048, 2_400_000)
                if prev is not None:
                    if prev not in self.responses:
                        raise Rejected(f"previous_response_id {prev!r} not found")
                    calls = {o["call_id"]: o for o in self.responses[prev]["output"] if o["type"] == "computer_call"}
                    outs = {it["call_id"]: it for it in items if it.get("type") == "computer_call_output"}
                    if set(outs) != set(calls):
                        raise Rejected(f"computer_call_output for {sorted(outs)} but the calls were {sorted(calls)}")
                    for cid, call in calls.items():
                        want = [c["id"] for c in call.get("pending_safety_checks") or []]
                        got = [c["id"] for c in outs[cid].get("acknowledged_safety_checks") or []]
                        if want != got:
                            raise Rejected(f"safety checks {want} of {cid} were not acknowledged")
            return serve("responses", validate)

        @app.post("/v1/chat/completions")
        def chat():
            def validate(body, headers):
                typed(self.adapters["chat"], body)
                for m in body["messages"]:
                    for part in m["content"] if isinstance(m.get("content"), list) else []:
                        if part.get("type") == "image_url":
                            image_size(part["image_url"]["url"])
            return serve("chat", validate)

        return app

    def _error(self, api: str, err: Err):
        if api == "anthropic":
            kind = err.kind or {429: "rate_limit_error", 529: "overloaded_error", 500: "api_error"}.get(
                err.status, "api_error")
            body = {"type": "error", "error": {"type": kind, "message": err.message}, "request_id": new_id("req")}
        else:
            body = {"error": {"message": err.message, "type": err.kind or "server_error", "param": None,
                              "code": None}}
        resp = jsonify(body)
        resp.status_code = err.status
        for k, v in err.headers.items():
            resp.headers[k] = v
        return resp


# ---------------------------------------------------------------- a model that is the oracle
class OracleModel:
    """Answers each request with the task's oracle actions in the vendor's format, aimed on the live page
    of the env the run is using, in the coordinates of the screenshot the agent sent."""

    def __init__(self, task, env_getter, api: str, *, style: str = "json"):
        self.task, self.env_getter, self.api, self.style = task, env_getter, api, style
        self.oracle = None

    def _batch(self) -> list[dict]:
        from harness.agents.oracle import OracleAgent
        if self.oracle is None:
            self.oracle = OracleAgent(self.env_getter())
            self.oracle.reset(self.task)
        first = self.oracle.act({})
        batch = [first]
        while self.oracle.pending and first.get("type") != "done":
            batch.append(self.oracle.pending.popleft())
        return batch

    @staticmethod
    def _last_image_size(body: dict) -> tuple[int, int]:
        found = None

        def walk(o):
            nonlocal found
            if isinstance(o, dict):
                if o.get("type") == "image" and "source" in o:
                    found = o["source"]["data"]
                elif o.get("type") == "input_image":
                    found = o["image_url"]
                elif o.get("type") == "computer_screenshot":
                    found = o["image_url"]
                elif o.get("type") == "image_url":
                    found = o["image_url"]["url"]
                for v in o.values():
                    walk(v)
            elif isinstance(o, list):
                for v in o:
                    walk(v)
        walk(body)
        return image_size(found) if found else (1280, 800)

    def __call__(self, body: dict):
        w, h = self._last_image_size(body)
        sx, sy = w / 1280, h / 800

        def pt(a):
            return [round(a["x"] * sx), round(a["y"] * sy)]
        batch = self._batch()
        if self.api == "anthropic":
            old_tool = any(t.get("type") == "computer_20251124" for t in body.get("tools") or [])
            call = (lambda name, **inp: computer(name, **inp)) if old_tool else member
            content = []
            for a in batch:
                t = a["type"]
                if t == "done":
                    content.append({"type": "text", "text": a.get("answer") or "Done."})
                elif t == "click":
                    content.append(call("left_click", coordinate=pt(a)))
                elif t == "double_click":
                    content.append(call("double_click", coordinate=pt(a)))
                elif t == "key":
                    content.append(call("key", text=a["keys"]))
                elif t == "type":
                    content.append(call("type", text=a["text"]))
                elif t == "scroll":
                    content.append(call("scroll", coordinate=pt(a), scroll_direction="down" if a["dy"] > 0 else "up",
                                          scroll_amount=max(1, abs(a["dy"]) // 100)))
                else:
                    raise AssertionError(f"no Anthropic form for oracle action {a}")
            if batch[-1]["type"] != "done" and not old_tool:
                content.append(member("screenshot"))
            return anthropic_message(content)
        if self.api == "responses":
            acts = []
            for a in batch:
                t = a["type"]
                if t == "done":
                    return openai_response([message_item(a.get("answer") or "Done.")])
                if t == "click":
                    acts.append({"type": "click", "button": "left", "x": pt(a)[0], "y": pt(a)[1]})
                elif t == "double_click":
                    acts.append({"type": "double_click", "x": pt(a)[0], "y": pt(a)[1]})
                elif t == "key":
                    acts.append({"type": "keypress", "keys": [k.upper() if len(k) > 1 else k for k in a["keys"].split("+")]})
                elif t == "type":
                    acts.append({"type": "type", "text": a["text"]})
                else:
                    raise AssertionError(f"no OpenAI form for oracle action {a}")
            return openai_response([reasoning_item("Working through the task."), computer_call(acts + [{"type": "screenshot"}])])
        # chat: one JSON action per reply (the rest of the batch is kept for the next replies)
        import json as _json
        a = batch[0]
        for rest in reversed(batch[1:]):
            self.oracle.pending.appendleft(rest)
        if a["type"] in ("click", "double_click", "scroll"):
            a = {**a, "x": pt(a)[0], "y": pt(a)[1]}
        if self.style == "uitars" and a["type"] == "click":
            return chat_completion(f"Thought: clicking the target.\nAction: click(start_box='({a['x']},{a['y']})')")
        return chat_completion("I will do the next step.\n```json\n" + _json.dumps(a) + "\n```")
