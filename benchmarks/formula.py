"""How fast the Sheets formula engine builds, recalculates and updates a workbook.

Prints medians for a workbook of 2,000 cells and 300 formulas: building it and
recalculating everything with a cold parse cache, a full recalculation with a
warm one, and a single edit that 50 formulas depend on.

    .venv/bin/python benchmarks/formula.py
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

from apps.sheets.formula import Workbook
from apps.sheets.formula.inputs import _constant
from apps.sheets.formula.parser import _compile


def bench_workbook() -> Workbook:
    """2,000 cells, 300 formulas: a 170x10 data block with a computed column, a summary tab,
    and a 50-formula chain hanging off Data!E1."""
    data: dict[tuple[int, int], str] = {}
    categories = ("Hardware", "Software", "Services", "Third party")
    for r in range(170):
        data[(r, 0)] = str(r + 1)
        data[(r, 1)] = str((r * 37) % 101 + 1)
        data[(r, 2)] = categories[r % 4]
        for c in range(3, 10):
            data[(r, c)] = str(((r + 1) * (c + 3) * 7919) % 1000 / 10)
        data[(r, 10)] = f"=B{r + 1}*D{r + 1}"
    summary: dict[tuple[int, int], str] = {}
    for i in range(80):
        kind = i % 8
        summary[(i, 0)] = [
            f"=SUM(Data!K1:K{100 + i})", f"=AVERAGE(Data!D:D)+{i}", f'=SUMIF(Data!C:C,"{categories[i % 4]}",Data!K:K)',
            f"=VLOOKUP({i + 1},Data!A1:K170,11,FALSE)", f'=COUNTIFS(Data!C:C,"Soft*",Data!B:B,">{i}")',
            f"=ROUND(Data!F{i + 1}/Data!G{i + 1},2)", f'=IF(Data!B{i + 1}>50,"high","low")&" "&Data!C{i + 1}',
            "=MAX(Data!H1:H170)-MIN(Data!I1:I170)",
        ][kind]
    summary[(0, 1)] = "=Data!E1*2"
    for i in range(1, 50):
        summary[(i, 1)] = f"=B{i}+1"
    return Workbook({"Data": data, "Summary": summary})


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print median timings: build + full recalc, and a single edit with 50 dependents."""
    build = median_ms(lambda: (_compile.cache_clear(), _constant.cache_clear(), bench_workbook()), 7)
    wb = bench_workbook()
    cells = sum(len(wb.cells(t)) for t in wb.tabs())
    formulas = sum(1 for t in wb.tabs() for raw in wb.cells(t).values() if raw.startswith("="))
    full = median_ms(wb.recalc, 7)
    counter = iter(range(10 ** 9))
    dependents = len(wb._closure([("Data", 0, 4)]))
    edit = median_ms(lambda: wb.set("Data", 0, 4, str(next(counter))), 51)
    print(f"workbook: {cells} cells, {formulas} formulas")
    print(f"build + full recalc (cold parse cache): {build:.2f} ms median")
    print(f"full recalc (warm parse cache):         {full:.2f} ms median")
    print(f"single edit, {dependents} dependents:           {edit:.2f} ms median")


if __name__ == "__main__":
    main()
