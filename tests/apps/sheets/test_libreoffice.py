"""An independent engine: exported workbooks recalculated by LibreOffice give the engine's values.

The export (``service.xlsx_bytes``) writes formulas, not their results, so another program has to compute
them. LibreOffice headless opens each exported workbook with recalculation on load forced on (a profile of
its own, ``registrymodifications.xcu``), saves it again as .xlsx, and the values it wrote are compared cell
by cell with the engine's:

- every formula of the engine's own corpora (``test_formula``: operators, maths, logic, conditional
  aggregates, lookups, text, dates, and the formulas Google Sheets was asked about), each corpus on a tab of
  its own with its input cells;
- every formula cell of every spreadsheet of the three worlds.

Where Google Sheets and LibreOffice disagree the engine follows Sheets (the corpora hold Sheets' values), so
those formulas differ by design; they are listed in ``SHEETS_NOT_LIBREOFFICE`` with the reason, and the test
fails if one of them starts to agree (the list must stay true) or another one starts to differ.

LibreOffice is installed by ``make setup`` (Debian's ``libreoffice-calc-nogui``) where it is missing, as
Chromium is.
"""
from __future__ import annotations

import io
import math
import shutil
import subprocess
import warnings
from datetime import date, datetime, time, timedelta
from pathlib import Path

import pytest

from apps.core.store.compile import template_for
from apps.core.store.db import Caller
from apps.core.store.slot import Slot
from apps.sheets import formula as F
from apps.sheets import service as S
from tests.apps.sheets import test_formula as TF

FORMULA_ROW = 100           # the corpora's formulas go to Z100, Z101, ... as test_formula's ev() puts them in Z100
FORMULA_COL = 26

# The corpora: a tab name, the test whose parametrised formulas it takes, and the input cells they read.
CORPORA = (
    ("Operators", TF.test_operators, {}),
    ("Errors", TF.test_operator_errors, {}),
    ("Maths", TF.test_math_functions, TF.NUMS),
    ("Logic", TF.test_logic_functions, TF.NUMS),
    ("Conditional", TF.test_conditional_aggregates, TF.SALES),
    ("Lookup", TF.test_lookup_functions, TF.TABLE),
    ("Text", TF.test_text_functions, {"A1": "hi", "A2": "5"}),
    ("Dates", TF.test_date_and_info_functions, {"A1": "2026-03-24", "A2": "1/1/2026", "A3": "text", "A4": "=1/0"}),
    ("AsSheets", TF.test_as_google_sheets_computes_them, TF.GS),
)

# Formulas where Google Sheets (and so the engine) and LibreOffice 7.4 compute different things, by reason.
KNOWN_DIFFERENCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("LibreOffice has no logical type: a TRUE typed in a cell is the number 1 there, so ranges over it count it",
     ("=SUM(A1:A6)", "=SUM(A1:A6,5,TRUE)", "=AVERAGE(A1:A6)", "=AVERAGE(A3:A5)", "=MIN(A1:A6)", "=COUNT(A1:A6)",
      '=COUNT(A1:A6,1,"2","x")', "=MEDIAN(A1:A6)", "=SMALL(A1:A6,2)", "=LARGE(A1:A6,4)", '="z"<TRUE',
      '="x"&TRUE')),
    ("Sheets converts SUM's text argument and joins a range in CONCATENATE; LibreOffice gives #VALUE!",
     ('=SUM(A1,"3")', '=CONCATENATE("a",1,TRUE,A1:A2)')),
    ("SUM() without arguments: #N/A (wrong number of arguments) in Sheets, 0 in LibreOffice", ("=SUM()",)),
    ("arrays of different sizes: Sheets refuses them, LibreOffice pads the shorter", ("=SUMPRODUCT(B2:B9*B2:B8)",)),
    ('TEXT: Sheets keeps the point of 0.## for a whole number and reads the letters of "zero" as text',
     ('=TEXT(1,"0.##")', '=TEXT(0,"0;-0;zero")')),
    ("CHAR and CODE: LibreOffice maps 128-255 through an 8-bit character set and has CHAR(0) and CODE(\"\") = 0",
     ('=TRIM(CHAR(9)&" a  b "&CHAR(160))', "=CHAR(0)", '=CODE("")')),
    ("XLOOKUP arrived in LibreOffice 24.8; Debian's 7.4 does not know it",
     ('=XLOOKUP("ten",B1:B3,C1:C3)', '=XLOOKUP("six",B1:B3,C1:C3,"none")', '=XLOOKUP("six",B1:B3,C1:C3)',
      "=XLOOKUP(7,A1:A3,B1:B3,,-1)", "=XLOOKUP(7,A1:A3,B1:B3,,1)", '=XLOOKUP("z",E1:G1,E2:G2)',
      "=XLOOKUP(5,A1:A3,B1:C3)", "=XLOOKUP(5,A1:A3,B1:B2)")),
    ("INDEX with one index into a 2-D range: Sheets takes the row's first cell, LibreOffice a row (#VALUE!)",
     ("=INDEX(A1:C3,2)",)),
    ("both an error, another code (#REF!, #NUM!, #N/A or #DIV/0! in Sheets; #VALUE! or #NUM! in LibreOffice)",
     ("=VLOOKUP(5,A1:C3,4,FALSE)", "=INDEX(A1:C3,4,1)", "=MATCH(1,A1:C3,0)", '=COUNTIFS(A2:A6,"East",B2:B6)',
      "=DATE(10000,1,1)", "=TODAY(1)", "=SQRT(-1)", "=MEDIAN(A3)", "=0^-1")),
    ("a formula Sheets cannot parse is #ERROR!; LibreOffice reads the same text its own way",
     ("=1+", "=1 2", "=", "=1@2")),
    ("TODAY() is the world's date in the engine (the store's clock), the machine's in LibreOffice", ("=TODAY()",)),
)
SHEETS_NOT_LIBREOFFICE = {formula: why for why, formulas in KNOWN_DIFFERENCES for formula in formulas}

XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice() -> str:
    found = shutil.which("soffice") or shutil.which("libreoffice")
    assert found, "LibreOffice is missing: `make setup` installs it (apt-get install libreoffice-calc-nogui)"
    return found


@pytest.fixture(scope="module")
def recalc(tmp_path_factory):
    """bytes of an .xlsx -> the values LibreOffice computes, {tab: {(row, col): value}} (1-based)."""
    from openpyxl import load_workbook
    root = tmp_path_factory.mktemp("libreoffice")
    profile = root / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(XCU)
    exe = soffice()
    count = 0

    def run(data: bytes) -> dict[str, dict[tuple[int, int], object]]:
        nonlocal count
        count += 1
        src, out = root / f"book{count}.xlsx", root / f"out{count}"
        src.write_bytes(data)
        done = subprocess.run([exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--calc",
                               "--convert-to", "xlsx", "--outdir", str(out), str(src)],
                              capture_output=True, text=True, timeout=300)
        result = out / src.name
        assert result.exists(), f"LibreOffice did not convert the workbook: {done.stdout} {done.stderr}"
        with warnings.catch_warnings():               # DATE(10000,1,1)'s error is "a date out of range" to openpyxl
            warnings.simplefilter("ignore", UserWarning)
            wbk = load_workbook(io.BytesIO(result.read_bytes()), data_only=True)
        return {ws.title: {(c.row, c.column): c.value for row in ws.iter_rows() for c in row if c.value is not None}
                for ws in wbk.worksheets}
    return run


def comparable(value):
    """A value as both sides can be compared: numbers as floats, dates as serial numbers, errors by code."""
    if isinstance(value, dict):
        return value.get("error")
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, datetime):
        delta = value - datetime(1899, 12, 30)
        return delta.days + delta.seconds / 86400
    if isinstance(value, date):
        return (value - date(1899, 12, 30)).days
    if isinstance(value, time):
        return (value.hour * 3600 + value.minute * 60 + value.second) / 86400
    if isinstance(value, timedelta):
        return value.total_seconds() / 86400
    if isinstance(value, (int, float)):
        return float(value)
    return value


def same(engine, office) -> bool:
    a, b = comparable(engine), comparable(office)
    if a == "" and b is None:
        return True                                   # an empty text result is an empty cell in the file
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def differences(store, book_id: int, computed: dict) -> dict[str, tuple]:
    """Formula cells where LibreOffice's value is not the engine's: 'Tab!A1 =formula' -> (engine, office)."""
    out = {}
    for t in S.tabs(store, book_id):
        for (r, c), cl in S.cells(store, t["id"]).items():
            if cl["input"] and cl["input"].startswith("="):
                office = computed.get(t["name"], {}).get((r, c))
                if not same(cl["value"], office):
                    out[f"{t['name']}!{F.ref_name(r - 1, c - 1)} {cl['input']}"] = (cl["value"], office)
    return out


def test_the_corpora_recalculated_by_libreoffice_give_the_engines_values(store, alex, recalc):
    book = S.create(store, alex, title="Engine corpus", data={name: [[""]] for name, _, _ in CORPORA})
    formulas: dict[str, str] = {}
    for name, test, inputs in CORPORA:
        tab_id = S.tab(store, book, name=name)["id"]
        S.add_rows(store, alex, book, tab_id, 200)
        cases = next(m for m in test.pytestmark if m.name == "parametrize").args[1]
        edits = {tuple(n + 1 for n in F.parse_ref(a1)): raw for a1, raw in inputs.items()}
        for i, (formula, _expected) in enumerate(cases):
            edits[(FORMULA_ROW + i, FORMULA_COL)] = formula
            formulas[f"{name}!Z{FORMULA_ROW + i}"] = formula
        S.set_cells(store, alex, book, tab_id, edits)
    assert len(formulas) > 250
    found = differences(store, book, recalc(S.xlsx_bytes(store, alex.user, book)))
    differing = {key.split(" ", 1)[1] for key in found}
    unexplained = {k: v for k, v in found.items() if k.split(" ", 1)[1] not in SHEETS_NOT_LIBREOFFICE}
    assert not unexplained, "LibreOffice computes these exported formulas differently:\n" + "\n".join(
        f"  {k}: engine {v[0]!r}, LibreOffice {v[1]!r}" for k, v in sorted(unexplained.items()))
    stale = set(SHEETS_NOT_LIBREOFFICE) - differing
    assert not stale, f"listed as differing but LibreOffice now agrees: {sorted(stale)}"


@pytest.mark.parametrize("world", ["meridian", "lumen", "halden"])
def test_every_world_spreadsheet_recalculated_by_libreoffice_gives_the_engines_values(world, recalc):
    slot = Slot(template_for(world))
    try:
        with slot.store() as store:
            books = store.select("drive_items", "kind='sheet'", ())
            assert books, world
            checked = 0
            for item in books:
                owner = item["owner"]
                found = differences(store, item["ref"], recalc(S.xlsx_bytes(store, owner, item["ref"])))
                assert not found, f"{world} / {item['name']}: " + "; ".join(
                    f"{k}: engine {v[0]!r}, LibreOffice {v[1]!r}" for k, v in sorted(found.items()))
                checked += 1
            assert checked == len(books)
    finally:
        slot.close()
