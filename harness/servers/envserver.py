"""``deskworld env-server``: DeskEnv sessions over HTTP and WebSocket, in OpenEnv's wire format.

Endpoints (OpenEnv 0.3 conventions; examples in the README, "deskworld env-server"):

- ``GET /health`` — ``{"status": "healthy", "active_sessions", "max_sessions", ...}``;
- ``GET /metadata``, ``GET /schema`` — what is served (tasks, observation fields), JSON schemas;
- ``POST /reset`` ``{task?, seed?, episode_id?, reward?, options?}`` (``reward``: ``final`` or
  ``milestones``, the session's reward from then on; default the server's ``--reward``) →
  ``{observation, reward: null, done: false, info}``;
- ``POST /step`` ``{action}`` → ``{observation, reward, done, terminated, truncated, info}``;
- ``GET /state`` — episode id, task, step count, status, url, result, idle time;
- ``POST /close`` — closes the session and releases its browser;
- ``GET /openapi.json`` — this API as an OpenAPI 3.1 document (``harness.servers.openapi``);
- ``POST /mcp`` — JSON-RPC 2.0: the apps' tools (``tools/list``, ``tools/call`` in a session, with
  ``--tools``) and OpenEnv's ``openenv/session/create`` / ``close`` (``harness.servers.jsonrpc``);
- ``/ws`` — a WebSocket session: ``{"type": "reset", "data": {...}}``,
  ``{"type": "step", "data": <action>}``, ``{"type": "state"}``, ``{"type": "close"}``;
  replies ``{"type": "observation", "data": <as the HTTP bodies>}``,
  ``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message", "code"}}``.

Observations carry the screenshot as a base64 PNG string (the browser's own PNG,
not re-encoded), never as nested lists.

Sessions. A WebSocket is one session for its lifetime, as in OpenEnv. OpenEnv's
HTTP ``/reset`` and ``/step`` build a throwaway env per request, which means
nothing for a browser episode, so here HTTP requests name a session. The server
issues the ids (unguessable, ``secrets.token_urlsafe``): a ``/reset`` that names
no session opens one and answers its id (``info.session_id`` and the
``X-Session-Id`` header); later requests name it in the ``X-Session-Id`` header,
the body's ``session_id`` or ``?session_id=``. An id the server didn't issue is
refused (404), so no client can guess or take over another one's session.
Both kinds count towards ``--capacity``: one over it is refused (HTTP 503, or a
WebSocket ``error`` with code ``CAPACITY_REACHED``) with the reason; a refused
reset (unknown task, bad seed, a failed start) frees the slot it took at once.
A session unused for ``--idle-timeout`` seconds is closed and its browser
released. SIGTERM and SIGINT close every session's env and browser before the
process exits.

Who may call it (``harness.servers.netguard``): the Host must be the server's own address
and an Origin, if any, its own origin (a page of the agent's browser — the apps at
``http://127.0.0.1:<port>``, ``http://desk.local``, a ``data:`` page — is refused,
403, on every route and the WebSocket upgrade); requests a browser page of another
site makes (``Sec-Fetch-Site``) are refused; POST bodies must be
``application/json`` (415: a page can post ``text/plain`` without a preflight) and at
most 1 MB (413, from the Content-Length, before the body is read), WebSocket
messages too. With ``--token`` (or ``DESKWORLD_ENV_TOKEN``) every route but
``/health`` needs ``Authorization: Bearer <token>`` (401). ``/state`` and the
WebSocket ``state`` answer the result's status, passed and score only; its checks,
lines and expected values need the token.

Process model: every session's ``DeskEnv`` lives in this process and runs its
Playwright calls on the thread it owns (one Chromium per session, ≈300 MB measured as PSS);
requests are served on Werkzeug threads and a session's requests are serialised
by its lock. The work is in Chromium, which runs in its own processes anyway; the
Python side (the apps' Flask servers, verification) is light enough that one
interpreter serves a 2–8 session box without the GIL being the limit, and a
screenshot never crosses a process boundary. A browser that crashes is already
contained by DeskEnv (the episode ends as ``error``; the next reset relaunches).
For more sessions than one host process should carry, run several servers.

This module holds the sessions, the server (``EnvServer``: the session pool, the episode
operations both transports share, the lifecycle) and the ``env-server`` command; the wire format
is ``harness.servers.wire``, the HTTP routes and the WebSocket loop ``harness.servers.envroutes``.
"""
from __future__ import annotations

import logging
import signal
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field

import click

# Every ``deskworld`` command imports this module (it defines ``env-server``): what only a built or
# listening server needs — the browser env and the task registry, Flask, Werkzeug's server, the
# package metadata — is imported where the server first needs it.
from harness.servers.wire import (CAPACITY_REACHED, EXECUTION_ERROR, SESSION_ERROR, VALIDATION_ERROR, Refused,
                                  action_from, new_session_id, public_result, wire_observation)

TOKEN_ENV = "DESKWORLD_ENV_TOKEN"


# ---------------------------------------------------------------- sessions
@dataclass
class Session:
    id: str
    transport: str                               # "ws" or "http"
    env: object
    created_at: float = field(default_factory=time.time)
    last_activity_at: float = field(default_factory=time.time)
    episode_id: str | None = None
    closed: str | None = None                    # why, once closed
    lock: threading.Lock = field(default_factory=threading.Lock)

    def touch(self) -> None:
        self.last_activity_at = time.time()

    @contextmanager
    def use(self):
        """Hold the session for one request; a session closed meanwhile (idle timeout,
        shutdown) is refused rather than silently starting a new browser."""
        with self.lock:
            if self.closed:
                raise Refused(410, SESSION_ERROR, f"session {self.id} is closed: {self.closed}")
            self.touch()
            try:
                yield self.env
            finally:
                self.touch()

    def state(self, details: bool = False) -> dict:
        s = self.env.unwrapped.episode_state()
        if not details and "result" in s:
            s["result"] = public_result(s["result"])
        return {"episode_id": self.episode_id, "step_count": s.pop("step_count"), "session_id": self.id,
                "transport": self.transport, **s, "created_at": self.created_at,
                "last_activity_at": self.last_activity_at,
                "idle_seconds": round(time.time() - self.last_activity_at, 3)}


class EnvServer:
    """The sessions and the Flask app that serves them (``serve_forever`` / ``start`` in a thread)."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 8000, capacity: int = 4,
                 idle_timeout: float | None = 600.0, tasks: str | None = None, split: str | None = None,
                 axtree: bool = False, som: bool = False, token: str | None = None, reward: str = "final",
                 tools: bool = False):
        from harness.env import resolve_tasks
        from harness.verify.milestones import REWARDS
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.reward = reward
        from harness.tasks.registry import all_tasks
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.host, self.port, self.capacity = host, port, capacity
        self.idle_timeout = idle_timeout or None
        self.pattern = tasks
        self.split = split
        # With a split: the instances in it (InstanceRefs, each rendered when drawn or named).
        self.tasks = resolve_tasks(tasks or "*", split) if split else resolve_tasks(tasks) if tasks else all_tasks()
        self.by_id = {t.id: t for t in self.tasks}
        self.axtree, self.som, self.tools = axtree, som, tools
        self.token = token or None
        self.sessions: dict[str, Session] = {}
        self._gone: dict[str, str] = {}          # recently closed session ids → why (for clear 404s)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = None
        from harness.servers.envroutes import make_app
        self.app = make_app(self)

    # ------------------------------------------------------------ session pool
    def make_env(self):
        from harness.env import make_env
        return make_env(tasks=self.tasks, axtree=self.axtree, som=self.som, reward=self.reward, tools=self.tools)

    def open(self, transport: str) -> Session:
        """A new session with an id the server makes up (its browser starts on its first reset);
        ``Refused`` at capacity."""
        with self._lock:
            if self._stopping.is_set():
                raise Refused(503, SESSION_ERROR, "the server is shutting down")
            if len(self.sessions) >= self.capacity:
                raise Refused(503, CAPACITY_REACHED,
                              f"server at capacity: {len(self.sessions)}/{self.capacity} sessions active; "
                              "close one or try again later",
                              active_sessions=len(self.sessions), max_sessions=self.capacity)
            sid = new_session_id()
            while sid in self.sessions or sid in self._gone:
                sid = new_session_id()
            session = Session(sid, transport, self.make_env())
            self.sessions[sid] = session
            self._gone.pop(sid, None)
            return session

    def get(self, sid: str, transport: str) -> Session:
        """The open session ``sid``: one the server issued and hasn't closed."""
        with self._lock:
            session = self.sessions.get(sid)
            gone = self._gone.get(sid)
        if session is not None and session.transport != transport:
            raise Refused(409, SESSION_ERROR, f"session {sid!r} belongs to a {session.transport} client")
        if session is None:
            why = (f"it was closed: {gone}" if gone else
                   "the server issues session ids: POST /reset without one opens a session and answers its id")
            raise Refused(404, SESSION_ERROR, f"no open session {sid!r} ({why})", session_id=sid)
        return session

    def close(self, sid: str, reason: str) -> bool:
        """Close a session and release its env and browser; False if it was not open."""
        with self._lock:
            session = self.sessions.pop(sid, None)
            if session is None:
                return False
            session.closed = reason
            self._gone[sid] = reason
            while len(self._gone) > 1000:
                self._gone.pop(next(iter(self._gone)))
        with session.lock:                       # let a request in flight finish first
            session.env.close()
        return True

    def reap(self) -> list[str]:
        """Close the sessions idle for longer than the timeout (a busy one is never idle)."""
        if not self.idle_timeout:
            return []
        now = time.time()
        with self._lock:
            stale = [s for s in self.sessions.values() if now - s.last_activity_at > self.idle_timeout]
        closed = []
        for s in stale:
            if not s.lock.acquire(blocking=False):
                continue
            try:
                idle = time.time() - s.last_activity_at
            finally:
                s.lock.release()
            if idle > self.idle_timeout:
                self.close(s.id, f"idle for more than {self.idle_timeout:g} s")
                closed.append(s.id)
        return closed

    def close_all(self, reason: str = "the server shut down") -> None:
        """Close every session in parallel (each env stops its own browser)."""
        with self._lock:
            self._stopping.set()
            ids = list(self.sessions)
        threads = [threading.Thread(target=self.close, args=(sid, reason)) for sid in ids]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)

    def _reaper(self) -> None:
        period = min(max(self.idle_timeout / 4, 0.1), 5.0)
        while not self._stopping.wait(period):
            try:
                self.reap()
            except Exception:                    # never let the reaper die
                logging.getLogger(__name__).exception("idle-session reaper")

    # ------------------------------------------------------------ episode operations (both transports)
    def reset(self, session: Session | None, data: dict | None, transport: str = "http") -> dict:
        """Reset ``session``, or (None) a new session of ``transport``; a new session whose reset is
        refused is closed at once, so a bad request never holds a slot."""
        seed, options, episode_id = self._reset_args(data or {})      # refused before a slot is taken
        if session is not None:
            return self._reset(session, seed, options, episode_id)
        session = self.open(transport)
        try:
            return self._reset(session, seed, options, episode_id)
        except BaseException:
            self.close(session.id, "its first reset failed")
            raise

    def _reset(self, session: Session, seed, options: dict, episode_id: str) -> dict:
        with session.use() as env:
            reward = options.pop("_reward", None)
            if reward is not None:
                env.unwrapped.reward_mode = reward
            try:
                obs, info = env.reset(seed=seed, options=options)
            except Exception as e:
                raise Refused(500, EXECUTION_ERROR, f"reset failed: {type(e).__name__}: {e}") from e
            session.episode_id = episode_id
            return {"observation": wire_observation(env, obs), "reward": None, "done": False,
                    "info": {**info, "session_id": session.id, "episode_id": episode_id}}

    def _reset_args(self, data: dict) -> tuple[int | None, dict, str]:
        if not isinstance(data, dict):
            raise Refused(400, VALIDATION_ERROR, "reset data is an object: {task?, seed?, episode_id?, options?}")
        options = dict(data.get("options") or {})
        task = data.get("task") or options.get("task")
        if task is not None:
            if task not in self.by_id:
                served = f" (this server serves --tasks {self.pattern!r})" if self.pattern else ""
                raise Refused(400, VALIDATION_ERROR, f"unknown task {task!r}{served}")
            options["task"] = self.by_id[task]
        reward = data.get("reward", options.pop("reward", None))
        if reward is not None:
            from harness.verify.milestones import REWARDS
            if reward not in REWARDS:
                raise Refused(400, VALIDATION_ERROR, f"reward must be one of {list(REWARDS)}, not {reward!r}")
            options["_reward"] = reward
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise Refused(400, VALIDATION_ERROR, f"seed must be a non-negative integer, not {seed!r}")
        episode_id = data.get("episode_id") or uuid.uuid4().hex
        return seed, options, str(episode_id)

    def step(self, session: Session, data) -> dict:
        from harness.env import ResetNeeded
        action = action_from(data)
        if isinstance(action, dict) and action.get("type") in ("list_tools", "call_tool"):
            from harness.servers.jsonrpc import openenv_step
            return openenv_step(self, session, action)
        with session.use() as env:
            try:
                obs, reward, terminated, truncated, info = env.step(action)
            except ResetNeeded as e:
                raise Refused(409, EXECUTION_ERROR, str(e), exception="ResetNeeded") from e
            return {"observation": wire_observation(env, obs), "reward": reward,
                    "done": bool(terminated or truncated), "terminated": terminated, "truncated": truncated,
                    "info": {**info, "session_id": session.id, "episode_id": session.episode_id}}

    def state(self, session: Session, details: bool = False) -> dict:
        """The session's state; the result's checks and expected values only with ``details``
        (a request that carries the server's token)."""
        with session.use():
            return session.state(details=details and self.token is not None)

    def health(self) -> dict:
        with self._lock:
            active = len(self.sessions)
        return {"status": "healthy", "active_sessions": active, "max_sessions": self.capacity,
                "idle_timeout": self.idle_timeout, "tasks": len(self.tasks)}

    def metadata(self) -> dict:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("deskworld")
        except PackageNotFoundError:
            v = None
        return {"name": "deskworld", "version": v,
                "description": "Computer-use tasks in office apps: screenshots in, mouse and keyboard actions out.",
                "observation": {"axtree": self.axtree, "som": self.som, "tools": self.tools}, "tasks": sorted(self.by_id)}

    def schema(self) -> dict:
        from harness.env.actions import json_schema
        text = {"type": "string"}
        obs = {"screenshot": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
               "url": text, "goal": text, "last_action_error": text, "user_reply": text}
        if self.tools:
            obs["tool_result"] = text
        if self.axtree:
            obs["axtree"] = text
        if self.som:
            obs["som"] = {"type": "object", "properties": {"image": obs["screenshot"], "elements": text}}
        state = {k: {} for k in ("episode_id", "step_count", "session_id", "task", "done", "status", "url",
                                 "result")}
        return {"action": json_schema(), "observation": {"type": "object", "properties": obs},
                "state": {"type": "object", "properties": state}}

    # ------------------------------------------------------------ lifecycle
    def start(self) -> "EnvServer":
        """Serve on a background thread (tests, notebooks); ``shutdown()`` stops and closes everything."""
        self._listen()
        self._thread = threading.Thread(target=self._server.serve_forever, name="deskworld-envserver",
                                        daemon=True)
        self._thread.start()
        return self

    def _listen(self) -> None:
        from werkzeug.serving import make_server
        logging.getLogger("werkzeug").setLevel(logging.WARNING)         # no line per request
        self._server = make_server(self.host, self.port, self.app, threaded=True)
        self.port = self._server.server_port
        if self.idle_timeout:
            threading.Thread(target=self._reaper, name="deskworld-envserver-reaper", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def serve_forever(self, on_listening=None) -> None:
        """Serve until SIGTERM or SIGINT, then close every session's env and browser.
        ``on_listening(server)`` runs once the port is bound (``--port 0`` picks one)."""
        self._listen()
        if on_listening is not None:
            on_listening(self)

        def on_signal(signum, frame):
            # shutdown() waits for the serving loop, which runs on this very thread.
            threading.Thread(target=self._server.shutdown, daemon=True).start()
        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            self._server.serve_forever()
        finally:
            self.close_all()
            self._server.server_close()
            for s, h in previous.items():
                signal.signal(s, h)

    def shutdown(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        self.close_all()


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


@click.command("env-server")
@click.option("--port", default=8000, show_default=True, type=int, help="0 picks a free port.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--capacity", default=4, show_default=True, type=click.IntRange(min=1), envvar="DESKWORLD_CAPACITY", show_envvar=True,
              help="Concurrent sessions (one browser each, ≈300 MB).")
@click.option("--idle-timeout", default=600.0, show_default=True, type=float,
              help="Close a session unused this many seconds (0: never).")
@click.option("--tasks", "pattern", default=None, envvar="DESKWORLD_TASKS", show_envvar=True,
              help="Tasks served: ids, globs or worlds, comma-separated (default: all). "
                   "A reset without a task draws one of them.")
@click.option("--split", default=None, type=click.Choice(["train", "dev", "test"]),
              help="Serve the instances of the --tasks families (default: all) in this split.")
@click.option("--axtree", is_flag=True, help="Add the accessibility tree to observations.")
@click.option("--som", is_flag=True, help="Add the set-of-marks image and element list to observations.")
@click.option("--reward", default="final", show_default=True, type=click.Choice(["final", "milestones"]),
              help="final: the score on the last step; milestones: each checkpoint's share on the step it is "
                   "first reached (a reset may choose per session).")
@click.option("--tools", is_flag=True, envvar="DESKWORLD_TOOLS", show_envvar=True, help="Hybrid sessions: the apps' tools as tool_call actions and over "
              "JSON-RPC at POST /mcp (tools/list, tools/call), each call a step of the session's episode.")
@click.option("--token", envvar=TOKEN_ENV, default=None, show_envvar=True,
              help="Require 'Authorization: Bearer TOKEN' on every route but /health; with it, /state "
                   "shows the verifier's checks.")
def env_server(port: int, host: str, capacity: int, idle_timeout: float, pattern: str | None,
               split: str | None, axtree: bool, som: bool, tools: bool, token: str | None, reward: str) -> None:
    """Serve deskworld environments over HTTP and WebSocket (OpenEnv wire format)."""
    from harness.tasks.registry import TaskError
    if not token and host not in LOOPBACK_HOSTS:
        # Off loopback the server can't know every name it is reached by, so Host can't be checked
        # (a DNS-rebinding page would pass): a token is then the only thing that proves a client.
        raise click.ClickException(f"listening on {host} needs --token (or DESKWORLD_ENV_TOKEN): anyone, and any "
                                   "web page a browser on the network opens, could otherwise drive sessions")
    try:
        server = EnvServer(host=host, port=port, capacity=capacity, idle_timeout=idle_timeout, tasks=pattern,
                           split=split, axtree=axtree, som=som, token=token, reward=reward, tools=tools)
    except TaskError as e:
        raise click.ClickException(str(e)) from None
    server.serve_forever(on_listening=_banner)
    click.echo("deskworld env-server: stopped; every session closed")


def _banner(server: EnvServer) -> None:
    idle = f"{server.idle_timeout:g} s" if server.idle_timeout else "none"
    auth = "bearer token required" if server.token else "no token"
    click.echo(f"deskworld env-server: {server.url} (WebSocket {server.url.replace('http', 'ws', 1)}/ws), "
               f"{len(server.tasks)} tasks, capacity {server.capacity}, idle timeout {idle}, {auth}")


if __name__ == "__main__":
    env_server()
