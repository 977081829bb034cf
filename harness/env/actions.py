"""Computer-use actions: typed, validated, never ``exec``'d — and the one action table.

An action is a JSON object with a ``type``. ``ACTIONS`` is the table of action
types: each row is a pydantic model (its fields, limits and description: the
docstring) with an example. Everything else is derived from it: ``ACTION_TYPES``,
the parser (``parse`` turns a dict or a JSON string into a model or raises
``ActionError`` with a message an agent can act on), the JSON schema
(``json_schema()``, served by the env server), ``describe()`` (the action-space text
shown to models), ``example()``, and the executor's dispatch
(``harness.env.execute.HANDLERS``, one handler per model).

Coordinates are screenshot pixels: 1280×800 by default, the episode's screen under an appearance
variant (``harness.env.variant``; ``parse(action, screen=(w, h))`` checks the bounds against it). Keys accept
xdotool names (``Return``, ``ctrl+a``, ``shift+Tab``, ``Page_Down``) and
Playwright names (``Enter``, ``Control+A``) alike.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import (BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, ValidationInfo, field_validator,
                      model_validator)

from harness.env.browser import VIEWPORT

MAX_TYPE_CHARS = 10_000
MAX_WAIT_MS = 10_000
MAX_KEY_PRESSES = 50          # presses in one key action ("Down Down Down …")
MAX_DRAG_POINTS = 100         # points of one drag path
MAX_DRAG_MOVES = 200          # mouse moves a drag makes in all (interpolation steps shrink to fit)
KEY_CHARS = frozenset(chr(c) for c in range(0x20, 0x7F))   # single characters a key press can send
Modifier = Literal["shift", "ctrl", "alt", "meta"]
# The parameters several actions share, described once (the schema's descriptions; adapters read them).
_BUTTON = "The mouse button (default left)."
_MODIFIERS = "Keys held down while clicking: any of " + ", ".join(json.dumps(m) for m in get_args(Modifier)) + "."


class ActionError(ValueError):
    """An action the agent sent that can't be carried out (returned in the
    observation's ``last_action_error``; never raised out of ``step``)."""


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def check(self) -> None:
        """Checks past the schema, raising ``ActionError`` with a message for the agent (none here)."""


def _screen(info: ValidationInfo) -> tuple[int, int]:
    """The screen the action is checked against: ``parse(..., screen=)``, else 1280×800."""
    ctx = info.context or {}
    return tuple(ctx.get("screen") or (VIEWPORT["width"], VIEWPORT["height"]))


class _Point(_Action):
    x: int = Field(description="pixels from the left edge of the screenshot")
    y: int = Field(description="pixels from the top edge of the screenshot")

    @field_validator("x")
    @classmethod
    def _x(cls, v: int, info: ValidationInfo) -> int:
        w = _screen(info)[0]
        if not 0 <= v < w:
            raise ValueError(f"x={v} is outside the screen (0..{w - 1})")
        return v

    @field_validator("y")
    @classmethod
    def _y(cls, v: int, info: ValidationInfo) -> int:
        h = _screen(info)[1]
        if not 0 <= v < h:
            raise ValueError(f"y={v} is outside the screen (0..{h - 1})")
        return v


class Click(_Point):
    """Click at a point."""
    type: Literal["click"] = "click"
    button: Literal["left", "right", "middle"] = Field("left", description=_BUTTON)
    modifiers: list[Modifier] = Field([], description=_MODIFIERS)


class DoubleClick(_Point):
    """Double-click at a point."""
    type: Literal["double_click"] = "double_click"
    modifiers: list[Modifier] = Field([], description=_MODIFIERS)


class TripleClick(_Point):
    """Triple-click at a point (selects a line or paragraph)."""
    type: Literal["triple_click"] = "triple_click"
    modifiers: list[Modifier] = Field([], description=_MODIFIERS)


class Move(_Point):
    """Move the mouse to a point (hover)."""
    type: Literal["move"] = "move"


class _MaybePoint(_Action):
    x: int | None = Field(None, description="pixels from the left edge of the screenshot (default: where the mouse is)")
    y: int | None = Field(None, description="pixels from the top edge of the screenshot (default: where the mouse is)")

    @field_validator("x")
    @classmethod
    def _x(cls, v: int | None, info: ValidationInfo) -> int | None:
        return v if v is None else _Point._x.__func__(cls, v, info)

    @field_validator("y")
    @classmethod
    def _y(cls, v: int | None, info: ValidationInfo) -> int | None:
        return v if v is None else _Point._y.__func__(cls, v, info)


class MouseDown(_MaybePoint):
    """Press a mouse button (optionally after moving to x, y)."""
    type: Literal["mouse_down"] = "mouse_down"
    button: Literal["left", "right", "middle"] = Field("left", description=_BUTTON)


class MouseUp(_MaybePoint):
    """Release a mouse button (optionally after moving to x, y)."""
    type: Literal["mouse_up"] = "mouse_up"
    button: Literal["left", "right", "middle"] = Field("left", description=_BUTTON)


class P(_Point):
    pass


class Drag(_Action):
    """Press at the first point, move through the others, release at the last."""
    type: Literal["drag"] = "drag"
    path: list[P] = Field(min_length=2, max_length=MAX_DRAG_POINTS,
                          description="Two or more points {x, y} in screenshot pixels, from the press to the release.")
    modifiers: list[Modifier] = Field([], description=_MODIFIERS)


class Scroll(_Point):
    """Scroll the element under (x, y) by dx, dy pixels (positive dy scrolls down)."""
    type: Literal["scroll"] = "scroll"
    dx: int = Field(0, description="Pixels to scroll right (negative: left).")
    dy: int = Field(0, description="Pixels to scroll down (negative: up).")


class Type(_Action):
    """Type text at the keyboard focus."""
    type: Literal["type"] = "type"
    text: str = Field(max_length=MAX_TYPE_CHARS, description=f"The text (at most {MAX_TYPE_CHARS} characters).")


class Key(_Action):
    """Press a key or a chord: "Enter", "ctrl+a", "shift+Tab", "Page_Down"."""
    type: Literal["key"] = "key"
    keys: str = Field(min_length=1, max_length=2000, description='Key names like "Enter", "ctrl+a", "shift+Tab", '
                      '"Page_Down", or several separated by spaces: "Down Down Enter".')

    @model_validator(mode="before")
    @classmethod
    def _key_alias(cls, data):
        """``{"type": "key", "key": "Enter"}`` is read as ``keys``."""
        if isinstance(data, dict):
            data = {**data, "keys": data.get("keys", data.get("key"))}
            data.pop("key", None)
        return data

    def check(self) -> None:
        normalize_keys(self.keys)           # raises ActionError for unknown keys


class Wait(_Action):
    """Wait, up to 10 s."""
    type: Literal["wait"] = "wait"
    ms: int = Field(1000, ge=0, le=MAX_WAIT_MS, description=f"Milliseconds to wait (0 to {MAX_WAIT_MS}, default 1000).")


class Navigate(_Action):
    """Go to a URL of the workspace (a path like /drive/ or a full URL of this site)."""
    type: Literal["navigate"] = "navigate"
    url: str = Field(min_length=1, max_length=8192,
                     description="A path like /mail/inbox or /drive/, or a full URL of this site.")


class Back(_Action):
    """Go back in the browser's history."""
    type: Literal["back"] = "back"


class Done(_Action):
    """End the episode: status "complete" (with an answer if the task asks a question) or "infeasible"."""
    type: Literal["done"] = "done"
    status: Literal["complete", "infeasible"] = Field(
        "complete", description='"complete" (default), or "infeasible" when the task cannot be done.')
    answer: str | None = Field(None, description='The answer, when the task asks for one (or, with status '
                                                 '"infeasible", why it can\'t be done).')


class AskUser(_Action):
    """Ask the person who gave you the task a question (when something only they know is missing);
    their answer comes back in the observation's "user_reply" and where they would write it (a chat DM)."""
    type: Literal["ask_user"] = "ask_user"
    text: str = Field(min_length=1, max_length=2000,
                      description='The question. Their answer comes back as text ("User reply").')

    @field_validator("text")
    @classmethod
    def _said(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("ask_user needs a question")
        return v


class ToolCall(_Action):
    """Call one of the apps' tools (hybrid episodes: an env made with tools=True), e.g.
    {"type": "tool_call", "tool": "mail.search", "arguments": {"q": "from:laura"}}; the result comes back
    in the observation's "tool_result"."""
    type: Literal["tool_call"] = "tool_call"
    tool: str = Field(min_length=1, description='The tool\'s name, app and tool: "mail.search".')
    arguments: dict = Field({}, description="The tool's arguments, as its schema names them.")


# ---------------------------------------------------------------- the action table
@dataclass(frozen=True)
class ActionType:
    """One row of the action table: the model (fields, limits, description) and an example."""
    model: type[_Action]
    example: dict
    hybrid: bool = False            # only in hybrid episodes (tools=True): describe() leaves it out otherwise

    @property
    def name(self) -> str:
        return self.model.model_fields["type"].default


ACTIONS: tuple[ActionType, ...] = (
    ActionType(Click, {"type": "click", "x": 640, "y": 400}),
    ActionType(DoubleClick, {"type": "double_click", "x": 640, "y": 400}),
    ActionType(TripleClick, {"type": "triple_click", "x": 640, "y": 400}),
    ActionType(Move, {"type": "move", "x": 640, "y": 400}),
    ActionType(MouseDown, {"type": "mouse_down", "x": 100, "y": 200}),
    ActionType(MouseUp, {"type": "mouse_up", "x": 300, "y": 200}),
    ActionType(Drag, {"type": "drag", "path": [{"x": 100, "y": 200}, {"x": 300, "y": 200}]}),
    ActionType(Scroll, {"type": "scroll", "x": 640, "y": 400, "dy": 300}),
    ActionType(Type, {"type": "type", "text": "hello"}),
    ActionType(Key, {"type": "key", "keys": "ctrl+a"}),
    ActionType(Wait, {"type": "wait", "ms": 500}),
    ActionType(Navigate, {"type": "navigate", "url": "/mail/inbox"}),
    ActionType(Back, {"type": "back"}),
    ActionType(Done, {"type": "done", "status": "complete", "answer": "42"}),
    ActionType(AskUser, {"type": "ask_user", "text": "Which account do you mean: Harrowgate or Meadowline?"}),
    ActionType(ToolCall, {"type": "tool_call", "tool": "mail.search", "arguments": {"q": "from:laura"}},
               hybrid=True),
)
BY_TYPE: dict[str, ActionType] = {a.name: a for a in ACTIONS}
ACTION_TYPES: tuple[str, ...] = tuple(BY_TYPE)
ActionModel = Annotated[Union[tuple(a.model for a in ACTIONS)], Field(discriminator="type")]
_ADAPTER = TypeAdapter(ActionModel)


def json_schema() -> dict:
    """The JSON schema of an action (one of the table's models, told apart by ``type``)."""
    return _ADAPTER.json_schema()


def example(kind: str) -> dict:
    """A valid action of type ``kind`` (a fresh copy)."""
    return copy.deepcopy(BY_TYPE[kind].example)


def parse(action: dict | str | BaseModel, *, screen: tuple[int, int] | None = None) -> BaseModel:
    """A validated action model, or ``ActionError`` saying what is wrong; points are checked against
    ``screen`` (width, height of the episode's screenshot; default 1280×800)."""
    if isinstance(action, BaseModel):
        return action
    if isinstance(action, (bytes, bytearray)):
        action = action.decode("utf-8", errors="replace")
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except json.JSONDecodeError as e:
            raise ActionError(f"action is not valid JSON: {e.msg} at position {e.pos}") from None
    if not isinstance(action, dict):
        raise ActionError(f"an action is a JSON object with a 'type', not {type(action).__name__}")
    kind = action.get("type")
    if kind not in BY_TYPE:
        raise ActionError(f"unknown action type {kind!r}; use one of: {', '.join(ACTION_TYPES)}")
    try:
        model = _ADAPTER.validate_python(action, context={"screen": tuple(screen)} if screen else None)
    except ValidationError as e:
        parts = []
        for err in e.errors():
            loc = ".".join(str(x) for x in err["loc"][1:]) or "action"
            msg = err["msg"].removeprefix("Value error, ")
            parts.append(f"{loc}: {msg}")
        raise ActionError(f"invalid {kind} action: " + "; ".join(parts)) from None
    model.check()
    return model


# ---------------------------------------------------------------- keys
_MODS = {"ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt", "option": "Alt",
         "meta": "Meta", "cmd": "Meta", "command": "Meta", "super": "Meta", "win": "Meta"}
_XDOTOOL = {
    "return": "Enter", "enter": "Enter", "kp_enter": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "space": " ", "insert": "Insert",
    "home": "Home", "end": "End", "page_up": "PageUp", "pageup": "PageUp", "prior": "PageUp",
    "page_down": "PageDown", "pagedown": "PageDown", "next": "PageDown",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
    "minus": "-", "plus": "+", "equal": "=", "comma": ",", "period": ".", "slash": "/", "backslash": "\\",
    "semicolon": ";", "apostrophe": "'", "grave": "`", "bracketleft": "[", "bracketright": "]",
    "numbersign": "#", "question": "?", "exclam": "!", "at": "@", "dollar": "$", "percent": "%",
    "asciicircum": "^", "ampersand": "&", "asterisk": "*", "parenleft": "(", "parenright": ")",
    "underscore": "_", "colon": ":", "quotedbl": "\"", "less": "<", "greater": ">", "bar": "|",
    "braceleft": "{", "braceright": "}", "asciitilde": "~",
    "capslock": "CapsLock", "caps_lock": "CapsLock",
}
_NAMED = {f"F{i}" for i in range(1, 13)} | {"Enter", "Tab", "Escape", "Backspace", "Delete", "Insert", "Home",
                                              "End", "PageUp", "PageDown", "ArrowUp", "ArrowDown", "ArrowLeft",
                                              "ArrowRight", "CapsLock", "Control", "Shift", "Alt", "Meta"}


def _one_key(name: str) -> str:
    if len(name) == 1:
        if name not in KEY_CHARS:
            raise ActionError(f"{name!r} is not a key a press can send; use the type action for text "
                              "(key presses take names like Enter, Tab, ArrowDown or one ASCII character)")
        return name
    low = name.lower()
    if low in _MODS:
        return _MODS[low]
    if low in _XDOTOOL:
        return _XDOTOOL[low]
    for n in _NAMED:
        if n.lower() == low:
            return n
    raise ActionError(f"unknown key {name!r}; use names like Enter, Tab, Escape, Backspace, ArrowDown, "
                      "PageDown, F5 or a single character, joined with + for chords (ctrl+a)")


def normalize_keys(keys: str) -> list[str]:
    """``"ctrl+shift+t Return"`` → ``["Control+Shift+t", "Enter"]`` (space-separated presses)."""
    presses = []
    for chord in keys.strip().split(" ") if keys.strip() != "+" else ["+"]:
        if not chord:
            continue
        parts = chord.split("+") if chord != "+" else ["+"]
        if chord.endswith("++"):
            parts = chord[:-2].split("+") + ["+"]
        mapped = [_one_key(p) for p in parts if p != ""]
        if not mapped:
            raise ActionError(f"empty key in {keys!r}")
        presses.append("+".join(mapped))
    if not presses:
        raise ActionError("no key given")
    if len(presses) > MAX_KEY_PRESSES:
        raise ActionError(f"{len(presses)} key presses in one action; at most {MAX_KEY_PRESSES} "
                          "(send several key actions, or type text with the type action)")
    return presses


PW_MODIFIERS = {"shift": "Shift", "ctrl": "Control", "alt": "Alt", "meta": "Meta"}


def _type_name(ann) -> str:
    """``Literal['left', 'right']`` → ``"left"|"right"``; ``list[Literal[…]]`` → ``list of "shift"|…``."""
    origin = get_origin(ann)
    if origin is Literal:
        return "|".join(json.dumps(a) for a in get_args(ann))
    if origin is list:
        (inner,) = get_args(ann) or (object,)
        if isinstance(inner, type) and issubclass(inner, _Point):
            return "list of {x, y}"
        return "list of " + _type_name(inner)
    if origin is Union or str(origin) == "<class 'types.UnionType'>":
        return " or ".join(_type_name(a) for a in get_args(ann) if a is not type(None)) + " (optional)"
    return getattr(ann, "__name__", None) or str(ann).replace("typing.", "")


def describe(*, tools: bool = False, screen: tuple[int, int] | None = None) -> str:
    """The action space in words, generated from the table (for model prompts); ``tools`` adds
    the hybrid actions (``tool_call``); ``screen``: the episode's screenshot size (default 1280×800)."""
    lines = ["Send one action per step as a JSON object with a \"type\":"]
    for row in ACTIONS:
        if row.hybrid and not tools:
            continue
        fields = []
        for name, f in row.model.model_fields.items():
            if name == "type":
                continue
            t = _type_name(f.annotation)
            req = "" if f.is_required() else f" = {json.dumps(f.default) if f.default is not None else 'null'}"
            fields.append(f"{name}: {t}{req}")
        lines.append(f"- {row.name}({', '.join(fields)}) — {row.model.__doc__.strip()}")
    w, h = screen or (VIEWPORT["width"], VIEWPORT["height"])
    lines.append(f"The screen is {w}×{h} pixels; x grows to the right, y downwards.")
    return "\n".join(lines)
