"""The apps' service functions as tools, for agents that work through MCP or the command line
instead of the screen (issue 9): ``registry``, ``call_tool``, ``deskworld mcp`` and ``deskworld app``."""
from harness.tools.registry import Tool, ToolError, call_tool, get_tool, registry

__all__ = ["Tool", "ToolError", "call_tool", "get_tool", "registry"]
