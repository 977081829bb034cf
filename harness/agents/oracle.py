"""The oracle agent: a task's scripted solution, acted out like a model would.

It is privileged only in how it aims: it reads the page (Playwright locators by
role and name, label, text) to find where things are, then sends the same
coordinate actions a model sends — click at a point, type, press keys, scroll —
so oracles exercise the real action path. The page's boxes are CSS pixels; the actions are in
screenshot pixels, mapped through the episode's appearance variant (``harness.env.variant``: scale
factor and zoom), and clamped to the episode's screen. ``expect`` steps wait until
something is on screen; if it never comes the oracle is broken
(``OracleFailed``), which ``deskworld check`` reports.
"""
from __future__ import annotations

import re
import time
from collections import deque

from apps.core import locale
from harness.tasks.schema import Locator, OracleStep

EXPECT_TIMEOUT_S = 10.0

FIND_SCROLLER_JS = """
(el) => {
  // The scroll container that hides the element's centre (a list inside a popover, a pane, a board
  // that scrolls sideways), or the window when it is off screen; null when visible. With it, which
  // ways the centre is out and where to turn the wheel: [left, top, width, height, outX, outY, x, y].
  // The wheel's point is one of the container's own, not over a list nested in it that scrolls the
  // same way (a dialog's "People with access" list would take the wheel and keep it).
  const r = el.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const scrolls = (n, outX, outY) => {
    const cs = getComputedStyle(n);
    return (outY && /(auto|scroll)/.test(cs.overflowY) && n.scrollHeight > n.clientHeight + 1)
        || (outX && /(auto|scroll)/.test(cs.overflowX) && n.scrollWidth > n.clientWidth + 1);
  };
  const wheelPoint = (n, b, outX, outY) => {
    const left = Math.max(b.left, 0), top = Math.max(b.top, 0);
    const right = Math.min(b.right, innerWidth), bottom = Math.min(b.bottom, innerHeight);
    const mx = (left + right) / 2, my = (top + bottom) / 2;
    const pts = [];
    for (const fy of [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9])
      for (const fx of [0.5, 0.3, 0.7, 0.15, 0.85]) pts.push([left + (right - left) * fx, top + (bottom - top) * fy]);
    for (const [x, y] of pts) {
      let hit = document.elementFromPoint(x, y), ok = !!hit && (hit === n || n.contains(hit));
      for (let m = hit; ok && m && m !== n; m = m.parentElement) if (scrolls(m, outX, outY)) ok = false;
      if (ok) return [x, y];
    }
    return [mx, my];
  };
  let n = el.parentElement;
  while (n && n !== document.body) {
    const b = n.getBoundingClientRect();
    const outY = (cy < b.top || cy > b.bottom) && scrolls(n, false, true);
    const outX = (cx < b.left || cx > b.right) && scrolls(n, true, false);
    if (outX || outY) return [b.left, b.top, b.width, b.height, outX, outY, ...wheelPoint(n, b, outX, outY)];
    n = n.parentElement;
  }
  if (cy < 0 || cy >= innerHeight || cx >= innerWidth) {
    const outX = cx >= innerWidth;
    const root = document.scrollingElement || document.documentElement;
    return [0, 0, innerWidth, innerHeight, outX, true, ...wheelPoint(root, root.getBoundingClientRect(), outX, true)];
  }
  return null;
}
"""


class OracleFailed(RuntimeError):
    """The oracle could not find what its script says should be there."""


def _text(value: str):
    """``re:…`` is a regular expression; anything else is matched as text."""
    return re.compile(value[3:]) if value.startswith("re:") else value


def build(page, loc: Locator):
    base = build(page, loc.within) if loc.within else page
    exact = {"exact": loc.exact}
    if loc.role:
        kw = dict(exact)
        if loc.name is not None:
            kw["name"] = _text(loc.name)
        if isinstance(kw.get("name"), re.Pattern):
            kw.pop("exact")
        found = base.get_by_role(loc.role, **kw)
    else:
        value = loc.label or loc.text or loc.placeholder
        target = _text(value)
        kw = {} if isinstance(target, re.Pattern) else exact
        if loc.label:
            found = base.get_by_label(target, **kw)
        elif loc.text:
            found = base.get_by_text(target, **kw)
        else:
            found = base.get_by_placeholder(target, **kw)
    found = found.filter(visible=True)
    return found.nth(loc.nth) if loc.nth >= 0 else found.last


# A point inside the element that a click would reach: its centre unless something covers it (a toast
# over a list row), else the first of a grid of points across its box that hits it; null when every one
# is covered.
OPEN_POINT_JS = """
(el) => {
  const r = el.getBoundingClientRect();
  // Inside the content area of every scrolling box around it: a point on a scroll container's own
  // scrollbar is "on" the container (an ancestor), but a click there moves the bar, not the element.
  const clips = [];
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (a.clientHeight < a.offsetHeight - a.clientTop * 2 - 1 || a.clientWidth < a.offsetWidth - a.clientLeft * 2 - 1) {
      const b = a.getBoundingClientRect();
      clips.push([b.left + a.clientLeft, b.top + a.clientTop, b.left + a.clientLeft + a.clientWidth, b.top + a.clientTop + a.clientHeight]);
    }
  }
  const hits = (x, y) => {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    if (clips.some(([l, t, r, b]) => x < l || y < t || x >= r || y >= b)) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (top === el || el.contains(top) || top.contains(el));
  };
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (hits(cx, cy)) return [cx, cy];
  for (const fy of [0.5, 0.25, 0.75]) {
    for (const fx of [0.9, 0.75, 0.6, 0.4, 0.25, 0.1]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (hits(x, y)) return [x, y];
    }
  }
  return null;
}
"""


def localized(loc: Locator, code: str) -> Locator:
    """``loc`` with the en-US times and dates its words name ("1:00pm", "April 6", "7/1/2026") written
    as the episode's locale shows them (``apps.core.locale.localize_text``); itself in en-US."""
    if code == locale.DEFAULT:
        return loc
    def words(value: str) -> str:
        if value.startswith("re:"):
            return "re:" + locale.localize_pattern(value[3:], code)
        return locale.localize_text(value, code)
    update = {k: words(getattr(loc, k)) for k in ("name", "label", "text", "placeholder") if getattr(loc, k)}
    if loc.within:
        update["within"] = localized(loc.within, code)
    return loc.model_copy(update=update)


# What a script types that is all one date or time ("7/1/2026", "1:00pm"): typed in the locale's form.
_TYPED_WHEN = re.compile(r"\s*(\d{1,2}/\d{1,2}/\d{4}|\d{1,2}(:\d{2})?\s?([ap]m|[AP]M))\s*")


def typed(text: str, code: str) -> str:
    """Text a script types, as a person in the locale types it: a bare date or time is localised,
    anything else (a message that mentions a date) is typed as written."""
    return locale.localize_text(text, code) if _TYPED_WHEN.fullmatch(text) else text


def _where(page, loc: Locator, code: str = locale.DEFAULT) -> dict:
    """Box of a visible element, and its scroll container if it is off screen. In a locale other than
    en-US the element is found by the words the page formats in it (``localized``) or, for words a
    message or file holds as written ("could we do 3pm"), as the script names it."""
    el = build(page, loc)
    local = localized(loc, code)
    if local != loc:
        el = build(page, local).or_(el).first
    try:
        el.wait_for(state="visible", timeout=int(EXPECT_TIMEOUT_S * 1000))
    except Exception:
        raise OracleFailed(f"not visible: {describe(loc)}") from None
    box = el.bounding_box()
    if box is None:
        raise OracleFailed(f"no box for {describe(loc)}")
    out = {"box": box, "checked": None}
    scroller = el.evaluate(FIND_SCROLLER_JS)
    if scroller is not None:
        out["scroller"] = scroller
    else:
        out["point"] = el.evaluate(OPEN_POINT_JS)
    try:
        out["checked"] = el.is_checked()
    except Exception:
        pass
    return out


def describe(loc: Locator) -> str:
    parts = [f"{k}={v!r}" for k, v in loc.model_dump(exclude_defaults=True).items() if k != "within"]
    if loc.within:
        parts.append(f"within({describe(loc.within)})")
    return "locator(" + ", ".join(parts) + ")"


class OracleAgent:
    name = "oracle"

    def __init__(self, env):
        if env is None:
            raise ValueError("the oracle agent needs the env it acts in")
        self.env = env
        self.steps: deque = deque()
        self.pending: deque = deque()
        self._scrolled: tuple | None = None      # (step, box) of the last scroll made to bring a target on screen

    def reset(self, task) -> None:
        self.task = task
        self.steps = deque(task.oracle)
        self.pending = deque()
        self._scrolled = None

    def act(self, observation: dict) -> dict:
        while not self.pending:
            if not self.steps:
                return {"type": "done", "status": "complete"}
            step = self.steps.popleft()
            self.pending.extend(self._expand(step))
        return self.pending.popleft()

    # ------------------------------------------------------------------ aiming
    @property
    def variant(self):
        """The episode's variant: how the page's CSS pixels map to the screenshot's."""
        return self.env.unwrapped.session.variant

    def _locate(self, loc: Locator, step: OracleStep) -> tuple[int, int, dict] | None:
        code = self.variant.locale
        info = self.env.unwrapped.session.page_call(lambda page: _where(page, loc, code))
        box = info["box"]
        v = self.variant
        if "scroller" in info:
            # A scroll that moved nothing will not bring it on screen (say, a toolbar button cut off at
            # the right edge of a narrow screen): the oracle fails here instead of scrolling to max_steps.
            key = (id(step), round(box["x"]), round(box["y"]))
            if self._scrolled == key:
                raise OracleFailed(f"off screen and scrolling does not bring it on: {describe(loc)} at "
                                   f"({box['x']:.0f}, {box['y']:.0f}) CSS px, the page is "
                                   f"{'x'.join(map(str, v.css_viewport))} CSS px")
            self._scrolled = key
            sx, sy, sw, sh, out_x, out_y, wx, wy = info["scroller"]
            at_x, at_y = v.to_px(wx, wy)
            dx = int(round((box["x"] + box["width"] / 2 - (sx + sw / 2)) * v.px_per_css)) if out_x else 0
            dy = int(round((box["y"] + box["height"] / 2 - (sy + sh / 2)) * v.px_per_css)) if out_y else 0
            # Scroll first, then look again.
            self.steps.appendleft(step)
            self.pending.append({"type": "scroll", "x": at_x, "y": at_y, "dx": dx, "dy": dy})
            return None
        self._scrolled = None
        cx, cy = info.get("point") or (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        x, y = v.to_px(cx, cy)
        return x, y, info

    def _expand(self, step: OracleStep) -> list[dict]:
        kind = step.kind
        if kind == "goto":
            return [{"type": "navigate", "url": step.goto}]
        if kind in ("click", "dblclick", "rclick", "hover", "check"):
            found = self._locate(getattr(step, kind), step)
            if found is None:
                return []
            x, y, info = found
            if kind == "click":
                return [{"type": "click", "x": x, "y": y}]
            if kind == "rclick":
                return [{"type": "click", "x": x, "y": y, "button": "right"}]
            if kind == "dblclick":
                return [{"type": "double_click", "x": x, "y": y}]
            if kind == "hover":
                return [{"type": "move", "x": x, "y": y}]
            return [] if info.get("checked") else [{"type": "click", "x": x, "y": y}]
        if kind == "fill":
            target = Locator.model_validate(step.fill["target"])
            found = self._locate(target, step)
            if found is None:
                return []
            x, y, _ = found
            return [{"type": "click", "x": x, "y": y}, {"type": "key", "keys": "ctrl+a"},
                    {"type": "type", "text": typed(str(step.fill["text"]), self.variant.locale)}]
        if kind == "type":
            return [{"type": "type", "text": typed(step.type, self.variant.locale)}]
        if kind == "press":
            return [{"type": "key", "keys": step.press}]
        if kind == "drag":
            src = self._locate(Locator.model_validate(step.drag["source"]), step)
            if src is None:
                return []
            dst = self._locate(Locator.model_validate(step.drag["target"]), step)
            if dst is None:
                return []
            return [{"type": "drag", "path": [{"x": src[0], "y": src[1]}, {"x": dst[0], "y": dst[1]}]}]
        if kind == "scroll":
            if "target" in step.scroll:
                found = self._locate(Locator.model_validate(step.scroll["target"]), step)
                return [] if found is None else []
            # x, y, dy are the script's CSS pixels (the page as laid out at 1280×800), kept inside the
            # episode's CSS viewport and mapped to its screenshot.
            v = self.variant
            cw, ch = v.css_viewport
            x = min(float(step.scroll.get("x", 760)), cw - 1)
            y = min(float(step.scroll.get("y", 420)), ch - 1)
            px, py = v.to_px(x, y)
            return [{"type": "scroll", "x": px, "y": py, "dx": 0,
                     "dy": int(round(float(step.scroll.get("dy", 400)) * v.px_per_css))}]
        if kind == "expect":
            code = self.variant.locale
            self.env.unwrapped.session.page_call(lambda page: _where(page, step.expect, code))
            return []
        if kind == "expect_url":
            pattern = re.compile(step.expect_url)
            deadline = time.monotonic() + EXPECT_TIMEOUT_S
            while not pattern.search(self.env.unwrapped.session.page_call(lambda page: page.url)):
                if time.monotonic() > deadline:
                    raise OracleFailed(f"the address never matched {step.expect_url!r}")
                self.env.unwrapped.session.page_call(lambda page: page.wait_for_timeout(50))
            return []
        if kind == "ask":
            return [{"type": "ask_user", "text": step.ask}]
        if kind == "done":
            d = step.done or {}
            return [{"type": "done", "status": d.get("status", "complete"), "answer": d.get("answer")}]
        raise OracleFailed(f"unknown oracle step {kind}")
