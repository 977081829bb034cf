"""The Sheets tools added for filters and filter views (and later charts, merges, conditional formats):
each works on a fresh slot as the agent, and a bad call is a ToolError with the app's message that
writes nothing."""
from __future__ import annotations

from .test_more_tools import call, refused

DAMAGES = "Damages Model – Aurelia Dawn"


def test_filter_and_filter_view_tools(slot_of):
    with slot_of("meridian").store() as st:
        refused(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "column": "F", "hidden_values": ["x"]},
                "give its range")
        f = call(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "range": "A1:F8", "column": "F",
                                        "hidden_values": ["Withdrawn", "Corvane own"]})
        assert f["range"] == "A1:F8" and f["kind"] == "filter" and f["hidden"] == [7, 8]
        f = call(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "column": "D", "condition": "gte",
                                        "value": "21900000"})
        assert f["shown"] == [2, 4, 6]
        refused(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "column": "D", "condition": "gt",
                                      "value": "big"}, "is not a number")
        refused(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "range": "A1:F6"}, "remove it first")
        refused(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "condition": "empty"}, "which column")
        v = call(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "view": "Under review", "range": "A1:F8",
                                        "column": "E", "condition": "text_contains", "value": "under review"})
        assert v["name"] == "Under review" and v["kind"] == "view" and v["shown"] == [2, 3, 4]
        got = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A1"})["filters"]
        assert [(x["kind"], x["name"], x["shown"]) for x in got] == [("filter", None, [2, 4, 6]),
                                                                    ("view", "Under review", [2, 3, 4])]
        assert call(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "view": "under review",
                                           "remove": True})["removed"] == "filter view “under review”"
        assert call(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "remove": True})["removed"]
        refused(st, "sheets.filter", {"book": DAMAGES, "tab": "Claims", "remove": True}, "no filter on “Claims” to remove")
        assert "filters" not in call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A1"})


def test_chart_tool(slot_of):
    with slot_of("meridian").store() as st:
        refused(st, "sheets.chart", {"book": DAMAGES, "tab": "Claims"}, "Give the range")
        c = call(st, "sheets.chart", {"book": DAMAGES, "tab": "Claims", "range": "A1:D8", "type": "bar",
                                       "title": "Claims", "anchor": "H2"})
        assert (c["type"], c["title"], c["legend"], c["anchor"]) == ("bar", "Claims", "right", "H2")
        assert c["series"][0]["name"] == "Amount (USD)" and len(c["categories"]) == 7
        c = call(st, "sheets.chart", {"book": DAMAGES, "tab": "Claims", "chart_id": c["id"], "type": "pie",
                                       "legend": "none", "range": "A1:D4"})
        assert (c["type"], c["legend"], c["range"], c["title"]) == ("pie", "none", "A1:D4", "Claims")
        refused(st, "sheets.chart", {"book": DAMAGES, "tab": "Claims", "chart_id": c["id"], "type": "radar"},
                "Input should be 'column'")
        got = call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A1"})["charts"]
        assert [x["id"] for x in got] == [c["id"]]
        assert call(st, "sheets.chart", {"book": DAMAGES, "chart_id": c["id"], "remove": True})["removed"] is True
        assert "charts" not in call(st, "sheets.get", {"book": DAMAGES, "tab": "Claims", "range": "A1"})


def test_merge_through_the_format_tool(slot_of):
    with slot_of("meridian").store() as st:
        call(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "A10:C10", "merge": "all", "bold": True})
        assert st.scalar("SELECT range FROM sheets_merges") == "A10:C10"
        refused(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "A40", "merge": "all"}, "more than one cell")
        call(st, "sheets.format", {"book": DAMAGES, "tab": "Claims", "range": "A10", "merge": "none"})
        assert st.scalar("SELECT count(*) FROM sheets_merges") == 0


def test_conditional_format_tool(slot_of):
    with slot_of("meridian").store() as st:
        got = call(st, "sheets.conditional_format", {"book": DAMAGES, "tab": "Claims", "range": "D2:D8",
                                                      "condition": "gt", "value": "20000000", "fill": "#b7e1cd"})
        assert got["formatted"] == ["D2", "D4", "D6"] and got["rules"][0]["style"] == {"fill": "#b7e1cd"}
        rid = got["rules"][0]["id"]
        got = call(st, "sheets.conditional_format", {"book": DAMAGES, "tab": "Claims", "rule_id": rid,
                                                      "condition": "custom", "value": '=$F2="Withdrawn"'})
        assert got["formatted"] == ["D8"]
        refused(st, "sheets.conditional_format", {"book": DAMAGES, "tab": "Claims", "range": "D2:D8",
                                                  "condition": "gt", "value": "x", "bold": True}, "is not a number")
        refused(st, "sheets.conditional_format", {"book": DAMAGES, "tab": "Claims", "range": "D2:D8"}, "needs a range and a condition")
        got = call(st, "sheets.conditional_format", {"book": DAMAGES, "tab": "Claims", "rule_id": rid, "remove": True})
        assert got["rules"] == [] and got["formatted"] == []
