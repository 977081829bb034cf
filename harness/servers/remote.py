"""Clients of ``deskworld env-server``.

``RemoteEnv(base_url)`` is a ``gymnasium.Env`` that behaves like the local
``DeskEnv``: the same observation space (the screenshot decoded back into an
(800, 1280, 3) uint8 array), the same ``reset``/``step`` signatures and ``info``,
``close()``. It talks to one server session, over a WebSocket (``transport="ws"``,
one connection = one session) or plain HTTP (``transport="http"``: the first reset
opens a session and the server answers its id, sent back in the ``X-Session-Id``
header from then on). ``token=`` (or ``$DESKWORLD_ENV_TOKEN``) is the server's
``--token``, sent as ``Authorization: Bearer``. The server's refusals are
raised as ``CapacityError`` (the server is full), ``SessionClosed`` (idle timeout,
shutdown), ``ResetNeeded`` (step before reset) or ``RemoteError``.

OpenEnv's own clients work with the server too: ``examples/openenv``.
"""
from __future__ import annotations

import base64
import io
import json
import os
import urllib.error
import urllib.request

import gymnasium as gym
from simple_websocket import Client, ConnectionClosed
from simple_websocket import ConnectionError as Refused

from PIL import Image

from harness.env import ResetNeeded, observation_space
from harness.env.observe import to_array
from harness.env.spaces import ActionSpace


class RemoteError(RuntimeError):
    """The server refused a request; ``code`` is OpenEnv's error code, ``data`` the whole error."""

    def __init__(self, message: str, code: str = "", data: dict | None = None):
        super().__init__(message)
        self.code, self.data = code, data or {}


class CapacityError(RemoteError):
    """The server already runs as many sessions as its ``--capacity``."""


class SessionClosed(RemoteError):
    """The session is gone (idle timeout, server shutdown, closed): make a new ``RemoteEnv``."""


def raise_for(error: dict):
    """Raise the exception an error payload stands for."""
    message, code = error.get("message") or error.get("detail") or "server error", error.get("code", "")
    if error.get("exception") == "ResetNeeded":
        raise ResetNeeded(message)
    cls = {"CAPACITY_REACHED": CapacityError, "SESSION_ERROR": SessionClosed}.get(code, RemoteError)
    raise cls(message, code, error)


# ---------------------------------------------------------------- wire format
def _png_array(b64: str):
    """A base64 PNG as an array of its own size (an appearance variant's screen is not 1280×800)."""
    png = base64.b64decode(b64)
    with Image.open(io.BytesIO(png)) as im:
        size = im.size
    return to_array(png, size)


def decode_observation(wire: dict) -> dict:
    """The server's observation with its base64 PNGs decoded into arrays, each at its own size."""
    obs = dict(wire)
    obs["screenshot"] = _png_array(wire["screenshot"])
    if "som" in wire:
        obs["som"] = {"image": _png_array(wire["som"]["image"]), "elements": wire["som"]["elements"]}
    return obs


def action_payload(action) -> dict:
    """A step's ``data``: the action object itself (OpenEnv's convention); JSON text is
    parsed, and text that isn't JSON travels as ``{"action": text}`` so that the env
    reports it in ``last_action_error``, as a local env would."""
    if hasattr(action, "model_dump"):
        action = action.model_dump(exclude_none=True)
    if isinstance(action, (bytes, bytearray)):
        action = action.decode("utf-8", errors="replace")
    if isinstance(action, str):
        try:
            parsed = json.loads(action)
        except ValueError:
            return {"action": action}
        action = parsed
    return action if isinstance(action, dict) else {"action": action}


# ---------------------------------------------------------------- transports
def auth_headers(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


class HTTPTransport:
    """``POST /reset``, ``POST /step``, ``GET /state``, ``POST /close`` for one session: the id the
    server answered to the first reset (or ``session_id``, one it issued before)."""

    def __init__(self, base_url: str, session_id: str | None, timeout: float, token: str | None = None):
        self.base_url, self.session_id, self.timeout = base_url.rstrip("/"), session_id, timeout
        self.token = token

    def request(self, kind: str, data=None) -> dict:
        if self.session_id is None and kind != "reset":
            if kind == "close":
                return {}                           # nothing opened yet: nothing to close
            raise ResetNeeded("call reset() first: the server opens the session on the first reset")
        method, path, body = {"reset": ("POST", "/reset", data or {}), "step": ("POST", "/step", {"action": data}),
                              "state": ("GET", "/state", None), "close": ("POST", "/close", {})}[kind]
        headers = {"Content-Type": "application/json", **auth_headers(self.token)}
        if self.session_id is not None:
            headers["X-Session-Id"] = self.session_id
        req = urllib.request.Request(self.base_url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(), headers=headers)
        headers, body = _open(req, self.timeout, f"cannot reach {self.base_url}")
        issued = headers.get("X-Session-Id")
        if issued:
            self.session_id = issued
        return body

    def close(self) -> None:
        try:
            self.request("close")
        except (RemoteError, OSError):
            pass                                    # already gone: nothing to release


class WSTransport:
    """OpenEnv's WebSocket messages; the connection opens on the first request."""

    def __init__(self, base_url: str, timeout: float, token: str | None = None):
        self.url = base_url.rstrip("/").replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/ws"
        self.timeout = timeout
        self.token = token
        self.ws = None

    def request(self, kind: str, data=None) -> dict:
        if self.ws is None:
            try:
                self.ws = Client.connect(self.url, receive_bytes=1 << 16, headers=auth_headers(self.token))
            except Refused as e:                    # the upgrade was answered with an HTTP error
                why = {401: "the server needs its token (token=...)"}.get(e.status_code, f"HTTP {e.status_code}")
                raise RemoteError(f"the server refused the WebSocket at {self.url}: {why}") from e
            except OSError as e:
                raise RemoteError(f"cannot reach {self.url}: {e}") from e
        msg = {"type": kind} if data is None and kind in ("state", "close") else {"type": kind, "data": data or {}}
        try:
            self.ws.send(json.dumps(msg))
            raw = self.ws.receive(timeout=self.timeout)
        except (ConnectionClosed, OSError):
            raw = self._pending()                    # the server said why before it hung up
            if raw is None:
                raise SessionClosed("the server closed the connection", "SESSION_ERROR") from None
        if raw is None:
            raise RemoteError(f"no answer to {kind!r} within {self.timeout:g} s")
        answer = json.loads(raw)
        if answer.get("type") == "error":
            raise_for(answer.get("data") or {})
        return answer.get("data") or {}

    def _pending(self):
        try:
            return self.ws.receive(timeout=2)      # returns at once when the socket has closed
        except Exception:
            return None

    def close(self) -> None:
        if self.ws is None:
            return
        try:
            self.ws.send(json.dumps({"type": "close"}))
            self.ws.close()
        except Exception:
            pass
        self.ws = None


# ---------------------------------------------------------------- the env
def server_metadata(base_url: str, timeout: float = 30.0, token: str | None = None) -> dict:
    """``GET /metadata``: what the server serves (tasks, observation fields)."""
    req = urllib.request.Request(base_url.rstrip("/") + "/metadata", headers=auth_headers(token))
    return _open(req, timeout, f"cannot reach a deskworld env-server at {base_url}")[1]


def _open(req, timeout: float, unreachable: str) -> tuple:
    """``(headers, JSON body)`` of a request; the server's error raised as its exception, an
    unreachable server as ``RemoteError`` starting with ``unreachable``."""
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.headers, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        try:
            error = json.loads(e.read())
        except ValueError:
            error = {"message": f"HTTP {e.code} {e.reason}"}
        raise_for(error)
    except urllib.error.URLError as e:
        raise RemoteError(f"{unreachable}: {e.reason}") from e


class RemoteEnv(gym.Env):
    """A deskworld environment served by ``deskworld env-server``, as a Gymnasium env.

    ``task`` fixes the task of every reset (``options={"task": ...}`` overrides it
    for one reset); without it the server draws one of the tasks it serves, from
    the session's RNG seeded by ``reset(seed=...)``. ``obs_mode="pixels"`` returns
    the screenshot alone, as ``DeskEnv`` does. The server's axtree/som settings
    decide whether the observation has those fields. ``token`` is the server's ``--token``
    (default ``$DESKWORLD_ENV_TOKEN``); with it ``state()`` includes the verifier's checks."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, base_url: str, *, transport: str = "ws", task: str | None = None,
                 obs_mode: str = "dict", session_id: str | None = None, timeout: float = 120.0,
                 render_mode: str | None = None, token: str | None = None):
        if transport not in ("ws", "http"):
            raise ValueError(f'transport is "ws" or "http", not {transport!r}')
        self.base_url, self.transport, self.task, self.obs_mode = base_url.rstrip("/"), transport, task, obs_mode
        self.render_mode = render_mode
        token = token if token is not None else os.environ.get("DESKWORLD_ENV_TOKEN") or None
        served = server_metadata(self.base_url, timeout, token).get("observation", {})
        self.observation_space = observation_space(axtree=served.get("axtree", False), som=served.get("som", False),
                                                   obs_mode=obs_mode)
        self.action_space = ActionSpace()
        self.session_id = session_id                 # the server issues it (the first reset's answer)
        self._t = WSTransport(self.base_url, timeout, token) if transport == "ws" else \
            HTTPTransport(self.base_url, session_id, timeout, token)
        self._last = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        task = options.pop("task", None) or self.task
        data = {"options": options}
        if task is not None:
            data["task"] = getattr(task, "id", task)
        if seed is not None:
            data["seed"] = seed
        payload = self._t.request("reset", data)
        self.session_id = payload.get("info", {}).get("session_id", self.session_id)
        obs, info = self._unpack(payload)
        return obs, info

    def step(self, action):
        payload = self._t.request("step", action_payload(action))
        obs, info = self._unpack(payload)
        return obs, float(payload["reward"]), bool(payload["terminated"]), bool(payload["truncated"]), info

    def state(self) -> dict:
        """The server's view of the episode: episode id, task, step count, status, url, result."""
        return self._t.request("state")

    def _unpack(self, payload: dict):
        obs = decode_observation(payload["observation"])
        self._last = obs
        info = dict(payload.get("info") or {})
        if self.obs_mode == "pixels":
            info.update(goal=obs["goal"], url=obs["url"], last_action_error=obs["last_action_error"],
                        user_reply=obs.get("user_reply", ""))
            return obs["screenshot"], info
        return obs, info

    def render(self):
        if self.render_mode == "rgb_array" and self._last is not None:
            return self._last["screenshot"]
        return None

    def close(self) -> None:
        if self._t is not None:
            self._t.close()
            self._t = None
        super().close()
