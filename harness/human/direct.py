"""``deskworld record --direct``: the person uses the apps in a real browser window — the episode's own
page, headed — and their input there is recorded as deskworld actions.

Exactness is the point: nothing the person does reaches the page by itself. The window's script
(``static/gestures.js`` + ``static/direct.js``, added to every page of the episode's browser context)
stops every trusted input event in the capture phase and turns it into actions with the same recogniser
as the record page; ``DirectAgent`` hands each action to the episode loop, and the env carries it out
through the agent's own executor. So the page only ever gets the recorded actions' input, and a replay of
the recording (``replay:DIR``) gets the same input on the same page. While an action is carried out, the
page lets through the input that action dispatches (mouse events at its points, its key presses in their
order: ``pass_spec``) and nothing else: the person's input meanwhile is stopped and recorded as the next
action. (A key of the person's that is the very key expected next passes in its place; the action's own
key is then stopped and recorded as the person's — the page and the recording still agree.)

What the page can't stop is recorded too: a scroll bar's own drag is undone and recorded as the drag it
was; a page the person opens through the window's address bar, back button or history is recorded as a
``navigate`` to that page. A window the person closes mid-task drops that episode (nothing of it is
recorded: the page's state can't be put back) and the task starts again in a new window. ``done``,
``can't be done``, ``ask`` and the address box stay on the record page (``harness.human.server``), which
shows the goal beside the window.
"""
from __future__ import annotations

import collections
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError

import harness.env.actions as A
from harness.human.live import HumanAgent, WindowClosed

STATIC = Path(__file__).parent / "static"
POLL_MS = 40                       # how often the loop looks for the person's next action
BINDING = "__dwSend"


def display_problem() -> str | None:
    """Why a real window can't open here (no display on Linux), or None."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("--direct opens a real browser window, and this machine has no display (DISPLAY is not set): "
                "record on the page instead (without --direct), or run the command where a screen is "
                "(a desktop session, or xvfb-run for a test)")
    return None


def window_script(variant) -> str:
    """The window's script for a screen: its scale (screenshot pixels per CSS pixel) and size."""
    w, h = variant.screen
    config = f"window.__DW_DIRECT = {{f: {variant.px_per_css!r}, w: {int(w)}, h: {int(h)}}};\n"
    return config + (STATIC / "gestures.js").read_text() + "\n" + (STATIC / "direct.js").read_text()


_MODIFIER_KEYS = {"Shift", "Control", "Alt", "Meta"}
_TYPED_AS = {"\n": "Enter", "\r": "Enter", "\t": "Tab"}


def typed_keys(text: str) -> list[str]:
    """The key presses Playwright's ``keyboard.type`` makes for ``text`` (its US layout: a press for each
    printable ASCII character, Enter and Tab; anything else is inserted as text, with no key press)."""
    return [_TYPED_AS.get(c, c) for c in text if c in _TYPED_AS or " " <= c <= "~"]


def pressed_keys(keys: str) -> list[str]:
    """The key (not the modifiers) of each press of a key action, as Playwright names it."""
    out = []
    for press in A.normalize_keys(keys):
        main = "+" if press.endswith("++") or press == "+" else press.split("+")[-1]
        if main not in _MODIFIER_KEYS:
            out.append(main)
    return out


def presses(n: int, button: str = "left") -> dict:
    """The press-and-release events of ``n`` presses of a mouse button, as Chromium fires them (a click
    after each left release, a dblclick on the second, auxclick and contextmenu for the other buttons)."""
    left = button == "left"
    return {"pointerdown": n, "mousedown": n, "pointerup": n, "mouseup": n, "click": n if left else 0,
            "dblclick": 1 if left and n >= 2 else 0, "auxclick": 0 if left else n,
            "contextmenu": n if button == "right" else 0}


def pass_spec(action, variant) -> dict:
    """What the page lets through while ``action`` is carried out: its points (CSS pixels), how many of
    each press and release event it makes there (``budget``), every move (a drag), and its key presses in
    order (typing, a key action; a click's modifiers always pass). Nothing more: a person's second click on
    the same spot while the first is carried out is stopped and recorded, not let through."""
    def css(p):
        x, y = variant.to_css(p.x, p.y)
        return [x, y]
    points, moves, budget = [], False, {}
    keys = [] if getattr(action, "modifiers", None) else None
    if isinstance(action, A.Drag):
        points, moves, budget = [css(p) for p in action.path], True, presses(1)
    elif isinstance(action, A.Click):
        points, budget = [css(action)], presses(1, action.button)
    elif isinstance(action, A.DoubleClick):
        points, budget = [css(action)], presses(2)
    elif isinstance(action, A.TripleClick):
        points, budget = [css(action)], presses(3)
    elif isinstance(action, A.Move):
        points = [css(action)]
    elif isinstance(action, A.Scroll):
        points, budget = [css(action)], {"wheel": 1}
    elif isinstance(action, A.Type):
        keys = typed_keys(action.text)
    elif isinstance(action, A.Key):
        keys = pressed_keys(action.keys)
    return {"points": points, "moves": moves, "budget": budget, "keys": keys}


class DirectAgent(HumanAgent):
    """The person at a real window, as the episode loop sees an agent: ``act`` waits for their next gesture
    in the window (or a button on the record page) and returns it as the action."""

    def __init__(self, live, env, name: str):
        super().__init__(live, env, name)
        self.inbox: collections.deque = collections.deque()
        self._url = ""
        self._later = None               # a record-page action waiting for the window's gestures before it
        self.waiting = False             # in act, with nothing of the person's left to carry out

    # ------------------------------------------------------------ the window
    def _got(self, source, message) -> None:
        """The binding (on the browser thread): an action (or a gesture's error) from the window."""
        if isinstance(message, dict):
            self.inbox.append(message)

    def reset(self, task) -> None:
        super().reset(task)
        self.inbox.clear()
        self._later = None
        self.env.unwrapped.session.call(self._install)

    def _install(self) -> None:
        """The window's script on the episode's context (once per context: every page of it gets it) and on
        the page already open."""
        driver = self.env.unwrapped.session.driver
        ctx, page = driver.current.context, driver.page
        script = window_script(driver.variant)
        if not getattr(ctx, "_deskworld_direct", False):     # (a context closed and made again is a new object)
            ctx.expose_binding(BINDING, self._got)
            ctx.add_init_script(script)
            ctx._deskworld_direct = True
        page.evaluate(script)
        self._url = page.url

    def _release(self) -> None:
        """The last action's step is over: the page stops letting its input through."""
        self.env.unwrapped.session.page_call(
            lambda p: p.evaluate("() => window.__dwDirect && window.__dwDirect.release()"))

    def act(self, observation: dict) -> dict:
        try:
            return self._act(observation)
        except PlaywrightError:
            if self.env.unwrapped.session.page_call(lambda p: p.is_closed()):
                raise WindowClosed() from None
            raise

    def _act(self, observation: dict) -> dict:
        sess = self.env.unwrapped.session
        if sess.page_call(lambda p: p.is_closed()):
            raise WindowClosed()
        self._release()
        self.live.publish("acting", png=sess.last_png(), step=self.steps, screen=list(self.env.unwrapped.variant.screen),
                          url=observation.get("url", ""), error=observation.get("last_action_error", ""),
                          user_reply=observation.get("user_reply", ""),
                          goal=observation.get("goal", ""), direct=True)
        self._url = sess.page_call(lambda p: p.url)
        while True:
            self.waiting = not self.inbox and self._later is None
            got = self._later or self.live.poll_action()     # a button or the address box on the record page
            if got is not None:
                # What the person did in the window before it goes first: a run of typed text still gathering
                # there is sent now (their answer typed, then Done at once, must not lose the typing).
                if self._later is None:
                    sess.page_call(lambda p: (p.evaluate("() => window.__dwDirect && window.__dwDirect.settle()"),
                                              p.wait_for_timeout(POLL_MS)))
                self._later = None
                if self.inbox:
                    self._later = got
                else:
                    self.waiting = False
                    action, self._timing = got
                    self.steps += 1
                    return action
            while self.inbox:
                msg = self.inbox.popleft()
                if msg.get("error"):
                    self.live.publish("acting", error=str(msg["error"])[:300])
                    continue
                action = msg.get("action")
                try:
                    parsed = A.parse(action, screen=self.env.unwrapped.variant.screen)
                except (A.ActionError, ValueError) as e:
                    self.live.publish("acting", error=f"that gesture is not an action: {str(e).splitlines()[0]}")
                    continue
                spec = pass_spec(parsed, self.env.unwrapped.variant)
                sess.page_call(lambda p: p.evaluate("(s) => window.__dwDirect && window.__dwDirect.hold(s)", spec))
                self._timing = msg.get("timing")
                self.waiting = False
                self.steps += 1
                return action
            if sess.page_call(lambda p: p.is_closed()):
                raise WindowClosed()             # the person closed the window (its tab's ×, Ctrl+W)
            now = sess.page_call(lambda p: (p.wait_for_timeout(POLL_MS), p.url)[1])
            if now != self._url and urlsplit(now).scheme in ("http", "https"):
                # the window's own address bar, back button or history: the page it opened
                parts = urlsplit(now)
                self.waiting = False
                self.steps += 1
                self._timing = None
                return {"type": "navigate", "url": parts.path + (f"?{parts.query}" if parts.query else "")
                        + (f"#{parts.fragment}" if parts.fragment else "")}
