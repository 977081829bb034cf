"""How fast a slot of a world goes back to its template.

Prints medians (and p95) over many restores for the three ways we can do it:
deserialize into an in-memory connection (what episodes use), copying the
template file over the slot's file (what `deskworld serve --state` uses), and
SQLite's backup API into an open connection. Each restore follows a few
writes, so it has real work to undo.

    .venv/bin/python benchmarks/restore.py [--world meridian] [-n 300]
"""
from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.mail import compose


def dirty(slot: Slot) -> None:
    with slot.store() as st:
        compose.send(st, Caller(st.meta("default_user")), to="someone@example.com", subject="bench", body="x")
        st.advance(30)


def time_restores(slot: Slot, n: int) -> list[float]:
    out = []
    for _ in range(n):
        dirty(slot)
        t0 = time.perf_counter()
        slot.restore()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def time_backup(template: Path, n: int) -> list[float]:
    src = sqlite3.connect(str(template))
    dst = sqlite3.connect(":memory:")
    out = []
    for _ in range(n):
        dst.execute("CREATE TABLE IF NOT EXISTS junk(x)")
        dst.execute("INSERT INTO junk VALUES (1)")
        dst.commit()
        t0 = time.perf_counter()
        src.backup(dst)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def row(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[int(len(xs) * 0.95) - 1]
    return f"| {name} | {statistics.median(xs):.2f} | {p95:.2f} |"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", default="meridian")
    ap.add_argument("-n", type=int, default=300)
    a = ap.parse_args()
    template = template_for(a.world)
    size = template.stat().st_size / 1e6
    mem = Slot(template)
    with tempfile.TemporaryDirectory() as tmp:
        disk = Slot(template, path=Path(tmp) / "slot.sqlite")
        results = [("deserialize into memory (episodes)", time_restores(mem, a.n)),
                   ("file copy + reopen (serve --state)", time_restores(disk, a.n)),
                   ("SQLite backup API", time_backup(template, a.n))]
        # Sanity: a restored slot exports exactly the template.
        fresh = Slot(template)
        with mem.store() as s1, fresh.store() as s2:
            assert export(s1) == export(s2)
        disk.close()
        fresh.close()
    mem.close()
    print(f"restore of world '{a.world}' ({size:.1f} MB template), {a.n} runs each, milliseconds")
    print("| method | median | p95 |")
    print("|---|---|---|")
    for name, xs in results:
        print(row(name, xs))


if __name__ == "__main__":
    main()
