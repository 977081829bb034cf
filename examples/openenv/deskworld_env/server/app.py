"""The OpenEnv server entry point: ``deskworld env-server``, configured from the environment.

OpenEnv runs an environment's ``server`` script (``[project.scripts]``) or ``python -m
deskworld_env.server.app``; both land in ``main()``, which runs deskworld's own server (Flask +
WebSocket sessions, one Chromium per session) with the same checks as the command line: off
loopback it needs a token (``DESKWORLD_ENV_TOKEN``, set as a Space secret). There is no ASGI ``app``
to hand to uvicorn: the server owns its sessions, their browsers and their idle reaper.

Settings (environment variables, as a Space passes them): ``DESKWORLD_TASKS`` (ids, globs or
worlds; default all), ``DESKWORLD_CAPACITY`` (sessions, default 2), ``DESKWORLD_TOOLS`` (``1``:
hybrid sessions, the apps' tools at ``POST /mcp``), ``DESKWORLD_ENV_TOKEN``.
"""
from __future__ import annotations

import os

from harness.servers.envserver import env_server


def _args(host: str, port: int) -> list[str]:
    args = ["--host", host, "--port", str(port), "--capacity", os.environ.get("DESKWORLD_CAPACITY", "2")]
    if os.environ.get("DESKWORLD_TASKS"):
        args += ["--tasks", os.environ["DESKWORLD_TASKS"]]
    if os.environ.get("DESKWORLD_TOOLS", "") in ("1", "true", "yes"):
        args.append("--tools")
    return args


def main(host: str = "0.0.0.0", port: int = 8000) -> None:
    """Serve deskworld on ``host:port``; ``--host`` and ``--port`` on the command line win."""
    import argparse
    parser = argparse.ArgumentParser(prog="server", description="deskworld env-server for OpenEnv")
    parser.add_argument("--host", default=host)
    parser.add_argument("--port", type=int, default=port)
    args = parser.parse_args()
    env_server.main(args=_args(args.host, args.port), prog_name="server")


if __name__ == "__main__":
    main()
