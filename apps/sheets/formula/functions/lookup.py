"""Lookups: VLOOKUP, HLOOKUP, INDEX, MATCH, XLOOKUP."""
from __future__ import annotations

from typing import NoReturn

from apps.sheets.formula.base import ErrorValue, Value
from apps.sheets.formula.coercion import (Arg, _bool, _compare, _fail, _Fail, _grid, _Grid, _int, _rank, _scalar,
                                          _text)
from apps.sheets.formula.functions.base import _fn
from apps.sheets.formula.matching import _find, _text_matcher


def _lookup_key(key: Arg) -> Value:
    key = _scalar(key)
    if isinstance(key, ErrorValue):
        raise _Fail(key)
    return key


def _not_found(name: str, key: Value) -> NoReturn:
    _fail("#N/A", f"Did not find value '{_text(key)}' in {name} evaluation.")


@_fn("VLOOKUP", lo=3, hi=4)
def _vlookup(key: Arg, rng: Arg, index: Arg, is_sorted: Arg = True) -> Arg:
    return _xlookup_table("VLOOKUP", key, _grid(rng), index, is_sorted, by_rows=True)


@_fn("HLOOKUP", lo=3, hi=4)
def _hlookup(key: Arg, rng: Arg, index: Arg, is_sorted: Arg = True) -> Arg:
    return _xlookup_table("HLOOKUP", key, _grid(rng), index, is_sorted, by_rows=False)


def _xlookup_table(name: str, key: Arg, g: _Grid, index: Arg, is_sorted: Arg, by_rows: bool) -> Value:
    k, idx = _lookup_key(key), _int(index)
    size = g.width if by_rows else g.height
    if idx < 1:
        _fail("#VALUE!", f"Function {name} parameter 3 value is {idx}. It should be greater than or equal to 1.")
    if idx > size:
        _fail("#REF!", f"{name} evaluates to an out of bounds range.")
    keys = [row[0] for row in g.rows] if by_rows else list(g.rows[0] if g.rows else [])
    i = _find(k, keys, 1 if is_sorted is None or _bool(is_sorted) else 0)
    if i is None:
        _not_found(name, k)
    return g.rows[i][idx - 1] if by_rows else g.rows[idx - 1][i]


@_fn("INDEX", hi=3)
def _index(rng: Arg, row: Arg = None, col: Arg = None) -> Arg:
    g = _grid(rng)
    r = _int(row) if row is not None else 0
    c = _int(col) if col is not None else 0
    if col is None and g.height == 1 and g.width > 1:
        r, c = 0, r
    if r < 0 or c < 0:
        _fail("#VALUE!", "INDEX row and column must be >= 0.")
    if r > g.height or c > g.width:
        _fail("#REF!", "INDEX evaluates to an out of bounds range.")
    if r and c:
        return g.rows[r - 1][c - 1]
    if r:
        return g.rows[r - 1][0] if g.width == 1 else _Grid([g.rows[r - 1]])
    if c:
        return g.rows[0][c - 1] if g.height == 1 else _Grid([[row_[c - 1]] for row_ in g.rows])
    return g


@_fn("MATCH", lo=2, hi=3)
def _match(key: Arg, rng: Arg, kind: Arg = 1) -> Value:
    k = _lookup_key(key)
    values = _grid(rng).vector()
    if values is None:
        _fail("#N/A", "MATCH range must be a single row or a single column.")
    mode = _int(kind) if kind is not None else 1
    i = _find(k, values, 0 if mode == 0 else (1 if mode > 0 else -1))
    if i is None:
        _not_found("MATCH", k)
    return i + 1


@_fn("XLOOKUP", lo=3, hi=6)
def _xlookup(key: Arg, lookup: Arg, result: Arg, missing: Arg = None, match_mode: Arg = 0,
             search_mode: Arg = 1) -> Arg:
    k = _lookup_key(key)
    lg, rg = _grid(lookup), _grid(result)
    keys = lg.vector()
    if keys is None:
        _fail("#VALUE!", "XLOOKUP lookup range must be a single row or a single column.")
    mm = _int(match_mode) if match_mode is not None else 0
    order = list(range(len(keys)))
    if search_mode is not None and _int(search_mode) < 0:
        order.reverse()
    found = None
    if k is not None:
        exact = _text_matcher(k) if isinstance(k, str) and mm == 2 else None
        for i in order:
            v = keys[i]
            if v is None or isinstance(v, ErrorValue) or _rank(v) != _rank(k):
                continue
            if (exact(v) if exact else _compare(v, k) == 0):  # type: ignore[arg-type]
                found = i
                break
        if found is None and mm in (-1, 1):
            for i in order:
                v = keys[i]
                if v is None or isinstance(v, ErrorValue) or _rank(v) != _rank(k):
                    continue
                c = _compare(v, k)
                if c == mm and (found is None or _compare(v, keys[found]) == -mm):
                    found = i
    if found is None:
        if missing is not None:
            return missing
        _not_found("XLOOKUP", k)
    if lg.width == 1:                                  # vertical lookup: return that row
        if rg.height != lg.height:
            _fail("#VALUE!", "XLOOKUP result range must match the lookup range.")
        return rg.rows[found][0] if rg.width == 1 else _Grid([rg.rows[found]])
    if rg.width != lg.width:
        _fail("#VALUE!", "XLOOKUP result range must match the lookup range.")
    return rg.rows[0][found] if rg.height == 1 else _Grid([[row[found]] for row in rg.rows])
