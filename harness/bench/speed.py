"""``deskworld bench``: the harness against bare Playwright, in one run on this machine.

Measures, as medians:
- reset latency (restore + new session + start page settled + first observation);
- step latency for a navigation click, an htmx click, typing, and a Sheets
  cell edit (type a figure + Enter; the server recomputes the totals) — each
  action, settled, then a screenshot — through ``DeskEnv.step`` and through
  bare Playwright doing the same on the same page (click, the settle recipe
  of MACHINE-NOTES.md, ``page.screenshot``);
- steps per second with 1, 2 and 4 worker processes, both ways;
- memory per slot (PSS of the app server's share plus one browser context and page);
- per device scale factor of the appearance variants (``harness.env.variant``): reset + first
  screenshot, a screenshot alone, and the one-off cost of switching to the variant (a new browser
  context), as medians (``python -m harness.bench.speed variants`` measures only these).

Prints a table with the ratios to bare Playwright; ``--json`` writes it too.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.table import Table

from apps import create_app
from apps.core.store.compile import template_for
from apps.core.store.slot import Slot
from harness.env import DeskEnv
from harness.env.appserver import AppServer
from harness.env.browser import context_args, launch_args
from harness.env.driver import Driver
from harness.tasks.registry import load_task

TASK = "meridian/send-survey-to-pryce"


def _median(xs):
    return statistics.median(xs) if xs else float("nan")


# ---------------------------------------------------------------- bare Playwright
def _bare_settle(page, inflight: set) -> None:
    """MACHINE-NOTES' recipe: a short grace, no request in flight, DOMContentLoaded, two frames."""
    page.wait_for_timeout(20)
    deadline = time.monotonic() + 10
    while inflight and time.monotonic() < deadline:
        page.wait_for_timeout(5)
    try:
        page.wait_for_load_state("domcontentloaded")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    except Exception:
        pass


class _Bare:
    def __init__(self):

        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(**launch_args())
        self.slot = Slot(template_for("meridian"))
        self.server = AppServer(create_app({"SLOT": self.slot})).start()
        self.ctx = self.browser.new_context(**context_args(), base_url=self.server.url)
        self.ctx.add_cookies([self.server.cookie("alex.chen")])
        self.page = self.ctx.new_page()
        self.watch()
        self.page.goto("/mail/inbox")

    def watch(self) -> None:
        self.inflight: set = set()
        self.page.on("request", lambda r: self.inflight.add(r))
        self.page.on("requestfinished", lambda r: self.inflight.discard(r))
        self.page.on("requestfailed", lambda r: self.inflight.discard(r))

    def step(self, fn) -> float:
        t0 = time.perf_counter()
        fn(self.page)
        _bare_settle(self.page, self.inflight)
        try:
            self.page.screenshot(type="png")
        except Exception:                     # Chromium under load sometimes refuses one capture
            self.page.screenshot(type="png")
        return (time.perf_counter() - t0) * 1000

    def close(self):
        self.ctx.close()
        self.browser.close()
        self.pw.stop()
        self.server.stop()
        self.slot.close()


EDITS = [(6480000, "$122,755,000.00"), (6840000, "$123,115,000.00")]   # D3 -> the third-party total


def _book_id() -> int:
    slot = Slot(template_for("meridian"))
    try:
        with slot.store() as st:
            return st.scalar("SELECT ref FROM drive_items WHERE name='Damages Model – Aurelia Dawn'")
    finally:
        slot.close()


def _assert_total(html: str, total: str) -> None:
    if total not in html:
        raise AssertionError(f"the step ended before the grid showed {total}")


def _center(page, role, name, exact=True):
    box = page.get_by_role(role, name=name, exact=exact).first.bounding_box()
    return int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)


# ---------------------------------------------------------------- the operations, both ways
def measure_latencies(n: int) -> dict:
    out: dict[str, dict] = {}
    env = DeskEnv(TASK)
    env.reset()
    session = env.unwrapped.session
    resets = []
    for _ in range(n):
        t0 = time.perf_counter()
        env.reset()
        resets.append((time.perf_counter() - t0) * 1000)
    out["reset (Mail inbox start)"] = {"deskworld": _median(resets)}
    drive_env = DeskEnv("meridian/gross-tonnage")
    drive_env.reset()
    d_resets = []
    for _ in range(n):
        t0 = time.perf_counter()
        drive_env.reset()
        d_resets.append((time.perf_counter() - t0) * 1000)
    drive_env.close()
    out["reset (Drive start)"] = {"deskworld": _median(d_resets)}

    starred = session.page_call(lambda p: _center(p, "link", "Starred", exact=False))
    inbox = session.page_call(lambda p: _center(p, "link", "Inbox", exact=False))
    nav = []
    for i in range(n):
        x, y = starred if i % 2 == 0 else inbox
        t0 = time.perf_counter()
        env.step({"type": "click", "x": x, "y": y})
        nav.append((time.perf_counter() - t0) * 1000)
    env.reset()
    row_star = session.page_call(lambda p: p.locator("tr.mrow .star-btn").nth(1).bounding_box())
    sx, sy = int(row_star["x"] + row_star["width"] / 2), int(row_star["y"] + row_star["height"] / 2)
    hx = []
    for _ in range(n):
        t0 = time.perf_counter()
        env.step({"type": "click", "x": sx, "y": sy})          # htmx: toggles the star, swaps the row
        hx.append((time.perf_counter() - t0) * 1000)
    # Typing into a plain field (the New label dialog), and into the search box,
    # whose suggestions are debounced (150 ms) — settling waits for them.
    env.reset()
    btn = session.page_call(lambda p: _center(p, "button", "Create new label"))
    env.step({"type": "click", "x": btn[0], "y": btn[1]})
    typing = []
    for _ in range(n):
        t0 = time.perf_counter()
        env.step({"type": "type", "text": "limitation fund 2026"})   # 20 characters
        typing.append((time.perf_counter() - t0) * 1000)
        env.step({"type": "key", "keys": "ctrl+a"})
    env.reset()
    q = session.page_call(lambda p: _center(p, "textbox", "Search mail"))
    env.step({"type": "click", "x": q[0], "y": q[1]})
    typing_search = []
    for _ in range(n):
        t0 = time.perf_counter()
        env.step({"type": "type", "text": "limitation fund 2026"})
        typing_search.append((time.perf_counter() - t0) * 1000)
        env.step({"type": "key", "keys": "ctrl+a"})
    env.close()

    # A Sheets edit: type a figure and Enter into D3 of the damages model; the step ends with the
    # recomputed totals on screen (checked each time, so the figure is not for a half-done step).
    sheet_env = DeskEnv("meridian/damages-fix-port-calder")
    sheet_env.reset()
    sheet_session = sheet_env.unwrapped.session
    book = _book_id()
    sheet_env.step({"type": "navigate", "url": f"/sheets/s/{book}"})
    d3 = sheet_session.page_call(lambda p: _center(p, "gridcell", "$6,840,000.00"))
    sheet_edit = []
    for i in range(n):
        value, total = EDITS[i % 2]
        sheet_env.step({"type": "click", "x": d3[0], "y": d3[1]})
        t0 = time.perf_counter()
        sheet_env.step({"type": "type", "text": f"{value}\n"})
        sheet_edit.append((time.perf_counter() - t0) * 1000)
        _assert_total(sheet_session.page_call(lambda p: p.content()), total)
    sheet_env.close()

    bare = _Bare()
    try:
        b_nav, b_hx, b_type = [], [], []
        for i in range(n):
            x, y = starred if i % 2 == 0 else inbox
            b_nav.append(bare.step(lambda p: p.mouse.click(x, y)))
        bare.page.goto("/mail/inbox")
        box = bare.page.locator("tr.mrow .star-btn").nth(1).bounding_box()
        bx, by = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)
        for _ in range(n):
            b_hx.append(bare.step(lambda p: p.mouse.click(bx, by)))
        bare.page.goto("/mail/inbox")
        bare.page.mouse.click(*btn)
        bare.page.get_by_label("Please enter a new label name:").wait_for()
        for _ in range(n):
            b_type.append(bare.step(lambda p: p.keyboard.type("limitation fund 2026")))
            bare.page.keyboard.press("Control+a")
        b_type_search = []
        bare.page.goto("/mail/inbox")
        bare.page.mouse.click(*q)
        for _ in range(n):
            b_type_search.append(bare.step(lambda p: p.keyboard.type("limitation fund 2026")))
            bare.page.keyboard.press("Control+a")
        b_sheet = []
        bare.page.goto(f"/sheets/s/{book}")
        bare.page.get_by_role("grid").wait_for()
        for i in range(n):
            value, total = EDITS[i % 2]
            bare.page.mouse.click(*d3)
            b_sheet.append(bare.step(lambda p: p.keyboard.type(f"{value}\n")))
        # Bare reset: a new context and page on the restored slot, start page loaded.
        b_reset = []
        for _ in range(n):
            t0 = time.perf_counter()
            bare.ctx.close()
            bare.slot.restore()
            bare.ctx = bare.browser.new_context(**context_args(), base_url=bare.server.url)
            bare.ctx.add_cookies([bare.server.cookie("alex.chen")])
            bare.page = bare.ctx.new_page()
            bare.watch()
            bare.page.goto("/mail/inbox")
            bare.page.screenshot(type="png")
            b_reset.append((time.perf_counter() - t0) * 1000)
    finally:
        bare.close()
    out["reset (Mail inbox start)"]["bare"] = _median(b_reset)
    out["reset (Drive start)"]["bare"] = float("nan")
    out["step: navigation click"] = {"deskworld": _median(nav), "bare": _median(b_nav)}
    out["step: htmx click"] = {"deskworld": _median(hx), "bare": _median(b_hx)}
    out["step: type 20 chars"] = {"deskworld": _median(typing), "bare": _median(b_type)}
    out["step: Sheets cell edit (type + Enter, totals recomputed)"] = {"deskworld": _median(sheet_edit),
                                                                     "bare": _median(b_sheet)}
    out["step: type 20 chars, debounced search box"] = {"deskworld": _median(typing_search),
                                                         "bare": _median(b_type_search), "informative": True}
    return out


# ---------------------------------------------------------------- throughput
def _throughput_worker(kind: str, steps: int, q) -> None:
    try:
        if kind == "deskworld":
            env = DeskEnv(TASK)
            env.reset()
            a = env.unwrapped.session.page_call(lambda p: _center(p, "link", "Starred", exact=False))
            b = env.unwrapped.session.page_call(lambda p: _center(p, "link", "Inbox", exact=False))
            t0 = time.perf_counter()
            for i in range(steps):
                x, y = a if i % 2 == 0 else b
                env.step({"type": "click", "x": x, "y": y})
            q.put(time.perf_counter() - t0)
            env.close()
        else:
            bare = _Bare()
            a = _center(bare.page, "link", "Starred", exact=False)
            b = _center(bare.page, "link", "Inbox", exact=False)
            t0 = time.perf_counter()
            for i in range(steps):
                x, y = a if i % 2 == 0 else b
                bare.step(lambda p: p.mouse.click(x, y))
            q.put(time.perf_counter() - t0)
            bare.close()
    except Exception as e:                         # report, don't hang the parent
        q.put(e)


def measure_throughput(workers: int, steps: int, kind: str) -> float:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_throughput_worker, args=(kind, steps, q)) for _ in range(workers)]
    for p in procs:
        p.start()
    times = [q.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    for t in times:
        if isinstance(t, Exception):
            raise t
    return workers * steps / max(times)


# ---------------------------------------------------------------- memory
def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int(Path(d, "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def measure_memory(slots: int = 4) -> float:
    """MB of PSS per extra episode slot (store + app server + browser context + page)."""
    env = DeskEnv(TASK)
    env.reset()
    task = load_task(TASK)
    total = lambda: sum(_pss_kb(p) for p in _tree(os.getpid()))   # noqa: E731
    before = total()
    runners = []
    session = env.unwrapped.session
    for _ in range(slots):
        r = session.call(lambda: Driver(session.browser))
        session.call(lambda r=r: r.reset(task))
        runners.append(r)
    after = total()
    for r in runners:
        session.call(r.close)
    env.close()
    return (after - before) / slots / 1024


def measure_variants(n: int = 10, task: str = TASK) -> dict:
    """Medians in ms per scale factor (1280×800 viewport): ``reset`` (restore, new page, start page
    settled, the first screenshot), ``screenshot`` (one capture of the settled page), ``switch`` (the
    first reset on that variant after another: its browser context is made then), and the screen."""
    from harness.env.variant import SCALES, Variant
    env = DeskEnv(task, variant="any")
    out = {}
    try:
        env.reset()                                             # the browser, app server and template: not measured
        for s in SCALES:
            v = Variant(scale=s)
            switch = []
            for _ in range(max(1, n // 4)):
                env.reset(options={"variant": Variant(scale=SCALES[0] if s != SCALES[0] else SCALES[-1])})
                t = time.perf_counter()
                env.reset(options={"variant": v})
                switch.append((time.perf_counter() - t) * 1000)
            resets, shots = [], []
            for _ in range(n):
                t = time.perf_counter()
                env.reset(options={"variant": v})
                resets.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                env.session.observe()
                shots.append((time.perf_counter() - t) * 1000)
            out[f"scale={s:g}"] = {"screen": "x".join(map(str, v.screen)), "reset": _median(resets),
                                   "screenshot": _median(shots), "switch": _median(switch)}
    finally:
        env.close()
    return out


def print_variants(res: dict) -> None:
    t = Table(title="reset + first screenshot per device scale factor (1280×800 viewport) — medians, ms")
    for col in ("variant", "screen", "reset", "screenshot", "switch (new context)"):
        t.add_column(col, justify="left" if col == "variant" else "right")
    for name, v in res.items():
        t.add_row(name, v["screen"], f"{v['reset']:.0f}", f"{v['screenshot']:.0f}", f"{v['switch']:.0f}")
    Console().print(t)


def run(n: int = 20, throughput_steps: int = 40, workers=(1, 2, 4)) -> dict:
    res = {"latency_ms": measure_latencies(n), "throughput": {}, "cpus": os.cpu_count()}
    res["variants_ms"] = measure_variants(max(4, n // 2))
    for w in workers:
        res["throughput"][w] = {"deskworld": measure_throughput(w, throughput_steps, "deskworld"),
                                "bare": measure_throughput(w, throughput_steps, "bare")}
    res["memory_mb_per_slot"] = measure_memory()
    return res


def print_table(res: dict) -> None:
    t = Table(title=f"deskworld bench ({res['cpus']} CPUs) — medians, ms")
    for col in ("operation", "deskworld", "bare Playwright", "ratio", "target"):
        t.add_column(col, justify="left" if col == "operation" else "right")
    targets = {"reset (Mail inbox start)": "≤ 300 ms", "reset (Drive start)": "≤ 300 ms"}
    for op, v in res["latency_ms"].items():
        bare = v.get("bare", float("nan"))
        ratio = v["deskworld"] / bare if bare == bare else float("nan")
        target = "" if v.get("informative") else targets.get(op, "≤ 1.25×")
        t.add_row(op, f"{v['deskworld']:.0f}", "—" if bare != bare else f"{bare:.0f}",
                  "—" if ratio != ratio else f"{ratio:.2f}×", target)
    t.add_section()
    for w, v in res["throughput"].items():
        ratio = v["deskworld"] / v["bare"]
        t.add_row(f"steps/s, {w} worker{'s' if w != 1 else ''}", f"{v['deskworld']:.2f}", f"{v['bare']:.2f}",
                  f"{ratio:.0%}", "≥ 80%" if w >= 2 else "")
    t.add_section()
    t.add_row("memory per slot (PSS)", f"{res['memory_mb_per_slot']:.0f} MB", "", "", "")
    Console().print(t)
    if res.get("variants_ms"):
        print_variants(res["variants_ms"])


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] == ["variants"]:
        v = measure_variants(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
        print_variants(v)
        print(json.dumps(v, indent=2))
        raise SystemExit(0)
    r = run()
    print_table(r)
    print(json.dumps(r, indent=2, default=str))
