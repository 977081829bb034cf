"""The lenient VLM reply grammar: deskworld JSON, Qwen computer_use calls, UI-TARS."""
from __future__ import annotations

import pytest

from harness.env import actions as A
from harness.agents.grammar import NO_ACTION, UITARS_SCROLL_PX, grammar_prompt, parse_reply


def click(x, y, button="left"):
    return {"type": "click", "x": x, "y": y, "button": button}


def done(status="complete", answer=None):
    return {"type": "done", "status": status, "answer": answer}


def qwen(args: str) -> str:
    return f'<tool_call>\n{{"name": "computer_use", "arguments": {args}}}\n</tool_call>'


# ---------------------------------------------------------------- JSON (the default)
def test_json_after_action_label_with_thought():
    p = parse_reply('Thought: The Send button is bottom right.\nAction: {"type": "click", "x": 1200, "y": 760}')
    assert (p.format, p.actions, p.errors) == ("json", [{"type": "click", "x": 1200, "y": 760}], [])
    assert p.thought == "The Send button is bottom right."


def test_json_in_fence_amid_prose():
    p = parse_reply('I will open the menu.\n```json\n{"type": "key", "keys": "Escape"}\n```\nThat closes it.')
    assert p.actions == [{"type": "key", "keys": "Escape"}]
    assert p.thought == "I will open the menu.\nThat closes it."
    assert p.format == "json"


def test_json_list_keeps_order():
    p = parse_reply('Action: [{"type": "triple_click", "x": 10, "y": 20}, {"type": "type", "text": "hi"}, '
                    '{"type": "key", "keys": "Enter"}]')
    assert p.actions == [{"type": "triple_click", "x": 10, "y": 20}, {"type": "type", "text": "hi"},
                         {"type": "key", "keys": "Enter"}]


def test_json_several_objects_and_trailing_commas():
    p = parse_reply('{"type": "click", "x": 5, "y": 6,}\nthen\n{"type": "wait", "ms": 500,}')
    assert p.actions == [{"type": "click", "x": 5, "y": 6}, {"type": "wait", "ms": 500}]
    assert (p.thought, p.errors) == ("then", [])


def test_json_action_wrapper_key_alias_and_python_quotes():
    assert parse_reply('{"action": {"type": "back"}}').actions == [{"type": "back"}]
    assert parse_reply('{"type": "key", "key": "ctrl+a"}').actions == [{"type": "key", "keys": "ctrl+a"}]
    assert parse_reply("{'type': 'navigate', 'url': '/mail/'}").actions == [{"type": "navigate", "url": "/mail/"}]
    assert parse_reply('{"actions": [{"type": "back"}, {"type": "back"}]}').actions == [{"type": "back"}] * 2


def test_json_coordinates_are_scaled():
    p = parse_reply('[{"type": "click", "x": 100, "y": 50}, {"type": "drag", "path": [{"x": 10, "y": 10}, '
                    '{"x": 20.4, "y": 30}]}, {"type": "mouse_up"}]', scale=(2.0, 1.5))
    assert p.actions == [{"type": "click", "x": 200, "y": 75},
                         {"type": "drag", "path": [{"x": 20, "y": 15}, {"x": 41, "y": 45}]}, {"type": "mouse_up"}]


def test_json_invalid_action_is_an_error_not_an_action():
    p = parse_reply('{"type": "click", "x": 10}')
    assert (p.format, p.actions, p.errors) == ("json", [], ["invalid click action: y: Field required"])


def test_json_unknown_type():
    p = parse_reply('{"type": "teleport", "x": 1}')
    assert p.actions == [] and p.format == "json"
    assert p.errors[0].startswith("unknown action type 'teleport'; use one of: click,")


def test_broken_json_says_why():
    p = parse_reply('Action: {"type": "click", "x": 10, "y": }')
    assert (p.format, p.actions) == ("json", [])
    assert p.errors == ['invalid JSON (Expecting value at character 32) in {"type": "click", "x": 10, "y": }; '
                        'send one JSON object such as {"type": "click", "x": 640, "y": 400}']


def test_non_action_json_is_ignored():
    p = parse_reply('The list is [1, 2] and {"name": "x"}; no action.')
    assert (p.format, p.actions, p.errors) == ("none", [], [NO_ACTION])


# ---------------------------------------------------------------- Qwen computer_use
def test_qwen_left_click_scaled():
    p = parse_reply(qwen('{"action": "left_click", "coordinate": [320, 200]}'), scale=(2.0, 2.0))
    assert (p.format, p.actions, p.errors, p.thought) == ("qwen", [click(640, 400)], [], "")


def test_qwen_several_calls_and_think_block():
    text = ("<think>\nFirst select the field.\n</think>\n"
            + qwen('{"action": "double_click", "coordinate": [10, 20]}')
            + qwen('{"action": "key", "keys": ["ctrl", "a"]}')
            + qwen('{"action": "type", "text": "Q3 report"}'))
    p = parse_reply(text)
    assert p.actions == [{"type": "double_click", "x": 10, "y": 20}, {"type": "key", "keys": "ctrl+a"},
                         {"type": "type", "text": "Q3 report"}]
    assert p.thought == "First select the field."


@pytest.mark.parametrize("args,expected", [
    ('{"action": "right_click", "coordinate": [5, 6]}', click(5, 6, "right")),
    ('{"action": "middle_click", "coordinate": [5, 6]}', click(5, 6, "middle")),
    ('{"action": "triple_click", "coordinate": [5, 6]}', {"type": "triple_click", "x": 5, "y": 6}),
    ('{"action": "mouse_move", "coordinate": [5, 6]}', {"type": "move", "x": 5, "y": 6}),
    # Qwen: "Positive values scroll up" → negative dy
    ('{"action": "scroll", "coordinate": [100, 200], "pixels": 300}',
     {"type": "scroll", "x": 100, "y": 200, "dx": 0, "dy": -300}),
    ('{"action": "scroll", "pixels": -500}', {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 500}),
    ('{"action": "hscroll", "coordinate": [1, 2], "pixels": 200}',
     {"type": "scroll", "x": 1, "y": 2, "dx": 200, "dy": 0}),
    ('{"action": "wait", "time": 2}', {"type": "wait", "ms": 2000}),
    ('{"action": "wait", "time": 30}', {"type": "wait", "ms": 10000}),
    ('{"action": "terminate", "status": "success"}', done()),
    ('{"action": "terminate", "status": "failure"}', done("infeasible")),
    ('{"action": "answer", "text": "42"}', done(answer="42")),
    ('{"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [30, 40]}',
     {"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 30, "y": 40}]}),
    ('{"action": "key", "keys": ["Return"]}', {"type": "key", "keys": "Return"}),
])
def test_qwen_actions(args, expected):
    p = parse_reply(qwen(args))
    assert (p.actions, p.errors, p.format) == ([expected], [], "qwen")


def test_qwen_drag_without_start_is_an_error():
    p = parse_reply(qwen('{"action": "left_click_drag", "coordinate": [30, 40]}'))
    assert p.actions == [] and p.format == "qwen"
    assert p.errors[0].startswith("left_click_drag needs start_coordinate and coordinate")


def test_qwen_unknown_action_and_unknown_function():
    p = parse_reply(qwen('{"action": "fly", "coordinate": [1, 2]}'))
    assert p.actions == []
    assert p.errors == ["unknown computer_use action 'fly'; use one of: left_click, right_click, middle_click, "
                        "double_click, triple_click, mouse_move, left_click_drag, key, type, scroll, hscroll, "
                        "wait, terminate, answer"]
    p = parse_reply('<tool_call>{"name": "browser", "arguments": {"action": "open"}}</tool_call>')
    assert p.errors == ["unknown function 'browser'; call computer_use"]


def test_qwen_computer_name_string_arguments_unclosed_tag():
    p = parse_reply('<tool_call>{"name": "computer", "arguments": "{\\"action\\": \\"left_click\\", '
                    '\\"coordinate\\": [7, 8]}"}')
    assert (p.format, p.actions, p.errors) == ("qwen", [click(7, 8)], [])


def test_qwen_bare_arguments_and_norm1000():
    p = parse_reply('Action: {"action": "left_click", "coordinate": [500, 500]}', coords="norm1000")
    assert (p.format, p.actions) == ("qwen", [click(640, 400)])
    assert parse_reply('{"action": "click", "x": 3, "y": 4}').actions == [{"type": "click", "x": 3, "y": 4}]


def test_qwen_empty_tool_call():
    p = parse_reply("<tool_call>oops</tool_call>")
    assert (p.format, p.actions) == ("qwen", [])
    assert p.errors == ['no function call in <tool_call>oops</tool_call>; write '
                        '{"name": "computer_use", "arguments": {"action": …}}']


# ---------------------------------------------------------------- UI-TARS
def test_uitars_click_box_token_and_thought():
    p = parse_reply("Thought: Click the Inbox link.\nAction: click(start_box='<|box_start|>(100,200)<|box_end|>')")
    assert (p.format, p.actions, p.errors, p.thought) == ("uitars", [click(100, 200)], [], "Click the Inbox link.")


@pytest.mark.parametrize("action,expected", [
    ("click(start_box='(100,200,300,400)')", click(200, 300)),
    ("click(start_box='[100, 200, 300, 400]')", click(200, 300)),
    ("click(point='<point>15 25</point>')", click(15, 25)),
    ("left_double(start_box='(10,20)')", {"type": "double_click", "x": 10, "y": 20}),
    ("right_single(start_box='(10,20)')", click(10, 20, "right")),
    ("hover(start_box='(10,20)')", {"type": "move", "x": 10, "y": 20}),
    ("drag(start_box='(10,20)', end_box='(110,120)')",
     {"type": "drag", "path": [{"x": 10, "y": 20}, {"x": 110, "y": 120}]}),
    ("drag(start_point='<point>1 2</point>', end_point='<point>3 4</point>')",
     {"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]}),
    ("hotkey(key='ctrl c')", {"type": "key", "keys": "ctrl+c"}),
    ("hotkey(key='ctrl shift t')", {"type": "key", "keys": "ctrl+shift+t"}),
    ("press(key='enter')", {"type": "key", "keys": "enter"}),
    ("scroll(start_box='(50,60)', direction='down')",
     {"type": "scroll", "x": 50, "y": 60, "dx": 0, "dy": UITARS_SCROLL_PX}),
    ("scroll(direction='up')", {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": -500}),
    ("scroll(point='<point>5 6</point>', direction='left')", {"type": "scroll", "x": 5, "y": 6, "dx": -500, "dy": 0}),
    ("wait()", {"type": "wait", "ms": 5000}),
    ("finished(content='The invoice total is $1,200.')", done(answer="The invoice total is $1,200.")),
    ("finished()", done()),
    ("call_user()", done()),
    ("click(x=30, y=40)", click(30, 40)),
])
def test_uitars_actions(action, expected):
    p = parse_reply(f"Thought: go\nAction: {action}")
    assert (p.actions, p.errors, p.format) == ([expected], [], "uitars")


def test_uitars_type_escapes_and_trailing_newline_is_enter():
    p = parse_reply(r"""Action: type(content='It\'s \"done\"\nsee you\n')""")
    assert p.actions == [{"type": "type", "text": "It's \"done\"\nsee you"}, {"type": "key", "keys": "Enter"}]
    assert parse_reply(r"Action: type(content='\n')").actions == [{"type": "key", "keys": "Enter"}]
    assert parse_reply("Action: type(content='plain')").actions == [{"type": "type", "text": "plain"}]


def test_uitars_unescaped_apostrophe_and_parentheses_in_content():
    p = parse_reply("Action: type(content='Don't (really) stop, ok')")
    assert p.actions == [{"type": "type", "text": "Don't (really) stop, ok"}]


def test_uitars_several_actions_in_order():
    p = parse_reply("Thought: fill it\nAction: click(start_box='(10,20)')\n\ntype(content='abc')\n\nhotkey(key='tab')")
    assert p.actions == [click(10, 20), {"type": "type", "text": "abc"}, {"type": "key", "keys": "tab"}]


def test_uitars_without_action_label_and_prose_parentheses():
    p = parse_reply("I'll click(start_box='(1,2)') now (carefully).")
    assert (p.format, p.actions, p.thought) == ("uitars", [click(1, 2)], "I'll\nnow (carefully).")
    p = parse_reply("Action: click(start_box='(1,2)')\nThis (hopefully) opens the menu")
    assert (p.actions, p.errors) == ([click(1, 2)], [])


def test_uitars_unknown_action():
    p = parse_reply("Thought: x\nAction: long_press(start_box='(1,2)')")
    assert (p.format, p.actions) == ("uitars", [])
    assert p.errors[0].startswith("unknown action long_press(…); use one of: click, left_single,")


def test_uitars_missing_point_and_bad_key():
    assert parse_reply("Action: click()").errors == ["click() needs start_box='(x,y)'"]
    p = parse_reply("Action: hotkey(key='ctrl banana')")
    assert p.actions == [] and "unknown key 'banana'" in p.errors[0]


def test_uitars_norm1000_and_scale():
    assert parse_reply("Action: click(start_box='(500,250)')", coords="norm1000").actions == [click(640, 200)]
    assert parse_reply("Action: click(start_box='(500,250)')", scale=(1.5, 2.0)).actions == [click(750, 500)]


# ---------------------------------------------------------------- clamping, nothing found, the prompt
def test_slightly_outside_is_clamped_silently():
    p = parse_reply('{"type": "click", "x": 1300, "y": -10}')
    assert (p.actions, p.errors) == ([{"type": "click", "x": 1279, "y": 0}], [])


def test_far_outside_is_clamped_with_an_error():
    p = parse_reply("Action: click(start_box='(700,100)')", scale=(2.0, 2.0))
    assert p.actions == [click(1279, 200)]
    assert p.errors == ["point (700, 100) is outside the 640×400 screenshot; clamped to (1279, 200) on the screen"]
    p = parse_reply(qwen('{"action": "left_click", "coordinate": [500, 1100]}'), coords="norm1000")
    assert p.actions == [click(640, 799)]
    assert p.errors == ["point (500, 1100) is outside the 0..1000 range; clamped to (640, 799) on the screen"]


@pytest.mark.parametrize("text", ["", "   ", "I am not sure what to do.", None])
def test_nothing_found(text):
    p = parse_reply(text)
    assert (p.format, p.actions, p.errors) == ("none", [], [NO_ACTION])
    assert p.thought == (text or "").strip()


def test_unknown_coords_mode_is_a_programming_error():
    with pytest.raises(ValueError):
        parse_reply("x", coords="percent")


def test_prompt_describes_actions_and_its_examples_parse_back():
    prompt = grammar_prompt()
    assert prompt.startswith(A.describe())
    assert "Thought:" in prompt and "Action:" in prompt
    examples = prompt.split("Examples:")[1].strip().split("\n\n")
    parsed = [parse_reply(e) for e in examples]
    assert [p.actions for p in parsed] == [[A.example("click")], [A.example("key"), A.example("type")],
                                           [A.example("done")]]
    assert all(p.format == "json" and p.errors == [] and p.thought for p in parsed)


REPLIES = [
    '{"type": "click", "x": 2000, "y": 5000}',
    '[{"type": "scroll", "x": 10, "y": 10, "dy": 300}, {"type": "done", "status": "infeasible"}]',
    qwen('{"action": "left_click", "coordinate": [-400, 9000]}'),
    qwen('{"action": "key", "keys": ["ctrl", "shift", "t"]}') + qwen('{"action": "scroll", "pixels": 3.6}'),
    qwen('{"action": "wait", "time": -3}'),
    "Action: drag(start_box='(0,0)', end_box='(5000,5000)')\n\nscroll(direction='right')\n\nfinished(content='ok')",
    "Action: type(content='x' * 3)",
    "Action: click(start_box=(3,4))",
]


@pytest.mark.parametrize("text", REPLIES)
@pytest.mark.parametrize("coords,scale", [("pixel", (1.0, 1.0)), ("pixel", (2.5, 0.5)), ("norm1000", (1.0, 1.0))])
def test_every_emitted_action_parses(text, coords, scale):
    p = parse_reply(text, scale=scale, coords=coords)
    assert p.actions
    for a in p.actions:
        A.parse(a)


def test_action_word_in_the_thought_is_not_the_label():
    p = parse_reply("Thought: My next action: open the menu.\nAction: click(start_box='(3,4)')")
    assert (p.actions, p.thought) == ([click(3, 4)], "My next action: open the menu.")
    p = parse_reply('Thought: the next action: save. Action: {"type": "key", "keys": "ctrl+s"}')
    assert (p.actions, p.thought) == ([{"type": "key", "keys": "ctrl+s"}], "the next action: save.")


@pytest.mark.parametrize("text", ['{"type": "click", "x": NaN, "y": 1}', '{"type": "click", "x": Infinity, "y": 1}',
                                  qwen('{"action": "wait", "time": "soon"}'), "[" * 3000 + "]" * 3000,
                                  "{" * 5000, "click(" * 200])
def test_degenerate_replies_give_errors_not_exceptions(text):
    p = parse_reply(text)
    assert p.actions == [] and p.errors and len(p.errors) == len(set(p.errors))


def test_action_label_inside_typed_text_is_text():
    p = parse_reply("Action: click(start_box='(3,4)')\n\ntype(content='Action: none')")
    assert p.actions == [click(3, 4), {"type": "type", "text": "Action: none"}]
