"""The chart routes through the Flask client, with bad input (which changes nothing)."""
from __future__ import annotations

import pytest

from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.sheets import service as S
from tests.apps.sheets.test_routes import ids


def charts(slot):
    with slot.store() as st:
        return export(st)["tables"]["sheets_charts"]["records"]


def test_insert_edit_move_redraw_and_delete_a_chart(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/charts", json={"tab": t, "range": "A1:D8"})
    j = r.get_json()
    assert r.status_code == 200 and j["message"] == "Chart inserted"
    cid = j["id"]
    assert j["layer"].count('class="bar"') == 7 and f'data-chart="{cid}"' in j["layer"]
    # the editor page draws it too, over the grid
    page = client.get(f"/sheets/s/{b}?tab={t}").data.decode()
    assert 'role="figure"' in page and 'aria-label="Chart: Amount (USD)"' in page and "Chart</button>" in page
    r = client.post(f"/sheets/s/{b}/charts/{cid}", json={"tab": t, "type": "line", "title": "Claims", "legend": "top"})
    assert r.status_code == 200 and 'class="line"' in r.get_json()["layer"] and ">Claims</text>" in r.get_json()["layer"]
    r = client.post(f"/sheets/s/{b}/charts/{cid}", json={"tab": t, "range": "A1:D5", "anchor": "J4"})
    assert r.get_json()["layer"].count('class="point"') == 4 and 'data-anchor="J4"' in r.get_json()["layer"]
    # cells change: the layer the page asks for again shows the new figure
    client.post(f"/sheets/s/{b}/cells", json={"tab": t, "edits": {"D3": "99000000"}})
    assert 'data-value="99000000"' in client.get(f"/sheets/s/{b}/charts?tab={t}").get_json()["layer"]
    r = client.post(f"/sheets/s/{b}/charts/{cid}/delete", json={"tab": t})
    assert r.status_code == 200 and r.get_json()["layer"] == "" and charts(slot) == {}


@pytest.mark.parametrize("path, body, status, field", [
    ("/charts", {"range": "A1:Z999"}, 422, "range"),
    ("/charts", {"range": "B1:C8"}, 422, "range"),                        # no numbers in it
    ("/charts", {"range": "A1:D8", "type": "radar"}, 422, "type"),
    ("/charts/C", {}, 422, "type"),
    ("/charts/C", {"legend": "inside"}, 422, "legend"),
    ("/charts/C", {"range": "junk"}, 422, "range"),
    ("/charts/C", {"anchor": "??"}, 422, "anchor"),
    ("/charts/C", {"width": "wide"}, 422, "width"),
    ("/charts/999999", {"type": "pie"}, 404, None),
    ("/charts/999999/delete", {}, 404, None),
])
def test_bad_chart_requests_are_refused_and_change_nothing(client, slot, path, body, status, field):
    b, t = ids(slot)
    with slot.store() as st:
        cid = S.insert_chart(st, Caller(user="alex.chen"), b, t, (1, 1, 8, 4))
    before = charts(slot)
    r = client.post(f"/sheets/s/{b}{path.replace('/C', f'/{cid}')}", json={"tab": t, **body})
    assert r.status_code == status and r.get_json()["error"]
    if field:
        assert r.get_json()["field"] == field
    assert charts(slot) == before


def test_a_viewer_sees_charts_but_cannot_add_one(app, slot):
    from tests.conftest import make_client
    b, t = ids(slot)
    with slot.store() as st:
        S.insert_chart(st, Caller(user="alex.chen"), b, t, (1, 1, 8, 4))
    viewer = make_client(app, "henry.adeyemi")
    assert 'role="figure"' in viewer.get(f"/sheets/s/{b}?tab={t}").data.decode()
    assert viewer.post(f"/sheets/s/{b}/charts", json={"tab": t, "range": "A1:D8"}).status_code == 403
    assert len(charts(slot)) == 1
