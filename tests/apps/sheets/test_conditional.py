"""Conditional formatting in the service: which cells rules format (conditions and custom formulas, the
first rule winning), bad rules refused, ranges following rows, and the .xlsx's rules."""
from __future__ import annotations

import io

import pytest

from apps.core.errors import Forbidden, Invalid
from apps.core.store.db import Caller
from apps.sheets import service as S

DAMAGES = "Damages Model – Aurelia Dawn"
GREEN = {"fill": "#b7e1cd", "color": "#137333"}


@pytest.fixture
def claims(store):
    b = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (DAMAGES,))
    return b, S.tab(store, b, name="Claims")


def test_rules_format_the_cells_that_meet_them_and_follow_the_data(store, alex, claims):
    b, t = claims
    S.add_rule(store, alex, b, t["id"], (2, 4, 8, 4), {"type": "gt", "value": "20,000,000"}, GREEN)
    assert sorted(S.styles(store, t["id"])) == [(2, 4), (4, 4), (6, 4)]
    S.set_cells(store, alex, b, t["id"], {(3, 4): "25000000"})
    assert (3, 4) in S.styles(store, t["id"])
    # a custom formula, written for the range's top-left: a whole row where the type is Withdrawn
    rid = S.add_rule(store, alex, b, t["id"], (2, 1, 8, 6), {"type": "custom", "value": '=$F2="Withdrawn"'},
                     {"fill": "#F4CCCC", "strike": True})
    st = S.styles(store, t["id"])
    assert {p for p, s in st.items() if s.get("strike")} == {(8, c) for c in range(1, 7)}
    assert st[(2, 4)] == GREEN                                            # the first rule wins
    assert store.get("sheets_conditional", rid)["style"] == {"fill": "#f4cccc", "strike": True}
    S.update_rule(store, alex, b, rid, condition={"type": "text_contains", "value": "review"}, rng=(2, 5, 8, 5))
    assert sorted(p for p, s in S.styles(store, t["id"]).items() if s.get("strike")) == [(2, 5), (3, 5), (4, 5)]
    assert S.describe_rule(store.get("sheets_conditional", rid)) == "Text contains review"
    S.insert_rows(store, alex, b, t["id"], 1, 2)
    assert [r["range"] for r in S.rules(store, t["id"])] == ["D4:D10", "E4:E10"]
    S.delete_rule(store, alex, b, rid)
    assert len(S.rules(store, t["id"])) == 1


@pytest.mark.parametrize("condition, style, field", [
    ({"type": "bigger", "value": "1"}, GREEN, "condition"),
    ({"type": "gt"}, GREEN, "value"),
    ({"type": "gt", "value": "lots"}, GREEN, "value"),
    ({"type": "custom", "value": "=SUM(("}, GREEN, "value"),
    ({"type": "custom", "value": "=NOSUCHFN(A1)"}, GREEN, "value"),
    ({"type": "empty"}, {}, "style"),
    ({"type": "empty"}, {"fill": "green"}, "fill"),
    ({"type": "empty"}, {"underline": True}, "underline"),
])
def test_bad_rules_are_refused(store, alex, claims, condition, style, field):
    b, t = claims
    with pytest.raises(Invalid) as e:
        S.add_rule(store, alex, b, t["id"], (2, 4, 8, 4), condition, style)
    assert e.value.field == field
    assert S.rules(store, t["id"]) == []
    with pytest.raises(Forbidden):
        S.add_rule(store, Caller(user="henry.adeyemi"), b, t["id"], (2, 4, 8, 4), {"type": "empty"}, GREEN)


def test_xlsx_has_the_rules(store, alex, claims):
    from openpyxl import load_workbook
    b, t = claims
    S.add_rule(store, alex, b, t["id"], (2, 4, 8, 4), {"type": "gte", "value": "1000000"}, {**GREEN, "bold": True})
    S.add_rule(store, alex, b, t["id"], (2, 5, 8, 5), {"type": "text_contains", "value": "review"}, {"fill": "#fce8e6"})
    S.add_rule(store, alex, b, t["id"], (2, 1, 8, 6), {"type": "custom", "value": '=$F2="Withdrawn"'}, {"strike": True})
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, alex.user, b)))["Claims"]
    got = {str(cf.sqref): cf.rules[0] for cf in ws.conditional_formatting}
    assert got["D2:D8"].type == "cellIs" and got["D2:D8"].operator == "greaterThanOrEqual"
    assert got["D2:D8"].formula == ["1000000"] and got["D2:D8"].dxf.fill.fgColor.rgb.endswith("B7E1CD")
    assert got["D2:D8"].dxf.font.b
    assert got["E2:E8"].type == "expression" and got["E2:E8"].formula == ['ISNUMBER(SEARCH("review",E2))']
    assert got["A2:F8"].formula == ['$F2="Withdrawn"'] and got["A2:F8"].dxf.font.strike


# ---------------------------------------------------------------- routes
def test_rule_routes_lay_formats_over_the_grid_and_refuse_bad_rules(client, slot):
    from apps.core.store.export import export
    from tests.apps.sheets.test_routes import ids
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/conditional", json={"tab": t, "range": "D2:D8",
                                                        "condition": {"type": "gt", "value": "20000000"}, "style": GREEN})
    assert r.status_code == 200 and r.get_json()["message"] == "Conditional format added"
    html = r.get_json()["html"]
    assert html.count("cf-f cf-c") == 3 and "--cf-fill:#b7e1cd" in html and 'data-rules="1"' in html
    got = client.get(f"/sheets/s/{b}/conditional?tab={t}").get_json()
    assert got["rules"][0]["description"] == "Greater than 20000000" and sorted(got["cells"]) == ["D2", "D4", "D6"]
    rid = got["rules"][0]["id"]
    assert "cf-f cf-c" in client.get(f"/sheets/s/{b}?tab={t}").data.decode()

    def rules():
        with slot.store() as st:
            return export(st)["tables"]["sheets_conditional"]["records"]
    before = rules()
    for path, body, field in (
            ("/conditional", {"range": "D2:D8", "style": GREEN}, "condition"),
            ("/conditional", {"range": "D2:D8", "condition": {"type": "empty"}}, "style"),
            ("/conditional", {"range": "D2:D8", "condition": "gt", "style": GREEN}, "condition"),
            ("/conditional", {"range": "D2:D8", "condition": {"type": "empty"}, "style": "green"}, "style"),
            ("/conditional", {"range": "D0", "condition": {"type": "empty"}, "style": GREEN}, "range"),
            (f"/conditional/{rid}", {}, "range"),
            (f"/conditional/{rid}", {"style": {"fill": "#12"}}, "fill")):
        r = client.post(f"/sheets/s/{b}{path}", json={"tab": t, **body})
        assert r.status_code == 422 and r.get_json()["field"] == field, (path, body)
    assert client.post(f"/sheets/s/{b}/conditional/999999/delete", json={"tab": t}).status_code == 404
    assert rules() == before
    r = client.post(f"/sheets/s/{b}/conditional/{rid}", json={"tab": t, "condition": {"type": "lt", "value": "5000000"}})
    assert r.get_json()["html"].count("cf-f cf-c") == 2
    r = client.post(f"/sheets/s/{b}/conditional/{rid}/delete", json={"tab": t})
    assert "cf-f" not in r.get_json()["html"] and rules() == {}
