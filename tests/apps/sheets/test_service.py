"""Sheets service: world spreadsheets, edits and recalculation, structure, undo, import/export."""
from __future__ import annotations

import io

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.sheets import service as S

DAMAGES = "Damages Model – Aurelia Dawn"
BILLING = "Billing Tracker – M-2026-0147 (live)"


def book(store, title=DAMAGES):
    rows = store.select("drive_items", "name=? AND kind='sheet'", (title,))
    assert len(rows) == 1, rows
    return rows[0]["ref"]


def tab_id(store, b, name):
    return S.tab(store, b, name=name)["id"]


def val(store, b, tab, a1):
    c = S.cell(store, b, tab, a1)
    return None if c is None else c["value"]


def test_world_sheet_values_are_computed(store):
    b = book(store)
    assert val(store, b, "Claims", "D3") == 6840000                 # the transposed Port Calder figure
    assert val(store, b, "Claims", "D10") == 123115000              # third-party total with it
    assert val(store, b, "Claims", "D12") == 140415000
    assert val(store, b, "Limit", "B5") == 160600000
    assert val(store, b, "Limit", "B7") == 8760000
    assert val(store, b, "Summary", "B2") == 123115000             # cross-tab reference
    assert S.cell(store, b, "Claims", "D3")["display"] == "$6,840,000.00"
    assert S.cell(store, b, "Claims", "A1")["format"].get("bold") is True
    assert S.tab(store, b, name="Claims")["frozen"] == 1


def test_editing_a_cell_recalculates_dependents_across_tabs(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    changed = S.set_cells(store, alex, b, claims, {(3, 4): "6480000"})
    assert {c["a1"] for c in changed} == {"D3", "D10", "D12"}
    assert val(store, b, "Claims", "D10") == 122755000
    assert val(store, b, "Summary", "B2") == 122755000
    assert val(store, b, "Summary", "B4") == 140055000
    assert S.cell(store, b, "Claims", "D3")["display"] == "$6,480,000.00"      # the format stays


def test_an_edit_changes_only_the_cells_it_touches(store, alex):
    b = book(store)
    before = export(store)
    S.set_cells(store, alex, b, tab_id(store, b, "Claims"), {(3, 4): "6480000"})
    changes = [c for c in content_changes(diff(before, export(store))) if c["table"] == "sheets_cells"]
    assert len(changes) == 1 and "6480000" in str(changes[0])
    before = export(store)
    assert S.set_cells(store, alex, b, tab_id(store, b, "Claims"), {(3, 4): "6480000"}) == []   # same input: nothing
    assert content_changes(diff(before, export(store))) == []


def test_undo_and_redo_restore_rows_with_their_identity(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    before = export(store)
    S.set_cells(store, alex, b, claims, {(3, 4): "6480000", (14, 1): "note"})
    S.insert_rows(store, alex, b, claims, 5, 2)
    S.delete_cols(store, alex, b, claims, 5)
    assert S.undo(store, alex, b) == "Delete columns"
    assert S.undo(store, alex, b) == "Insert rows"
    assert S.undo(store, alex, b) == "Edit"
    assert S.undo(store, alex, b) is None
    d = diff(before, export(store))
    assert [c for c in content_changes(d) if c["table"].startswith("sheets_")] == []
    assert S.redo(store, alex, b) == "Edit"
    assert val(store, b, "Claims", "D10") == 122755000


def test_insert_and_delete_rows_rewrite_formulas_everywhere(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.insert_rows(store, alex, b, claims, 5, 1)                      # above CL-004
    assert S.cell(store, b, "Claims", "D11")["input"] == '=SUMIF(F2:F9,"Third party",D2:D9)'
    assert S.cell(store, b, "Summary", "B2")["input"] == "='Claims'!D11"
    S.set_cells(store, alex, b, claims, {(5, 1): "CL-008", (5, 4): "1000", (5, 6): "Third party"})
    assert val(store, b, "Claims", "D11") == 123116000
    S.delete_rows(store, alex, b, claims, 5, 1)
    assert val(store, b, "Claims", "D10") == 123115000
    assert S.cell(store, b, "Summary", "B2")["input"] == "='Claims'!D10"
    S.delete_rows(store, alex, b, claims, 10, 1)                     # the third-party total itself
    assert S.cell(store, b, "Summary", "B2")["input"] == "=#REF!"
    assert val(store, b, "Summary", "B2")["error"] == "#REF!"


def test_sort_moves_rows_with_formats_and_formulas(store, alex):
    b = book(store, BILLING)
    entries = tab_id(store, b, "Entries")
    total = val(store, b, "By timekeeper", "E9")
    S.sort_range(store, alex, b, entries, (2, 1, 39, 8), 6, ascending=False)   # by hours, largest first
    hours = [val(store, b, "Entries", f"F{r}") for r in range(2, 40)]
    assert hours == sorted(hours, reverse=True)
    top = S.cell(store, b, "Entries", "H2")
    assert top["input"] == "=F2*G2" and top["value"] == hours[0] * val(store, b, "Entries", "G2")
    assert S.cell(store, b, "Entries", "G2")["display"].startswith("$")
    assert val(store, b, "By timekeeper", "E9") == total              # totals don't change with order
    with pytest.raises(Invalid):
        S.sort_range(store, alex, b, entries, (2, 1, 39, 8), 9)


def test_copy_paste_shifts_relative_references(store, alex):
    b = book(store, BILLING)
    entries = tab_id(store, b, "Entries")
    S.set_cells(store, alex, b, entries, {(40, 1): "2026-04-06", (40, 2): "Alex Chen", (40, 6): "1.5", (40, 7): "480"})
    S.paste_cells(store, alex, b, entries, (40, 8), entries, (39, 8, 39, 8))
    assert S.cell(store, b, "Entries", "H40")["input"] == "=F40*G40"
    assert val(store, b, "Entries", "H40") == 720
    assert S.cell(store, b, "Entries", "H40")["display"] == "$720.00"          # format pasted too
    assert S.cell(store, b, "Entries", "A40")["display"] == "2026-04-06"       # plain text column stays text
    by = S.tab(store, b, name="By timekeeper")
    assert val(store, b, "By timekeeper", "D5") == pytest.approx(
        sum(val(store, b, "Entries", f"F{r}") for r in range(2, 41)
            if val(store, b, "Entries", f"B{r}") == "Alex Chen"))
    assert by["name"] == "By timekeeper"


def test_paste_text_and_clear(store, alex):
    b = S.create(store, alex, None, "Scratch")
    t = S.tab(store, b)["id"]
    S.paste_text(store, alex, b, t, (1, 1), "Name\tAmount\nA\t1,200\nB\t$300\n")
    assert val(store, b, "Sheet1", "B2") == 1200 and val(store, b, "Sheet1", "B3") == 300
    S.set_cells(store, alex, b, t, {(4, 2): "=SUM(B2:B3)"})
    assert val(store, b, "Sheet1", "B4") == 1500
    S.clear(store, alex, b, t, (2, 2, 2, 2))
    assert val(store, b, "Sheet1", "B4") == 300 and S.cell(store, b, "Sheet1", "B2") is None
    with pytest.raises(Invalid):
        S.paste_text(store, alex, b, t, (99, 1), "a\nb\nc\nd")
    with pytest.raises(Invalid):
        S.paste_text(store, alex, b, t, (1, 1), "")


def test_formats(store, alex):
    b = S.create(store, alex, None, "Fmt")
    t = S.tab(store, b)["id"]
    S.set_cells(store, alex, b, t, {(1, 1): "0.125", (2, 1): "1234.5"})
    S.set_format(store, alex, b, t, (1, 1, 1, 1), type="percent")
    assert S.cell(store, b, "Sheet1", "A1")["display"] == "12.50%"
    S.set_format(store, alex, b, t, (1, 1, 1, 1), decimals_step=-1)
    assert S.cell(store, b, "Sheet1", "A1")["display"] == "12.5%"
    S.set_format(store, alex, b, t, (2, 1, 2, 1), type="currency", bold=True)
    c = S.cell(store, b, "Sheet1", "A2")
    assert c["display"] == "$1,234.50" and c["format"]["bold"]
    S.set_format(store, alex, b, t, (2, 1, 2, 1), bold=False, type="auto")
    assert S.cell(store, b, "Sheet1", "A2")["format"] == {} and S.cell(store, b, "Sheet1", "A2")["display"] == "1234.5"
    with pytest.raises(Invalid):
        S.set_format(store, alex, b, t, (1, 1, 1, 1), type="roman")


def test_tabs_add_rename_delete(store, alex):
    b = book(store)
    summary = tab_id(store, b, "Summary")
    S.rename_tab(store, alex, b, tab_id(store, b, "Claims"), "Claims register")
    assert S.cell(store, b, "Summary", "B2")["input"] == "='Claims register'!D10"
    assert val(store, b, "Summary", "B2") == 123115000
    with pytest.raises(Invalid):
        S.rename_tab(store, alex, b, summary, "claims register")       # names are unique, any case
    with pytest.raises(Invalid):
        S.rename_tab(store, alex, b, summary, "  ")
    new = S.add_tab(store, alex, b)
    assert S.tab(store, b, new)["name"] == "Sheet4"
    S.delete_tab(store, alex, b, tab_id(store, b, "Limit"))
    assert val(store, b, "Summary", "B5")["error"] == "#REF!"
    for t in S.tabs(store, b)[:-1]:
        S.delete_tab(store, alex, b, t["id"])
    with pytest.raises(Invalid):
        S.delete_tab(store, alex, b, S.tabs(store, b)[0]["id"])


def test_bad_input_is_refused_and_changes_nothing(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    before = export(store)
    with pytest.raises(Invalid):
        S.set_cells(store, alex, b, claims, {(500, 1): "x"})
    with pytest.raises(Invalid):
        S.set_cells(store, alex, b, claims, {(1, 1): "x" * (S.MAX_INPUT + 1)})
    with pytest.raises(Invalid):
        S.insert_rows(store, alex, b, claims, 0)
    with pytest.raises(Invalid):
        S.delete_rows(store, alex, b, claims, 1, 10_000)
    with pytest.raises(NotFound):
        S.set_cells(store, alex, b, 999999, {(1, 1): "x"})
    with pytest.raises(Forbidden):
        S.set_cells(store, Caller(user="henry.adeyemi"), b, claims, {(1, 1): "x"})
    with pytest.raises(NotFound):
        S.get(store, "laura.whitfield", b)
    assert content_changes(diff(before, export(store))) == []


def test_open_a_csv_from_drive_as_a_sheet(store, alex):
    item = store.one("SELECT * FROM drive_items WHERE name='Claims Register.csv'")
    b = S.open_file_in_sheets(store, alex, item["id"])
    got = S.get(store, "alex.chen", b)
    assert got["title"] == "Claims Register" and got["item"]["owner"] == "alex.chen"
    t = got["tabs"][0]
    assert t["frozen"] == 1
    amounts = [c["value"] for (r, col), c in S.cells(store, t["id"]).items() if col == 4 and r > 1]
    assert any(isinstance(v, int) and v > 1_000_000 for v in amounts)


def test_exports(store):
    b = book(store)
    from openpyxl import load_workbook
    data = S.xlsx_bytes(store, "alex.chen", b)
    wb = load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Claims", "Limit", "Summary"]
    assert wb["Claims"]["D10"].value == '=SUMIF(F2:F8,"Third party",D2:D8)'
    assert wb["Claims"]["D3"].value == 6840000 and wb["Claims"]["A1"].font.bold
    assert S.xlsx_bytes(store, "alex.chen", b) == data               # world time: byte-stable
    csv = S.csv_bytes(store, "alex.chen", b, tab_id(store, b, "Limit")).decode()
    assert "Shortfall,\"$8,760,000.00\"" in csv


def test_fill_handle_continues_series_and_moves_relative_references(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.set_cells(store, alex, b, claims, {(20, 1): "1", (21, 1): "3", (20, 2): "=A20*2", (20, 3): "Q1",
                                          (20, 4): "2026-04-06", (20, 5): "7", (20, 6): "Item 09"})
    S.set_format(store, alex, b, claims, (20, 4, 20, 4), type="date")
    S.fill(store, alex, b, claims, (20, 1, 21, 1), (20, 1, 24, 1))                 # 1, 3 → 5, 7, 9
    assert [val(store, b, "Claims", f"A{r}") for r in range(20, 25)] == [1, 3, 5, 7, 9]
    S.fill(store, alex, b, claims, (20, 2, 20, 6), (20, 2, 23, 6))                 # B:F down three rows
    assert [S.cell(store, b, "Claims", f"B{r}")["input"] for r in (21, 23)] == ["=A21*2", "=A23*2"]
    assert val(store, b, "Claims", "B23") == 14
    assert [S.cell(store, b, "Claims", f"C{r}")["input"] for r in (21, 22, 23)] == ["Q2", "Q3", "Q4"]
    assert [S.cell(store, b, "Claims", f"D{r}")["display"] for r in (21, 23)] == ["2026-04-07", "2026-04-09"]
    assert [val(store, b, "Claims", f"E{r}") for r in (21, 23)] == [7, 7]              # one number is copied
    assert S.cell(store, b, "Claims", "F23")["input"] == "Item 12"
    # Ctrl+D copies, it doesn't continue: A20:A21 over A25:A28 repeats 1, 3
    S.fill(store, alex, b, claims, (20, 1, 21, 1), (20, 1, 27, 1), series=False)
    assert [val(store, b, "Claims", f"A{r}") for r in range(20, 28)] == [1, 3, 1, 3, 1, 3, 1, 3]
    # up and right work too; a fill undoes as one step
    S.fill(store, alex, b, claims, (20, 2, 20, 2), (20, 2, 20, 4), series=False)
    assert S.cell(store, b, "Claims", "D20")["input"] == "=C20*2"
    S.undo(store, alex, b)
    assert S.cell(store, b, "Claims", "D20")["input"] == "2026-04-06"


def test_fill_says_what_is_wrong_with_a_bad_range_and_changes_nothing(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    before = {k: v["input"] for k, v in S.cells(store, claims).items()}
    for dest in [(2, 1, 2, 1), (2, 2, 9, 3), (1, 1, 9, 1)]:
        with pytest.raises(Invalid):
            S.fill(store, alex, b, claims, (2, 1, 3, 1), dest)
    assert {k: v["input"] for k, v in S.cells(store, claims).items()} == before


def test_a_formula_typed_without_its_closing_parenthesis_is_closed_as_sheets_closes_it(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.set_cells(store, alex, b, claims, {(20, 1): "=SUM(D2:D8", (21, 1): "=SUM(D2:D8))"})
    assert S.cell(store, b, "Claims", "A20")["input"] == "=SUM(D2:D8)"
    assert val(store, b, "Claims", "A20") == sum(val(store, b, "Claims", f"D{r}") or 0 for r in range(2, 9))
    assert S.cell(store, b, "Claims", "A21")["input"] == "=SUM(D2:D8))"           # too many: left as typed
    assert S.cell(store, b, "Claims", "A21")["value"]["error"] == "#ERROR!"


def test_the_xlsx_export_carries_text_formats_colours_and_wrapping(store, alex):
    from openpyxl import load_workbook
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.set_format(store, alex, b, claims, (2, 2, 2, 2), italic=True, strike=True, color="#d93025", fill="#fce8e6",
                 wrap=True, align="center")
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, "alex.chen", b)))["Claims"]
    c = ws["B2"]
    assert c.font.italic and c.font.strike and c.font.color.rgb == "FFD93025"
    assert c.fill.fill_type == "solid" and c.fill.fgColor.rgb == "FFFCE8E6"
    assert c.alignment.wrap_text and c.alignment.horizontal == "center"
    with pytest.raises(Invalid):
        S.set_format(store, alex, b, claims, (2, 2, 2, 2), underline=True)


def test_borders_as_the_borders_menu_draws_them(store, alex):
    from openpyxl import load_workbook
    b = book(store)
    claims = tab_id(store, b, "Claims")
    edges = lambda a1: ((S.cell(store, b, "Claims", a1) or {}).get("format") or {}).get("border", "")  # noqa: E731
    S.set_format(store, alex, b, claims, (20, 1, 21, 2), borders="outer")             # A20:B21
    assert [edges(a) for a in ("A20", "B20", "A21", "B21")] == ["tl", "tr", "bl", "br"]
    S.set_format(store, alex, b, claims, (20, 1, 21, 2), borders="inner")             # adds the inside lines
    assert [edges(a) for a in ("A20", "B21")] == ["tblr", "tblr"]
    S.set_format(store, alex, b, claims, (20, 1, 21, 2), borders="none")
    assert [edges(a) for a in ("A20", "B21")] == ["", ""]
    S.set_format(store, alex, b, claims, (10, 1, 10, 4), borders="top")                # the total row's rule
    assert edges("A10") == "t" and edges("D10") == "t"
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, "alex.chen", b)))["Claims"]
    assert ws["D10"].border.top.style == "thin" and (ws["D10"].border.bottom is None or ws["D10"].border.bottom.style is None)
    with pytest.raises(Invalid, match="borders"):
        S.set_format(store, alex, b, claims, (10, 1, 10, 4), borders="diagonal")


def test_the_xlsx_export_writes_formulas_as_ooxml_stores_them(store, alex):
    """Newer functions carry OOXML's ``_xlfn.`` prefix (Excel and LibreOffice read them bare as #NAME?),
    Sheets' open ranges are closed at the grid's last row, and text typed as '=1+2 stays text."""
    from openpyxl import load_workbook
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.set_cells(store, alex, b, claims, {(20, 1): '=IFNA(XLOOKUP("x",A2:A8,D2:D8),0)', (21, 1): "=SUM(D2:D)",
                                          (22, 1): "'=1+2", (23, 1): '=TEXTJOIN(", ",TRUE,A2:A3)'})
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, "alex.chen", b)))["Claims"]
    assert ws["A20"].value == '=_xlfn.IFNA(_xlfn.XLOOKUP("x",A2:A8,D2:D8),0)'
    assert ws["A21"].value == "=SUM(D2:D1048576)"
    assert ws["A22"].value == "=1+2" and ws["A22"].data_type == "s"
    assert ws["A23"].value == '=_xlfn.TEXTJOIN(", ",TRUE,A2:A3)'


def test_one_cell_pasted_into_a_range_fills_it(store, alex):
    b = book(store)
    claims = tab_id(store, b, "Claims")
    S.set_cells(store, alex, b, claims, {(2, 7): "=D2/Limit!$B$5"})
    S.paste_cells(store, alex, b, claims, (3, 7, 8, 7), claims, (2, 7, 2, 7))
    assert [S.cell(store, b, "Claims", f"G{r}")["input"] for r in (3, 8)] == ["=D3/Limit!$B$5", "=D8/Limit!$B$5"]
    assert val(store, b, "Claims", "G8") == pytest.approx(385000 / 160600000)


def test_cut_and_paste_moves_cells_and_every_reference_to_them_follows(store, alex):
    """As in Sheets: the moved formulas keep pointing where they pointed; formulas that read a moved cell,
    or a range wholly inside the cut, now read where it went (other tabs too); a range only partly inside stays."""
    b = book(store)
    claims, summary = tab_id(store, b, "Claims"), tab_id(store, b, "Summary")
    S.set_cells(store, alex, b, claims, {(20, 1): "5", (20, 2): "=A20*2", (21, 1): "=A20+B20", (22, 1): "=SUM(A20:B20)",
                                          (23, 1): "=SUM(A19:A20)", (20, 3): "=D3"})
    S.set_cells(store, alex, b, summary, {(20, 1): "=Claims!A20"})
    S.paste_cells(store, alex, b, claims, (30, 1), claims, (20, 1, 20, 3), cut=True)
    got = {a1: S.cell(store, b, "Claims", a1)["input"] for a1 in ("A30", "B30", "C30", "A21", "A22", "A23")}
    assert got == {"A30": "5", "B30": "=A30*2", "C30": "=D3", "A21": "=A30+B30", "A22": "=SUM(A30:B30)",
                   "A23": "=SUM(A19:A20)"}
    assert S.cell(store, b, "Claims", "A20") is None and S.cell(store, b, "Summary", "A20")["input"] == "=Claims!A30"
    assert val(store, b, "Claims", "A21") == 15 and val(store, b, "Summary", "A20") == 5
    # one undo puts the book back as it was
    S.undo(store, alex, b)
    assert S.cell(store, b, "Claims", "A21")["input"] == "=A20+B20" and S.cell(store, b, "Claims", "A30") is None
    assert S.cell(store, b, "Summary", "A20")["input"] == "=Claims!A20"
    # moved to another tab: the references name it
    S.paste_cells(store, alex, b, summary, (40, 1), claims, (20, 1, 20, 1), cut=True)
    assert S.cell(store, b, "Claims", "A21")["input"] == "=Summary!A40+B20"
    assert S.cell(store, b, "Summary", "A20")["input"] == "=Summary!A40"         # its sheet named, as it was
    assert val(store, b, "Summary", "A20") == 5 and val(store, b, "Claims", "A21") == 15
