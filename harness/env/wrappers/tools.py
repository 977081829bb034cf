"""``HybridTools``: a hybrid episode, the GUI and the apps' tools at once (``tools=True``)."""
from __future__ import annotations

import gymnasium as gym
from gymnasium import spaces

from harness.env.spaces import AnyText
from harness.env.wrappers.base import AddObservationKey
from harness.tools.hybrid import EpisodeMCP

TOOL_RESULT_CHARS = 200_000


class HybridTools(AddObservationKey):
    """The agent may also call the apps' tools (``harness.tools``): as ``{"type": "tool_call",
    "tool": "mail.search", "arguments": {...}}`` actions, answered in the observation's
    ``tool_result`` (JSON text; a refusal comes back in ``last_action_error``), and over MCP
    at ``mcp_url()``, those calls reported in the next step's ``info["tool_calls"]``. Tool
    writes are the agent's, verified like GUI work.

    Example::

        env = HybridTools(DeskEnv("meridian/pelagic-hearing-date"))   # or make_env(task, tools=True)
        obs, info = env.reset()
        url = env.mcp_url()            # through gym.make's wrappers: env.get_wrapper_attr("mcp_url")()
        obs, *_ = env.step({"type": "tool_call", "tool": "chat.read", "arguments": {"channel": "general"}})
        print(obs["tool_result"][:200])
    """

    key = "tool_result"

    def __init__(self, env: gym.Env[dict, dict]):
        super().__init__(env)
        self._session.tools = True              # the env carries tool_call actions out
        self._mcp: EpisodeMCP | None = None

    @staticmethod
    def key_space() -> spaces.Space:
        return AnyText(max_length=TOOL_RESULT_CHARS, min_length=0)

    def read(self, obs: dict) -> str:
        return (self._session.tool_result or "")[:TOOL_RESULT_CHARS]

    def blank(self) -> str:
        return ""

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        if self._mcp is not None and info["status"] != "error":
            calls = self._mcp.drain()
            if calls:
                info["tool_calls"] = calls
        return obs, reward, terminated, truncated, info

    def mcp_url(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve the env's apps as MCP tools (streamable HTTP) next to the GUI.

        Calls act in the live episode (its slot, as the task's user, actor ``agent``) and are
        reported in the next step's ``info["tool_calls"]`` (so the runner records them in
        ``steps.jsonl``); after a write the page hears ``deskworld:refresh``. Needs the ``mcp``
        extra; the server lives as long as the env."""
        if self._mcp is None:
            self._mcp = EpisodeMCP(self.unwrapped, host=host, port=port)
        return self._mcp.url

    def close(self) -> None:
        if self._mcp is not None:
            self._mcp.stop()
            self._mcp = None
        super().close()

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "_mcp": None}
