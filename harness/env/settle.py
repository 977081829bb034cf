"""Waiting until a page is settled after an action, without fixed sleeps.

Settled means: no request in flight (seen by Playwright), any main-frame
navigation that started has reached DOMContentLoaded, no XMLHttpRequest or
short timer pending in the page (htmx debounces, swaps and settles use them),
no web font loading (``document.fonts``) and no image in view still loading,
then — once the fonts are ready and the loaded images decoded — two animation
frames with all of that still true, so the frame the screenshot copies has
painted the page's final text and images. The wait is bounded; on timeout the
step goes on and says so in ``info``.

The in-page half is an init script (``INIT_SCRIPT``) that counts pending XHRs
and timers of up to ``TIMER_HORIZON_MS``; longer timers (none in our apps)
are not waited for. The font and image checks cost nothing when there is
nothing to wait for (an already-ready ``document.fonts.ready`` resolves in a
microtask; pages without images skip the decode).

Pixel-exact screenshots under load also need ``--disable-partial-raster``
(harness/env/browser.py): with partial raster, Chromium re-rasters only the
invalidated part of a tile, and the edges of curves (rounded corners, round
avatars) crossing that clip come out with slightly different anti-aliasing
than a whole-tile raster. Which parts get invalidated when depends on frame
timing (a late font swap, invalidations coalesced differently under load), so
the same page gave PNGs differing in a few dozen edge pixels.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

TIMER_HORIZON_MS = 1500
DEFAULT_TIMEOUT_S = 10.0

INIT_SCRIPT = """
(() => {
  if (window.__desk) return;
  const st = window.setTimeout.bind(window), ct = window.clearTimeout.bind(window);
  const timers = new Set();
  let xhr = 0;
  window.setTimeout = function (fn, ms, ...args) {
    const delay = Number(ms) || 0;
    if (typeof fn !== "function" || delay > %(horizon)d) return st(fn, ms, ...args);
    let h;
    h = st(function () { timers.delete(h); return fn.apply(this, arguments); }, delay, ...args);
    timers.add(h);
    return h;
  };
  window.clearTimeout = function (h) { timers.delete(h); return ct(h); };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    xhr++;
    this.addEventListener("loadend", () => st(() => { xhr--; }, 0));
    return send.apply(this, arguments);
  };
  // Bounded with the page's own setTimeout (not counted as busy): a wait here never outlives the settle.
  const within = (p, ms) => Promise.race([p, new Promise((r) => st(r, ms))]);
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  };
  // Fonts still loading and images still loading (an offscreen lazy image never loads: not waited for).
  const assets = () => {
    let n = document.fonts && document.fonts.status === "loading" ? 1 : 0;
    for (const img of document.images) if (!img.complete && (img.loading !== "lazy" || inView(img))) n++;
    return n;
  };
  const frames = async () => {
    if (document.fonts && document.fonts.status !== "loaded") await within(document.fonts.ready, 2000);
    const imgs = [];
    for (const img of document.images) if (img.complete && img.naturalWidth && inView(img)) imgs.push(img);
    if (imgs.length) await within(Promise.all(imgs.map((i) => i.decode().catch(() => null))), 2000);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return true;
  };
  window.__desk = {
    busy: () => timers.size + xhr + (document.readyState === "loading" ? 1 : 0) + assets(),
    frames,
  };
})();
""" % {"horizon": TIMER_HORIZON_MS}

# Hide the text caret and scrollbars' blinking so the same state gives the same pixels.
STABLE_CSS = "*, *::before, *::after { caret-color: transparent !important; }"


@dataclass
class NetworkWatch:
    """Requests in flight and main-frame navigations, from Playwright events."""
    inflight: set = field(default_factory=set)
    nav_pending: bool = False
    five_xx: list = field(default_factory=list)

    def reset(self) -> None:
        self.inflight.clear()
        self.nav_pending = False
        self.five_xx.clear()

    def attach(self, page) -> None:
        self.page = page
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("domcontentloaded", self._on_dcl)
        page.on("response", self._on_response)

    def _on_request(self, req) -> None:
        self.inflight.add(req)
        try:
            if req.is_navigation_request() and req.frame == self.page.main_frame:
                self.nav_pending = True
        except Exception:
            pass

    def _on_done(self, req) -> None:
        self.inflight.discard(req)
        try:
            if req.is_navigation_request() and req.frame == self.page.main_frame and req.failure:
                self.nav_pending = False
        except Exception:
            pass

    def _on_dcl(self, _page) -> None:
        self.nav_pending = False

    def _on_response(self, resp) -> None:
        if resp.status >= 500:
            self.five_xx.append(f"{resp.status} {resp.request.method} {resp.url}")

    @property
    def quiet(self) -> bool:
        return not self.inflight and not self.nav_pending


def wait_quiet(page, net: NetworkWatch, timeout_s: float) -> bool:
    """Until none of the requests ``net`` saw the page make is in flight (Playwright delivers
    their events while the page waits), at most ``timeout_s``; whether it got quiet."""
    end = time.monotonic() + timeout_s
    while net.inflight:
        if time.monotonic() > end:
            return False
        page.wait_for_timeout(10)
    return True


def _busy(page, frames: bool) -> int | None:
    """Pending XHRs + short timers in the page (after two animation frames when
    ``frames``); None while the page can't answer (it is navigating)."""
    script = ("async () => { if (!window.__desk) return 1; await window.__desk.frames(); return window.__desk.busy(); }"
              if frames else "() => window.__desk ? window.__desk.busy() : 1")
    try:
        return page.evaluate(script)
    except Exception:
        return None


def wait_settled(page, net: NetworkWatch, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool:
    """Block until the page is settled (True) or ``timeout_s`` passed (False)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        # Cheap checks first; the two frames only once everything looks done.
        if net.quiet and _busy(page, frames=False) == 0:
            # Events that arrive during the frames (a navigation the action started) count too.
            if _busy(page, frames=True) == 0 and net.quiet:
                return True
            continue
        # Let Playwright deliver the events we are waiting for.
        page.wait_for_timeout(5)
    return False
