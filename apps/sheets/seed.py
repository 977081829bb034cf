"""Sheets from world files: ``<Title>.gsheet.yaml`` in the Drive tree (see worlds/README.md).

Each tab lists its rows; cells are numbers, text or ``=formulas`` as a user
would type them. ``formats`` map ranges to a number format (or a format
dict), ``bold`` lists ranges, ``widths`` map column letters to pixels,
``frozen`` freezes header rows. Values are computed at compile time, and a
formula that doesn't evaluate (``#NAME?``, ``#REF!``…) is an error in the
world, unless it is listed in the tab's ``expect_errors``.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apps.core.store.db import SYSTEM, Store
from apps.core.world import World, WorldError, validation_message
from apps.sheets import formula as F
from apps.sheets import service

FormatSpec = str | dict


class TabSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    rows: list[list[str | int | float | bool | None]] = []
    formats: dict[str, FormatSpec] = {}
    bold: list[str] = []
    widths: dict[str, int] = {}
    frozen: int = 0
    size: tuple[int, int] | None = None            # (rows, cols) of the grid; default fits the data
    expect_errors: list[str] = []                 # cells whose formula errors on purpose


class SheetFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tabs: list[TabSpec] = Field(min_length=1)


def seed(store: Store, world: World) -> None:
    """Spreadsheets arrive through Drive's seed (``import_file``); nothing else to do."""


def _fmt(spec: FormatSpec, where: str) -> dict:
    fmt = {"type": spec} if isinstance(spec, str) else dict(spec)
    if fmt.get("type", "auto") not in service.NUMBER_TYPES:
        raise WorldError(f"{where}: unknown number format {fmt.get('type')!r} "
                         f"(one of {', '.join(service.NUMBER_TYPES)})")
    unknown = set(fmt) - {"type", "decimals", "bold", "align"}
    if unknown:
        raise WorldError(f"{where}: unknown format keys {sorted(unknown)}")
    return fmt


def import_file(store: Store, world: World, path: Path, item_id: int) -> int:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        spec = SheetFile.model_validate(raw)
    except yaml.YAMLError as e:
        raise WorldError(f"{path}: invalid YAML: {e}") from None
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None
    book_id = store.insert("sheets_books", SYSTEM, item=item_id, revision=1)
    names = [t.name for t in spec.tabs]
    if len({n.lower() for n in names}) != len(names):
        raise WorldError(f"{path}: tab names must be unique")
    for i, t in enumerate(spec.tabs):
        where = f"{path}: tabs.{i}"
        width = max([len(r) for r in t.rows] + [1])
        rows, cols = t.size or (max(service.DEFAULT_ROWS, len(t.rows) + 20), max(service.DEFAULT_COLS, width))
        if len(t.rows) > rows or width > cols:
            raise WorldError(f"{where}.size: the data ({len(t.rows)} × {width}) doesn't fit in {rows} × {cols}")
        tid = store.insert("sheets_tabs", SYSTEM, book=book_id, seq=i + 1, name=t.name, rows=rows, cols=cols,
                           frozen=t.frozen, widths={k.upper(): v for k, v in t.widths.items()})
        grid: dict[tuple[int, int], dict] = {}
        for r, row in enumerate(t.rows, start=1):
            for c, v in enumerate(row, start=1):
                text = service.input_text(v)
                if text is not None:
                    grid[(r, c)] = {"input": text, "format": {}}
        for rng, fspec in t.formats.items():
            fmt = _fmt(fspec, f"{where}.formats.{rng}")
            for pos in _cells_of(rng, rows, cols, f"{where}.formats"):
                grid.setdefault(pos, {"input": None, "format": {}})["format"].update(fmt)
        for rng in t.bold:
            for pos in _cells_of(rng, rows, cols, f"{where}.bold"):
                grid.setdefault(pos, {"input": None, "format": {}})["format"]["bold"] = True
        for (r, c), cl in sorted(grid.items()):
            store.insert("sheets_cells", SYSTEM, tab=tid, row=r, col=c, input=cl["input"], format=cl["format"],
                         a1=F.ref_name(r - 1, c - 1), value=None, display="")
    wb, by_name = service.workbook(store, book_id)
    service.write_values(store, SYSTEM, wb, by_name)
    for i, t in enumerate(spec.tabs):
        allowed = {a.upper() for a in t.expect_errors}
        for (r, c), v in wb.values(t.name).items():
            a1 = F.ref_name(r, c)
            if isinstance(v, F.ErrorValue) and a1 not in allowed:
                msg = getattr(v, "message", "") or ""
                raise WorldError(f"{path}: tabs.{i} ({t.name}) cell {a1}: {wb.raw(t.name, r, c)!r} gives {v} {msg}".rstrip())
    return book_id


def _cells_of(rng: str, rows: int, cols: int, where: str) -> list[tuple[int, int]]:
    try:
        top, left, bottom, right = F.parse_range(rng)
    except ValueError:
        raise WorldError(f"{where}: {rng!r} is not a cell or range like B2:D9") from None
    if bottom >= rows or right >= cols:
        raise WorldError(f"{where}: {rng!r} is outside the grid")
    return [(r + 1, c + 1) for r in range(top, bottom + 1) for c in range(left, right + 1)]
