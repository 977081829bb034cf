"""The driver: the browser side of an episode, and the reset sequence of DESIGN.md.

Where a click reaches the browser: ``DeskEnv.step`` → the session's browser thread
(``session.py``) → ``Driver.act`` here → the executor (``execute.py``: the action as
Playwright calls) → the settle (``settle.py``) and the containment (``containment.py``)
→ world time moves on → the env observes (``observe.py``).

A ``Driver`` holds one ``WorldSlot`` per world it has run: the world's store slot, its
app server on a loopback port, and one browser context reused across episodes. It is
not thread-safe: the session calls it from its own thread. Per reset: close the page,
restore the slot (the generation bump refuses late requests of the old page), clear the
origin's cookies and storage, inject the task user's session, open a new page with
``Date.now()`` pinned to world time, open the start page and wait until it is settled.
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from flask import got_request_exception
from playwright.sync_api import Error as PlaywrightError

import harness.env.actions as A
from apps import create_app
from apps.core.store.compile import template_for
from apps.core.store.export import diff as state_diff
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.world import load_world, parse_ref
from apps.core import people
from apps.coworkers import principal
from apps.coworkers.engine import set_scenario, tick
from harness.env.appserver import AppServer
from harness.env.browser import context_args
from harness.env.containment import Fence
from harness.env.execute import ACT_DEADLINE_S, STEP_DEADLINE_S, execute
from harness.env.observe import screenshot_png
from harness.env.settle import DEFAULT_TIMEOUT_S, INIT_SCRIPT, STABLE_CSS, NetworkWatch, wait_quiet, wait_settled
from harness.env.variant import Variant

PUBLIC_ORIGIN = "http://desk.local"
LEAVE_TIMEOUT_MS = 2000          # at reset: leaving the old page, and its saves on leaving landing
REFRESH_JS = ("() => document.body && document.body.dispatchEvent("
              "new CustomEvent('deskworld:refresh', {bubbles: true}))")
STABLE_JS = ("document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style');"
             f" s.textContent = {STABLE_CSS!r}; document.head.appendChild(s); }});")


class EnvironmentBroken(RuntimeError):
    """The environment (app server, browser) failed — the episode is an ``error``, not an agent failure."""


_VARIANTS: dict[str, tuple] = {}           # world ref -> (World, template path), for Desk.retarget
KEEP_INITIALS = 3                          # start-state exports a desk keeps for variants it served


@dataclass
class Desk:
    """One world's store slot and its app server on a loopback port, with the server's
    unhandled exceptions collected in ``errors`` (any one makes the episode an ``error``).
    No browser: the env adds one (``WorldSlot``); other harnesses (the BrowserGym example)
    bring their own."""
    world: object
    slot: Slot
    app: object
    server: AppServer
    errors: list = field(default_factory=list)
    initial: dict | None = None
    initials: dict = field(default_factory=dict)       # other variants' start states (the last few)

    @classmethod
    def open(cls, name: str) -> "Desk":
        world = load_world(name)
        slot = Slot(template_for(world))
        app = create_app({"SLOT": slot, "SECRET_KEY": secrets.token_hex(32)})
        errors: list = []

        def _record(sender, exception, **extra):
            errors.append(f"{type(exception).__name__}: {exception}")
        got_request_exception.connect(_record, app, weak=False)
        return cls(world, slot, app, AppServer(app).start(), errors)

    def retarget(self, ref: str) -> None:
        """Serve another variant of the same world (``meridian@17``): the same app server and
        browser context, the variant's template in the slot (restored at the next reset). A
        variant's world and template are found once per process (the world files don't change
        under a running env), so going back to it costs reading its template."""
        found = _VARIANTS.get(ref)
        if found is None:
            world = load_world(ref)
            found = _VARIANTS[ref] = (world, template_for(world))
        self.initials[self.world.ref] = self.initial           # kept for coming back to this variant
        while len(self.initials) > KEEP_INITIALS:
            self.initials.pop(next(iter(self.initials)))
        self.world, template = found
        self.slot.retarget(template)
        self.initial = self.initials.pop(ref, None)

    def initial_state(self) -> dict:
        """The start state, exported once."""
        if self.initial is None:
            with self.slot.store() as st:
                self.initial = export(st)
        return self.initial

    def close(self) -> None:
        self.server.stop()
        self.slot.close()


@dataclass
class WorldSlot(Desk):
    """A desk with the browser context the env reuses across its episodes."""
    context: object = None
    fence: Fence | None = None
    page: object = None
    cdp: object = None
    net: NetworkWatch | None = None
    variant: Variant | None = None          # the variant the browser context was made for


class Driver:
    """The episode's browser side: its world slots, the page, the clock; ``act`` is one step."""

    def __init__(self, browser, *, trace: bool = False):
        self.browser = browser
        self.trace = trace
        self.worlds: dict[str, WorldSlot] = {}
        self.page = None
        self.net: NetworkWatch | None = None
        self.current: WorldSlot | None = None
        self.settle_timeouts = 0
        self.refreshes = 0                      # ticks that changed the page's world
        self.tool_result: str | None = None     # this step's tool_call result (JSON text)
        self.user_reply = ""                    # this step's answer to an ask_user ("" when none)
        self._asked: dict | None = None
        self.principal = None                   # the task's Principal (who ask_user asks), or None
        self.principal_name = ""
        self.last_good: str | None = None       # the last main-frame URL on the origin
        self._deadline: float | None = None     # the current step's deadline (monotonic)
        self.start_path = "/"
        self.variant = Variant()                # the current episode's screen (harness.env.variant)

    # ------------------------------------------------------------------ slots
    def world_slot(self, ref: str) -> WorldSlot:
        """The slot of world ``ref`` (``meridian``, ``meridian@17``): one per world, retargeted to the
        variant asked for (so instances of many variants share one app server and browser context)."""
        name, variant = parse_ref(ref)
        ws = self.worlds.get(name)
        if ws is not None:
            if ws.world.variant != variant:
                ws.retarget(ref)
            return ws
        desk = Desk.open(ref)
        ws = WorldSlot(desk.world, desk.slot, desk.app, desk.server, desk.errors)
        self._new_context(ws, self.variant)
        self.worlds[name] = ws
        return ws

    def _new_context(self, ws: WorldSlot, variant: Variant) -> None:
        """The world slot's browser context, made for ``variant`` (its viewport and scale factor are
        fixed when a context is made: a reset to another variant closes the old one and makes this)."""
        if ws.context is not None:
            try:
                ws.context.close()
            except Exception:
                pass
        ws.page = ws.cdp = ws.net = None
        spec = ws.world.spec.clock
        fence = Fence(ws.server.url, public=PUBLIC_ORIGIN)
        ctx = self.browser.new_context(**context_args(timezone=spec.timezone, locale=spec.locale, variant=variant),
                                       base_url=ws.server.url, proxy=fence.proxy())
        ctx.set_default_timeout(10_000)
        ctx.set_default_navigation_timeout(15_000)
        fence.install(ctx)
        ws.context, ws.fence, ws.variant = ctx, fence, variant

    # ------------------------------------------------------------------ reset
    def _open_page(self, ws: WorldSlot, now) -> None:
        page = ws.fence.adopt(ws.context)
        page.clock.set_fixed_time(now)
        # After the clock: the settle tracker wraps the timers page code uses,
        # not the clock library's own.
        page.add_init_script(INIT_SCRIPT)
        page.add_init_script(STABLE_JS)
        ws.page = page
        ws.cdp = ws.context.new_cdp_session(page)
        if ws.variant is not None and ws.variant.auto_dark:     # theme=dark: Chrome's Auto Dark Mode
            ws.cdp.send("Emulation.setAutoDarkModeOverride", {"enabled": True})
        ws.fence.block_others(ws.cdp)
        ws.net = NetworkWatch()
        ws.net.attach(page)

    def reset(self, task, variant: Variant | None = None) -> None:
        self._deadline = None
        self.variant = variant or Variant()
        ws = self.world_slot(task.world_ref)
        if self.trace and self.current is not None and self.current.page is not None:
            try:
                self.current.context.tracing.stop()
            except Exception:
                pass
        if ws.variant != self.variant:
            self._new_context(ws, self.variant)        # a new page opens on it below
        self.current = ws
        page = ws.page
        if page is not None and (page.is_closed() or not self.browser.is_connected()):
            page = ws.page = None
        if page is not None:
            # Leave the old episode: release the mouse, empty its tab's storage, and leave its
            # page while its own session still holds — Docs and Slides save a pending edit on
            # leaving (beforeunload), and that save belongs to the old episode, which the restore
            # below throws away; left for later, it would carry the new episode's cookie.
            try:
                for button in ("left", "middle", "right"):
                    page.mouse.up(button=button)
                for key in ("Shift", "Control", "Alt", "Meta"):
                    page.keyboard.up(key)
                page.evaluate("() => { try { sessionStorage.clear(); localStorage.clear(); } catch (e) {} }")
                page.goto("about:blank", wait_until="commit", timeout=LEAVE_TIMEOUT_MS)
                wait_quiet(page, ws.net, LEAVE_TIMEOUT_MS / 1000)
            except Exception:
                pass
        self.refreshes = 0
        self.user = task.user or ws.world.spec.user
        self.tool_result = None
        self.user_reply, self._asked = "", None
        self.principal = task.principal
        ws.slot.restore()                        # new generation: the old page's late requests get 409
        ws.initial_state()                       # the start state, exported once per world
        ws.errors.clear()
        with ws.slot.store() as st:
            now = st.now()
            set_scenario(st, task.coworkers)
            if task.principal is not None:
                who = people.person(st, task.principal.person)
                self.principal_name = who["name"] if who else task.principal.person
            self.step_seconds = task.step_seconds or float(st.meta("step_seconds", "30"))
        if page is None:
            self._open_page(ws, now)
            page = ws.page
        else:
            self._set_clock(page, now)
        ws.cdp.send("Storage.clearDataForOrigin", {"origin": ws.server.url, "storageTypes": "all"})
        ws.context.clear_cookies()
        ws.context.add_cookies([ws.server.cookie(task.user or ws.world.spec.user),
                                *self.variant.cookies(ws.server.url)])        # density, arrangement
        ws.fence.close_strays(ws.context)        # pop-ups and tabs never outlive an episode
        ws.net.reset()
        ws.fence.take()
        self.page, self.net = page, ws.net
        self.start_path = task.start_path
        self.last_good = None
        if self.trace:
            ws.context.tracing.start(screenshots=True, snapshots=True)
        page.goto(ws.server.url + task.start_path, wait_until="commit")
        self._settle()
        ws.cdp.send("Page.resetNavigationHistory")
        ws.fence.take()
        self.last_good = page.url
        self.check_health()

    # ------------------------------------------------------------------ acting
    def act(self, action) -> str | None:
        """One agent step: carry ``action`` out (None: nothing to carry out, it did not parse),
        then world time moves on; a ``done`` ends the episode, so nothing happens and the
        clock stays. Returns the agent-facing error, or None; a page or browser that died
        raises ``EnvironmentBroken``."""
        self.tool_result = None
        self.user_reply = ""
        self._asked = None
        if isinstance(action, A.Done):
            return None
        error = self._carry_out(action) if action is not None else None
        self.advance_clock()
        if self._asked is not None:
            with self.current.slot.store() as st:
                said = principal.replies(st, self._asked)
            who = self.principal_name or self.principal.person
            self.user_reply = "\n\n".join(f"{who}: {text}" for text in said)
        return error

    def ask(self, text: str) -> str | None:
        """``ask_user``: the question to the task's principal; None, or why nobody can be asked."""
        if self.principal is None:
            return "nobody to ask: this task comes with everything it needs"
        with self.current.slot.store() as st:
            self._asked = principal.ask(st, self.user, self.principal.person, text, via=self.principal.via,
                                        cant_help=self.principal.cant_help)
        self.refresh()
        return None

    def _carry_out(self, action) -> str | None:
        """The action (the executor), the settle, the containment, the health check. Every step is
        bounded: the action's own work stops at ``ACT_DEADLINE_S``, the whole step (settle and any
        return to the workspace included) at ``STEP_DEADLINE_S``."""
        page = self.page
        start = time.monotonic()
        self._deadline = start + STEP_DEADLINE_S
        error = execute(self, action, start + ACT_DEADLINE_S)
        self._settle()
        self.current.fence.close_strays(self.current.context)
        blocked = self.current.fence.take()
        left = not self.current.fence.on_origin(page.url)
        if left:
            blocked = blocked or [page.url or "a blank page"]
            self._return_to_workspace()
        else:
            self.last_good = page.url
        if blocked and error is None:
            more = f" (and {len(blocked) - 1} more)" if len(blocked) > 1 else ""
            if blocked[0] == "a new window":
                error = f"blocked: a new window or tab was closed; the workspace stays in this one page{more}"
            else:
                error = (f"blocked: {self.current.fence.public(blocked[0])[:200]} is outside the workspace; "
                         f"only {PUBLIC_ORIGIN} can be opened{more}")
        self.check_health()
        return error

    def _dead(self, page) -> bool:
        return not self.browser.is_connected() or page.is_closed()

    def raise_if_dead(self, exc: BaseException) -> None:
        """A page or browser that died is the environment's failure, not the agent's."""
        if self._dead(self.page):
            raise EnvironmentBroken(f"the browser failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}")

    def _return_to_workspace(self) -> None:
        """The main frame left the origin: back in history once, then the last page that was
        on the origin (or the start page), until it is back."""
        fence, page = self.current.fence, self.page
        for attempt in ("back", "last", "start"):
            wait = {"wait_until": "commit", "timeout": 5_000}
            try:
                if attempt == "back":
                    page.go_back(**wait)
                elif attempt == "last":
                    page.goto(self.last_good or self.current.server.url + "/", **wait)
                else:
                    page.goto(self.current.server.url + self.start_path, **wait)
            except Exception as e:
                self.raise_if_dead(e)
            self._settle()
            fence.take()
            if fence.on_origin(page.url):
                return
        raise EnvironmentBroken(f"the page could not be brought back to the workspace from {page.url[:200]}")

    def _settle(self) -> None:
        """Wait until the page is settled, within the step's deadline (a reset has none)."""
        left = DEFAULT_TIMEOUT_S
        if self._deadline is not None:
            left = min(left, max(1.0, self._deadline - time.monotonic()))
        if not wait_settled(self.page, self.net, left):
            self.settle_timeouts += 1

    def advance_clock(self) -> None:
        """After each agent step: world time moves a fixed step (DESIGN.md, Time),
        then the world ticks (co-workers act on what the agent did). When a
        co-worker wrote, the page hears ``deskworld:refresh`` and settles again,
        so the next screenshot shows it; nothing polls."""
        with self.current.slot.store() as st:
            st.advance(self.step_seconds)
            now = st.now()
            wrote = tick(st)
        self._set_clock(self.page, now)
        if wrote:
            self.refreshes += 1
            self.refresh()
            self._settle()

    def refresh(self) -> None:
        """The page hears ``deskworld:refresh`` and reloads what it shows of the world (after a
        co-worker or a tool wrote to it)."""
        self.page.evaluate(REFRESH_JS)

    def _set_clock(self, page, now) -> None:
        """Pin page time. The clock is the context's: it is also set in a pop-up the containment
        is closing at that moment, which fails the call — the main page's clock is set again."""
        try:
            page.clock.set_fixed_time(now)
        except PlaywrightError:
            if self._dead(page):
                raise
            self.current.fence.close_strays(self.current.context)
            page.clock.set_fixed_time(now)

    def check_health(self) -> None:
        errs = list(self.current.errors) + list(self.net.five_xx if self.net else [])
        if errs:
            raise EnvironmentBroken(f"the app failed: {errs[0]}")
        if self.page.is_closed():
            raise EnvironmentBroken("the page was closed")

    # ------------------------------------------------------------------ reading
    def screenshot(self) -> bytes:
        return screenshot_png(self.page, self.current.cdp, self.variant)

    def url(self) -> str:
        return self.current.fence.public(self.page.url)

    def final_state(self) -> tuple[dict, dict, dict]:
        ws = self.current
        initial = ws.initial_state()
        with ws.slot.store() as st:
            final = export(st)
        return initial, final, state_diff(initial, final)

    def stop_trace(self, path: str) -> None:
        if self.trace and self.current is not None:
            self.current.context.tracing.stop(path=path)

    def close(self) -> None:
        for ws in self.worlds.values():
            try:
                ws.context.close()
            except Exception:
                pass
            ws.close()
        self.worlds.clear()
        self.page = None

