"""The apps' tools over MCP, with the official SDK's low-level ``Server``.

The low-level server (not ``MCPServer``) because the tools already carry
their JSON schemas and validation (``harness.tools.registry``); the SDK
would otherwise derive them again from Python signatures. Every call runs
in the session's slot, one at a time (the slot's lock), so a long-running
server is one consistent world that every client sees and changes.

A tool that fails answers ``isError`` with the app's message, so the model
can correct itself; an unexpected exception is logged to stderr and
answered the same way, never as a traceback.

Over streamable HTTP it refuses the agent's browser: the Host must be this
server's own address and an Origin its own origin — the exact port, not the SDK's
default of any loopback port, which would let the apps' pages at
``http://127.0.0.1:<their port>`` in (421 / 403) — POST bodies must be
``application/json`` (400) and at most ``MAX_BODY`` bytes (413).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from mcp import types
from mcp.server import Server

from harness.tools.registry import Tool, ToolError
from harness.tools.session import Session

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def transport_security(host: str, port: int):
    """The SDK's Host/Origin check for a server at ``host:port``: that address only (loopback aliases
    of it included); None — the SDK's own defaults — for a wildcard address, whose names aren't known."""
    from mcp.server.transport_security import TransportSecuritySettings
    if host in ("", "0.0.0.0", "::"):
        return None
    names = LOOPBACK if host in LOOPBACK else (host,)
    hosts = [f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=[f"http://{h}" for h in hosts])


def http_app(server: Server, host: str, port: int):
    """The streamable-HTTP ASGI app of ``server`` at ``host:port``, at /mcp, with its checks."""
    return server.streamable_http_app(host=host, transport_security=transport_security(host, port),
                                      max_request_body_size=MAX_BODY)


def build_server(session: Session, tools: Sequence[Tool], name: str = "deskworld") -> Server:
    by_name = {t.mcp_name: t for t in tools}
    listing = types.ListToolsResult(tools=[_describe(t) for t in tools])

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return listing

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            return _error(f"No tool {params.name!r}; the tools are {', '.join(by_name)}.")
        try:
            out = session.call(tool, params.arguments)
        except ToolError as e:
            return _error(e.message)
        except Exception as e:                  # a bug in an app: the client still gets an answer
            log.exception("tool %s failed", tool.name)
            return _error(f"{tool.name} failed: {type(e).__name__}: {e}")
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(out, ensure_ascii=False, indent=1))],
                                    structured_content=out if isinstance(out, dict) else {"result": out})

    return Server(name, version=_version(), instructions=_instructions(session, tools),
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("deskworld")
    except PackageNotFoundError:            # run from a checkout that isn't installed
        return "0"


def _describe(t: Tool) -> types.Tool:
    return types.Tool(name=t.mcp_name, title=t.name, description=t.description, input_schema=t.input_schema,
                      annotations=types.ToolAnnotations(read_only_hint=not t.write, open_world_hint=False))


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def _instructions(session: Session, tools: Sequence[Tool]) -> str:
    apps = sorted({t.app for t in tools})
    return (f"{session.describe()} These tools work in the workspace apps ({', '.join(apps)}) as that person; "
            "what you change is what they would change in the apps. Ids come from the list and search tools.")


def serve(session: Session, tools: Sequence[Tool], transport: str = "stdio", host: str = "127.0.0.1",
          port: int = 8766) -> None:
    """Serve until stdin closes (stdio) or the process is stopped (streamable HTTP at /mcp)."""
    server = build_server(session, tools)
    if transport == "stdio":
        import anyio
        from mcp.server.stdio import stdio_server

        async def run() -> None:
            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        anyio.run(run)
    else:
        import uvicorn
        if port == 0:                        # the Host check needs the real port: bind first, then serve
            import socket
            sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
            sock.bind((host, 0))
            port = sock.getsockname()[1]
            print(f"deskworld mcp: http://{host}:{port}/mcp", flush=True)
            uvicorn.Server(uvicorn.Config(http_app(server, host, port), log_level="warning")).run(sockets=[sock])
            return
        uvicorn.run(http_app(server, host, port), host=host, port=port, log_level="warning")
