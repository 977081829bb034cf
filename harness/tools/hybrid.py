"""Hybrid episodes: the apps' tools over MCP next to the GUI of a live episode.

``HybridTools.mcp_url()`` (``harness.env.wrappers.tools``: ``make_env(task, tools=True)``)
starts a streamable-HTTP MCP server (in a thread of the env's process) whose tools act
in the env's current episode:
its slot, as the task's user, with actor ``agent`` — so the verifier, the
diff and the collateral-damage guard see tool work exactly like GUI work.
Every call is logged and handed to the next ``env.step()`` as
``info["tool_calls"]``, which the runner writes into that step's line of
``steps.jsonl``. After a write tool the page hears ``deskworld:refresh``,
so the next screenshot shows what changed.
"""
from __future__ import annotations

import socket
import threading
import time

from harness.tools.registry import ToolError, call_tool, get_tool, registry, to_json

MAX_LOGGED_RESULT = 20_000


class EpisodeTools:
    """The ``Session`` interface (``harness.tools.mcp``) the MCP server calls, bound to a
    live ``DeskEnv`` (``env``: the unwrapped env; it acts through ``env.session``)."""

    def __init__(self, env):
        self.env = env
        self._log: list[dict] = []
        self._lock = threading.Lock()

    def call(self, tool, args=None):
        session = self.env.session
        desk = session.desk()
        if desk is None:
            raise ToolError("No episode is running: reset the env first.")
        tool = tool if not isinstance(tool, str) else get_tool(tool)
        t0 = time.perf_counter()
        entry = {"tool": tool.name, "arguments": dict(args or {})}
        try:
            out = call_tool(desk.slot, tool, args, session.user)
        except ToolError as e:
            entry["error"] = e.message
            raise
        finally:
            entry["ms"] = round((time.perf_counter() - t0) * 1000, 1)
            with self._lock:
                self._log.append(entry)
        text = str(to_json(out))
        entry["result"] = to_json(out) if len(text) <= MAX_LOGGED_RESULT else text[:MAX_LOGGED_RESULT] + "…"
        if tool.write:
            session.refresh_page()
        return out

    def describe(self) -> str:
        task = self.env.task
        return (f"You are working on the task: {task.goal}" if task is not None
                else "You are working in the deskworld workspace.")

    def drain(self) -> list[dict]:
        with self._lock:
            out, self._log = self._log, []
        return out


class EpisodeMCP:
    """A streamable-HTTP MCP server over ``EpisodeTools``, on a daemon thread."""

    def __init__(self, env, *, host: str = "127.0.0.1", port: int = 0):
        import uvicorn                                        # the mcp extra

        from harness.tools.mcp import build_server, http_app   # (it imports mcp)
        self.tools = EpisodeTools(env)
        server = build_server(self.tools, registry(), name="deskworld-episode")
        sock = socket.socket()
        sock.bind((host, port))
        port = sock.getsockname()[1]
        self.url = f"http://{host}:{port}/mcp"
        # This very port only: the SDK's default takes any loopback port, the apps' pages included.
        config = uvicorn.Config(http_app(server, host, port), log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True,
                                        name="deskworld-mcp")
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)

    def drain(self) -> list[dict]:
        return self.tools.drain()

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)
