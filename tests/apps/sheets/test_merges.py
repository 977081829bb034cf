"""Merged cells: the service (merge all / horizontally / vertically, unmerge, undo, rows and columns moving),
the routes with bad input, and the .xlsx's merged cells."""
from __future__ import annotations

import io

import pytest

from apps.core.errors import Forbidden, Invalid
from apps.core.store.db import Caller
from apps.core.store.export import export
from apps.sheets import service as S
from tests.apps.sheets.test_routes import ids

DAMAGES = "Damages Model – Aurelia Dawn"


@pytest.fixture
def claims(store):
    b = store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (DAMAGES,))
    return b, S.tab(store, b, name="Claims")


def ranges(store, t):
    return [m["range"] for m in S.merges(store, t["id"])]


def test_merge_all_keeps_the_top_left_value_and_undo_unmerges(store, alex, claims):
    b, t = claims
    assert S.merge(store, alex, b, t["id"], (10, 1, 10, 3)) == ["A10:C10"]
    assert S.cell(store, b, "Claims", "A10")["value"] == "Third-party total"
    assert S.merged_at(store, t["id"], 10, 2) == "A10:C10" and S.merged_at(store, t["id"], 10, 4) is None
    S.merge(store, alex, b, t["id"], (2, 5, 3, 6))                       # E2:F3: E3, F2, F3 cleared
    assert ranges(store, t) == ["A10:C10", "E2:F3"]
    assert S.cell(store, b, "Claims", "F2") is None and S.cell(store, b, "Claims", "E2")["value"] == "Received – under review"
    assert S.undo(store, alex, b) == "Merge cells"
    assert ranges(store, t) == ["A10:C10"] and S.cell(store, b, "Claims", "F2")["value"] == "Third party"
    S.redo(store, alex, b)
    assert ranges(store, t) == ["A10:C10", "E2:F3"]


def test_merge_horizontally_vertically_over_existing_blocks_and_unmerge(store, alex, claims):
    b, t = claims
    S.merge(store, alex, b, t["id"], (14, 1, 15, 2))
    assert S.merge(store, alex, b, t["id"], (14, 1, 16, 3), "horizontal") == ["A14:C14", "A15:C15", "A16:C16"]
    assert ranges(store, t) == ["A14:C14", "A15:C15", "A16:C16"]           # the block it overlapped went
    assert S.merge(store, alex, b, t["id"], (20, 1, 22, 2), "vertical") == ["A20:A22", "B20:B22"]
    assert S.unmerge(store, alex, b, t["id"], (15, 2, 21, 2)) == ["A15:C15", "A16:C16", "B20:B22"]
    assert ranges(store, t) == ["A14:C14", "A20:A22"]
    with pytest.raises(Invalid, match="no merged cells"):
        S.unmerge(store, alex, b, t["id"], (30, 1, 30, 1))
    with pytest.raises(Invalid, match="more than one cell"):
        S.merge(store, alex, b, t["id"], (30, 1, 33, 1), "horizontal")
    with pytest.raises(Invalid, match="Merge how"):
        S.merge(store, alex, b, t["id"], (30, 1, 33, 1), "diagonal")
    with pytest.raises(Forbidden):
        S.merge(store, Caller(user="henry.adeyemi"), b, t["id"], (30, 1, 33, 1))
    assert ranges(store, t) == ["A14:C14", "A20:A22"]


def test_blocks_follow_rows_and_columns_and_go_to_xlsx(store, alex, claims):
    from openpyxl import load_workbook
    b, t = claims
    S.merge(store, alex, b, t["id"], (10, 1, 10, 3))
    S.merge(store, alex, b, t["id"], (14, 1, 16, 1))
    S.insert_cols(store, alex, b, t["id"], 2, 1)
    S.delete_rows(store, alex, b, t["id"], 15, 2)                         # A14:A16 is left one cell: it goes
    assert ranges(store, t) == ["A10:D10"]
    ws = load_workbook(io.BytesIO(S.xlsx_bytes(store, alex.user, b)))["Claims"]
    assert [str(r) for r in ws.merged_cells.ranges] == ["A10:D10"]


def test_merge_route_and_its_bad_input(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/merge", json={"tab": t, "range": "A10:C10", "how": "all"})
    assert r.status_code == 200 and r.get_json()["message"] == "Cells merged"
    assert 'class="merge" data-range="A10:C10"' in r.get_json()["html"]
    assert 'data-range="A10:C10"' in client.get(f"/sheets/s/{b}?tab={t}").data.decode()

    def merged():
        with slot.store() as st:
            return export(st)["tables"]["sheets_merges"]["records"]
    before = merged()
    for body, field in (({"range": "A10:C10", "how": "sideways"}, "how"), ({"range": "A1:Z999"}, "range"),
                        ({"range": "A30", "how": "all"}, "range"), ({"range": "A30", "how": "none"}, "range")):
        r = client.post(f"/sheets/s/{b}/merge", json={"tab": t, **body})
        assert r.status_code == 422 and r.get_json()["field"] == field, body
    assert merged() == before
    r = client.post(f"/sheets/s/{b}/merge", json={"tab": t, "range": "B10", "how": "none"})
    assert r.status_code == 200 and r.get_json()["message"] == "Cells unmerged" and merged() == {}
