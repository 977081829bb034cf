"""Action parsing, keys, and the Anthropic / OpenAI adapters."""
from __future__ import annotations

import json

import pytest

from harness.env import actions as A
from harness.env.adapters import from_anthropic, from_openai


@pytest.mark.parametrize("kind", A.ACTION_TYPES)
def test_every_example_parses(kind):
    a = A.parse(A.example(kind))
    assert a.type == kind
    assert A.parse(json.dumps(A.example(kind))).type == kind


@pytest.mark.parametrize("bad,msg", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ({"type": "teleport"}, "unknown action type 'teleport'"),
    ({"type": "click", "x": 10}, "y: Field required"),
    ({"type": "click", "x": -1, "y": 10}, "outside the screen"),
    ({"type": "click", "x": 10, "y": 800}, "outside the screen"),
    ({"type": "click", "x": "left", "y": 10}, "x:"),
    ({"type": "type", "text": "x" * (A.MAX_TYPE_CHARS + 1)}, "at most 10000"),
    ({"type": "wait", "ms": 60_000}, "less than or equal to 10000"),
    ({"type": "key", "keys": "ctrl+banana"}, "unknown key 'banana'"),
    ({"type": "drag", "path": [{"x": 1, "y": 1}]}, "at least 2"),
    ({"type": "done", "status": "maybe"}, "status"),
    ({"type": "click", "x": 1, "y": 1, "modifiers": ["hyper"]}, "modifiers"),
    ({"type": "click", "x": 1, "y": 1, "extra": True}, "extra"),
])
def test_bad_actions_say_what_is_wrong(bad, msg):
    with pytest.raises(A.ActionError) as e:
        A.parse(bad)
    assert msg in str(e.value)


@pytest.mark.parametrize("keys,expected", [
    ("Return", ["Enter"]), ("ctrl+a", ["Control+a"]), ("shift+Tab", ["Shift+Tab"]),
    ("Page_Down", ["PageDown"]), ("ctrl+shift+t", ["Control+Shift+t"]), ("Enter", ["Enter"]),
    ("Control+A", ["Control+A"]), ("super+l", ["Meta+l"]), ("BackSpace", ["Backspace"]),
    ("Up Up Down", ["ArrowUp", "ArrowUp", "ArrowDown"]), ("KP_Enter", ["Enter"]), ("F5", ["F5"]),
    ("#", ["#"]), ("space", [" "]),
])
def test_key_names(keys, expected):
    assert A.normalize_keys(keys) == expected
    assert A.parse({"type": "key", "keys": keys}).keys == keys


def test_description_lists_every_action():
    text = A.describe()
    for kind in A.ACTION_TYPES:
        assert (f"- {kind}(" in text) == (kind != "tool_call")     # tool calls only for hybrid episodes
    assert "- tool_call(tool: str, arguments: dict = {})" in A.describe(tools=True)
    assert "1280×800" in text


def test_anthropic_adapter():
    assert from_anthropic({"action": "left_click", "coordinate": [10, 20]}) == \
        [{"type": "click", "x": 10, "y": 20, "button": "left", "modifiers": []}]
    assert from_anthropic({"action": "left_click", "coordinate": [10, 20], "text": "shift"})[0]["modifiers"] == ["shift"]
    assert from_anthropic({"action": "right_click", "coordinate": [1, 2]})[0]["button"] == "right"
    assert from_anthropic({"action": "triple_click", "coordinate": [1, 2]})[0]["type"] == "triple_click"
    assert from_anthropic({"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [30, 40]}) == \
        [{"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 30, "y": 40}], "modifiers": []}]
    assert from_anthropic({"action": "scroll", "coordinate": [5, 6], "scroll_direction": "down", "scroll_amount": 3}) == \
        [{"type": "scroll", "x": 5, "y": 6, "dx": 0, "dy": 300}]
    assert from_anthropic({"action": "scroll", "coordinate": [5, 6], "scroll_direction": "left", "scroll_amount": 2})[0]["dx"] == -200
    assert from_anthropic({"action": "key", "text": "ctrl+s"}) == [{"type": "key", "keys": "ctrl+s"}]
    assert from_anthropic({"action": "type", "text": "hi"}) == [{"type": "type", "text": "hi"}]
    assert from_anthropic({"action": "wait", "duration": 2}) == [{"type": "wait", "ms": 2000}]
    assert from_anthropic({"action": "screenshot"}) == [{"type": "wait", "ms": 0}]
    assert from_anthropic({"action": "left_mouse_down", "coordinate": [3, 4]}) == [{"type": "mouse_down", "x": 3, "y": 4}]
    assert from_anthropic({"action": "left_click", "coordinate": [640, 400]}, scale=(2.0, 2.0))[0]["x"] == 1280
    for a in from_anthropic({"action": "mouse_move", "coordinate": [7, 8]}):
        A.parse(a)
    with pytest.raises(A.ActionError):
        from_anthropic({"action": "fly"})
    with pytest.raises(A.ActionError):
        from_anthropic({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "sideways"})


def test_openai_adapter():
    assert from_openai({"type": "click", "x": 1, "y": 2, "button": "left"}) == \
        [{"type": "click", "x": 1, "y": 2, "button": "left", "modifiers": []}]
    assert from_openai({"type": "click", "x": 1, "y": 2, "button": "wheel"})[0]["button"] == "middle"
    assert from_openai({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]})[0]["path"][1] == {"x": 3, "y": 4}
    assert from_openai({"type": "keypress", "keys": ["CTRL", "A"]}) == [{"type": "key", "keys": "ctrl+a"}]
    assert from_openai({"type": "keypress", "keys": ["ENTER"]}) == [{"type": "key", "keys": "Enter"}]
    assert from_openai({"type": "scroll", "x": 5, "y": 6, "scroll_x": 0, "scroll_y": -120}) == \
        [{"type": "scroll", "x": 5, "y": 6, "dx": 0, "dy": -120}]
    assert from_openai({"type": "wait"}) == [{"type": "wait", "ms": 2000}]
    batch = from_openai({"actions": [{"type": "move", "x": 1, "y": 1}, {"type": "type", "text": "x"}]})
    assert [a["type"] for a in batch] == ["move", "type"]
    for a in batch + from_openai({"type": "keypress", "keys": ["CTRL", "A"]}):
        A.parse(a)
    with pytest.raises(A.ActionError):
        from_openai({"type": "teleport"})


def test_the_action_table_is_the_one_source():
    """Every type in the table has a parser path (its example parses to its model), a schema entry,
    a line in describe() (the hybrid ones with tools=True), and an executor handler; the action
    space samples only types of the table."""
    from harness.env.execute import HANDLERS
    from harness.env.spaces import ActionSpace
    schema = A.json_schema()
    mapping = schema["discriminator"]["mapping"]
    assert A.ACTION_TYPES == tuple(row.name for row in A.ACTIONS) and len(set(A.ACTION_TYPES)) == len(A.ACTIONS)
    assert set(mapping) == set(A.ACTION_TYPES) and len(schema["oneOf"]) == len(A.ACTIONS)
    for row in A.ACTIONS:
        assert type(A.parse(A.example(row.name))) is row.model
        assert mapping[row.name] == f"#/$defs/{row.model.__name__}"
        assert (f"- {row.name}(" in A.describe()) == (not row.hybrid)
        assert f"- {row.name}(" in A.describe(tools=True)
    assert set(HANDLERS) == {row.model for row in A.ACTIONS}
    # Every parameter is described in the schema (adapters' tool docs are read from it).
    for name, model in schema["$defs"].items():
        undescribed = [f for f, prop in model.get("properties", {}).items()
                       if f != "type" and not prop.get("description")]
        assert not undescribed, f"{name}: no description for {undescribed}"
    assert A.example("click") is not A.example("click")                  # a copy: callers may change it
    space = ActionSpace(seed=0)
    for _ in range(500):
        assert A.parse(space.sample()).type in A.ACTION_TYPES
