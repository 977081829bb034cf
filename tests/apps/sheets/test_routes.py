"""Every Sheets route through the Flask client, with bad input."""
from __future__ import annotations

import pytest

from apps.core.store.export import content_changes, diff, export

DAMAGES = "Damages Model – Aurelia Dawn"


def ids(slot, title=DAMAGES, tab="Claims"):
    with slot.store() as st:
        b = st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='sheet'", (title,))
        t = st.scalar("SELECT id FROM sheets_tabs WHERE book=? AND name=?", (b, tab))
    return b, t


def snapshot(slot):
    with slot.store() as st:
        return export(st)


def cell(slot, b, tab, a1):
    from apps.sheets import service
    with slot.store() as st:
        return service.cell(st, b, tab, a1)


@pytest.mark.parametrize("url", ["/sheets/", "/sheets/?q=damages", "/sheets/?q=zzz"])
def test_pages_render(client, url):
    r = client.get(url)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"


def test_editor_renders_grid_and_tabs(client, slot):
    b, t = ids(slot)
    r = client.get(f"/sheets/s/{b}")
    assert r.status_code == 200
    body = r.data.decode()
    assert 'role="grid"' in body and "$6,840,000.00" in body and 'aria-label="Formula bar"' in body
    assert body.count('role="tab"') == 3 and 'aria-selected="true"' in body
    limit = ids(slot, tab="Limit")[1]
    assert "$8,760,000.00" in client.get(f"/sheets/s/{b}?tab={limit}").data.decode()
    assert client.get(f"/sheets/s/{b}?tab=999999").status_code == 404
    grid = client.get(f"/sheets/s/{b}/grid?tab={limit}")
    assert grid.status_code == 200 and b"<html" not in grid.data


@pytest.mark.parametrize("url", ["/sheets/s/99999", "/sheets/s/99999/download", "/sheets/s/99999/grid"])
def test_unknown_spreadsheets_are_404(client, url):
    assert client.get(url).status_code == 404


def test_edit_cells_json(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/cells", json={"tab": t, "edits": {"D3": "6480000"}})
    assert r.status_code == 200
    got = {c["a1"]: c for c in r.get_json()["cells"]}
    assert set(got) == {"D3", "D10", "D12"} and got["D10"]["d"] == "$122,755,000.00" and got["D3"]["k"] == "n"
    assert r.get_json()["can_undo"] is True
    r = client.post(f"/sheets/s/{b}/cells", json={"tab": t, "edits": {"H1": "=1/0"}})
    assert r.get_json()["cells"][0]["k"] == "e" and r.get_json()["cells"][0]["d"] == "#DIV/0!"


@pytest.mark.parametrize("body, status", [
    ({"tab": None, "edits": {"A1": "x"}}, 422),          # no tab
    ({"tab": "x", "edits": {"A1": "x"}}, 422),
    ({"edits": {}}, 422),
    ({"edits": "not json"}, 422),
    ({"edits": {"not-a-ref": "x"}}, 422),
    ({"edits": {"A999": "x"}}, 422),                     # outside the grid
    ({"edits": {"A1": ["list"]}}, 422),
    ({"tab": 999999, "edits": {"A1": "x"}}, 404),
])
def test_bad_cell_edits(client, slot, body, status):
    b, t = ids(slot)
    body = {k: v for k, v in {"tab": t, **body}.items() if v is not None}
    before = snapshot(slot)
    r = client.post(f"/sheets/s/{b}/cells", json=body)
    assert r.status_code == status and r.get_json()["error"]
    assert content_changes(diff(before, snapshot(slot))) == []


def test_format_clear_paste(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "D2:D3", "type": "number"})
    assert r.status_code == 200 and cell(slot, b, "Claims", "D3")["display"] == "6,840,000.00"
    assert client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "D2", "bold": True}).status_code == 200
    assert cell(slot, b, "Claims", "D2")["format"]["bold"] is True
    assert client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "D2"}).status_code == 422
    assert client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "ZZ1:A1", "type": "number"}).status_code == 422
    assert client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "D2", "decimals_step": 5}).status_code == 422
    r = client.post(f"/sheets/s/{b}/paste", json={"tab": t, "at": "H2", "text": "1\t2\n3\t4"})
    assert r.status_code == 200 and cell(slot, b, "Claims", "I3")["value"] == 4
    r = client.post(f"/sheets/s/{b}/paste", json={"tab": t, "at": "J2", "source_tab": t, "source": "H2:I3", "cut": True})
    assert r.status_code == 200 and cell(slot, b, "Claims", "K3")["value"] == 4 and cell(slot, b, "Claims", "H2") is None
    assert client.post(f"/sheets/s/{b}/clear", json={"tab": t, "range": "J2:K3"}).status_code == 200
    assert cell(slot, b, "Claims", "K3") is None
    assert client.post(f"/sheets/s/{b}/clear", json={"tab": t, "range": "nonsense"}).status_code == 422


def test_text_formats_and_colours_and_their_bad_inputs(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "A2:B2", "italic": True, "strike": True,
                                                   "wrap": True, "color": "#D93025", "fill": "#fce8e6"})
    assert r.status_code == 200
    got = r.get_json()["cells"][0]
    assert {"I", "S", "W"} <= set(got["cls"].split()) and got["st"] == "color:#d93025;background:#fce8e6"
    fmt = cell(slot, b, "Claims", "B2")["format"]
    assert {k: fmt.get(k) for k in ("italic", "strike", "wrap", "color", "fill")} == \
        {"italic": True, "strike": True, "wrap": True, "color": "#d93025", "fill": "#fce8e6"}      # stored lower-case
    page = client.get(f"/sheets/s/{b}").get_data(as_text=True)
    assert 'style="color:#d93025;background:#fce8e6"' in page
    # reset: a colour of null (or "") removes it; false removes a flag
    r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "A2:B2", "color": None, "fill": "", "italic": False})
    assert r.status_code == 200 and not {"color", "fill", "italic"} & set(cell(slot, b, "Claims", "B2")["format"])
    before = snapshot(slot)
    for bad in ({"color": "red"}, {"fill": "#12345"}, {"color": "#zzzzzz"}, {"fill": 12}, {"color": "javascript:x"}):
        r = client.post(f"/sheets/s/{b}/format", json={"tab": t, "range": "A2", **bad})
        assert r.status_code == 422 and "#rrggbb" in r.get_json()["error"], bad
    assert content_changes(diff(before, snapshot(slot))) == []


def test_structure_sort_undo(client, slot):
    b, t = ids(slot)
    r = client.post(f"/sheets/s/{b}/structure", json={"tab": t, "op": "insert_rows", "at": 2, "n": 1})
    assert r.status_code == 200 and 'role="grid"' in r.get_json()["html"]
    assert cell(slot, b, "Claims", "A3")["value"] == "CL-001"
    assert client.post(f"/sheets/s/{b}/structure", json={"tab": t, "op": "explode", "at": 2}).status_code == 422
    assert client.post(f"/sheets/s/{b}/structure", json={"tab": t, "op": "delete_rows"}).status_code == 422
    r = client.post(f"/sheets/s/{b}/undo", json={"tab": t})
    assert r.status_code == 200 and "Undid: Insert rows" == r.get_json()["message"]
    assert cell(slot, b, "Claims", "A2")["value"] == "CL-001"
    assert client.post(f"/sheets/s/{b}/redo", json={"tab": t}).get_json()["message"] == "Redid: Insert rows"
    client.post(f"/sheets/s/{b}/undo", json={"tab": t})
    r = client.post(f"/sheets/s/{b}/sort", json={"tab": t, "range": "A2:F8", "col": 4, "order": "desc"})
    assert r.status_code == 200 and cell(slot, b, "Claims", "A2")["value"] == "CL-005"
    assert client.post(f"/sheets/s/{b}/sort", json={"tab": t, "range": "A2:F8", "col": 12}).status_code == 422
    assert client.post(f"/sheets/s/{b}/rows", json={"tab": t}).status_code == 200
    assert client.post(f"/sheets/s/{b}/width", json={"tab": t, "col": 2, "width": 400}).status_code == 200
    assert client.post(f"/sheets/s/{b}/freeze", json={"tab": t, "rows": 2}).status_code == 200
    assert client.post(f"/sheets/s/{b}/freeze", json={"tab": t, "rows": 50}).status_code == 422
    with slot.store() as st:
        tab = st.get("sheets_tabs", t)
    assert tab["rows"] == 120 + 100 - 0 or tab["rows"] > 100
    assert tab["widths"]["B"] == 400 and tab["frozen"] == 2


def test_tabs_and_rename(client, hx, slot):
    b, t = ids(slot)
    r = hx.post(f"/sheets/s/{b}/tabs")
    assert r.status_code == 204 and "tab=" in r.headers["HX-Redirect"]
    assert hx.post(f"/sheets/s/{b}/tabs/{t}/rename", data={"name": "Summary"}).status_code == 422
    assert hx.post(f"/sheets/s/{b}/tabs/{t}/rename", data={"name": "Register"}).status_code == 204
    assert cell(slot, b, "Summary", "B2")["input"] == "=Register!D10"
    assert hx.post(f"/sheets/s/{b}/rename", data={"title": "Damages Model v2"}).status_code == 200
    assert hx.post(f"/sheets/s/{b}/rename", data={"title": ""}).status_code == 422
    assert hx.post(f"/sheets/s/{b}/tabs/{t}/delete").status_code == 204
    assert cell(slot, b, "Summary", "B2")["value"]["error"] == "#REF!"


def test_new_download_trash_and_open_csv(client, hx, slot):
    r = client.post("/sheets/new")
    assert r.status_code == 302
    b = int(r.headers["Location"].rsplit("/", 1)[1])
    assert b"Untitled spreadsheet" in client.get(f"/sheets/s/{b}").data
    d, _ = ids(slot)
    x = client.get(f"/sheets/s/{d}/download?format=xlsx")
    assert x.status_code == 200 and x.data[:2] == b"PK"
    c = client.get(f"/sheets/s/{d}/download?format=csv")
    assert c.data.startswith(b"Claim ID,Claimant") and ".csv" in c.headers["Content-Disposition"]
    assert client.get(f"/sheets/s/{d}/download?format=pdf").status_code == 422
    with slot.store() as st:
        csv_item = st.scalar("SELECT id FROM drive_items WHERE name='Claims Register.csv'")
    r = client.post(f"/sheets/from-drive/{csv_item}")
    assert r.status_code == 302 and "/sheets/s/" in r.headers["Location"]
    pdf = None
    with slot.store() as st:
        pdf = st.scalar("SELECT id FROM drive_items WHERE name LIKE 'Final Survey Report%'")
    assert client.post(f"/sheets/from-drive/{pdf}").status_code == 422
    assert hx.post(f"/sheets/s/{b}/trash").status_code == 204


def test_viewer_cannot_edit(app, slot):
    from tests.conftest import make_client
    henry = make_client(app, "henry.adeyemi")
    b, t = ids(slot)
    page = henry.get(f"/sheets/s/{b}")
    assert page.status_code == 200 and b'data-editable="0"' in page.data and b"View only" in page.data
    r = henry.post(f"/sheets/s/{b}/cells", json={"tab": t, "edits": {"A1": "x"}})
    assert r.status_code == 403 and "edit access" in r.get_json()["error"]


def test_xlsx_download_is_dated_by_world_time_alone(client, slot):
    """The workbook's own dates (docProps/core.xml) are the world's clock, not the machine's:
    the same spreadsheet downloads byte for byte the same whenever it is asked for."""
    import io
    import re
    import zipfile
    d, _ = ids(slot)
    data = client.get(f"/sheets/s/{d}/download?format=xlsx").data
    with slot.store() as st:
        now = st.now().strftime("%Y-%m-%dT%H:%M:%S")
    core = zipfile.ZipFile(io.BytesIO(data)).read("docProps/core.xml").decode()
    assert re.findall(r"<dcterms:(created|modified)[^>]*>([^<]+)<", core) == [("created", now + "Z"),
                                                                              ("modified", now + "Z")], core
    assert client.get(f"/sheets/s/{d}/download?format=xlsx").data == data
