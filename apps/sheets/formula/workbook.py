"""The workbook: tabs of raw inputs, their computed values, and the dependency graph between them.

**Dependency graph.** Each formula registers its single-cell precedents in a reverse map
(cell -> dependents) and its ranges per target tab (dependent -> boxes, scanned on change).
Formulas with open-ended ranges are also listed per tab so that growing the used extent
re-evaluates them. An edit computes the transitive dependents, orders them with Tarjan's
strongly-connected-components algorithm (:mod:`~apps.sheets.formula.graph`; iterative: no recursion
limit on long chains) and evaluates each once, precedents first. Every cell of a cycle becomes
``#REF!`` ("Circular dependency detected."); cells downstream of a cycle see that error and
propagate it. Structural operations rewrite the text and rebuild everything (a full rebuild of a
few thousand cells takes milliseconds).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from datetime import datetime
from typing import Callable, Iterable

from apps.sheets.formula.base import _INF, MAX_PASS_CELLS, MAX_RANGE_CELLS, ErrorValue, Key, Value
from apps.sheets.formula.coercion import Arg, _exact, _Fail, _Grid, _rank, _scalar
from apps.sheets.formula.functions import FUNCTIONS
from apps.sheets.formula.graph import strongly_connected
from apps.sheets.formula.inputs import _constant
from apps.sheets.formula.parser import _compile, _Compiled
from apps.sheets.formula.arrays import ARRAY_ARGS, _apply, _elementwise, _unary
from apps.sheets.formula.tokenizer import _adjust, _moved_fix, _quote_sheet, _RefParts, _rewrite_refs


def _circular() -> ErrorValue:
    return ErrorValue("#REF!", "Circular dependency detected.")


def _same(a: Value, b: Value) -> bool:
    return type(a) is type(b) and a == b


def _final(v: Arg) -> Value:
    """A formula's stored value: top-left of a range, whole floats as int."""
    v = _scalar(v)
    if type(v) is float:
        try:
            return _exact(v)
        except _Fail as f:
            return f.error
    return v


class Workbook:
    """Tabs of raw cell inputs, their computed values and the dependency graph between them.

    Positions are 0-based ``(row, col)``. Tab names are matched case-insensitively in formulas and
    in this API. A workbook created without tabs has one empty tab, "Sheet1".
    """

    def __init__(self, tabs: dict[str, dict[tuple[int, int], str]] | None = None,
                 now: Callable[[], datetime] | None = None) -> None:
        self._now = now or (lambda: datetime(2026, 1, 1))
        self._raws: dict[str, dict[tuple[int, int], str]] = {
            name: {rc: raw for rc, raw in cells.items() if raw} for name, cells in (tabs or {"Sheet1": {}}).items()}
        self._rebuild()

    # ----------------------------------------------------------------- reading

    def tabs(self) -> list[str]:
        return list(self._raws)

    def raw(self, tab: str, row: int, col: int) -> str | None:
        return self._raws[self._tab(tab)].get((row, col))

    def value(self, tab: str, row: int, col: int) -> Value:
        return self._vals[self._tab(tab)].get((row, col))

    def values(self, tab: str) -> dict[tuple[int, int], Value]:
        return dict(self._vals[self._tab(tab)])

    def cells(self, tab: str) -> dict[tuple[int, int], str]:
        return dict(self._raws[self._tab(tab)])

    def precedents(self, tab: str, row: int, col: int) -> set[Key]:
        """Cells a formula reads directly (ranges expanded; open-ended ones up to the used extent)."""
        key = (self._tab(tab), row, col)
        comp = self._forms.get(key)
        out: set[Key] = set()
        if comp is None:
            return out
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            if t is not None:
                out.add((t, r, c))
        for sheet, top, left, bottom, right, _ in comp.boxes:
            t = self._target(sheet, key[0])
            if t is None:
                continue
            max_row, max_col = self._extent(t)
            bottom = max_row if bottom == _INF else bottom
            right = max_col if right == _INF else right
            out.update((t, r, c) for r in range(top, bottom + 1) for c in range(left, right + 1))
        return out

    # ----------------------------------------------------------------- editing

    def set(self, tab: str, row: int, col: int, raw: str | None) -> set[Key]:
        """Set (or clear, with None/"") one cell; returns it plus every cell whose value changed."""
        return self.set_many(tab, {(row, col): raw})

    def set_many(self, tab: str, cells: dict[tuple[int, int], str | None]) -> set[Key]:
        """Set several cells of one tab with a single recalculation. Returns the cells written
        plus every other cell whose value changed."""
        tab = self._tab(tab)
        raws, vals = self._raws[tab], self._vals[tab]
        old_extent = self._extent(tab)
        written: set[Key] = set()
        seeds: list[Key] = []
        for (r, c), raw in cells.items():
            if r < 0 or c < 0:
                raise ValueError(f"Bad cell position {(r, c)}")
            key = (tab, r, c)
            written.add(key)
            raw = raw or None
            if raws.get((r, c)) == raw:
                continue
            self._unregister(key)
            if raw is None:
                raws.pop((r, c), None)
                vals.pop((r, c), None)
            else:
                raws[(r, c)] = raw
                if raw.startswith("="):
                    self._register(key, raw)
                else:
                    self._store(key, _constant(raw))
            seeds.append(key)
        if not seeds:
            return written
        self._update_extent(tab, old_extent, seeds)
        if self._extent(tab) != old_extent:
            seeds.extend(self._open.get(tab, ()))
        return written | self._recompute(self._closure(seeds))

    def recalc(self) -> None:
        """Re-parse and re-evaluate everything (also picks up a changed clock for TODAY/NOW)."""
        self._rebuild()

    # ----------------------------------------------------------------- tabs

    def add_tab(self, name: str) -> None:
        if not name or name.casefold() in self._lookup:
            raise ValueError(f"Tab name {name!r} is empty or already used")
        self._raws[name] = {}
        self._rebuild()                       # formulas that named it now resolve

    def rename_tab(self, old: str, new: str) -> None:
        """Rename a tab and rewrite ``'Old'!A1`` to ``'New'!A1`` in every formula."""
        old = self._tab(old)
        if not new or (new.casefold() in self._lookup and new.casefold() != old.casefold()):
            raise ValueError(f"Tab name {new!r} is empty or already used")
        prefix = _quote_sheet(new) + "!"

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            if p.sheet is None or target != old:
                return None
            p.prefix = prefix
            return p.text()

        self._rewrite_all(fix)
        self._raws = {(new if name == old else name): cells for name, cells in self._raws.items()}
        self._rebuild()

    def delete_tab(self, name: str) -> None:
        """Delete a tab; references to it become ``#REF!`` in formula text. The last tab stays."""
        name = self._tab(name)
        if len(self._raws) == 1:
            raise ValueError("Cannot delete the only tab")
        self._rewrite_all(lambda p, target, own: "#REF!" if p.sheet is not None and target == name else None)
        del self._raws[name]
        self._rebuild()

    # ----------------------------------------------------------------- rows and columns

    def insert_rows(self, tab: str, at: int, n: int = 1) -> None:
        self._insert(tab, 0, at, n)

    def insert_cols(self, tab: str, at: int, n: int = 1) -> None:
        self._insert(tab, 1, at, n)

    def delete_rows(self, tab: str, at: int, n: int = 1) -> None:
        self._delete(tab, 0, at, n)

    def delete_cols(self, tab: str, at: int, n: int = 1) -> None:
        self._delete(tab, 1, at, n)

    def _insert(self, tab: str, axis: int, at: int, n: int) -> None:
        """Insert ``n`` empty rows (axis 0) or columns (axis 1) before index ``at``. References at or
        after ``at`` move; a range spanning the insertion point grows."""
        tab = self._tab(tab)
        if at < 0 or n < 0:
            raise ValueError("Insertion point and count must be >= 0")

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            if target != tab:
                return None
            moved = False
            for e in p.ends:
                if e[axis] is not None and e[axis] >= at:
                    e[axis] += n
                    moved = True
            return p.text() if moved else None

        self._rewrite_all(fix)
        self._shift(tab, axis, lambda i: i + n if i >= at else i)

    def _delete(self, tab: str, axis: int, at: int, n: int) -> None:
        """Delete ``n`` rows/columns from ``at``. A reference to a deleted cell, or a range entirely
        inside the deleted block, becomes ``#REF!``; other ranges shrink or move."""
        tab = self._tab(tab)
        if at < 0 or n < 0:
            raise ValueError("Deletion point and count must be >= 0")
        end = at + n

        def fix(p: _RefParts, target: str | None, own: str) -> str | None:
            vals = [e[axis] for e in p.ends]
            if target != tab or vals[0] is None:
                return None
            if len(vals) == 1:
                v = vals[0]
                if v < at:
                    return None
                if v < end:
                    return "#REF!"
                p.ends[0][axis] = v - n
                return p.text()
            lo_i = 0 if vals[1] is None or vals[0] <= vals[1] else 1
            lo, hi = vals[lo_i], vals[1 - lo_i]
            if lo >= at and hi is not None and hi < end:
                return "#REF!"
            new_lo = lo if lo < at else (at if lo < end else lo - n)
            new_hi = hi if hi is None or hi < at else (at - 1 if hi < end else hi - n)
            if (new_lo, new_hi) == (lo, hi):
                return None
            p.ends[lo_i][axis] = new_lo
            p.ends[1 - lo_i][axis] = new_hi
            return p.text()

        self._rewrite_all(fix)
        self._shift(tab, axis, lambda i: i if i < at else (None if i < end else i - n))

    def _shift(self, tab: str, axis: int, move: Callable[[int], int | None]) -> None:
        """Move the raw cells of ``tab`` along ``axis`` (None drops the cell), then rebuild."""
        moved: dict[tuple[int, int], str] = {}
        for rc, raw in self._raws[tab].items():
            pos = list(rc)
            i = move(pos[axis])
            if i is not None:
                pos[axis] = i
                moved[(pos[0], pos[1])] = raw
        self._raws[tab] = moved
        self._rebuild()

    # ----------------------------------------------------------------- copy and sort

    def adjust_formula(self, raw: str, drow: int, dcol: int) -> str:
        """Formula text as pasted ``drow`` rows and ``dcol`` columns away: relative parts of
        references move, ``$``-absolute parts stay, references pushed off the grid become #REF!.
        Non-formula text is returned unchanged."""
        return _adjust(raw, drow, dcol)

    def copy_range(self, src_tab: str, top: int, left: int, bottom: int, right: int,
                   dst_row: int, dst_col: int) -> dict[tuple[int, int], str]:
        """Raw inputs to paste with the block's top-left at ``(dst_row, dst_col)`` (Ctrl+C/Ctrl+V).
        Only non-empty source cells appear. Nothing is written."""
        raws = self._raws[self._tab(src_tab)]
        top, bottom = min(top, bottom), max(top, bottom)
        left, right = min(left, right), max(left, right)
        drow, dcol = dst_row - top, dst_col - left
        return {(r + drow, c + dcol): _adjust(raw, drow, dcol) for (r, c), raw in raws.items()
                if top <= r <= bottom and left <= c <= right}

    def move_references(self, src_tab: str, top: int, left: int, bottom: int, right: int,
                        dst_tab: str, drow: int, dcol: int) -> None:
        """Cut and paste: every reference, in every formula, to a cell or range wholly inside the box moves
        with it ``drow`` rows and ``dcol`` columns (to ``dst_tab``), as Sheets rewrites them; a range only
        partly inside, a whole column or row, and references elsewhere stay. Nothing is recalculated."""
        src, dst = self._tab(src_tab), self._tab(dst_tab)
        fix = _moved_fix(src, min(top, bottom), min(left, right), max(top, bottom), max(left, right), dst, drow, dcol)
        self._rewrite_all(fix)
        self._rebuild()

    def sort_range(self, tab: str, top: int, left: int, bottom: int, right: int, by_col: int,
                   ascending: bool = True) -> None:
        """Reorder the rows of a block by the values in absolute column ``by_col``.

        Order: numbers < text (case-insensitive) < booleans < errors, reversed when descending;
        empty keys (blank cells and formulas giving "") always go last; the sort is stable. Each
        row's cells (within the block's columns) move together. A moved formula behaves as if its
        row were cut and pasted: relative references to cells of its own row inside the block follow
        it (``=B2*C2`` moved to row 5 reads ``=B5*C5``); every other reference, here or elsewhere,
        keeps pointing at the same cells.
        """
        tab = self._tab(tab)
        top, bottom = min(top, bottom), max(top, bottom)
        left, right = min(left, right), max(left, right)
        if not left <= by_col <= right:
            raise ValueError("Sort column must lie inside the range")
        vals, raws = self._vals[tab], self._raws[tab]
        rows = range(top, bottom + 1)
        filled = [r for r in rows if vals.get((r, by_col)) not in (None, "")]
        filled.sort(key=lambda r: _sort_key(vals[(r, by_col)]), reverse=not ascending)   # stable
        order = filled + [r for r in rows if vals.get((r, by_col)) in (None, "")]
        block: dict[int, list[tuple[int, str]]] = {}
        for (r, c), raw in list(raws.items()):
            if top <= r <= bottom and left <= c <= right:
                block.setdefault(r, []).append((c, raw))
                del raws[(r, c)]
        for dst, src in enumerate(order, start=top):
            for c, raw in block.get(src, ()):
                raws[(dst, c)] = self._follow_row(raw, tab, src, dst, left, right) if dst != src else raw
        self._rebuild()

    def _follow_row(self, raw: str, tab: str, src: int, dst: int, left: int, right: int) -> str:
        """Point a moved formula's relative references to its own row (within columns left..right)
        at the row it moved to."""
        if not raw.startswith("="):
            return raw

        def fix(p: _RefParts) -> str | None:
            if self._target(p.sheet.casefold() if p.sheet else None, tab) != tab:
                return None
            if not all(e[0] == src and not e[2] and e[1] is not None and left <= e[1] <= right for e in p.ends):
                return None
            for e in p.ends:
                e[0] = dst
            return p.text()

        return "=" + _rewrite_refs(raw[1:], fix)

    # ----------------------------------------------------------------- internals: graph

    def _tab(self, name: str) -> str:
        if name in self._raws:
            return name
        found = self._lookup.get(name.casefold())
        if found is None:
            raise KeyError(f"No tab named {name!r}")
        return found

    def _target(self, sheet: str | None, own: str) -> str | None:
        """Tab a reference points at: its own tab, or the named one (None if missing)."""
        return own if sheet is None else self._lookup.get(sheet)

    def _extent(self, tab: str) -> tuple[int, int]:
        """(last used row, last used column) of a tab, -1 when empty; bounds open-ended ranges."""
        ext = self._ext.get(tab)
        if ext is None:
            cells = self._raws[tab]
            ext = (max((r for r, _ in cells), default=-1), max((c for _, c in cells), default=-1))
            self._ext[tab] = ext
        return ext

    def _update_extent(self, tab: str, old: tuple[int, int], written: list[Key]) -> None:
        """Grow the cached extent for new cells; forget it if a cell on its edge was cleared."""
        raws = self._raws[tab]
        max_row, max_col = old
        for _, r, c in written:
            if (r, c) in raws:
                max_row, max_col = max(max_row, r), max(max_col, c)
            elif r == old[0] or c == old[1]:
                self._ext.pop(tab, None)
                return
        self._ext[tab] = (max_row, max_col)

    def _rewrite_all(self, fix: Callable[[_RefParts, str | None, str], str | None]) -> None:
        """Apply ``fix(parts, target_tab, own_tab)`` to every reference of every formula."""
        for own, raws in self._raws.items():
            for rc, raw in raws.items():
                if raw.startswith("="):
                    raws[rc] = "=" + _rewrite_refs(
                        raw[1:], lambda p: fix(p, self._target(p.sheet.casefold() if p.sheet else None, own), own))

    def _rebuild(self) -> None:
        self._lookup = {name.casefold(): name for name in self._raws}
        self._vals: dict[str, dict[tuple[int, int], Value]] = {name: {} for name in self._raws}
        self._forms: dict[Key, _Compiled] = {}
        self._deps: dict[Key, set[Key]] = {}                       # cell -> formulas naming it
        self._rdeps: dict[str, dict[Key, list[tuple[int, int, int, int]]]] = {}  # tab -> formula -> boxes
        self._open: dict[str, set[Key]] = {}                      # tab -> formulas with open ranges on it
        self._ext: dict[str, tuple[int, int]] = {}
        self._grids: dict[tuple[str, int, int, int, int], _Grid] = {}   # per-recalculation cache
        for tab, raws in self._raws.items():
            vals = self._vals[tab]
            for (r, c), raw in raws.items():
                if raw.startswith("="):
                    self._register((tab, r, c), raw)
                else:
                    v = _constant(raw)
                    if v is not None:
                        vals[(r, c)] = v
        self._recompute(set(self._forms))

    def _register(self, key: Key, raw: str) -> None:
        comp = _compile(raw[1:])
        self._forms[key] = comp
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            if t is not None:
                self._deps.setdefault((t, r, c), set()).add(key)
        for sheet, top, left, bottom, right, is_open in comp.boxes:
            t = self._target(sheet, key[0])
            if t is not None:
                self._rdeps.setdefault(t, {}).setdefault(key, []).append((top, left, bottom, right))
                if is_open:
                    self._open.setdefault(t, set()).add(key)

    def _unregister(self, key: Key) -> None:
        comp = self._forms.pop(key, None)
        if comp is None:
            return
        for sheet, r, c in comp.cells:
            t = self._target(sheet, key[0])
            dependents = self._deps.get((t, r, c))  # type: ignore[arg-type]
            if dependents is not None:
                dependents.discard(key)
                if not dependents:
                    del self._deps[(t, r, c)]  # type: ignore[index]
        for sheet, *_ in comp.boxes:
            t = self._target(sheet, key[0])
            if t is not None:
                self._rdeps.get(t, {}).pop(key, None)
                self._open.get(t, set()).discard(key)

    def _closure(self, seeds: Iterable[Key]) -> set[Key]:
        """Formula cells among ``seeds`` and everything that depends on them, transitively."""
        seen = set(seeds)
        queue = list(seen)
        dirty = set()
        while queue:
            key = queue.pop()
            if key in self._forms:
                dirty.add(key)
            tab, r, c = key
            found = list(self._deps.get(key, ()))
            for dependent, boxes in self._rdeps.get(tab, {}).items():
                if any(top <= r <= bottom and left <= c <= right for top, left, bottom, right in boxes):
                    found.append(dependent)
            for dependent in found:
                if dependent not in seen:
                    seen.add(dependent)
                    queue.append(dependent)
        return dirty

    def _recompute(self, dirty: set[Key]) -> set[Key]:
        """Evaluate the ``dirty`` formulas, precedents first; returns those whose value changed."""
        columns: dict[str, dict[int, list[int]]] = {}
        for t, r, c in dirty:
            columns.setdefault(t, {}).setdefault(c, []).append(r)
        for cols in columns.values():
            for rows in cols.values():
                rows.sort()
        succ: dict[Key, list[Key]] = {}
        for key in dirty:
            comp, own = self._forms[key], key[0]
            edges = []
            for sheet, r, c in comp.cells:
                k2 = (self._target(sheet, own), r, c)
                if k2 in dirty:
                    edges.append(k2)
            for sheet, top, left, bottom, right, _ in comp.boxes:
                t = self._target(sheet, own)
                for c, rows in columns.get(t, {}).items():  # type: ignore[arg-type]
                    if left <= c <= right:
                        edges.extend((t, rows[i], c) for i in range(bisect_left(rows, top), bisect_right(rows, bottom)))
            succ[key] = edges
        changed = set()
        # Ranges read during this pass are cached: a formula runs only after all its precedents, so
        # the cells of any range it reads are final by then. Grids are never mutated.
        self._grids = {}
        self._cells_read = 0
        try:
            for comp_keys in strongly_connected(succ):
                if len(comp_keys) == 1 and comp_keys[0] not in succ[comp_keys[0]]:
                    key = comp_keys[0]
                    try:
                        value = _final(self._eval(self._forms[key].ast, key[0]))
                    except RecursionError:
                        value = ErrorValue("#ERROR!", "Formula is nested too deeply.")
                    except MemoryError:
                        value = ErrorValue("#NUM!", "Result is too large.")
                    if self._store(key, value):
                        changed.add(key)
                else:
                    for key in comp_keys:
                        if self._store(key, _circular()):
                            changed.add(key)
        finally:
            self._grids = {}
        return changed

    def _store(self, key: Key, value: Value) -> bool:
        """Store a value (None clears); True if it differs from the previous one."""
        tab, r, c = key
        vals = self._vals[tab]
        old = vals.get((r, c))
        if value is None:
            vals.pop((r, c), None)
        else:
            vals[(r, c)] = value
        return not _same(old, value)

    # ----------------------------------------------------------------- internals: evaluation

    def _eval(self, node: tuple, tab: str) -> Arg:
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "ref":
            t = tab if node[1] is None else self._lookup.get(node[1])
            if t is None:
                return ErrorValue("#REF!", f"Unresolved sheet name '{node[1]}'.")
            return self._vals[t].get((node[2], node[3]))
        if kind == "bin":
            return _apply(node[1], _scalar(self._eval(node[2], tab)), _scalar(self._eval(node[3], tab)))
        if kind == "call":
            return self._call(node[1], node[2], tab)
        if kind == "range":
            return self._range(node, tab)
        if kind in ("neg", "pct"):
            return _unary(kind, _scalar(self._eval(node[1], tab)))
        return None                                          # ("empty",): an omitted argument

    def _eval_arg(self, node: tuple, tab: str) -> Arg:
        """Function arguments: a single-cell reference is a 1x1 range (so SUM(A1) skips text)."""
        if node[0] == "ref":
            return _Grid([[self._eval(node, tab)]])
        return self._eval(node, tab)

    def _range(self, node: tuple, tab: str) -> Arg:
        _, sheet, top, left, bottom, right = node
        t = tab if sheet is None else self._lookup.get(sheet)
        if t is None:
            return ErrorValue("#REF!", f"Unresolved sheet name '{sheet}'.")
        if bottom is None or right is None:
            max_row, max_col = self._extent(t)
            bottom = max_row if bottom is None else bottom
            right = max_col if right is None else right
        size = (bottom - top + 1) * (right - left + 1)
        if size > MAX_RANGE_CELLS:
            return ErrorValue("#REF!", f"Range has more than {MAX_RANGE_CELLS:,} cells.")
        key = (t, top, left, bottom, right)
        grid = self._grids.get(key)
        if grid is None:
            self._cells_read = getattr(self, "_cells_read", 0) + size
            if self._cells_read > MAX_PASS_CELLS:
                return ErrorValue("#REF!", f"Formulas read more than {MAX_PASS_CELLS:,} cells in one recalculation.")
            get = self._vals[t].get
            cols = range(left, right + 1)
            grid = self._grids[key] = _Grid([[get((r, c)) for c in cols] for r in range(top, bottom + 1)])
        return grid

    def _call(self, name: str, args: tuple, tab: str) -> Arg:
        spec = FUNCTIONS.get(name)
        if spec is None:
            return ErrorValue("#NAME?", f"Unknown function: {name}.")
        fn, lo, hi, lazy = spec
        if len(args) < lo or (hi is not None and len(args) > hi):
            expected = f"{lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
            return ErrorValue("#N/A", f"Wrong number of arguments to {name}. Expected {expected} "
                                      f"arguments, but got {len(args)} arguments.")
        try:
            if lazy:
                return fn(self, args, tab)
            if name in ARRAY_ARGS:
                return fn(*[self._eval_array(a, tab) for a in args])
            return fn(*[self._eval_arg(a, tab) for a in args])
        except _Fail as f:
            return f.error

    def _eval_array(self, node: tuple, tab: str) -> Arg:
        """An argument evaluated as an array, as SUMPRODUCT's are: operators apply cell by cell
        (``(D2:D9="North")*B2:B9`` is eight products), a single value stretching over a range; ranges
        of different shapes are #VALUE!. Outside array arguments an operator reads a range's first cell."""
        kind = node[0]
        if kind == "bin":
            return _elementwise(node[1], self._eval_array(node[2], tab), self._eval_array(node[3], tab))
        if kind in ("neg", "pct"):
            v = self._eval_array(node[1], tab)
            if not isinstance(v, _Grid):
                return self._eval(node, tab)
            return _Grid([[_unary(kind, x) for x in row] for row in v.rows])
        return self._eval_arg(node, tab)


def _sort_key(v: Value) -> tuple[int, object]:
    if isinstance(v, ErrorValue):
        return (3, v.code)
    if isinstance(v, str):
        return (1, v.casefold())
    return (_rank(v), v)
