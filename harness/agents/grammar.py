"""Reading actions out of the replies of vision-language models, leniently.

``parse_reply(text, scale=(sx, sy), coords="pixel")`` turns the reply of an
OpenAI-compatible VLM (vLLM, SGLang or Ollama serving Qwen2.5-VL / Qwen3-VL,
UI-TARS or any chat model) into ``Parsed(thought, actions, errors, format)``:
deskworld actions (``harness.env.actions``) in reply order, each checked by
``actions.parse``. It never raises on a reply and never ``eval``s it; what
looked like an action but could not be used is explained in ``errors``.
``grammar_prompt()`` tells models the format: ``actions.describe()``, the
rules and examples. Grammars, tried in this order (the first found is
``format``):

``qwen``: ``<tool_call>{"name": "computer_use", "arguments": {"action": "left_click",
"coordinate": [x, y]}}</tool_call>`` (also ``"computer"``, string ``arguments``, or a
bare ``{"action": …, "coordinate": …}``). ``left_click``, ``right_click``,
``middle_click``, ``double_click``, ``triple_click``, ``mouse_move`` need a
``coordinate``; ``left_click_drag`` needs ``start_coordinate`` too (the mouse is
not tracked); ``key``: ``keys`` list → one chord ``ctrl+c``; ``type``: ``text``;
``scroll``/``hscroll``: ``pixels``, positive scrolls *up* per Qwen's tool spec
(``dy = -pixels``) and, for ``hscroll``, right (as pyautogui), at ``coordinate``
or the screen centre; ``wait``: ``time`` s (default 1); ``terminate``: ``status``
success → done complete, failure → done infeasible; ``answer``: ``text`` →
done complete with that answer.

``json`` (the documented default): an object with a ``"type"`` in exactly the
deskworld schema, a list of them, ``{"action": {…}}`` or ``{"actions": […]}``;
in ```json fences, after ``Action:`` or amid prose; trailing commas and
single-quoted (Python-style) objects are fine.

``uitars``: ``Thought: …`` then ``Action: click(start_box='(x,y)')``. A point is
``'<|box_start|>(x,y)<|box_end|>'``, ``'<point>x y</point>'``, ``'(x1,y1,x2,y2)'``
(a box: its centre) or ``x=…, y=…``. ``click``/``left_single``, ``left_double``,
``right_single``, ``hover``; ``drag``/``select`` (``start_box``, ``end_box``);
``hotkey``/``press`` (``key='ctrl c'`` → ``ctrl+c``); ``type(content=…)`` with
``\\'`` ``\\"`` ``\\n`` escapes, a trailing newline meaning submit (``type`` then
``key Enter``); ``scroll(direction=…)``, one scroll = ``UITARS_SCROLL_PX`` (500);
``wait()`` = ``UITARS_WAIT_MS`` (5000, UI-TARS sleeps 5 s); ``finished(content=…)``
→ done complete with that answer; ``call_user()`` (stuck or needs help) → done
complete without answer, not "infeasible". After ``Action:`` a ``name(`` that
starts a line is a call (unknown names are errors); elsewhere only known names.

Coordinates: ``coords="pixel"``: pixels of the image the model saw, times
``scale``, rounded; ``coords="norm1000"``: 0..1000 of the image (UI-TARS 1.0,
Qwen3-VL) → ``x·1280/1000, y·800/1000``. Points are clamped to the 1280×800
screen; one more than 5% outside the image is still clamped and sent, with an
error for the model. ``thought`` is the rest of the reply without fences,
``<tool_call>``/``<think>`` tags or ``Thought:``/``Action:`` labels. Nothing
found: ``format="none"``, no actions, ``errors == [NO_ACTION]``.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

from harness.env.actions import ACTION_TYPES, MAX_WAIT_MS, ActionError, describe, example, parse
from harness.env.browser import VIEWPORT

W, H = VIEWPORT["width"], VIEWPORT["height"]
OUTSIDE_TOLERANCE = 0.05          # a point further outside the image than this is an error (still clamped)
UITARS_SCROLL_PX = 500            # one UI-TARS scroll(direction=…)
UITARS_WAIT_MS = 5000             # UI-TARS wait() "sleeps for 5 s"
SCAN_BUDGET = 1_000_000           # characters looked at for JSON, so a degenerate reply stays fast
NO_ACTION = ('no action found: reply with a JSON action after "Action:", such as {"type": "click", "x": 640, '
             '"y": 400}, or {"type": "done", "status": "complete"} when the task is finished')


@dataclass
class Parsed:
    thought: str = ""
    actions: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    format: str = "none"


# ---------------------------------------------------------------- points
_NUM = re.compile(r"-?\d+(?:\.\d+)?")


def _isnum(v) -> bool:
    if isinstance(v, str):
        return bool(re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", v))
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numbers(v) -> list[float]:
    """The numbers of a point or box: [x, y], "(x,y)", "<point>x y</point>", {"x": …, "y": …}, [[x, y], …]."""
    if isinstance(v, dict) and "x" in v and "y" in v:
        v = [v["x"], v["y"]]
    if isinstance(v, str):
        return [float(n) for n in _NUM.findall(v)]
    if not isinstance(v, (list, tuple)) or not all(isinstance(n, (list, tuple, str)) or _isnum(n) for n in v):
        return []
    return [x for n in v for x in (_numbers(n) if isinstance(n, (list, tuple, str)) else [float(n)])]


class _Coords:
    """Maps the model's points to the screen, collecting errors for points far outside the image."""

    def __init__(self, scale, coords: str, errors: list[str], screen: tuple[int, int] | None = None):
        if coords not in ("pixel", "norm1000"):
            raise ValueError(f"coords must be 'pixel' or 'norm1000', not {coords!r}")
        self.W, self.H = screen or (W, H)                # the episode's screenshot (a variant's screen)
        self.norm, self.errors = coords == "norm1000", errors
        self.sx, self.sy = (self.W / 1000, self.H / 1000) if self.norm else (float(scale[0]), float(scale[1]))

    def pt(self, value) -> tuple[int, int]:
        n = _numbers(value)
        if len(n) == 4:                                  # a box: its centre
            n = [(n[0] + n[2]) / 2, (n[1] + n[3]) / 2]
        if len(n) != 2:
            raise ActionError(f"a point is [x, y] (or a box [x1, y1, x2, y2]), not {value!r}")
        x, y, t = n[0] * self.sx, n[1] * self.sy, OUTSIDE_TOLERANCE
        W, H = self.W, self.H
        cx, cy = min(max(round(x), 0), W - 1), min(max(round(y), 0), H - 1)
        if not (-t * W <= x <= (1 + t) * W and -t * H <= y <= (1 + t) * H):
            area = "0..1000 range" if self.norm else f"{round(W / self.sx)}×{round(H / self.sy)} screenshot"
            self.errors.append(f"point ({n[0]:g}, {n[1]:g}) is outside the {area}; "
                               f"clamped to ({cx}, {cy}) on the screen")
        return cx, cy


def _at(kind: str, button: str | None, xy: tuple[int, int]) -> dict:
    return {"type": kind, "x": xy[0], "y": xy[1], **({"button": button} if button else {})}


def _drag(a: tuple[int, int], b: tuple[int, int]) -> dict:
    return {"type": "drag", "path": [{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}]}


def _done(status: str = "complete", answer=None) -> dict:
    return {"type": "done", "status": status, "answer": answer}


# ---------------------------------------------------------------- JSON: ours, and Qwen's calls
_TRAILING = re.compile(r'("(?:[^"\\]|\\.)*")|,\s*([}\]])', re.S)
_LOOKS_LIKE_ACTION = re.compile(r"""["']?\b(?:type|action|name)\b["']?\s*:""")
_OPEN = re.compile(r"[{\[]")
_FAIL = object()


def _loads(s: str):
    """(value, None) or (_FAIL, why): JSON, then without trailing commas, then a Python literal."""
    try:
        return json.loads(s), None
    except json.JSONDecodeError as e:
        err = f"{e.msg} at character {e.pos}"
    except RecursionError:
        return _FAIL, "nested too deeply"
    fixed = _TRAILING.sub(lambda m: m[1] or m[2], s)
    for load in (json.loads, ast.literal_eval):          # literal_eval: {'type': 'click', …}
        try:
            return load(fixed), None
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    return _FAIL, err


def _balanced(s: str, i: int) -> int:
    """The index after the bracket closing the one at s[i] (quoted text skipped), or -1."""
    depth, quote, j = 0, None, i
    while j < len(s):
        c = s[j]
        if quote:
            j += c == "\\"
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([{" or c in ")]}":
            depth += 1 if c in "([{" else -1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def _json_values(text: str):
    """The top-level JSON objects and lists in text as (start, end, value); errors for broken action-like ones."""
    found, bad, i, bad_until, budget = [], [], 0, 0, SCAN_BUDGET
    while (m := _OPEN.search(text, i)) and budget > 0:
        start, end = m.start(), _balanced(text, m.start())
        budget -= (end if end > 0 else len(text)) - start
        value, err = _loads(text[start:end]) if end > 0 else (_FAIL, "no closing bracket")
        if value is not _FAIL:
            found.append((start, end, value))
            i = end
            continue
        snippet = text[start:end] if end > 0 else text[start:]
        if start >= bad_until and m[0] == "{" and _LOOKS_LIKE_ACTION.search(snippet):
            short = snippet if len(snippet) <= 80 else snippet[:77] + "..."
            bad.append(f"invalid JSON ({err}) in {short}; send one JSON object such as "
                       f"{json.dumps(example('click'))}")
            bad_until = end if end > 0 else len(text)
        i = start + 1
    return found, bad


_QWEN_HINTS = ("coordinate", "start_coordinate", "pixels", "time", "status")


def _classify(v) -> list[tuple[str, object]]:
    """The actions in a JSON value: ("json", our action) or ("qwen", {"name": …, "arguments": …})."""
    if isinstance(v, list):
        return [x for item in v for x in _classify(item)]
    if not isinstance(v, dict):
        return []
    if isinstance(v.get("function"), dict):              # OpenAI tool-call shape
        v = v["function"]
    if "name" in v and "arguments" in v:
        return [("qwen", v)]
    if isinstance(v.get("action"), (dict, list)) or isinstance(v.get("actions"), list):
        return _classify(v["action"] if "action" in v else v["actions"])
    if isinstance(v.get("type"), str):
        return [("json", v)]
    if not isinstance(v.get("action"), str):
        return []
    if v["action"] in ACTION_TYPES and not any(k in v for k in _QWEN_HINTS) and not isinstance(v.get("keys"), list):
        return [("json", {"type": v["action"], **{k: x for k, x in v.items() if k != "action"}})]
    return [("qwen", {"name": "computer_use", "arguments": v})]


def _from_json(a: dict, c: _Coords) -> list[dict]:
    a = dict(a)
    if a.get("type") == "key" and "keys" not in a and "key" in a:
        a["keys"] = a.pop("key")
    if _isnum(a.get("x")) and _isnum(a.get("y")):
        a["x"], a["y"] = c.pt([a["x"], a["y"]])
    if isinstance(a.get("path"), list):
        a["path"] = [dict(zip("xy", c.pt(p))) for p in a["path"]]
    return [a]


_QWEN_POINT = {"left_click": ("click", "left"), "right_click": ("click", "right"),
               "middle_click": ("click", "middle"), "double_click": ("double_click", None),
               "triple_click": ("triple_click", None), "mouse_move": ("move", None)}
_QWEN_ACTIONS = (*_QWEN_POINT, "left_click_drag", "key", "type", "scroll", "hscroll", "wait", "terminate", "answer")
_QWEN_STATUS = {"success": "complete", "failure": "infeasible", "fail": "infeasible", "failed": "infeasible"}


def _from_qwen(call: dict, c: _Coords) -> list[dict]:
    name, args = call.get("name"), call.get("arguments")
    if isinstance(args, str) and (args := _loads(args)[0]) is _FAIL:
        raise ActionError(f"the arguments of {name!r} are not valid JSON")
    if name not in ("computer_use", "computer"):
        raise ActionError(f"unknown function {name!r}; call computer_use")
    if not isinstance(args, dict) or not isinstance(args.get("action"), str):
        raise ActionError(f'computer_use arguments are an object with an "action", not {args!r}')
    a, coord = args["action"], args.get("coordinate")
    if a in _QWEN_POINT:
        if coord is None:
            raise ActionError(f"{a} needs a coordinate [x, y] (the mouse position is not tracked)")
        return [_at(*_QWEN_POINT[a], c.pt(coord))]
    if a == "left_click_drag":
        if args.get("start_coordinate") is None or coord is None:
            raise ActionError("left_click_drag needs start_coordinate and coordinate (the mouse position is "
                              'not tracked); or send {"type": "drag", "path": [{"x": …, "y": …}, …]}')
        return [_drag(c.pt(args["start_coordinate"]), c.pt(coord))]
    if a == "key":
        keys = args.get("keys", args.get("text"))
        return [{"type": "key", "keys": "+".join(map(str, keys)) if isinstance(keys, list) else str(keys or "")}]
    if a == "type":
        return [{"type": "type", "text": str(args.get("text", ""))}]
    if a in ("scroll", "hscroll"):
        if not _isnum(args.get("pixels")):
            raise ActionError(f"{a} needs pixels, a number (positive scrolls up, or right for hscroll)")
        x, y = c.pt(coord) if coord is not None else (c.W // 2, c.H // 2)
        px = round(float(args["pixels"]))                # Qwen: "Positive values scroll up"
        dx, dy = (px, 0) if a == "hscroll" else (0, -px)
        return [{"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy}]
    if a == "wait":
        return [{"type": "wait", "ms": min(max(round(float(args.get("time", 1)) * 1000), 0), MAX_WAIT_MS)}]
    if a == "terminate":
        status = _QWEN_STATUS.get(str(args.get("status", "success")).lower())
        if status is None:
            raise ActionError(f"terminate status must be success or failure, not {args.get('status')!r}")
        return [_done(status, args.get("answer"))]
    if a == "answer":
        return [_done("complete", str(args.get("text", "")) or None)]
    raise ActionError(f"unknown computer_use action {a!r}; use one of: {', '.join(_QWEN_ACTIONS)}")


# ---------------------------------------------------------------- UI-TARS
_UITARS_POINT = {"click": ("click", "left"), "left_single": ("click", "left"), "right_single": ("click", "right"),
                 "left_double": ("double_click", None), "double_click": ("double_click", None),
                 "hover": ("move", None), "mouse_move": ("move", None)}
_UITARS_NAMES = (*_UITARS_POINT, "drag", "select", "hotkey", "press", "type", "scroll", "wait", "finished",
                 "call_user")
_ANY_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
_KNOWN_CALL = re.compile(r"(?<![\w.])(" + "|".join(_UITARS_NAMES) + r")\(")
_KWARG = re.compile(r"(\w+)\s*=\s*")
_CLOSES = re.compile(r"\s*[,)]")
_BARE = re.compile(r"[^,)]*")
_SCROLL = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}


def _unescape(s: str) -> str:
    return re.sub(r"\\([\\'\"nt])", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), s)


def _call_args(s: str, i: int):
    """(arguments, index after ")") of the call whose "(" ends before s[i], or None if unreadable.
    Keyword arguments by name, positional ones as "_0", "_1"…; a quote closes a string only before
    "," or ")" if it can, so an unescaped "It's" survives."""
    args, n = {}, 0
    while True:
        while i < len(s) and s[i] in " \t\r\n,":
            i += 1
        if i >= len(s) or s[i] == ")":
            return (args, i + 1) if i < len(s) else None
        m = _KWARG.match(s, i)
        key, i, n = (m[1], m.end(), n) if m else (f"_{n}", i, n + 1)
        if i < len(s) and s[i] in "'\"":
            j = i + 1
            while j < len(s) and not (s[j] == s[i] and _CLOSES.match(s, j + 1)):
                j += 2 if s[j] == "\\" else 1
            if j >= len(s):                              # no quote before "," or ")": the first one closes
                j = re.compile(r"(?:[^\\%s]|\\.)*" % s[i], re.S).match(s, i + 1).end()
            if j >= len(s):
                return None
            args[key], i = _unescape(s[i + 1:j]), j + 1
        elif i < len(s) and s[i] in "([" and (end := _balanced(s, i)) > 0:
            args[key], i = s[i:end], end
        else:
            m = _BARE.match(s, i)
            args[key], i = m[0].strip(), m.end()


def _uitars_calls(text: str) -> list[tuple[int, int, str, dict | None]]:
    """(start, end, name, arguments or None) of each call after "Action:" (or anywhere, for known names)."""
    label = re.search(r"(?im)^[\s`*#]*action\s*:", text) or re.search(r"(?i)\baction\s*:", text)
    calls, i = [], label.end() if label else 0
    while m := (_ANY_CALL if label else _KNOWN_CALL).search(text, i):
        line_start = max(text.rfind("\n", 0, m.start()) + 1, label.end() if label else 0)
        if m[1].lower() not in _UITARS_NAMES and text[line_start:m.start()].strip(" \t`;-*"):
            i = m.end()                                  # prose like "the menu(s)" after the action
            continue
        got = _call_args(text, m.end())
        calls.append((m.start(), got[1] if got else m.end(), m[1], got[0] if got else None))
        i = got[1] if got else m.end()
    return calls


def _where(args: dict, name: str, *keys: str):
    for k in keys:
        if args.get(k) not in (None, ""):
            return args[k]
    if "x" in args and "y" in args:
        return [args["x"], args["y"]]
    raise ActionError(f"{name}() needs {keys[0]}='(x,y)'")


def _from_uitars(call: tuple[str, dict | None], c: _Coords) -> list[dict]:
    name, args = call
    n = name.lower()
    if args is None:
        raise ActionError(f"could not read the arguments of {name}(…); write key='value', e.g. "
                          "click(start_box='(x,y)')")
    if n in _UITARS_POINT:
        return [_at(*_UITARS_POINT[n], c.pt(_where(args, n, "start_box", "point", "start_point", "box", "_0")))]
    if n in ("drag", "select"):
        return [_drag(c.pt(_where(args, n, "start_box", "start_point", "_0")),
                      c.pt(_where(args, n, "end_box", "end_point", "_1")))]
    if n in ("hotkey", "press"):
        keys = str(args.get("key") or args.get("keys") or args.get("hotkey") or args.get("_0") or "").split()
        if not keys:
            raise ActionError(f"{n}() needs key='…', e.g. hotkey(key='ctrl c')")
        return [{"type": "key", "keys": "+".join(keys)}]
    if n == "type":
        content = str(args.get("content", args.get("text", args.get("_0", ""))))
        body = content.rstrip("\n")                      # a trailing newline submits: press Enter
        return ([{"type": "type", "text": body}] if body or not content else []) + (
            [{"type": "key", "keys": "Enter"}] if body != content else [])
    if n == "scroll":
        direction = str(args.get("direction", "down")).strip().lower()
        if direction not in _SCROLL:
            raise ActionError(f"scroll direction must be up, down, left or right, not {direction!r}")
        has_point = any(args.get(k) not in (None, "") for k in ("start_box", "point", "box", "x"))
        x, y = c.pt(_where(args, n, "start_box", "point", "box")) if has_point else (c.W // 2, c.H // 2)
        dx, dy = (d * UITARS_SCROLL_PX for d in _SCROLL[direction])
        return [{"type": "scroll", "x": x, "y": y, "dx": dx, "dy": dy}]
    if n == "wait":
        return [{"type": "wait", "ms": min(UITARS_WAIT_MS, MAX_WAIT_MS)}]
    if n == "finished":
        return [_done("complete", str(args.get("content", args.get("_0", ""))) or None)]
    if n == "call_user":                                 # stuck or needs help: ends without an answer
        return [_done("complete", None)]
    raise ActionError(f"unknown action {name}(…); use one of: {', '.join(_UITARS_NAMES)}")


# ---------------------------------------------------------------- the reply
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|\Z)", re.S)
_MAPPERS = {"json": _from_json, "qwen": _from_qwen, "uitars": _from_uitars}


def _thought(text: str, spans: list[tuple[int, int]]) -> str:
    parts, last = [], 0
    for s, e in sorted(spans):
        parts.append(text[last:s])
        last = max(last, e)
    t = re.sub(r"```\w*|</?(?:tool_call|think)>|(?im:^\s*thought\s*:|\bactions?\s*:\s*$)", "\n",
               "\n".join(parts + [text[last:]]))
    return "\n".join(line.strip() for line in t.splitlines() if line.strip())


def _find(text: str, errors: list[str]) -> tuple[str, list, list]:
    """(format, [(grammar, payload)…], spans of the reply they came from)."""
    blocks = list(_TOOL_CALL.finditer(text))
    if blocks:
        jobs = []
        for b in blocks:
            values, bad = _json_values(b[1])
            found = [x for _, _, v in values for x in _classify(v)]
            jobs += found
            errors += [] if found else bad or [f"no function call in <tool_call>{b[1].strip()[:60]}</tool_call>; "
                                               'write {"name": "computer_use", "arguments": {"action": …}}']
        return "qwen", jobs, [b.span() for b in blocks]
    values, bad = _json_values(text)
    found = [(s, e, _classify(v)) for s, e, v in values]
    jobs = [x for _, _, xs in found for x in xs]
    if jobs:
        return jobs[0][0], jobs, [(s, e) for s, e, xs in found if xs]
    if calls := _uitars_calls(text):
        return "uitars", [("uitars", (name, args)) for _, _, name, args in calls], [(s, e) for s, e, _, _ in calls]
    errors += bad
    return ("json" if bad else "none"), [], []


def parse_reply(text: str, *, scale: tuple[float, float] = (1.0, 1.0), coords: str = "pixel",
                screen: tuple[int, int] | None = None) -> Parsed:
    """The actions in a model's reply (see the module docstring); never raises on the reply. ``screen``:
    the episode's screenshot size (default 1280×800), what points are clamped to and norm1000 spans."""
    text = text if isinstance(text, str) else ""
    errors: list[str] = []
    c = _Coords(scale, coords, errors, screen)
    fmt, jobs, spans = _find(text, errors)
    actions: list[dict] = []
    for kind, payload in jobs:
        try:
            mapped = _MAPPERS[kind](payload, c)
        except ActionError as e:
            errors.append(str(e))
            continue
        except (ValueError, TypeError, AttributeError, KeyError, OverflowError) as e:
            errors.append(f"could not read the {kind} action {payload!r}: {e}")
            continue
        for a in mapped:
            try:
                parse(a)
                actions.append(a)
            except (ValueError, TypeError) as e:        # ActionError is a ValueError
                errors.append(str(e))
    if fmt == "none":
        errors.append(NO_ACTION)
    return Parsed(_thought(text, spans), actions, list(dict.fromkeys(errors)), fmt)


def grammar_prompt() -> str:
    """How to answer, for the system prompt: the action space, the reply format and examples."""
    examples = [("The message I need is the first one in the list.", example("click")),
                ("Replace the field's text: select all, then type.", [example("key"), example("type")]),
                ("The total is shown at the bottom of the report.", example("done"))]
    lines = [describe(), "", "Reply format:",
             '- First think briefly, on a line starting with "Thought:".',
             '- Then write "Action:" and one action as a JSON object with a "type", exactly as listed above. '
             "To do several things in one step, give a JSON list of actions; they run in order.",
             "- x and y are pixels of the screenshot: x from its left edge, y from its top edge.",
             '- When the task is finished, send {"type": "done"} (with "answer" if the task asks a question); '
             'if it cannot be done, send {"type": "done", "status": "infeasible"}.',
             "- Write nothing after the action.", "", "Examples:"]
    for thought, action in examples:
        lines += ["", f"Thought: {thought}", f"Action: {json.dumps(action)}"]
    return "\n".join(lines)
