"""Map model-native computer actions onto deskworld actions.

- ``from_anthropic(tool_input)``: the ``input`` of an Anthropic computer-use
  ``tool_use`` block (``left_click`` with ``coordinate``, ``scroll`` with
  ``scroll_direction``/``scroll_amount``, ``left_click_drag``, ``key``…).
- ``from_openai(action)``: an OpenAI ``computer_call`` action (``click``,
  ``double_click``, ``drag`` with ``path``, ``keypress``, ``scroll`` with
  ``scroll_x``/``scroll_y``, ``type``, ``wait``, ``move``), or a batch
  ``{"actions": [...]}``.

Both return a list of deskworld action dicts (one native action can be
several of ours). ``scale`` maps a model's screenshot coordinates back to
the 1280×800 viewport when the model saw a resized image. Unknown input
raises ``ActionError`` with the reason.
"""
from __future__ import annotations

from harness.env.actions import ActionError

SCROLL_CLICK_PX = 100            # one Anthropic scroll "click"
OPENAI_WAIT_MS = 2000            # an OpenAI wait has no duration
_OPENAI_KEYS = {"CTRL": "ctrl", "CONTROL": "ctrl", "CMD": "meta", "META": "meta", "SUPER": "meta", "ALT": "alt",
                "OPTION": "alt", "SHIFT": "shift", "ENTER": "Enter", "RETURN": "Enter", "ESC": "Escape",
                "ESCAPE": "Escape", "TAB": "Tab", "SPACE": "space", "BACKSPACE": "Backspace", "DELETE": "Delete",
                "UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight",
                "ARROWUP": "ArrowUp", "ARROWDOWN": "ArrowDown", "ARROWLEFT": "ArrowLeft", "ARROWRIGHT": "ArrowRight",
                "PAGEUP": "PageUp", "PAGEDOWN": "PageDown", "HOME": "Home", "END": "End"}


def _xy(point, scale: tuple[float, float], what: str = "coordinate") -> tuple[int, int]:
    try:
        x, y = point
        return round(float(x) * scale[0]), round(float(y) * scale[1])
    except (TypeError, ValueError):
        raise ActionError(f"{what} must be [x, y], got {point!r}") from None


def _mods(text: str | None) -> list[str]:
    if not text:
        return []
    out = []
    for part in text.lower().replace(" ", "").split("+"):
        m = {"control": "ctrl", "cmd": "meta", "super": "meta", "command": "meta", "option": "alt"}.get(part, part)
        if m not in ("shift", "ctrl", "alt", "meta"):
            raise ActionError(f"unknown modifier {part!r} (use shift, ctrl, alt or meta)")
        out.append(m)
    return out


def from_anthropic(inp: dict, *, scale: tuple[float, float] = (1.0, 1.0)) -> list[dict]:
    if not isinstance(inp, dict) or "action" not in inp:
        raise ActionError("an Anthropic computer action is an object with an 'action'")
    a = inp["action"]
    coord = inp.get("coordinate")
    if a in ("left_click", "right_click", "middle_click", "double_click", "triple_click"):
        if coord is None:
            raise ActionError(f"{a} needs a coordinate here (the cursor position is not tracked)")
        x, y = _xy(coord, scale)
        mods = _mods(inp.get("text"))
        if a == "double_click":
            return [{"type": "double_click", "x": x, "y": y, "modifiers": mods}]
        if a == "triple_click":
            return [{"type": "triple_click", "x": x, "y": y, "modifiers": mods}]
        button = {"left_click": "left", "right_click": "right", "middle_click": "middle"}[a]
        return [{"type": "click", "x": x, "y": y, "button": button, "modifiers": mods}]
    if a == "mouse_move":
        x, y = _xy(coord, scale)
        return [{"type": "move", "x": x, "y": y}]
    if a == "left_click_drag":
        sx, sy = _xy(inp.get("start_coordinate"), scale, "start_coordinate")
        x, y = _xy(coord, scale)
        return [{"type": "drag", "path": [{"x": sx, "y": sy}, {"x": x, "y": y}], "modifiers": _mods(inp.get("text"))}]
    if a in ("left_mouse_down", "left_mouse_up"):
        out: dict = {"type": "mouse_down" if a == "left_mouse_down" else "mouse_up"}
        if coord is not None:
            out["x"], out["y"] = _xy(coord, scale)
        return [out]
    if a == "type":
        return [{"type": "type", "text": inp.get("text", "")}]
    if a == "key":
        return [{"type": "key", "keys": inp.get("text", "")}]
    if a == "hold_key":
        # Holding a key has no lasting effect in a web page; press it once.
        return [{"type": "key", "keys": inp.get("text", "")}]
    if a == "scroll":
        x, y = _xy(coord if coord is not None else (640 / scale[0], 400 / scale[1]), scale)
        amount = int(inp.get("scroll_amount", 3)) * SCROLL_CLICK_PX
        direction = inp.get("scroll_direction", "down")
        dx, dy = {"down": (0, amount), "up": (0, -amount), "right": (amount, 0), "left": (-amount, 0)}.get(
            direction, (None, None))
        if dx is None:
            raise ActionError(f"scroll_direction must be up, down, left or right, not {direction!r}")
        return [{"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy}]
    if a == "wait":
        return [{"type": "wait", "ms": int(float(inp.get("duration", 1)) * 1000)}]
    if a in ("screenshot", "cursor_position", "zoom"):
        return [{"type": "wait", "ms": 0}]
    raise ActionError(f"unknown Anthropic computer action {a!r}")


def from_openai(action: dict, *, scale: tuple[float, float] = (1.0, 1.0)) -> list[dict]:
    if isinstance(action, dict) and isinstance(action.get("actions"), list):
        out = []
        for one in action["actions"]:
            out += from_openai(one, scale=scale)
        return out
    if not isinstance(action, dict) or "type" not in action:
        raise ActionError("an OpenAI computer action is an object with a 'type'")
    t = action["type"]

    def pt(d):
        return _xy((d.get("x"), d.get("y")), scale, "x, y")
    mods = _mods("+".join(action.get("keys", []) if isinstance(action.get("keys"), list) and t != "keypress" else []))
    if t == "click":
        x, y = pt(action)
        button = {"left": "left", "right": "right", "wheel": "middle", "middle": "middle"}.get(action.get("button", "left"))
        if button is None:
            return [{"type": "back"}] if action.get("button") == "back" else [{"type": "wait", "ms": 0}]
        return [{"type": "click", "x": x, "y": y, "button": button, "modifiers": mods}]
    if t == "double_click":
        x, y = pt(action)
        return [{"type": "double_click", "x": x, "y": y, "modifiers": mods}]
    if t == "move":
        x, y = pt(action)
        return [{"type": "move", "x": x, "y": y}]
    if t == "drag":
        path = action.get("path") or []
        return [{"type": "drag", "path": [dict(zip(("x", "y"), pt(p))) for p in path]}]
    if t == "scroll":
        x, y = pt(action)
        return [{"type": "scroll", "x": x, "y": y, "dx": int(action.get("scroll_x", 0)),
                 "dy": int(action.get("scroll_y", 0))}]
    if t == "type":
        return [{"type": "type", "text": action.get("text", "")}]
    if t == "keypress":
        keys = action.get("keys") or []
        if isinstance(keys, str):
            keys = [keys]
        mapped = [_OPENAI_KEYS.get(str(k).upper(), str(k)) for k in keys]
        if len(mapped) > 1:              # a chord names the key, not the character: CTRL+A is ctrl+a
            mapped = [m.lower() if len(m) == 1 else m for m in mapped]
        return [{"type": "key", "keys": "+".join(mapped)}]
    if t == "wait":
        return [{"type": "wait", "ms": int(action.get("ms", OPENAI_WAIT_MS))}]
    if t == "screenshot":
        return [{"type": "wait", "ms": 0}]
    raise ActionError(f"unknown OpenAI computer action {t!r}")
