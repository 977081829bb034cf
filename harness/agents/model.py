"""What every model-driven agent shares: screenshots for the model, usage and
cost, and the record of each model call that goes into ``steps.jsonl``.

A model agent talks to its API in ``_next_actions(obs)``, which returns a list
of ``(call_id, action)`` pairs — one model turn can ask for several actions (a
batch). ``act`` hands them to the runner one per step, so every action is its
own recorded step with its own screenshot, and collects what each one did
(``last_action_error``) until the batch is done; then the agent answers the
model (``tool_result`` / ``computer_call_output``) with the latest screenshot.

Recording: ``take_record()`` returns what the model said since the last step
— each call's request (image bytes replaced by their size and hash), the
response, the model's visible reasoning, and the tokens — and the runner
writes it into that step's line. API keys live in the SDK client only; no
request headers are recorded.

Rescaling lives here and only here: ``Screen`` resizes the episode's screenshot
(1280×800 by default, larger under an appearance variant: 1920×1080 at scale 2 is
3840×2160) to the size the model is sent — ``--screen-size`` when given, else the
largest size within the vendor's image limits (``LIMITS``), so the API never
rescales an image behind the harness's back — and maps the model's coordinates
back to screenshot pixels (``scale``), exactly, per axis.
"""
from __future__ import annotations

import base64
import copy
import hashlib
import io
import os
import re
from dataclasses import dataclass

import numpy as np
from PIL import Image

from harness.agents.pricing import cost_usd
from harness.env.browser import VIEWPORT

SCREEN = (VIEWPORT["width"], VIEWPORT["height"])


def parse_size(text: str | None) -> tuple[int, int] | None:
    """``"1024x640"`` → (1024, 640); None stays None."""
    if not text:
        return None
    m = re.fullmatch(r"\s*(\d{2,5})\s*[x×]\s*(\d{2,5})\s*", str(text))
    if not m:
        raise ValueError(f"a screen size is WIDTHxHEIGHT, like 1024x640; got {text!r}")
    return int(m.group(1)), int(m.group(2))


def fit(size: tuple[int, int], *, max_long: int | None = None, max_pixels: int | None = None) -> tuple[int, int]:
    """The largest size with the screen's aspect ratio within the limits (never upscaled)."""
    w, h = size
    f = 1.0
    if max_long and max(w, h) > max_long:
        f = min(f, max_long / max(w, h))
    if max_pixels and w * h > max_pixels:
        f = min(f, (max_pixels / (w * h)) ** 0.5)
    return max(1, int(w * f)), max(1, int(h * f))


# The largest image each vendor's model is sent (harness limits within the APIs' own: an image the
# API would shrink is shrunk here instead, so coordinates map back exactly). 1280×800 fits both.
LIMITS: dict[str, dict] = {
    "anthropic": {"max_long": 1568, "max_pixels": 1_150_000},      # the Messages API's downscale thresholds
    "openai": {"max_long": 1920, "max_pixels": 1920 * 1200},
    "vlm": {"max_long": 1920, "max_pixels": 1920 * 1200},
}


@dataclass
class Screen:
    """The model's view of the episode's screen: the image size it is sent, PNG encoding, coordinate
    mapping. ``source`` is the screenshot's size (updated from each observation, ``see``);
    ``requested`` the ``--screen-size`` (None: ``source`` fitted within ``limits``)."""
    requested: tuple[int, int] | None = None
    source: tuple[int, int] = SCREEN
    limits: dict | None = None

    @classmethod
    def of(cls, size: tuple[int, int] | str | None, *, vendor: str | None = None) -> "Screen":
        """From ``--screen-size`` (``"1024x640"``), a (w, h) pair, or None for the episode's screen
        fitted within ``vendor``'s limits (``LIMITS``)."""
        req = parse_size(size) if isinstance(size, str) else size
        return cls(tuple(req) if req else None, SCREEN, LIMITS.get(vendor or ""))

    def see(self, observation) -> None:
        """Follow the screenshot's size (the episode's variant) from an observation or an array."""
        shot = observation.get("screenshot") if isinstance(observation, dict) else observation
        if shot is not None and hasattr(shot, "shape") and len(shot.shape) == 3:
            self.source = (int(shot.shape[1]), int(shot.shape[0]))

    @property
    def size(self) -> tuple[int, int]:
        """The size of the image the model is sent (and whose pixels its coordinates are in)."""
        if self.requested:
            return self.requested
        return fit(self.source, **(self.limits or {}))

    @property
    def scale(self) -> tuple[float, float]:
        """Multiply model coordinates by this to get screenshot pixels."""
        w, h = self.size
        return self.source[0] / w, self.source[1] / h

    def image(self, screenshot) -> Image.Image:
        """The screenshot as the model sees it: a PIL image of ``size`` (LANCZOS when resized)."""
        arr = screenshot if isinstance(screenshot, np.ndarray) else np.asarray(screenshot)
        self.see(arr)
        im = Image.fromarray(arr.astype(np.uint8), "RGB")
        return im if im.size == self.size else im.resize(self.size, Image.LANCZOS)

    def png(self, screenshot) -> bytes:
        buf = io.BytesIO()
        self.image(screenshot).save(buf, "PNG", optimize=False, compress_level=6)
        return buf.getvalue()

    def b64(self, screenshot) -> str:
        return base64.b64encode(self.png(screenshot)).decode("ascii")

    def data_url(self, screenshot) -> str:
        return "data:image/png;base64," + self.b64(screenshot)

    def to_model(self, x: int, y: int) -> tuple[int, int]:
        sx, sy = self.scale
        return round(x / sx), round(y / sy)


# ---------------------------------------------------------------- usage
@dataclass
class Usage:
    """Tokens of one episode (or one call), and what they cost when the price is known."""
    model: str = ""
    calls: int = 0
    input_tokens: int = 0            # uncached input
    output_tokens: int = 0           # including reasoning tokens
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    retries: int = 0

    def add(self, other: "Usage") -> None:
        for f in ("calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
                  "reasoning_tokens", "retries"):
            setattr(self, f, getattr(self, f) + getattr(other, f))

    @property
    def cost(self) -> float | None:
        return cost_usd(self.model, self)

    def to_dict(self) -> dict:
        d = {f: getattr(self, f) for f in ("model", "calls", "input_tokens", "output_tokens", "cache_read_tokens",
                                           "cache_write_tokens", "reasoning_tokens", "retries")}
        c = self.cost
        d["cost_usd"] = None if c is None else round(c, 6)
        return d


# ---------------------------------------------------------------- recording
_B64_RE = re.compile(r"^(?:data:image/[a-z]+;base64,)?[A-Za-z0-9+/=\s]{200,}$")


def _image_stub(data: str) -> str:
    raw = data.split(",", 1)[1] if data.startswith("data:") else data
    try:
        blob = base64.b64decode(raw, validate=False)
        with Image.open(io.BytesIO(blob)) as im:
            size = f"{im.size[0]}x{im.size[1]} "
    except Exception:
        blob, size = raw.encode(), ""
    return f"<image {size}{len(blob)} bytes sha256:{hashlib.sha256(blob).hexdigest()[:16]}>"


def strip_images(obj):
    """A deep copy with every base64 image replaced by ``<image WxH N bytes sha256:…>``."""
    if isinstance(obj, dict):
        return {k: (_image_stub(v) if isinstance(v, str) and k in ("data", "image_url", "url") and _B64_RE.match(v[:400])
                    else strip_images(v)) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strip_images(v) for v in obj]
    return copy.copy(obj)


class AgentGaveUp(RuntimeError):
    """The model API kept failing after the SDK's retries: the episode is an ``error``."""


@dataclass
class Pending:
    """One action of a model turn. ``action`` None: answered from the observation
    (``observe``: screenshot, zoom…) without an env step; ``output`` is what the
    model gets back for it, ``ack`` the text for a plain action."""
    call_id: str
    action: dict | None
    error: str = ""
    observe: str | None = None
    region: list | None = None
    output: dict | None = None
    ack: str = ""


class ModelAgentBase:
    """Shared state of the Anthropic, OpenAI and VLM agents (see the module docstring)."""
    name = "model"

    def __init__(self, model: str, *, screen_size: tuple[int, int] | str | None = None, history_images: int = 3):
        self.model = model
        self.screen = Screen.of(screen_size, vendor=self.name)
        self.max_history_images = history_images
        self.usage = Usage(model=self.model)
        self._record: dict = {}
        self._queue: list[Pending] = []
        self._done_batch: list[Pending] = []
        self._in_flight: Pending | None = None
        self.task = None

    # ---- to be provided by subclasses
    def _start(self, obs: dict) -> None:                         # first model call's input
        raise NotImplementedError

    def _continue(self, obs: dict, results: list[Pending]) -> None:   # the outputs of the last batch
        raise NotImplementedError

    def _call(self) -> list[Pending]:                            # one model turn → actions to run
        raise NotImplementedError

    # ---- the Agent protocol
    def reset(self, task) -> None:
        self.task = task
        self.usage = Usage(model=self.model)
        self._record = {}
        self._queue, self._done_batch, self._in_flight = [], [], None
        self._started = False

    def observe(self, p: Pending, obs: dict) -> None:      # answer an observation-only call
        raise NotImplementedError

    def act(self, observation: dict):
        self.screen.see(observation)                 # the episode's screen (an appearance variant's)
        if self._in_flight is not None:
            self._in_flight.error = observation.get("last_action_error") or ""
            self._done_batch.append(self._in_flight)
            self._in_flight = None
            if self._done_batch[-1].error:
                # An action failed: the rest of the model's batch is not run (the page is not what it expected).
                for p in self._queue:
                    p.error = "Not executed: an earlier computer action in this turn failed."
                    self._done_batch.append(p)
                self._queue = []
        while True:
            if not self._queue:
                if not self._started:
                    self._started = True
                    self._start(observation)
                else:
                    batch, self._done_batch = self._done_batch, []
                    self._continue(observation, batch)
                self._queue = self._call()
                if not self._queue:
                    return {"type": "done", "status": "complete"}
            p = self._queue.pop(0)
            if p.action is None:
                self.observe(p, observation)
                self._done_batch.append(p)
                continue
            self._in_flight = p
            if p.action.get("type") == "done":
                self._queue = []
            return p.action

    # ---- recording
    def note_call(self, request: dict, response: dict, usage: Usage, *, thought: str | None = None,
                  **extra) -> None:
        self.usage.add(usage)
        rec = self._record
        rec.setdefault("model_calls", []).append(
            {"request": strip_images(request), "response": strip_images(response), "usage": usage.to_dict(), **extra})
        if thought:
            rec["thought"] = (rec.get("thought", "") + "\n" + thought).strip()
        u = rec.setdefault("usage", Usage(model=self.model))
        u.add(usage)

    def take_record(self) -> dict:
        rec, self._record = self._record, {}
        if "usage" in rec:
            rec["usage"] = rec["usage"].to_dict()
        if rec.get("model_calls"):
            rec["model"] = self.model
        return rec

    def episode_usage(self) -> dict:
        return self.usage.to_dict()


# ---------------------------------------------------------------- the vendors' SDKs
def sdk_client(provider: str, *, base_url: str | None = None, max_retries: int = 4, timeout: float = 120.0,
               api_key_env: str = "OPENAI_API_KEY"):
    """The official SDK's client: ``anthropic`` or ``openai``; ``vlm`` is the OpenAI client for an
    OpenAI-compatible server (key from ``api_key_env``, ``EMPTY`` when the server needs none).
    Keys and default base URLs come from the SDKs' own variables; they are never recorded."""
    if provider == "anthropic":
        import anthropic
        return anthropic.Anthropic(base_url=base_url, max_retries=max_retries, timeout=timeout)
    import openai
    key = (os.environ.get(api_key_env) or "EMPTY") if provider == "vlm" else None
    return openai.OpenAI(base_url=base_url, api_key=key, max_retries=max_retries, timeout=timeout)


def create(api, **request):
    """``api.create(**request)`` through the SDK's raw response: the parsed response and the retries
    the SDK took (429, 529, 5xx, timeouts) to get it."""
    raw = api.with_raw_response.create(**request)
    return raw.parse(), getattr(raw, "retries_taken", 0)


def call_usage(model: str, resp, retries: int = 0) -> Usage:
    """The tokens of one response of the Messages, Responses or Chat Completions API
    (``input_tokens`` counts uncached input only)."""
    u = getattr(resp, "usage", None)
    out = Usage(model=model, calls=1, retries=retries)
    if u is None:
        return out
    if hasattr(u, "prompt_tokens"):                                  # Chat Completions
        det = getattr(u, "prompt_tokens_details", None)
        out.cache_read_tokens = (det.cached_tokens or 0) if det else 0
        out.input_tokens = (u.prompt_tokens or 0) - out.cache_read_tokens
        out.output_tokens = u.completion_tokens or 0
        cdet = getattr(u, "completion_tokens_details", None)
        out.reasoning_tokens = (cdet.reasoning_tokens or 0) if cdet else 0
    elif hasattr(u, "input_tokens_details"):                         # Responses
        det = u.input_tokens_details
        out.cache_read_tokens = (det.cached_tokens or 0) if det else 0
        out.cache_write_tokens = (getattr(det, "cache_write_tokens", 0) or 0) if det else 0
        out.input_tokens = (u.input_tokens or 0) - out.cache_read_tokens - out.cache_write_tokens
        out.output_tokens = u.output_tokens or 0
        out.reasoning_tokens = (u.output_tokens_details.reasoning_tokens or 0) if u.output_tokens_details else 0
    else:                                                            # Messages (already uncached)
        out.input_tokens = u.input_tokens or 0
        out.output_tokens = u.output_tokens or 0
        out.cache_read_tokens = getattr(u, "cache_read_input_tokens", 0) or 0
        out.cache_write_tokens = getattr(u, "cache_creation_input_tokens", 0) or 0
    return out


def asked_user(results) -> bool:
    """Did the last model turn end in a question to the user (a text turn mapped to ``ask_user``)?"""
    return any(not p.call_id and (p.action or {}).get("type") == "ask_user" for p in results)


def reply_text(obs: dict) -> str:
    """What the model is told after an ``ask_user``: the principal's answer."""
    said = (obs.get("user_reply") or "").strip()
    return said or "(No reply.)"


def goal_of(task, obs: dict) -> str:
    """What the agent is told: the observation's goal (the prompt and the harness's answer sentence)."""
    return (obs.get("goal") or getattr(task, "goal", None) or task.prompt).strip()


def final_action(text: str | None) -> dict:
    """A model's closing text as ``done``: a line beginning ``INFEASIBLE`` (or ``ANSWER: INFEASIBLE``;
    markdown emphasis around either, ``**INFEASIBLE:**``, included) means infeasible.
    A text that asks rather than ends — a line ``ASK_USER: <question>`` and no ``ANSWER:`` — is an
    ``ask_user`` to the task's principal; the episode goes on with their reply."""
    text = (text or "").strip()
    asked = re.search(r"(?im)^\s*ASK_USER:\s*(\S.*)$", text)
    if asked and "ANSWER:" not in text.upper():
        return {"type": "ask_user", "text": asked.group(1).strip()[:2000]}
    if re.search(r"(?im)^[ \t*_]*(?:ANSWER:[ \t*_]*)?INFEASIBLE(?![A-Za-z0-9])", text):
        return {"type": "done", "status": "infeasible", "answer": text or None}
    return {"type": "done", "status": "complete", "answer": text or None}


SYSTEM_PROMPT = """You are operating a web browser showing a company's workspace apps (mail, chat, calendar, \
drive, docs, sheets, slides, CRM, service desk) at {origin}. You act for the signed-in user. The screen is \
{w}x{h} pixels. Use only the browser page: there is no address bar and no other program.

Work carefully: read what is on screen, check each action's result on the next screenshot, and don't change \
anything the task doesn't ask you to change. World time in this workspace is {now_hint}.

When the task is finished, reply with a short final message and no further actions. If the task asks a \
question, end that message with "ANSWER: " and the answer. If the task cannot be done, reply with a line \
"INFEASIBLE: " and the reason, and change nothing. If something only the person who gave you the task \
can tell you is missing, don't guess: reply with a line "ASK_USER: " and your question, and their answer \
comes back to you."""


def system_prompt(*, now_hint: str = "shown in the apps", size: tuple[int, int] = SCREEN) -> str:
    """The system prompt; ``size``: the screenshot as the model is sent it (``Screen.size``)."""
    return SYSTEM_PROMPT.format(origin="http://desk.local", w=size[0], h=size[1], now_hint=now_hint)
