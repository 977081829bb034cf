"""The OpenEnv server entry point: ``deskworld env-server`` under OpenEnv's name for it.

OpenEnv runs an environment's ``server`` script (``[project.scripts]``) or ``python -m
deskworld_env.server.app``; both land in ``main()``, which is deskworld's own command with OpenEnv's
defaults (``0.0.0.0:8000``) and the same options and checks: off loopback it needs a token. The
command's environment variables configure it as a Space passes settings: ``DESKWORLD_TASKS`` (ids,
globs or worlds; default all), ``DESKWORLD_CAPACITY`` (sessions, default 4), ``DESKWORLD_TOOLS=1``
(hybrid sessions, the apps' tools at ``POST /mcp``) and ``DESKWORLD_ENV_TOKEN`` (a Space secret).
There is no ASGI ``app`` to hand to uvicorn: the server owns its sessions, their browsers and their
idle reaper.
"""
from __future__ import annotations

import sys

from harness.servers.envserver import env_server


def main(host: str = "0.0.0.0", port: int = 8000) -> None:
    """Serve deskworld on ``host:port``; options on the command line (``--host``, ``--port``, ``--tasks`` …) win."""
    env_server.main(args=["--host", host, "--port", str(port), *sys.argv[1:]], prog_name="server")


if __name__ == "__main__":
    main()
