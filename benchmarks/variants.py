"""World variants: how long a new variant takes to compile, and whether its instances reset as fast.

For each world with facts, in a cache of its own (``--cache``, default a temporary folder):

- **compile**: ``template_for("<world>@k")`` for variants never built before — render the world's
  files with the variant's facts, build the PDFs whose text changed, seed every app — then the
  same call again (cached: the hash of the rendered files);
- **reset**: ``DeskEnv.reset`` of a family's hand-made task (variant 0, today's reset) and of
  instances of the same family in other variants — one variant again and again, and alternating
  between two (the env's one slot per world retargeted to the other template each time).

Prints medians (and p95 for resets):

    .venv/bin/python benchmarks/variants.py [-n 5] [--resets 30] [--world meridian]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _median(xs):
    return statistics.median(xs) if xs else float("nan")


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))] if xs else float("nan")


def compile_times(world: str, n: int) -> dict:
    from apps.core.facts import load_facts
    from apps.core.store.compile import template_for
    from apps.core.world import worlds_root
    fs = load_facts(worlds_root() / world, world)
    template_for(world)                               # variant 0 (and the PDFs it shares) first
    first, again = [], []
    for k in range(fs.variants - n, fs.variants):     # the last variants: the least likely to be built already
        t0 = time.perf_counter()
        template_for(f"{world}@{k}")
        first.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        template_for(f"{world}@{k}")
        again.append(time.perf_counter() - t0)
    return {"new variant (s)": _median(first), "max (s)": max(first), "cached (ms)": _median(again) * 1000,
            "variants": n}


def reset_times(world: str, resets: int) -> dict:
    from harness.env import DeskEnv
    from harness.tasks.registry import all_families, load_task
    fam = next((f for f in all_families(world=world) if f.all_variants), None)
    if fam is None:
        return {}
    refs = [r for r in fam.instances() if r.variant != 0]
    a, b = load_task(refs[0].id), load_task(next(r for r in refs if r.variant != refs[0].variant).id)
    base = load_task(fam.id)
    env = DeskEnv(base)
    out = {"family": fam.id}
    try:
        def timed(tasks) -> list[float]:
            ms = []
            for i in range(resets):
                t0 = time.perf_counter()
                env.reset(options={"task": tasks[i % len(tasks)]})
                ms.append((time.perf_counter() - t0) * 1000)
            return ms
        for task in (base, a, b):                     # compiled and warmed, once each
            env.reset(options={"task": task})
        rounds = {"variant 0 (today)": [], f"variant {a.variant}, again and again": [],
                  f"variants {a.variant} ↔ {b.variant}, alternating": []}
        for _ in range(3):                            # interleaved, so drift hits all three alike
            rounds["variant 0 (today)"] += timed([base])
            rounds[f"variant {a.variant}, again and again"] += timed([a])
            rounds[f"variants {a.variant} ↔ {b.variant}, alternating"] += timed([a, b])
        for name, ms in rounds.items():
            out[name] = (_median(ms), _p95(ms))
    finally:
        env.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=5, help="new variants compiled per world")
    ap.add_argument("--resets", type=int, default=30, help="resets per kind per round (3 rounds)")
    ap.add_argument("--world", action="append", help="only this world (repeatable)")
    ap.add_argument("--cache", default=None, help="the cache folder (default: a new temporary one)")
    args = ap.parse_args()
    os.environ["DESKWORLD_CACHE"] = args.cache or tempfile.mkdtemp(prefix="deskworld-bench-variants-")
    from apps.core.facts import load_facts
    from apps.core.world import world_names, worlds_root
    worlds = args.world or [w for w in world_names() if load_facts(worlds_root() / w, w)]
    from rich.console import Console
    from rich.table import Table
    console = Console()
    t = Table(title=f"compiling a new variant (cache {os.environ['DESKWORLD_CACHE']})")
    for col in ("world", "variants", "new variant, median", "slowest", "cached, median"):
        t.add_column(col, justify="left" if col == "world" else "right")
    for w in worlds:
        c = compile_times(w, args.n)
        t.add_row(w, str(c["variants"]), f"{c['new variant (s)']:.2f} s", f"{c['max (s)']:.2f} s",
                  f"{c['cached (ms)']:.1f} ms")
    console.print(t)
    r = Table(title="DeskEnv.reset of a family's instances (median / p95)")
    for col in ("world", "family", "reset", "median", "p95"):
        r.add_column(col, justify="right" if col in ("median", "p95") else "left")
    for w in worlds:
        res = reset_times(w, args.resets)
        fam = res.pop("family", "—")
        for name, (med, p95) in res.items():
            r.add_row(w, fam, name, f"{med:.0f} ms", f"{p95:.0f} ms")
    console.print(r)


if __name__ == "__main__":
    main()
