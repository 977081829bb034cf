"""The executor: a validated action turned into Playwright calls on the episode's page.

Where a click reaches the browser: ``DeskEnv.step`` (``desk.py``) parses the action and
hands it to the session's browser thread (``session.py``); there ``Driver.act``
(``driver.py``) calls ``execute`` here, which runs the handler of the action's model
(``HANDLERS``: one per row of the action table, ``harness.env.actions.ACTIONS``) — the
mouse, keyboard and navigation calls. Then the driver waits for the page to settle
(``settle.py``), keeps it on the workspace (``containment.py``) and moves world time
on, and the env observes (``observe.py``).

Whatever one action causes in the page is the agent's: a Playwright error (a download
started, a navigation that failed, a key the page refused) comes back as the action's
error; only a page or browser that died raises (``EnvironmentBroken``, from the driver).
An action's own work (key presses, typing, drag moves, a navigation) stops at
``ACT_DEADLINE_S``.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError

import harness.env.actions as A
from harness.tools.registry import ToolError, call_tool, get_tool, to_json

ACT_DEADLINE_S = 20.0         # an action's own work stops here
STEP_DEADLINE_S = 30.0        # and the whole step (the action, the settle, a return to the workspace) here
TYPE_CHUNK = 200              # typing is checked against the deadline every this many characters


def execute(driver, action, deadline: float) -> str | None:
    """Carry ``action`` out on ``driver.page`` (its modifiers held down around it) by the
    deadline (``time.monotonic()``); the agent-facing error, or None."""
    kb = driver.page.keyboard
    mods = [A.PW_MODIFIERS[m] for m in getattr(action, "modifiers", [])]
    try:
        try:
            for m in mods:
                kb.down(m)
            return HANDLERS[type(action)](driver, action, deadline)
        finally:
            for m in reversed(mods):
                try:
                    kb.up(m)
                except Exception:
                    pass
    except PlaywrightError as e:
        driver.raise_if_dead(e)
        return driver.current.fence.public_text(_action_failure(e))


def _late(done: int, total: int, what: str) -> str:
    return f"stopped at the step deadline ({ACT_DEADLINE_S:.0f} s) after {done} of {total} {what}"


def _left_ms(deadline: float) -> float:
    return max(1000.0, (deadline - time.monotonic()) * 1000)


# ---------------------------------------------------------------- one handler per action model
# Actions are in screenshot pixels; Playwright's mouse is in the page's CSS pixels. ``_css`` maps a
# point through the episode's variant (``driver.variant``: px / (scale × zoom)); at the default
# variant that is the identity.
def _css(driver, x: float, y: float) -> tuple[float, float]:
    return driver.variant.to_css(x, y)


def _click(driver, a: A.Click, deadline: float) -> None:
    driver.page.mouse.click(*_css(driver, a.x, a.y), button=a.button)


def _double_click(driver, a: A.DoubleClick, deadline: float) -> None:
    driver.page.mouse.dblclick(*_css(driver, a.x, a.y))


def _triple_click(driver, a: A.TripleClick, deadline: float) -> None:
    driver.page.mouse.click(*_css(driver, a.x, a.y), click_count=3)


def _move(driver, a: A.Move, deadline: float) -> None:
    driver.page.mouse.move(*_css(driver, a.x, a.y))


def _mouse_button(driver, a: A.MouseDown | A.MouseUp, deadline: float) -> None:
    mouse = driver.page.mouse
    if a.x is not None and a.y is not None:
        mouse.move(*_css(driver, a.x, a.y))
    (mouse.down if isinstance(a, A.MouseDown) else mouse.up)(button=a.button)


def _drag(driver, a: A.Drag, deadline: float) -> str | None:
    mouse = driver.page.mouse
    first, *rest = a.path
    steps = max(1, min(8, A.MAX_DRAG_MOVES // len(rest)))
    mouse.move(*_css(driver, first.x, first.y))
    mouse.down()
    try:
        for i, p in enumerate(rest):
            if time.monotonic() > deadline:
                return _late(i, len(rest), "moves")
            mouse.move(*_css(driver, p.x, p.y), steps=steps)
    finally:
        mouse.up()
    return None


def _scroll(driver, a: A.Scroll, deadline: float) -> None:
    """dx, dy are screenshot pixels too: the page moves by about that much of the screenshot."""
    driver.page.mouse.move(*_css(driver, a.x, a.y))
    driver.page.mouse.wheel(*_css(driver, a.dx, a.dy))


def _type(driver, a: A.Type, deadline: float) -> str | None:
    text = a.text
    for i in range(0, len(text), TYPE_CHUNK):
        if time.monotonic() > deadline:
            return _late(i, len(text), "characters")
        driver.page.keyboard.type(text[i:i + TYPE_CHUNK])
    return None


def _key(driver, a: A.Key, deadline: float) -> str | None:
    presses = A.normalize_keys(a.keys)
    for i, press in enumerate(presses):
        if time.monotonic() > deadline:
            return _late(i, len(presses), "key presses")
        driver.page.keyboard.press(press)
    return None


def _wait(driver, a: A.Wait, deadline: float) -> None:
    driver.page.wait_for_timeout(a.ms)


def _navigate(driver, a: A.Navigate, deadline: float) -> str | None:
    try:
        url = driver.current.fence.resolve(a.url)
    except ValueError as e:
        return str(e)
    driver.page.goto(url, wait_until="commit", timeout=_left_ms(deadline))
    return None


def _back(driver, a: A.Back, deadline: float) -> None:
    driver.page.go_back(wait_until="commit", timeout=_left_ms(deadline))


def _done(driver, a: A.Done, deadline: float) -> None:
    """Ending the episode is the env's: nothing happens on the page (``Driver.act`` never gets here)."""


def _tool_call(driver, a: A.ToolCall, deadline: float) -> str | None:
    """A hybrid episode's tool call, on the episode's slot as the task's user (actor ``agent``);
    the result is the driver's ``tool_result`` (JSON text). After a write the page hears
    ``deskworld:refresh`` so the screen shows what changed."""
    driver.tool_result = None
    try:
        tool = get_tool(a.tool)
        out = call_tool(driver.current.slot, tool, a.arguments, driver.user)
    except ToolError as e:
        return f"tool {a.tool}: {e.message}"
    driver.tool_result = json.dumps(to_json(out), ensure_ascii=False, default=str)
    if tool.write:
        driver.refresh()
    return None


def _ask_user(driver, a: A.AskUser, deadline: float) -> str | None:
    """A question to the task's principal (``apps.coworkers.principal``): asked on the slot, answered
    in this step's tick; ``Driver.act`` reads the answer into ``user_reply``."""
    return driver.ask(a.text)


Handler = Callable[..., "str | None"]
HANDLERS: dict[type, Handler] = {
    A.Click: _click, A.DoubleClick: _double_click, A.TripleClick: _triple_click, A.Move: _move,
    A.MouseDown: _mouse_button, A.MouseUp: _mouse_button, A.Drag: _drag, A.Scroll: _scroll,
    A.Type: _type, A.Key: _key, A.Wait: _wait, A.Navigate: _navigate, A.Back: _back, A.Done: _done,
    A.ToolCall: _tool_call, A.AskUser: _ask_user,
}


def _action_failure(exc: BaseException) -> str:
    """What a Playwright error caused by the agent's action says, for ``last_action_error``."""
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "Download is starting" in msg:
        return "that address is a file download, not a page: the file was downloaded and the page stayed where it was"
    if "Unknown key" in msg:
        return f"{msg.split(': ', 1)[-1]} is not a key; use the type action for text"
    return f"the action failed: {msg[:300]}"
