"""``deskworld mcp`` with the SDK's own client: over stdio (the real command, in a
subprocess) and over streamable HTTP (the same server in this process). A client lists
the tools, reads, writes, reads its write back, and gets ``isError`` for a bad call."""
from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from harness.tools import registry
from harness.tools.mcp import build_server, http_app
from harness.tools.session import open_session
from tests.tools.conftest import run_async

DESKWORLD = Path(sys.executable).with_name("deskworld")


async def exercise(session: ClientSession) -> None:
    """What every transport must do: the same conversation with the server."""
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert {"mail_search", "mail_read", "mail_send", "mail_reply"} <= set(tools)
    assert tools["mail_search"].input_schema["required"] == ["q"]
    assert tools["mail_search"].annotations.read_only_hint is True
    assert tools["mail_send"].annotations.read_only_hint is False

    found = await session.call_tool("mail_search", {"q": "from:laura"})
    assert not found.is_error
    assert found.structured_content["total"] >= 1

    sent = await session.call_tool("mail_send", {"to": ["priya.raman@meridianshaw.com"], "subject": "Over MCP",
                                                 "body": "Sent by a tool."})
    assert not sent.is_error, sent.content
    thread = sent.structured_content["thread"]

    again = await session.call_tool("mail_search", {"q": "subject:\"Over MCP\" in:sent"})
    assert [t["id"] for t in again.structured_content["threads"]] == [thread]
    opened = await session.call_tool("mail_read", {"thread_id": thread})
    assert opened.structured_content["messages"][0]["body"] == "Sent by a tool."

    bad = await session.call_tool("mail_read", {"thread_id": 99999})
    assert bad.is_error and bad.content[0].text == "That conversation doesn't exist or was deleted."
    wrong = await session.call_tool("mail_search", {"query": "x"})
    assert wrong.is_error and "q is required" in wrong.content[0].text
    unknown = await session.call_tool("mail_delete_everything", {})
    assert unknown.is_error and "No tool 'mail_delete_everything'" in unknown.content[0].text


def test_stdio_subprocess():
    params = StdioServerParameters(command=str(DESKWORLD), args=["mcp", "mail", "--world", "meridian"])

    async def main() -> None:
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await exercise(session)
    run_async(main)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http():
    import uvicorn
    port = _free_port()
    server = build_server(open_session("meridian"), registry("mail"))
    web = uvicorn.Server(uvicorn.Config(http_app(server, "127.0.0.1", port), host="127.0.0.1", port=port,
                                        log_level="warning"))          # as `deskworld mcp --http` serves it
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not web.started:
            assert time.monotonic() < deadline, "the MCP server did not start"
            time.sleep(0.05)

        async def main() -> None:
            with anyio.fail_after(60):
                async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                        ClientSession(read, write) as session:
                    await exercise(session)
        run_async(main)
    finally:
        web.should_exit = True
        thread.join(10)


def test_the_instructions_say_who_and_when():
    server = build_server(open_session("lumen"), registry("tickets"))
    assert server.instructions.startswith("You are Jordan Blake <")
    assert "It is Tuesday 09 June 2026, 09:30 CDT." in server.instructions
