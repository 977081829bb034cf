"""Keep the agent's browser on the episode's own origin, by construction.

The agent's only channel is the screen and its actions; nothing it does from
inside the page may reach another server (the viewer, the env server, another
slot, the internet) or leave a window open that outlives the episode. Three
layers, each enough on its own for what it covers, none of which turns off the
browser's HTTP cache (Playwright's request routing would, at ~50 ms per page
load):

1. **The network.** Each context gets its own proxy setting: every request of
   every page of the context (pop-ups, workers and WebSockets included) goes
   to a dead proxy (``127.0.0.1:9``, refused) except requests to the episode's
   own server, which is the only bypass; Chromium's implicit loopback bypass is
   removed (``<-loopback>``), so other loopback ports are unreachable too.
   WebRTC (UDP, which no proxy sees) is taken out of every page.
2. **The page.** The main page's own DevTools session blocks every URL but the
   origin's (``Network.setBlockedURLs``), so even a proxy that let a request
   through would not reach the renderer. WebSockets are closed by a route.
3. **Navigation and windows.** ``navigate`` accepts only the workspace (a path,
   the public origin or the real one): ``data:``, ``blob:``, ``about:``,
   ``file:``, ``javascript:`` and other origins are refused before anything
   happens. After every action the runner checks the main frame: if it is
   anywhere but the origin, it is taken back (history first, then the last
   page that was on the origin) until it is, and the action reports it. Every
   new page of the context (``window.open``, ``target=_blank``, ctrl-, shift-
   and middle-click tabs) is closed as it opens, and reset closes every page
   but the main one.

Every request off the origin is recorded and reported to the agent as the
action's error.
"""
from __future__ import annotations

from urllib.parse import urlsplit

DEAD_PROXY = "http://127.0.0.1:9"
# WebRTC sends UDP (STUN) that no HTTP proxy sees: the apps have no use for it, so pages don't get it.
NO_WEBRTC_JS = """(() => { for (const k of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel",
  "RTCIceCandidate", "RTCSessionDescription", "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver"]) {
  try { Object.defineProperty(window, k, {value: undefined, writable: false, configurable: false}); } catch (e) {} }
})();"""


class Fence:
    """``origin`` is the app server's real address; ``public`` is how URLs are
    shown to the agent (the same on every run and every worker)."""

    def __init__(self, origin: str, public: str | None = None):
        self.origin = origin.rstrip("/")
        self.public_origin = (public or origin).rstrip("/")
        self.blocked: list[str] = []
        self.main = None                 # the episode's page; every other page is closed
        self._opening = False

    # ------------------------------------------------------------------ policy
    def on_origin(self, url: str) -> bool:
        """A main-frame URL the agent may be on: the origin itself, nothing else."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return False
        return f"{parts.scheme}://{parts.netloc}" == self.origin

    def allowed(self, url: str) -> bool:
        """A request a page of the workspace may make: the origin, inline ``data:``
        resources and the origin's own ``blob:`` URLs."""
        if url.startswith("data:") or url.startswith(f"blob:{self.origin}/"):
            return True
        return self.on_origin(url)

    def proxy(self) -> dict:
        """``browser.new_context(proxy=...)``: everything but the origin goes to the dead proxy
        (Playwright adds ``<-loopback>``, so other loopback ports are not bypassed)."""
        host = urlsplit(self.origin).netloc
        return {"server": DEAD_PROXY, "bypass": host}

    # ------------------------------------------------------------------ wiring
    def install(self, context) -> None:
        context.add_init_script(NO_WEBRTC_JS)
        context.route_web_socket("**/*", self._ws)
        context.on("request", self._on_request)
        context.on("page", self._on_page)

    def watch(self, page) -> None:
        """Record one page's requests off the origin (for a page in a context someone else made,
        as the BrowserGym example's; ``install`` watches a whole context)."""
        page.on("request", self._on_request)

    def adopt(self, context):
        """Open the episode's page: the one page of the context that stays open."""
        self._opening = True
        try:
            page = context.new_page()
        finally:
            self._opening = False
        self.main = page
        return page

    def block_others(self, cdp) -> None:
        """The page's own DevTools session refuses every URL but the origin's."""
        cdp.send("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0})
        cdp.send("Network.setBlockedURLs", {"urlPatterns": [
            {"urlPattern": f"{self.origin}/*", "block": False},
            {"urlPattern": "*://*:*/*", "block": True},
            {"urlPattern": "*://*/*", "block": True},
        ]})

    def close_strays(self, context) -> None:
        """Close every page of the context but the main one (each reported as a new window)."""
        for page in list(context.pages):
            if page is not self.main:
                self.blocked.insert(0, "a new window")
                try:
                    page.close()
                except Exception:
                    pass

    def _on_request(self, req) -> None:
        if not self.allowed(req.url):
            self.blocked.append(req.url)

    def _on_page(self, page) -> None:
        if self._opening or page is self.main:
            return
        # First in the report: the window is what the agent did; its requests follow from it.
        self.blocked.insert(0, "a new window")
        try:
            page.close()
        except Exception:
            pass

    def _ws(self, ws) -> None:
        self.blocked.append(ws.url)
        ws.close(code=1008, reason="blocked")

    def take(self) -> list[str]:
        out, self.blocked = self.blocked, []
        return out

    # ------------------------------------------------------------------ addresses
    def public(self, url: str) -> str:
        if url.startswith(self.origin):
            return self.public_origin + url[len(self.origin):]
        return url

    def public_text(self, text: str) -> str:
        """A message with the server's real address written as the public one (the agent sees the
        same text on every run and worker)."""
        return text.replace(self.origin, self.public_origin)

    def resolve(self, url: str) -> str:
        """A navigate action's target: paths are relative to the origin; other
        origins and schemes are refused."""
        url = url.strip()
        if url.startswith("/") and not url.startswith("//"):
            return self.origin + url
        if url == self.public_origin or url.startswith(self.public_origin + "/"):
            return self.origin + url[len(self.public_origin):]
        if url == self.origin or url.startswith(self.origin + "/"):
            return url
        raise ValueError(f"navigation to {url[:200]!r} is not allowed: only this workspace "
                         f"({self.public_origin}) can be opened")
