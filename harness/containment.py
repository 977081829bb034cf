"""Keep the agent's browser on the episode's own origin.

Two layers, neither of which turns off the browser's HTTP cache (Playwright's
request routing would, and costs ~50 ms per page load):

- the browser is launched with a dead proxy for everything but loopback
  (``harness.browser``), so no request leaves the machine — other sites, IP
  literals, WebSockets included; another slot's loopback port answers 401
  (sessions are signed per slot);
- ``Fence`` watches every request: anything off the episode's origin is
  recorded, reported to the agent as an action error, and a main-frame
  navigation there is undone. WebSockets are closed by a route. ``navigate``
  actions are checked before they happen (``file:``, ``chrome:`` and other
  origins are refused).
"""
from __future__ import annotations

from urllib.parse import urlsplit

class Fence:
    """``origin`` is the app server's real address; ``public`` is how URLs are
    shown to the agent (the same on every run and every worker)."""

    def __init__(self, origin: str, public: str | None = None):
        self.origin = origin.rstrip("/")
        self.public_origin = (public or origin).rstrip("/")
        self.blocked: list[str] = []

    def allowed(self, url: str) -> bool:
        if url.startswith(("about:blank", "data:image/", "blob:")):
            return True
        try:
            parts = urlsplit(url)
        except ValueError:
            return False
        return f"{parts.scheme}://{parts.netloc}" == self.origin

    def install(self, context) -> None:
        context.route_web_socket("**/*", self._ws)

    def watch(self, page) -> None:
        page.on("request", self._on_request)

    def _on_request(self, req) -> None:
        if not self.allowed(req.url):
            self.blocked.append(req.url)

    def _ws(self, ws) -> None:
        self.blocked.append(ws.url)
        ws.close(code=1008, reason="blocked")

    def take(self) -> list[str]:
        out, self.blocked = self.blocked, []
        return out

    def public(self, url: str) -> str:
        if url.startswith(self.origin):
            return self.public_origin + url[len(self.origin):]
        return url

    def resolve(self, url: str) -> str:
        """A navigate action's target: paths are relative to the origin; other
        origins and schemes are refused."""
        url = url.strip()
        if url.startswith("/") and not url.startswith("//"):
            return self.origin + url
        if url == self.public_origin or url.startswith(self.public_origin + "/"):
            return self.origin + url[len(self.public_origin):]
        if not self.allowed(url):
            raise ValueError(f"navigation to {url!r} is not allowed: only this workspace ({self.public_origin}) can be opened")
        return url
