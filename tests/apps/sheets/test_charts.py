"""Sheets charts in the service: what a chart plots, its settings checked, charts following rows and
columns, the SVG the grid shows, and the real chart in the .xlsx."""
from __future__ import annotations

import io
import re

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.sheets import service as S
from apps.sheets.chart_svg import render

DAMAGES = "Damages Model – Aurelia Dawn"
AMOUNTS = [38250000, 6840000, 21900000, 4125000, 52000000, 17300000, 385000]


@pytest.fixture
def claims(store):
    b = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (DAMAGES,))
    return b, S.tab(store, b, name="Claims")


def test_a_chart_plots_its_range_text_columns_are_not_series(store, alex, claims):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4))
    d = S.chart_data(store, cid)
    assert (d["type"], d["title"], d["legend"], d["range"], d["anchor"]) == ("column", "Amount (USD)", "right", "A1:D8", "F1")
    assert d["categories"] == [f"CL-00{i}" for i in range(1, 8)]
    assert [(s["name"], s["values"]) for s in d["series"]] == [("Amount (USD)", AMOUNTS)]
    # the data changes, the chart with it
    S.set_cells(store, alex, b, t["id"], {(3, 4): "6480000"})
    assert S.chart_data(store, cid)["series"][0]["values"][1] == 6480000


def test_one_cell_takes_the_data_block_and_settings_change(store, alex, claims):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (4, 4, 4, 4), "pie", title="Claims by size", legend="bottom")
    assert S.chart_data(store, cid)["range"] == "A1:F8"
    S.update_chart(store, alex, b, cid, type="bar", title="", legend="none", range=(1, 1, 6, 4), anchor="h3",
                   width=600, height=320)
    ch = store.get("sheets_charts", cid)
    assert (ch["type"], ch["title"], ch["legend"], ch["range"], ch["anchor"], ch["width"]) == \
        ("bar", "", "none", "A1:D6", "H3", 600)
    assert S.chart_data(store, cid)["categories"] == ["CL-001", "CL-002", "CL-003", "CL-004", "CL-005"]
    S.delete_chart(store, alex, b, cid)
    assert S.charts(store, t["id"]) == []
    with pytest.raises(NotFound):
        S.update_chart(store, alex, b, cid, type="line")


@pytest.mark.parametrize("fields, field", [
    ({"type": "donut"}, "type"),
    ({"legend": "middle"}, "legend"),
    ({"title": "x" * 201}, "title"),
    ({"anchor": "nowhere"}, "anchor"),
    ({"anchor": "A999"}, "range"),
    ({"range": (1, 2, 8, 3)}, "range"),                 # text only: nothing to chart
    ({"width": 10}, "width"),
    ({"height": "tall"}, "height"),
    ({"colour": "red"}, "colour"),
    ({}, "type"),
])
def test_bad_chart_settings_are_refused_and_change_nothing(store, alex, claims, fields, field):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4))
    before = store.get("sheets_charts", cid)
    with pytest.raises(Invalid) as e:
        S.update_chart(store, alex, b, cid, **fields)
    assert e.value.field == field
    assert store.get("sheets_charts", cid) == before
    with pytest.raises(Forbidden):
        S.insert_chart(store, Caller(user="henry.adeyemi"), b, t["id"], (1, 1, 8, 4))


def test_charts_follow_rows_and_columns(store, alex, claims):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4), anchor="H2")
    S.insert_rows(store, alex, b, t["id"], 1, 1)
    S.insert_cols(store, alex, b, t["id"], 3, 2)
    ch = store.get("sheets_charts", cid)
    assert (ch["range"], ch["anchor"]) == ("A2:F9", "J3")
    assert S.chart_data(store, cid)["series"][0]["values"] == AMOUNTS
    S.delete_cols(store, alex, b, t["id"], 1, 6)                           # its data goes: so does the chart
    assert store.get("sheets_charts", cid) is None


def test_the_svg_draws_bars_lines_slices_labels_title_and_legend(store, alex, claims):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4))
    svg = render(store.get("sheets_charts", cid), S.chart_data(store, cid))
    assert svg.count('class="bar"') == 7 and svg.count('class="axis-label category-label"') == 7
    assert '<text class="chart-title"' in svg and ">Amount (USD)</text>" in svg and 'data-position="right"' in svg
    assert ">60M</text>" in svg                                            # the value axis on round numbers
    S.update_chart(store, alex, b, cid, type="line", legend="bottom")
    svg = render(store.get("sheets_charts", cid), S.chart_data(store, cid))
    assert svg.count('class="line"') == 1 and svg.count('class="point"') == 7 and 'data-position="bottom"' in svg
    S.update_chart(store, alex, b, cid, type="pie", legend="none", title="")
    svg = render(store.get("sheets_charts", cid), S.chart_data(store, cid))
    assert svg.count('class="slice"') == 7 and 'class="legend"' not in svg and "chart-title" not in svg
    assert ">27.2%<" in svg                                                 # 38.25m of 140.8m
    assert re.search(r'<path class="slice"[^>]*data-category="CL-005"', svg)


def test_xlsx_has_a_real_chart(store, alex, claims):
    from openpyxl import load_workbook
    from openpyxl.chart import BarChart, PieChart
    b, t = claims
    S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4), title="Claims", legend="bottom", anchor="H2")
    pie = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4), "pie", anchor="H20")
    S.update_chart(store, alex, b, pie, legend="none")
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, alex.user, b)))["Claims"]
    bar, pie = ws._charts
    assert isinstance(bar, BarChart) and bar.type == "col" and isinstance(pie, PieChart)
    assert bar.legend.position == "b" and pie.legend is None
    title = "".join(r.t for p in bar.title.tx.rich.p for r in (p.r or []))
    assert title == "Claims"
    assert bar.series[0].val.numRef.f == "'Claims'!$D$2:$D$8"
    assert bar.series[0].cat.numRef.f == "'Claims'!$A$2:$A$8" or bar.series[0].cat.strRef.f == "'Claims'!$A$2:$A$8"
    assert bar.anchor._from.col == 7 and bar.anchor._from.row == 1          # H2, zero-based


def test_rows_the_filter_hides_are_left_out_of_charts(store, alex, claims):
    b, t = claims
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4))
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    S.set_criteria(store, alex, b, fid, "F", hidden=["Withdrawn", "Corvane own"])
    d = S.chart_data(store, cid)
    assert d["categories"] == ["CL-001", "CL-002", "CL-003", "CL-004", "CL-005"] and d["series"][0]["values"] == AMOUNTS[:5]


def test_the_first_row_is_a_header_only_when_the_number_columns_start_with_text(store, alex):
    """A range without its header row (A2:D6 on the Claims tab: claim IDs, two text columns, amounts) plots
    every row it covers: the text columns beside the amounts don't make its first row a header."""
    from apps.sheets.service.charts import plot_data
    b = store.select("drive_items", "name=? AND kind='sheet'", ("Damages Model – Aurelia Dawn",))[0]["ref"]
    grid = S.cells(store, S.tab(store, b, name="Claims")["id"])
    data = plot_data(grid, "A2:D6")
    assert not data["header"] and data["categories"] == ["CL-001", "CL-002", "CL-003", "CL-004", "CL-005"]
    assert [s["name"] for s in data["series"]] == ["Series 1"] and len(data["series"][0]["values"]) == 5
    with_header = plot_data(grid, "A1:D6")
    assert with_header["header"] and with_header["categories"][0] == "CL-001"
    assert [s["name"] for s in with_header["series"]] == ["Amount (USD)"]
