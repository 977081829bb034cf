"""deskworld tasks as BrowserGym tasks.

Importing this module registers every deskworld task as a BrowserGym environment,
``browsergym/deskworld.<world>.<task>`` (``meridian/corvane-deductible`` becomes
``browsergym/deskworld.meridian.corvane-deductible``)::

    import gymnasium as gym
    import deskworld_browsergym                      # registers the tasks

    env = gym.make("browsergym/deskworld.meridian.corvane-deductible")
    obs, info = env.reset()                          # the task's start page, signed in
    obs, reward, terminated, truncated, info = env.step('send_msg_to_user("ANSWER: $2,500,000")')
    print(reward, info["task_info"]["result"]["lines"])

How a BrowserGym episode maps onto deskworld:

- ``setup(page)``: takes a *desk* (the world's store slot and its app server on a
  loopback port, kept in a per-process pool), restores the slot to the world's
  start state, turns on the task's co-worker scenario, signs the task's user in
  (the slot's session cookie on BrowserGym's own browser context), pins the
  page's ``Date`` to world time, opens the task's start page and waits until it
  is settled. Returns the task's prompt as BrowserGym's goal.
- ``validate(page, chat_messages)``: once per BrowserGym step. It waits until the
  page is settled, then moves world time one step and lets co-workers act (as
  ``DeskEnv`` does after every action). The episode ends when the agent speaks:
  its last chat message (``send_msg_to_user``) is the answer,
  ``report_infeasible`` is ``done(status=infeasible)``; or at the task's
  ``max_steps``. A message that asks instead (a line ``ASK_USER: <question>`` and
  no ``ANSWER:``, as the model agents' final texts) is ``ask_user``: the question
  goes to the task's principal (``apps.coworkers.principal``, their DM or mail),
  the episode goes on, and their answer comes back as BrowserGym's user message
  in the chat (a task without a principal says nobody can be asked). Then deskworld's verifier grades the slot's final state against
  its start state (never the page) and the reward is its score.
- ``cheat(page, chat_messages)``: deskworld's oracle, aimed through the page and
  acted out as BrowserGym coordinate actions (``mouse_click``, ``keyboard_type``,
  ``scroll_at``…); its final answer is appended to ``chat_messages`` as an
  assistant message, the way WorkArena's cheats answer.
- ``teardown()``: gives the desk back to the pool.

Browser: browsergym-core pins ``playwright==1.44``, which cannot download a
browser here. :func:`use_system_chromium` (called by every task before BrowserGym
launches its browsers) wraps BrowserGym's global Playwright so that *both* of its
browsers — the task's and the chat's, which takes no launch options — start the
Chromium that ``harness.env.browser`` finds, with deskworld's containment flags.
:func:`fix_screenshot_viewport` (called on import) keeps BrowserGym's screenshots from
dropping the page's viewport on current Chromium (see :func:`_extract_screenshot`).
"""
from __future__ import annotations

import atexit
import io
import json
import os
import threading

import browsergym.core
import browsergym.core.observation as _bg_observation
import numpy as np
import playwright.sync_api
from browsergym.core.action.base import execute_python_code
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.registration import register_task
from browsergym.core.task import AbstractBrowserTask
from PIL import Image

from apps.core.store.export import diff as state_diff
from apps.core.store.export import export
from apps.core.world import load_world
from apps.coworkers.engine import set_scenario, tick
from harness.env import actions as A
from apps.coworkers import principal as principals
from harness.agents.model import final_action
from harness.agents.oracle import OracleAgent
from harness.env.browser import EXTRA_ARGS, VIEWPORT, BrowserNotFound, context_args, find_chromium, install_hint
from harness.env.containment import Fence
from harness.env.driver import STABLE_JS, Desk, EnvironmentBroken
from harness.env.observe import screenshot_png
from harness.env.settle import INIT_SCRIPT, NetworkWatch, wait_settled
from harness.tasks.registry import all_tasks, load_task
from harness.tasks.schema import Task
from harness.verify import verify

__all__ = ["ACTION_SET", "ENV_DEFAULTS", "TASK_IDS", "DeskworldTask", "agent_reply", "close_desks",
           "fix_screenshot_viewport", "gym_id", "register_all", "to_browsergym_action", "use_system_chromium"]

PREFIX = "deskworld"


def gym_id(task_id: str) -> str:
    """``meridian/corvane-deductible`` → ``browsergym/deskworld.meridian.corvane-deductible``."""
    world, _, name = task_id.partition("/")
    return f"browsergym/{PREFIX}.{world}.{name}"


# ---------------------------------------------------------------------------- browser
def _launch_args(browsergym_args: list[str]) -> list[str]:
    """BrowserGym's flags plus deskworld's (``harness.env.browser.EXTRA_ARGS``): the dead proxy,
    no GPU, no background traffic. Both ``--disable-features`` lists go into one flag, so
    neither depends on how Chromium treats a repeated switch."""
    features: list[str] = []
    out: list[str] = []
    for arg in [*browsergym_args, *EXTRA_ARGS]:
        if arg.startswith("--disable-features="):
            features += [f for f in arg.split("=", 1)[1].split(",") if f and f not in features]
        elif arg not in out:
            out.append(arg)
    if features:
        out.append("--disable-features=" + ",".join(features))
    return out


class _ChromiumType:
    """``playwright.chromium`` whose ``launch`` defaults the executable, flags and sandbox."""

    def __init__(self, real):
        self._real = real

    def launch(self, **kwargs):
        if "executable_path" not in kwargs:
            exe = os.environ.get("DESKWORLD_CHROMIUM")
            if not exe and not os.path.exists(self._real.executable_path):
                # Playwright's own Chromium for this Playwright version is not installed
                # (``playwright install`` cannot download here): use the one deskworld finds.
                exe = find_chromium()
                if exe is None:
                    raise BrowserNotFound(install_hint())
            if exe:
                kwargs["executable_path"] = exe
        kwargs["args"] = _launch_args(list(kwargs.get("args") or []))
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            kwargs.setdefault("chromium_sandbox", False)
        return self._real.launch(**kwargs)

    def __getattr__(self, name):
        return getattr(self._real, name)


class _Playwright:
    """BrowserGym's global Playwright with :class:`_ChromiumType` as ``chromium``."""

    def __init__(self, real):
        self._real = real
        self.chromium = _ChromiumType(real.chromium)

    def __getattr__(self, name):
        return getattr(self._real, name)


def use_system_chromium() -> None:
    """Make BrowserGym's browsers (the task's and the chat's) launch the Chromium that
    ``harness.env.browser`` finds ($DESKWORLD_CHROMIUM, else Playwright's own when installed,
    else the system's) with deskworld's flags. Idempotent; call it from the thread that runs
    the env (Playwright's sync API belongs to the thread that started it). Tasks call it."""
    pw = browsergym.core._get_global_playwright()
    if not isinstance(pw, _Playwright):
        browsergym.core._set_global_playwright(_Playwright(pw))


def _extract_screenshot(page: playwright.sync_api.Page):
    """BrowserGym's ``extract_screenshot`` without its device-metrics round trip when the
    scale factor is 1 (the default). browsergym-core 0.14.3 sets
    ``Emulation.setDeviceMetricsOverride`` on a CDP session of its own and detaches it; on
    current Chromium (156 here) that drops the page's viewport emulation, so after the first
    observation the page is laid out at the headless window's size (780×493 with Playwright
    1.44) while screenshots are still taken at 1280×800 — actions then land on a different
    layout than the agent saw. Capturing without the override keeps Playwright's viewport."""
    if getattr(page, "_bgym_scale_factor", 1.0) != 1.0:
        return _bg_observation.extract_screenshot(page)
    cdp = page.context.new_cdp_session(page)
    try:
        png = screenshot_png(page, cdp)
    finally:
        cdp.detach()
    with Image.open(io.BytesIO(png)) as img:
        return np.array(img.convert("RGB"))


def fix_screenshot_viewport() -> None:
    """Make BrowserGym's observations use :func:`_extract_screenshot` (idempotent)."""
    import browsergym.core.env as bg_env
    bg_env.extract_screenshot = _extract_screenshot


# ---------------------------------------------------------------------------- desks (slot + app server)
_POOL: dict[str, list[Desk]] = {}
_POOL_LOCK = threading.Lock()


def _acquire(world: str) -> Desk:
    """A free desk of ``world`` (reused across episodes: the slot is restored at setup);
    each live task holds its own, so several envs in one process never share a slot."""
    with _POOL_LOCK:
        free = _POOL.setdefault(world, [])
        if free:
            return free.pop()
    return Desk.open(world)


def _release(desk: Desk) -> None:
    with _POOL_LOCK:
        _POOL.setdefault(desk.world.name, []).append(desk)


def close_desks() -> None:
    """Stop every pooled app server (tasks still running keep theirs until teardown)."""
    with _POOL_LOCK:
        desks = [d for ds in _POOL.values() for d in ds]
        _POOL.clear()
    for d in desks:
        d.close()


atexit.register(close_desks)


# ---------------------------------------------------------------------------- world time in the page
# Playwright 1.44 has no page.clock (1.45+): this pins Date to world time the way
# clock.set_fixed_time does (timers keep running; htmx and debounces need them).
# Init scripts run in the order they were added, so each later one moves the time.
FIXED_CLOCK_JS = """
(() => {
  const now = %d;
  if (window.__deskClock) { window.__deskClock.now = now; return; }
  const Real = Date, clock = { now };
  function D(...args) {
    if (!new.target) return new Real(clock.now).toString();
    return args.length ? new Real(...args) : new Real(clock.now);
  }
  D.prototype = Real.prototype;
  D.now = () => clock.now;
  D.parse = Real.parse;
  D.UTC = Real.UTC;
  Object.defineProperty(window, "__deskClock", { value: clock });
  window.Date = D;
})();
"""

# ---------------------------------------------------------------------------- actions
# What cheat() acts through: BrowserGym's own coordinate, keyboard and navigation actions.
ACTION_SET = HighLevelActionSet(subsets=["chat", "infeas", "coord", "nav"], multiaction=True)


def to_browsergym_action(action, origin: str) -> str:
    """A deskworld action (``harness.env.actions``) as a BrowserGym high-level action string.
    ``origin`` is the app server's URL (``navigate`` paths are resolved on it). ``done`` has
    no BrowserGym action of its own: it is a chat message (see ``DeskworldTask.cheat``)."""
    a = A.parse(action)
    mods = [A.PW_MODIFIERS[m] for m in getattr(a, "modifiers", [])]
    if isinstance(a, A.Click):
        calls = [f"mouse_click({a.x}, {a.y}, {a.button!r})"]
    elif isinstance(a, A.DoubleClick):
        calls = [f"mouse_dblclick({a.x}, {a.y})"]
    elif isinstance(a, A.Move):
        calls = [f"mouse_move({a.x}, {a.y})"]
    elif isinstance(a, (A.MouseDown, A.MouseUp)):
        if a.x is None or a.y is None:
            raise A.ActionError(f"{a.type} without x, y has no BrowserGym action")
        calls = [f"{'mouse_down' if isinstance(a, A.MouseDown) else 'mouse_up'}({a.x}, {a.y}, {a.button!r})"]
    elif isinstance(a, A.Drag):
        # Press, move through each point (and half-way to it: drag handlers want several
        # moves, as DeskEnv's interpolated ones), release.
        calls = [f"mouse_down({a.path[0].x}, {a.path[0].y})"]
        for prev, p in zip(a.path, a.path[1:]):
            calls += [f"mouse_move({(prev.x + p.x) // 2}, {(prev.y + p.y) // 2})", f"mouse_move({p.x}, {p.y})"]
        calls.append(f"mouse_up({a.path[-1].x}, {a.path[-1].y})")
    elif isinstance(a, A.Scroll):
        calls = [f"scroll_at({a.x}, {a.y}, {a.dx}, {a.dy})"]
    elif isinstance(a, A.Type):
        calls = [f"keyboard_type({a.text!r})"]
    elif isinstance(a, A.Key):
        calls = [f"keyboard_press({k!r})" for k in A.normalize_keys(a.keys)]
    elif isinstance(a, A.Wait):
        calls = [f"noop({a.ms})"]
    elif isinstance(a, A.Navigate):
        calls = [f"goto({Fence(origin).resolve(a.url)!r})"]
    elif isinstance(a, A.Back):
        calls = ["go_back()"]
    else:
        raise A.ActionError(f"{a.type} has no BrowserGym equivalent here")
    return "\n".join([*(f"keyboard_down({m!r})" for m in mods), *calls,
                      *(f"keyboard_up({m!r})" for m in reversed(mods))])


class _Compat:
    """A Page or Locator of Playwright 1.44 with ``Locator.filter(visible=…)`` (1.51+), which
    deskworld's oracle uses: it is the same selector Playwright builds for it, ``>> visible=true``."""

    def __init__(self, obj):
        self._obj = obj

    @staticmethod
    def _wrap(value):
        return _Compat(value) if isinstance(value, playwright.sync_api.Locator) else value

    def filter(self, *, visible: bool | None = None, **kwargs):
        loc = self._obj.filter(**kwargs) if kwargs else self._obj
        if visible is not None:
            loc = loc.locator(f"visible={'true' if visible else 'false'}")
        return _Compat(loc)

    def __getattr__(self, name):
        attr = getattr(self._obj, name)
        if callable(attr):
            return lambda *a, **k: self._wrap(attr(*a, **k))
        return self._wrap(attr)


class _PageEnv:
    """Just enough of an env for ``OracleAgent``: it aims through ``env.unwrapped.session.page_call``."""

    def __init__(self, page):
        self.page = _Compat(page)

    @property
    def unwrapped(self):
        return self

    @property
    def session(self):
        return self

    def page_call(self, fn):
        return fn(self.page)

    @property
    def variant(self):
        """The screen the oracle aims on: BrowserGym's page at one screenshot pixel per CSS pixel."""
        return _Screen(self.page._obj.viewport_size or {"width": 1280, "height": 720})


class _Screen:
    """What ``OracleAgent`` reads of an episode's variant, for BrowserGym's own page: its viewport
    (which need not be one of deskworld's variant sizes) drawn at one pixel per CSS pixel."""
    px_per_css = 1.0
    locale = "en-US"

    def __init__(self, size: dict):
        self.css_viewport = self.screen = (int(size["width"]), int(size["height"]))

    def to_px(self, x: float, y: float) -> tuple[int, int]:
        w, h = self.screen
        return min(max(int(round(x)), 0), w - 1), min(max(int(round(y)), 0), h - 1)


AGENT_ROLES = ("assistant", "infeasible")


def agent_reply(chat_messages: list[dict]) -> dict | None:
    """The agent's closing message: the chat's last message when the agent sent it
    (``send_msg_to_user`` → ``assistant``, ``report_infeasible`` → ``infeasible``).
    BrowserGym's chat opens with its greeting and then the goal (a ``user`` message), so
    a fresh episode ends on the user's turn; a cheat's list holds only the agent's."""
    if chat_messages and chat_messages[-1].get("role") in AGENT_ROLES:
        return chat_messages[-1]
    return None


# ---------------------------------------------------------------------------- the task
class DeskworldTask(AbstractBrowserTask):
    """A deskworld task (``task_id``, e.g. ``meridian/corvane-deductible``) as a BrowserGym task.

    ``max_steps`` (default: the task's) ends the episode after that many steps with the
    verifier's score, as ``DeskEnv`` does; pass ``task_kwargs={"max_steps": N}`` to change it."""

    @classmethod
    def get_task_id(cls):
        return PREFIX

    def __init__(self, seed: int | None = None, task_id: str = "", max_steps: int | None = None) -> None:
        super().__init__(seed)
        self.task: Task = load_task(task_id)
        self.max_steps = max_steps or self.task.max_steps
        world = load_world(self.task.world)
        # What BrowserGym sets its browser up with (env arguments can still override these).
        self.viewport = dict(VIEWPORT)
        self.slow_mo = 0                 # deskworld pages are settled in validate(): no blanket delay
        self.timeout = 10_000            # ms, as harness.env.driver
        self.locale = world.spec.clock.locale
        self.timezone_id = world.spec.clock.timezone
        self.desk: Desk | None = None
        self.page = None
        self.net: NetworkWatch | None = None
        self.steps = 0
        self.result: dict | None = None
        use_system_chromium()            # before BrowserGym launches its browsers (reset() does, next)

    # ------------------------------------------------------------------ BrowserGym API
    def setup(self, page: playwright.sync_api.Page) -> tuple[str, dict]:
        if self.desk is None:
            self.desk = _acquire(self.task.world)
        desk = self.desk
        desk.slot.restore()                       # the start state (a new generation: old sessions refused)
        desk.initial_state()
        desk.errors.clear()
        with desk.slot.store() as st:
            now = st.now()
            set_scenario(st, self.task.coworkers)
            self.step_seconds = self.task.step_seconds or float(st.meta("step_seconds", "30"))
        self.user = self.task.user or desk.world.spec.user
        self.steps, self.result = 0, None
        context = page.context
        context.clear_cookies()
        context.add_cookies([desk.server.cookie(self.user)])
        # On the context, so tabs the agent opens get world time and the settle tracker too.
        context.add_init_script(FIXED_CLOCK_JS % _ms(now))
        context.add_init_script(INIT_SCRIPT)
        context.add_init_script(STABLE_JS)
        self.page = page
        self.net = NetworkWatch()
        self.net.attach(page)
        self.fence = Fence(desk.server.url)
        self.fence.watch(page)
        page.goto(desk.server.url + self.task.start_path, wait_until="commit")
        self._settle()
        self.fence.take()
        self._check_health()
        return self.task.goal, {"deskworld_task": self.task.id, "revision": self.task.revision,
                                  "start_url": desk.server.url + self.task.start_path}

    def validate(self, page: playwright.sync_api.Page, chat_messages: list[dict]) -> tuple[float, bool, str, dict]:
        if self.result is not None:               # already graded: the episode is over
            return 0.0, True, "", {"result": self.result}
        self.steps += 1
        self._settle()
        self._check_health()
        info = {"step": self.steps, "deskworld_task": self.task.id}
        note = ""
        blocked = self._contain()
        if blocked:
            info["blocked"] = blocked
            note = (f"(deskworld) blocked: {blocked[0]} is outside the workspace; only {self.desk.server.url} "
                    "can be opened")
        reply = agent_reply(chat_messages)
        asked = final_action(reply["message"]) if reply is not None and reply["role"] == "assistant" else None
        if asked is not None and asked["type"] == "ask_user" and self.steps < self.max_steps:
            return 0.0, False, self._ask(asked["text"]), {**info, "asked": asked["text"]}
        if reply is None:
            self._advance_clock()                 # world time moves after every step but the last word
            if self.steps < self.max_steps:
                return 0.0, False, note, info
            info["truncated"] = True              # max_steps: graded all the same, as DeskEnv does
            done_status = answer = None
        else:
            done_status = "infeasible" if reply["role"] == "infeasible" else "complete"
            answer = reply["message"]
        self.result = self._verify(done_status, answer)
        info["result"] = self.result
        return float(self.result["score"]), True, "", info

    def cheat(self, page: playwright.sync_api.Page, chat_messages: list[dict]) -> None:
        """Solve the task with its oracle: aim through the page, act with BrowserGym actions,
        answer in ``chat_messages``. World time moves after each action as in an episode."""
        oracle = OracleAgent(_PageEnv(page))
        oracle.reset(self.task)
        origin = self.desk.server.url
        for _ in range(10 * self.max_steps + 100):
            action = oracle.act({})
            if action["type"] == "done":
                if action.get("status") == "infeasible":
                    chat_messages.append({"role": "infeasible", "message": action.get("answer") or "infeasible"})
                else:
                    chat_messages.append({"role": "assistant", "message": action.get("answer") or "Done."})
                return
            code = ACTION_SET.to_python_code(to_browsergym_action(action, origin))
            execute_python_code(code, page,
                                send_message_to_user=lambda text: chat_messages.append(
                                    {"role": "assistant", "message": text}),
                                report_infeasible_instructions=lambda reason: chat_messages.append(
                                    {"role": "infeasible", "message": reason}))
            self._settle()
            self._check_health()
            self._advance_clock()
        raise RuntimeError(f"{self.task.id}: the oracle did not finish")

    def teardown(self) -> None:
        if self.desk is not None:
            _release(self.desk)
            self.desk = None
        self.page = self.net = None

    # ------------------------------------------------------------------ helpers
    def _settle(self) -> None:
        if self.page is not None and not self.page.is_closed():
            wait_settled(self.page, self.net)

    def _contain(self) -> list[str]:
        """Requests off the workspace (the dead proxy refused them); a page that left it is
        brought back, as ``Driver.act`` does (``harness.env.driver``)."""
        blocked = self.fence.take()
        if self.page is not None and not self.fence.on_origin(self.page.url):
            blocked = blocked or [self.page.url]
            try:
                self.page.go_back(wait_until="commit")
            except playwright.sync_api.Error:
                self.page.goto(self.desk.server.url + "/", wait_until="commit")
            self._settle()
            self.fence.take()
        return blocked

    def _check_health(self) -> None:
        errs = list(self.desk.errors) + list(self.net.five_xx if self.net else [])
        if errs:
            raise EnvironmentBroken(f"the app failed: {errs[0]}")

    def _ask(self, text: str) -> str:
        """``ask_user`` from ``send_msg_to_user``: the question to the task's principal, this step's
        tick (they answer in it, as in ``DeskEnv``), and their answer as the chat's user message."""
        p = self.task.principal
        if p is None:
            self._advance_clock()
            return "(deskworld) nobody to ask: this task comes with everything it needs"
        with self.desk.slot.store() as st:
            where = principals.ask(st, self.user, p.person, text, via=p.via, cant_help=p.cant_help)
        self._advance_clock()
        with self.desk.slot.store() as st:
            said = principals.replies(st, where)
            name = next((r["name"] for r in st.select("people", "slug=?", (p.person,))), p.person)
        return "\n\n".join(f"{name}: {t}" for t in said) or f"(no reply from {name})"

    def _advance_clock(self) -> None:
        """After each step: world time moves one step and co-workers act (``Driver.advance_clock``);
        when one wrote, the page hears ``deskworld:refresh`` and settles again."""
        with self.desk.slot.store() as st:
            st.advance(self.step_seconds)
            now = st.now()
            wrote = tick(st)
        script = FIXED_CLOCK_JS % _ms(now)
        self.page.context.add_init_script(script)     # for documents loaded from now on
        for p in self.page.context.pages:
            try:
                p.evaluate(f"() => {{ if (window.__deskClock) window.__deskClock.now = {_ms(now)}; }}")
            except playwright.sync_api.Error:
                pass                                  # mid-navigation: the init script covers it
        if wrote:
            self.page.evaluate("() => document.body && document.body.dispatchEvent("
                               "new CustomEvent('deskworld:refresh', {bubbles: true}))")
            self._settle()

    def _verify(self, done_status: str | None, answer: str | None) -> dict:
        desk = self.desk
        initial = desk.initial_state()
        with desk.slot.store() as st:
            final = export(st)
        result = verify(self.task, initial, final, state_diff(initial, final), answer=answer,
                        done_status=done_status, world_root=desk.world.root)
        return json.loads(json.dumps(result.to_dict(), default=str))


def _ms(dt) -> int:
    return int(dt.timestamp() * 1000)


# ---------------------------------------------------------------------------- registration
# BrowserEnv arguments every deskworld env gets by default: deskworld's browser context
# (fixed scale, no motion, light scheme, no service workers), minus what BrowserGym sets
# itself from the task (viewport, locale, time zone).
ENV_DEFAULTS = {
    "pw_context_kwargs": {k: v for k, v in context_args().items() if k not in ("viewport", "locale", "timezone_id")},
}


def register_all() -> list[str]:
    """Register every deskworld task (idempotent); returns the gym ids."""
    import gymnasium as gym
    ids = []
    for t in all_tasks():
        gid = gym_id(t.id)
        ids.append(gid)
        if gid in gym.registry:
            continue
        register_task(gid.removeprefix("browsergym/"), DeskworldTask, task_kwargs={"task_id": t.id},
                      default_task_kwargs={"max_steps": None}, nondeterministic=True,
                      kwargs=dict(ENV_DEFAULTS))
    return ids


fix_screenshot_viewport()
TASK_IDS = register_all()
