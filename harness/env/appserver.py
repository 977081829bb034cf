"""An app server on a free loopback port, in a thread of this process.

The harness and the browser tests use it: one slot, one server, and a signed
session cookie for the user the browser should be.

It answers only requests addressed to it (``harness.servers.netguard``): the Host must be
its own address (403 otherwise: a DNS-rebound name, another server's), a POST,
PUT, PATCH or DELETE with an Origin must come from its own pages (403: another
loopback port, ``http://desk.local``, a ``data:`` page's ``null``), and a body
may be at most ``MAX_BODY`` bytes (413, refused from its Content-Length before it
is read; the apps' own limit, 30 MB for Drive uploads and mail attachments, sits
below it). The agent's browser really uses ``http://127.0.0.1:<port>``, so its
own pages pass.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from werkzeug.serving import make_server

from apps.web.session import session_cookie
from harness.servers.netguard import Guard, Policy

MAX_BODY = 32 * 1024 * 1024         # above the apps' MAX_CONTENT_LENGTH (30 MB: 25 MB attachments + form)
POLICY = Policy(max_body=MAX_BODY, origin="unsafe", browsers=True, json_errors=False)


@dataclass
class AppServer:
    app: object
    host: str = "127.0.0.1"
    port: int = 0

    def start(self) -> "AppServer":
        logging.getLogger("werkzeug").setLevel(logging.WARNING)     # no line per request
        self._server = make_server(self.host, self.port, Guard(self.app, POLICY), threaded=True)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"deskworld-app:{self.port}",
                                        daemon=True)
        self._thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def cookie(self, user: str) -> dict:
        """A Playwright cookie signing ``user`` in for the slot's current generation."""
        slot = self.app.config["SLOT"]
        name, value = session_cookie(self.app, user, slot.generation)
        return {"name": name, "value": value, "domain": self.host, "path": "/", "httpOnly": True,
                "sameSite": "Lax"}

    def stop(self) -> None:
        server = getattr(self, "_server", None)
        if server is not None:
            server.shutdown()
            server.server_close()
            self._thread.join(timeout=5)
            self._server = None

    def __enter__(self) -> "AppServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
