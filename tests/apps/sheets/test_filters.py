"""Sheets filters and filter views in the service: which rows they show, criteria checked, rows and
columns moving under them, the export a verifier reads, and the .xlsx autofilter."""
from __future__ import annotations

import io

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.sheets import service as S

DAMAGES = "Damages Model – Aurelia Dawn"


@pytest.fixture
def claims(store):
    b = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (DAMAGES,))
    return b, S.tab(store, b, name="Claims")


def test_a_filter_over_one_cell_takes_the_block_of_data_around_it(store, alex, claims):
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (3, 2, 3, 2))
    f = S.shown_rows(store, fid)
    assert f["range"] == "A1:F8" and f["header"] == 1 and f["shown"] == list(range(2, 9)) and f["hidden"] == []
    with pytest.raises(Invalid, match="already has a filter"):
        S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))


def test_filter_by_values_and_by_condition(store, alex, claims):
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    S.set_criteria(store, alex, b, fid, "F", hidden=["Withdrawn", "Corvane own"])
    assert S.shown_rows(store, fid)["hidden"] == [7, 8]
    S.set_criteria(store, alex, b, fid, "D", condition={"type": "gt", "value": "20,000,000"})
    assert S.shown_rows(store, fid)["shown"] == [2, 4, 6]                # 38.25m, 21.9m, 52m
    S.set_criteria(store, alex, b, fid, "d")                             # neither: the column's criteria go
    S.set_criteria(store, alex, b, fid, "B", condition={"type": "text_contains", "value": "calder"})
    assert S.shown_rows(store, fid)["shown"] == [3, 4, 5]
    assert store.get("sheets_filters", fid)["criteria"] == {
        "B": {"condition": {"type": "text_contains", "value": "calder"}},
        "F": {"hidden": ["Corvane own", "Withdrawn"]}}
    S.set_criteria(store, alex, b, fid, "B", condition={"type": "empty"})
    assert S.shown_rows(store, fid)["shown"] == []


@pytest.mark.parametrize("col, hidden, condition, field", [
    ("G", None, {"type": "empty"}, "col"),                               # outside the range
    ("7", None, {"type": "empty"}, "col"),
    ("D", None, {"type": "bigger"}, "condition"),
    ("D", None, {"type": "gt"}, "value"),                                # no value
    ("D", None, {"type": "gt", "value": "lots"}, "value"),               # not a number
    ("D", "Withdrawn", None, "hidden"),                                  # not a list
    ("D", [1, 2], None, "hidden"),
])
def test_bad_criteria_are_refused_and_change_nothing(store, alex, claims, col, hidden, condition, field):
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    with pytest.raises(Invalid) as e:
        S.set_criteria(store, alex, b, fid, col, hidden=hidden, condition=condition)
    assert e.value.field == field
    assert store.get("sheets_filters", fid)["criteria"] == {}


def test_views_are_named_saved_and_do_not_hide_rows_for_the_sheet(store, alex, claims):
    b, t = claims
    vid = S.create_view(store, alex, b, t["id"], (1, 1, 8, 6), "Third party only",
                        criteria={"F": {"hidden": ["Withdrawn", "Corvane own"]}})
    assert S.shown_rows(store, vid)["shown"] == [2, 3, 4, 5, 6]
    assert S.hidden_rows(store, t["id"]) == set()                # no filter on the sheet itself
    assert S.hidden_rows(store, t["id"], vid) == {7, 8}          # only with the view open
    second = S.create_view(store, alex, b, t["id"], (2, 1, 2, 1))
    assert store.get("sheets_filters", second)["name"] == "Filter 1"
    with pytest.raises(Invalid, match="already exists"):
        S.update_view(store, alex, b, second, name="third party ONLY")
    S.update_view(store, alex, b, second, name="Big claims")
    assert [v["name"] for v in S.views(store, b)] == ["Third party only", "Big claims"]
    S.delete_view(store, alex, b, second)
    assert [v["name"] for v in S.views(store, b)] == ["Third party only"]
    with pytest.raises(NotFound):
        S.delete_view(store, alex, b, second)
    with pytest.raises(Forbidden):
        S.create_view(store, Caller(user="henry.adeyemi"), b, t["id"], (1, 1, 8, 6), "Mine")


def test_filters_follow_inserted_and_deleted_rows_and_columns(store, alex, claims):
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    S.set_criteria(store, alex, b, fid, "F", hidden=["Withdrawn"])
    S.insert_rows(store, alex, b, t["id"], 3, 2)
    assert store.get("sheets_filters", fid)["range"] == "A1:F10"
    S.delete_rows(store, alex, b, t["id"], 3, 2)
    S.insert_cols(store, alex, b, t["id"], 1, 1)
    f = store.get("sheets_filters", fid)
    assert f["range"] == "B1:G8" and f["criteria"] == {"G": {"hidden": ["Withdrawn"]}}
    assert S.shown_rows(store, fid)["hidden"] == [8]
    S.delete_cols(store, alex, b, t["id"], 7, 1)                          # the criteria's column goes
    assert store.get("sheets_filters", fid)["range"] == "B1:F8" and store.get("sheets_filters", fid)["criteria"] == {}
    S.delete_rows(store, alex, b, t["id"], 1, 8)
    assert store.get("sheets_filters", fid) is None


def test_the_export_answers_as_the_store_does(store, alex, claims):
    b, t = claims
    vid = S.create_view(store, alex, b, t["id"], (1, 1, 8, 6), "Under review",
                        criteria={"E": {"condition": {"type": "text_starts_with", "value": "received"}}})
    assert S.shown_rows_in_export(export(store), vid) == S.shown_rows(store, vid)
    assert S.shown_rows(store, vid)["shown"] == [2, 3, 4, 5]


def test_xlsx_has_the_autofilter_and_hidden_rows(store, alex, claims):
    from openpyxl import load_workbook
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    S.set_criteria(store, alex, b, fid, "F", hidden=["Withdrawn"])
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, alex.user, b)))["Claims"]
    assert ws.auto_filter.ref == "A1:F8"
    assert ws.row_dimensions[8].hidden and not ws.row_dimensions[7].hidden


def test_undo_and_redo_filters_charts_and_rules_and_what_structure_moved(store, alex, claims):
    b, t = claims
    fid = S.create_filter(store, alex, b, t["id"], (1, 1, 8, 6))
    S.set_criteria(store, alex, b, fid, "F", hidden=["Withdrawn"])
    assert S.undo(store, alex, b) == "Filter"
    assert store.get("sheets_filters", fid)["criteria"] == {}
    assert S.undo(store, alex, b) == "Create a filter" and S.filters(store, t["id"]) == []
    assert S.redo(store, alex, b) == "Create a filter" and store.get("sheets_filters", fid)["range"] == "A1:F8"
    cid = S.insert_chart(store, alex, b, t["id"], (1, 1, 8, 4))
    S.add_rule(store, alex, b, t["id"], (2, 4, 8, 4), {"type": "gt", "value": "1"}, {"bold": True})
    S.insert_rows(store, alex, b, t["id"], 2, 3)
    assert store.get("sheets_filters", fid)["range"] == "A1:F11" and store.get("sheets_charts", cid)["range"] == "A1:D11"
    assert S.undo(store, alex, b) == "Insert rows"                 # the ranges the rows moved come back too
    assert store.get("sheets_filters", fid)["range"] == "A1:F8" and store.get("sheets_charts", cid)["range"] == "A1:D8"
    assert S.rules(store, t["id"])[0]["range"] == "D2:D8"
    assert S.undo(store, alex, b) == "Add conditional format" and S.rules(store, t["id"]) == []
    assert S.undo(store, alex, b) == "Insert chart" and S.charts(store, t["id"]) == []
    S.redo(store, alex, b)
    assert S.chart_data(store, cid)["title"] == "Amount (USD)"
    # a deleted tab's filters and charts come back with it
    S.delete_tab(store, alex, b, t["id"])
    assert store.get("sheets_filters", fid) is None and store.get("sheets_charts", cid) is None
    S.undo(store, alex, b)
    assert store.get("sheets_filters", fid)["tab"] == t["id"] and store.get("sheets_charts", cid)["tab"] == t["id"]
