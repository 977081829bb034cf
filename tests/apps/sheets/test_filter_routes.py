"""The filter and filter-view routes through the Flask client, with bad input (which changes nothing)."""
from __future__ import annotations

import pytest

from apps.core.store.export import export
from apps.sheets import service as S
from tests.apps.sheets.test_routes import ids


def snapshot(slot):
    with slot.store() as st:
        return export(st)["tables"]["sheets_filters"]["records"]


def filters(slot, t):
    with slot.store() as st:
        return S.filters(st, t)


def test_create_filter_hide_rows_sort_and_remove(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/filter", json={"tab": t, "range": "B4"})
    assert r.status_code == 200 and r.get_json()["message"] == "Filter created"
    html = r.get_json()["html"]
    assert 'data-filter-range="A1:F8"' in html and html.count('class="filter-btn') == 6
    fid = filters(slot, t)[0]["id"]
    r = client.post(f"/sheets/s/{b}/filter/criteria",
                    json={"tab": t, "filter": fid, "col": "F", "hidden": ["Withdrawn"], "condition": None})
    assert r.status_code == 200
    assert r.get_json()["html"].count("<tr hidden>") == 1 and 'aria-label="Filter column F (filtered)"' in r.get_json()["html"]
    # the page itself renders the hidden row and the filter's state
    page = client.get(f"/sheets/s/{b}?tab={t}").data.decode()
    assert "<tr hidden>" in page and "Remove filter" in page
    r = client.post(f"/sheets/s/{b}/filter/criteria",
                    json={"tab": t, "filter": fid, "col": "D", "condition": {"type": "lt", "value": "5000000"}})
    with slot.store() as st:
        assert S.shown_rows(st, fid)["shown"] == [5]              # 4.125m; 0.385m is withdrawn
    r = client.post(f"/sheets/s/{b}/filter/sort", json={"tab": t, "filter": fid, "col": "D", "order": "desc"})
    assert r.status_code == 200
    with slot.store() as st:
        amounts = [S.cell(st, b, "Claims", f"D{r}")["value"] for r in range(2, 9)]
        assert amounts == sorted(amounts, reverse=True)
    r = client.post(f"/sheets/s/{b}/filter/remove", json={"tab": t})
    assert r.status_code == 200 and "<tr hidden>" not in r.get_json()["html"] and filters(slot, t) == []


def test_filter_views_create_open_rename_change_range_delete(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/views", json={"tab": t, "range": "A1:F8"})
    j = r.get_json()
    assert r.status_code == 200 and j["name"] == "Filter 1" and j["url"].endswith(f"view={j['id']}")
    vid = j["id"]
    client.post(f"/sheets/s/{b}/filter/criteria", json={"tab": t, "filter": vid, "col": "F", "hidden": ["Withdrawn"]})
    opened = client.get(j["url"]).data.decode()
    assert "<tr hidden>" in opened and 'aria-label="Filter view name"' in opened and f'data-view="{vid}"' in opened
    plain = client.get(f"/sheets/s/{b}?tab={t}").data.decode()
    assert "<tr hidden>" not in plain and "Filter view: Filter 1" in plain          # listed in the Data menu
    # the grid a view's page asks for after an edit keeps the view applied
    r = client.post(f"/sheets/s/{b}/structure", json={"tab": t, "view": vid, "op": "insert_rows", "at": 20})
    assert "<tr hidden>" in r.get_json()["html"]
    r = client.post(f"/sheets/s/{b}/views/{vid}", json={"tab": t, "name": "No withdrawn"})
    assert r.get_json()["name"] == "No withdrawn"
    r = client.post(f"/sheets/s/{b}/views/{vid}", json={"tab": t, "view": vid, "range": "A1:F6"})
    assert r.status_code == 200 and "<tr hidden>" not in r.get_json()["html"]
    r = client.post(f"/sheets/s/{b}/views/{vid}/delete", json={"tab": t})
    assert r.status_code == 200 and r.get_json()["url"].endswith(f"tab={t}") and filters(slot, t) == []
    assert client.get(f"/sheets/s/{b}?view={vid}").status_code == 404


@pytest.mark.parametrize("path, body, status, field", [
    ("/filter", {"range": "A1:Z999"}, 422, "range"),
    ("/filter", {"range": "nonsense"}, 422, "range"),
    ("/filter/remove", {}, 422, "tab"),                                   # no filter to remove
    ("/filter/criteria", {"filter": 999999, "col": "A"}, 404, None),
    ("/filter/criteria", {"filter": "x", "col": "A"}, 422, "filter"),
    ("/filter/criteria", {"filter": "F", "col": "Z", "hidden": []}, 422, "col"),
    ("/filter/criteria", {"filter": "F"}, 422, "col"),
    ("/filter/criteria", {"filter": "F", "col": "D", "condition": "gt"}, 422, "condition"),
    ("/filter/criteria", {"filter": "F", "col": "D", "condition": {"type": "gt", "value": "many"}}, 422, "value"),
    ("/filter/criteria", {"filter": "F", "col": "D", "hidden": "Withdrawn"}, 422, "hidden"),
    ("/filter/sort", {"filter": "F", "col": "Q"}, 422, "col"),
    ("/filter/sort", {"filter": "F", "col": "D", "order": "up"}, 422, "order"),
    ("/views", {"range": "A1:F8", "name": "   "}, 422, "name"),
    ("/views", {"range": "A1:F8", "name": "x" * 101}, 422, "name"),
    ("/views/999999", {"name": "x"}, 404, None),
    ("/views/V", {}, 422, "name"),
    ("/views/V", {"range": "A0"}, 422, "range"),
    ("/views/F", {"name": "A name"}, 422, "view"),                        # the sheet's filter has no name
    ("/views/F/delete", {}, 422, "view"),
])
def test_bad_filter_requests_are_refused_and_change_nothing(client, slot, path, body, status, field):
    b, t = ids(slot)
    with slot.store() as st:
        from apps.core.store.db import Caller
        fid = S.create_filter(st, Caller(user="alex.chen"), b, t, (1, 1, 8, 6)) if path != "/filter/remove" else None
        vid = S.create_view(st, Caller(user="alex.chen"), b, t, (1, 1, 8, 6), "Mine")
    if path == "/filter" and fid:
        with slot.store() as st:
            S.remove_filter(st, Caller(user="alex.chen"), b, t)
    path = path.replace("/F", f"/{fid}").replace("/V", f"/{vid}")
    body = {k: (fid if v == "F" else v) for k, v in body.items()}
    before = snapshot(slot)
    r = client.post(f"/sheets/s/{b}{path}", json={"tab": t, **body})
    assert r.status_code == status, r.get_json()
    assert r.get_json()["error"]
    if field:
        assert r.get_json()["field"] == field
    assert snapshot(slot) == before


def test_a_viewer_cannot_create_filters(app, slot):
    from tests.conftest import make_client
    b, t = ids(slot)
    r = make_client(app, "henry.adeyemi").post(f"/sheets/s/{b}/filter", json={"tab": t, "range": "A1:F8"})
    assert r.status_code == 403 and filters(slot, t) == []


def test_save_the_filter_as_a_filter_view(client, slot):
    b, t = ids(slot)
    client.post(f"/sheets/s/{b}/filter", json={"tab": t, "range": "A1:F8"})
    fid = filters(slot, t)[0]["id"]
    client.post(f"/sheets/s/{b}/filter/criteria", json={"tab": t, "filter": fid, "col": "F", "hidden": ["Withdrawn"]})
    r = client.post(f"/sheets/s/{b}/views", json={"tab": t, "from_filter": fid, "name": "No withdrawn"})
    assert r.status_code == 200
    view = filters(slot, t)[1]
    assert (view["kind"], view["name"], view["range"], view["criteria"]) == \
        ("view", "No withdrawn", "A1:F8", {"F": {"hidden": ["Withdrawn"]}})
    r = client.post(f"/sheets/s/{b}/views", json={"tab": t, "from_filter": view["id"]})
    assert r.status_code == 422 and r.get_json()["field"] == "from_filter" and len(filters(slot, t)) == 2
