"""An app server on a free loopback port, in a thread of this process.

The harness and the browser tests use it: one slot, one server, and a signed
session cookie for the user the browser should be.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from werkzeug.serving import make_server


@dataclass
class AppServer:
    app: object
    host: str = "127.0.0.1"
    port: int = 0

    def start(self) -> "AppServer":
        import logging
        logging.getLogger("werkzeug").setLevel(logging.WARNING)     # no line per request
        self._server = make_server(self.host, self.port, self.app, threaded=True)
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
        from apps.common.session import session_cookie
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
