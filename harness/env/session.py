"""``Session``: the live browser side of a ``DeskEnv`` — a browser thread and the driver on
it — and the one API that privileged callers use to reach into an episode.

The env reaches the browser only through its session: ``DeskEnv.step`` → ``Session.act``
→ the browser thread → ``Driver.act`` (``driver.py``) → the executor (``execute.py``) →
Playwright → settle → ``Session.observe``. Privileged callers use the same object,
``env.unwrapped.session``: the oracle aims with ``page_call``, QC snapshots the slot and
reads the start state, the runner takes ``last_png`` and ``final_diff``, the bench and the
hybrid tools reach the driver and the store. None of them touches a ``DeskEnv`` private.

Every Playwright call runs on the session's one thread, so the env can be used from
asyncio code, notebooks and thread pools. The browser starts on the first call (the env's
first reset), never when the session is made; a session pickles without its browser, and a
copy in a forked child drops the parent's browser and starts its own.
"""
from __future__ import annotations

import os
import queue
import threading
from concurrent.futures import Future

from playwright.sync_api import sync_playwright

from harness.env.browser import launch_args
from harness.env.driver import Driver, WorldSlot


class BrowserThread:
    """A thread that owns Playwright and one Chromium; runs submitted calls in order."""

    def __init__(self, *, headed: bool = False):
        self.headed = headed
        self._q: queue.Queue = queue.Queue()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.browser = None
        self._thread = threading.Thread(target=self._run, name="deskworld-browser", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error:
            raise self._error

    def _run(self) -> None:
        try:
            self._pw = sync_playwright().start()
            self.browser = self._pw.chromium.launch(**launch_args(headed=self.headed))
        except BaseException as e:            # surface launch errors in the caller's thread
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        while True:
            fn, fut = self._q.get()
            if fn is None:
                break
            try:
                fut.set_result(fn())
            except BaseException as e:
                fut.set_exception(e)
        try:
            self.browser.close()
        except Exception:
            pass
        try:
            self._pw.stop()
        except Exception:
            pass
        fut.set_result(None)

    def call(self, fn):
        fut: Future = Future()
        self._q.put((fn, fut))
        return fut.result()

    def relaunch(self) -> None:
        def _do():
            try:
                self.browser.close()
            except Exception:
                pass
            self.browser = self._pw.chromium.launch(**launch_args(headed=self.headed))
        self.call(_do)

    def stop(self) -> None:
        if self._thread.is_alive():
            fut: Future = Future()
            self._q.put((None, fut))
            fut.result(timeout=30)
            self._thread.join(timeout=10)


class Session:
    """The browser thread and driver of one env (``env.unwrapped.session``).

    ``tools`` is True in a hybrid episode (``harness.env.wrappers.tools.HybridTools`` sets
    it): the env then carries out ``tool_call`` actions."""

    def __init__(self, *, trace: bool = False, headed: bool = False):
        self.trace = trace
        self.headed = headed                    # a real window (a person's: deskworld record --direct)
        self.tools = False
        self._thread: BrowserThread | None = None
        self._driver: Driver | None = None
        self._pid = os.getpid()
        self._last_png: bytes | None = None

    def __getstate__(self) -> dict:
        """Pickles without its browser (a thread and a Chromium can't travel):
        the copy starts its own on its first call."""
        state = self.__dict__.copy()
        state.update(_thread=None, _driver=None, _last_png=None)
        return state

    # ------------------------------------------------------------------ the browser thread
    def call(self, fn):
        """``fn()`` run on the browser thread, and its result; the browser starts first if there is none."""
        if self._thread is not None and self._pid != os.getpid():
            # A forked copy: that browser thread belongs to the parent (and does not exist here).
            self._thread = self._driver = None
        if self._thread is None:
            self._pid = os.getpid()
            self._thread = BrowserThread(headed=self.headed)
            self._driver = self._thread.call(lambda: Driver(self._thread.browser, trace=self.trace))
        return self._thread.call(fn)

    def page_call(self, fn):
        """``fn(page)`` run on the browser thread (oracles resolve locators this way)."""
        return self.call(lambda: fn(self._driver.page))

    @property
    def running(self) -> bool:
        """Whether this process has a browser up for the session."""
        return self._thread is not None and self._pid == os.getpid()

    @property
    def driver(self) -> Driver | None:
        """The driver (None before the browser starts); call its methods through ``call``."""
        return self._driver

    @property
    def browser(self):
        """The Chromium, for callers that open drivers of their own on it (the bench), on the browser thread."""
        return self._thread.browser if self._thread is not None else None

    # ------------------------------------------------------------------ what the env does
    def reset(self, task, variant=None) -> None:
        """A new episode of ``task`` on the screen of ``variant`` (``harness.env.variant``; None: the default)."""
        self.call(lambda: self._driver.reset(task, variant))

    @property
    def variant(self):
        """The current episode's ``Variant`` (its screen and the px↔CSS mapping); the default before any."""
        from harness.env.variant import Variant
        return self._driver.variant if self._driver is not None else Variant()

    def act(self, action) -> str | None:
        """One step on the page (``Driver.act``): the agent-facing error, or None."""
        return self.call(lambda: self._driver.act(action))

    def observe(self) -> tuple[bytes, str]:
        """The screenshot (PNG) and the page's public URL; the PNG is kept as ``last_png()``."""
        png, url = self.call(lambda: (self._driver.screenshot(), self._driver.url()))
        self._last_png = png
        return png, url

    def relaunch(self) -> None:
        """A new Chromium and driver, after a browser that died (nothing to do before the first start)."""
        if self._thread is None:
            return

        def _rebuild():
            try:
                self._driver.close()
            except Exception:
                pass
            return Driver(self._thread.browser, trace=self.trace)
        self._thread.relaunch()
        self._driver = self._thread.call(_rebuild)

    def close(self) -> None:
        """Stop the browser; idempotent."""
        if self._thread is not None and self._pid != os.getpid():
            self._thread = self._driver = None          # a forked copy: the browser is the parent's
        if self._thread is not None:
            try:
                self._thread.call(self._driver.close)
            except Exception:
                pass
            self._thread.stop()
            self._thread = None
            self._driver = None

    # ------------------------------------------------------------------ reading the episode
    def desk(self, world: str | None = None) -> WorldSlot | None:
        """The current episode's desk — world, store slot, app server, browser context — (None
        before the first reset), or ``world``'s, opened on the browser thread if not run yet."""
        if world is not None:
            return self.call(lambda: self._driver.world_slot(world))
        return self._driver.current if self._driver is not None else None

    def store(self):
        """The current slot's store, as a context manager: ``with session.store() as st: ...``."""
        desk = self.desk()
        if desk is None:
            raise RuntimeError("no episode has started: reset the env first")
        return desk.slot.store()

    @property
    def user(self) -> str:
        """The user the current episode acts as (the task's)."""
        return self._driver.user

    @property
    def user_reply(self) -> str:
        """This step's answer to an ``ask_user`` ("" when the step asked nothing)."""
        return self._driver.user_reply if self._driver is not None else ""

    @property
    def tool_result(self) -> str | None:
        """This step's ``tool_call`` result (JSON text), or None."""
        return self._driver.tool_result if self._driver is not None else None

    def refresh_page(self) -> None:
        """The page hears ``deskworld:refresh`` (``Driver.refresh``): after a write it did not make."""
        self.call(lambda: self._driver.refresh())

    def initial_state(self, world: str | None = None) -> dict:
        """The start state (an export) of the current episode's world, or of ``world``."""
        return self.call(lambda: (self._driver.world_slot(world) if world else self._driver.current).initial_state())

    def final_state(self) -> tuple[dict, dict, dict]:
        """``(initial, final, diff)`` of the current episode's slot."""
        return self.call(lambda: self._driver.final_state())

    def final_diff(self) -> dict:
        return self.final_state()[2]

    def snapshot(self) -> bytes:
        """The current slot's database, serialized (``Slot.restore`` takes it back)."""
        return self.call(lambda: self._driver.current.slot.serialize())

    def last_png(self) -> bytes | None:
        """The PNG of the last observation (None before the first)."""
        return self._last_png

    def save_trace(self, path: str) -> None:
        self.call(lambda: self._driver.stop_trace(path))
