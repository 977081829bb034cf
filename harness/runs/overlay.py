"""What to draw for an action on the screenshot it was chosen on, in screenshot pixels.

One geometry for both renderings of a recorded episode: the viewer turns it into SVG over the
screenshot (``harness.viewer``), ``harness.runs.media`` draws it into the preview frames with
Pillow — so the two always agree. A click is a point with rings (two for a double click, three
for a triple), a drag a polyline, a scroll an arrow, typed text a box near the last pointer
position, keys a row of chips.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator


def _pt(p) -> tuple[float, float] | None:
    if isinstance(p, dict) and "x" in p and "y" in p:
        return float(p["x"]), float(p["y"])
    if isinstance(p, (list, tuple)) and len(p) >= 2:
        return float(p[0]), float(p[1])
    return None


def overlay(action, last_xy: tuple[float, float] | None, size: tuple[int, int]) -> dict:
    """What to draw for one action on a screenshot of ``size``; ``last_xy`` is where the pointer last was
    (typed text is drawn near it)."""
    a = action if isinstance(action, dict) else {"type": str(action)}
    t = str(a.get("type", "?"))
    w, h = size
    out: dict = {"type": t, "label": t.replace("_", " ")}
    try:
        if t in ("click", "double_click", "triple_click", "move", "mouse_down", "mouse_up") and "x" in a:
            out["point"] = (float(a["x"]), float(a["y"]))
            out["rings"] = {"double_click": 2, "triple_click": 3}.get(t, 1)
            btn = a.get("button")
            mods = a.get("modifiers") or []
            out["label"] = "+".join([*mods, t.replace("_", " ")]) + (f" ({btn})" if btn and btn != "left" else "")
        elif t == "drag":
            pts = [q for q in (_pt(p) for p in a.get("path") or []) if q]
            if pts:
                out["path"] = pts
                out["points_attr"] = " ".join(f"{x:.0f},{y:.0f}" for x, y in pts)
        elif t == "scroll":
            x, y = float(a.get("x", w / 2)), float(a.get("y", h / 2))
            dx, dy = float(a.get("dx", 0) or 0), float(a.get("dy", 0) or 0)
            mag = (dx * dx + dy * dy) ** 0.5 or 1.0
            length = min(160.0, max(50.0, mag / 4))
            out["point"] = (x, y)
            out["arrow"] = (x + dx / mag * length, y + dy / mag * length)
            out["label"] = f"scroll dx={dx:g} dy={dy:g}"
        elif t == "type":
            text = str(a.get("text", ""))
            x, y = last_xy or (w / 2 - 200, 60)
            shown = text if len(text) <= 60 else text[:57] + "…"
            bw = 40 + 9 * len(shown)
            out["textbox"] = {"x": max(4, min(x - 20, w - bw - 4)), "y": max(4, min(y + 24, h - 40)),
                              "text": shown, "w": bw}
            out["label"] = f"type {len(text)} chars"
        elif t == "key":
            keys = str(a.get("keys") or a.get("key") or "")
            out["chips"] = [c for c in re.split(r"(\+| )", keys) if c and c != " "]
            out["label"] = f"key {keys}"
        elif t == "navigate":
            out["label"] = f"navigate {a.get('url', '')}"
        elif t == "done":
            out["label"] = f"done ({a.get('status', 'complete')})"
        elif t == "wait":
            out["label"] = f"wait {a.get('ms', '')} ms"
    except (TypeError, ValueError):
        pass
    return out


def overlays(steps: list[dict], size_of: Callable[[int], tuple[int, int]]) -> Iterator[dict]:
    """The overlay of each step's action in order, each on a screenshot of ``size_of(n)`` (n from 1),
    following the pointer from one action to the next."""
    last_xy = None
    for n, s in enumerate(steps, 1):
        ov = overlay(s.get("action"), last_xy, size_of(n))
        if ov.get("point"):
            last_xy = ov["point"]
        elif ov.get("path"):
            last_xy = ov["path"][-1]
        yield ov
