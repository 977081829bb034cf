"""Tables in the service layer: a table is one block whose text is its cells (tab between cells, a line
break between rows); parsing, drawing, Markdown, .docx, inserting one, and bad input."""
from __future__ import annotations

import io

import pytest

from apps.core.errors import Invalid
from apps.core.store.db import Caller
from apps.docs import blocks as B
from apps.docs import review
from apps.docs import service as docs

ALEX = Caller(user="alex.chen")
HTML = ('<p>Before</p><table><tbody><tr><td>Vessel</td><td><b>Tonnage</b></td></tr>'
        '<tr><td>Halcyon</td><td>12,000</td></tr></tbody></table><p>After</p>')


def test_a_table_is_one_block_read_cell_by_cell():
    blocks = B.from_html(B.sanitize(HTML))
    assert [b["type"] for b in blocks] == ["paragraph", "table", "paragraph"]
    t = blocks[1]
    assert t["text"] == "Vessel\tTonnage\nHalcyon\t12,000" and t["marks"] == [[7, 14, "bold", True]]
    assert B.table_rows(t) == [["Vessel", "Tonnage"], ["Halcyon", "12,000"]]
    assert B.from_html(B.sanitize(B.to_html(blocks))) == blocks                      # one HTML form
    assert B.plain_text(blocks) == "Before\nVessel\tTonnage\nHalcyon\t12,000\nAfter"
    assert "| Vessel | **Tonnage** |\n| --- | --- |\n| Halcyon | 12,000 |" in B.to_markdown(blocks)


def test_what_an_editor_makes_of_a_table_is_squared_and_one_line_a_cell():
    html = ('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td><p>d</p><p><b>e</b>\t</p></td></tr>'
            '<tr><td>x<br></td><td>y</td></tr></table>')
    (t,) = B.from_html(B.sanitize(html))
    assert B.table_rows(t) == [["a", "b", "c"], ["de ", "", ""], ["x", "y", ""]]
    assert t["marks"] == [[7, 8, "bold", True]]
    empty = B.from_html(B.sanitize("<table><tr><td><br></td><td><br></td></tr></table>"))
    assert B.table_rows(empty[0]) == [["", ""]]
    assert "<td><br></td><td><br></td>" in B.to_html(empty)                           # a caret can stand in it


def test_insert_table_and_suggestions_in_cells(store):
    did = docs.create(store, ALEX, None, "T", [B.block("paragraph", "Fleet")])
    assert docs.insert_table(store, ALEX, did, 0, [["Vessel", "Tonnage"], ["Halcyon"]])
    assert docs.tables(store, "alex.chen", did) == [{"index": 1, "rows": [["Vessel", "Tonnage"], ["Halcyon", ""]]}]
    t = docs.read_blocks(store, did)[1]
    at = t["text"].index("Tonnage")
    review.suggest(store, ALEX, did, 1, at, at + len("Tonnage"), "GT")
    assert "Vessel\tGT\nHalcyon\t" in docs.text_if_accepted(store, did)
    html = docs.S.editor_html(store, did, docs.read_blocks(store, did))
    assert '<td><del data-suggestion="' in html and ">GT</ins></td>" in html
    assert docs.save_editor(store, ALEX, did, html) == (False, {})                     # the page round-trips
    review.accept_all(store, ALEX, did)
    assert docs.tables(store, "alex.chen", did)[0]["rows"] == [["Vessel", "GT"], ["Halcyon", ""]]
    assert docs.replace_text(store, ALEX, did, "Halcyon", "Halcyon Dawn") == 1
    assert docs.tables(store, "alex.chen", did)[0]["rows"][1] == ["Halcyon Dawn", ""]
    for bad in ([], [[]], [["x"] * 51]):
        with pytest.raises(Invalid):
            docs.insert_table(store, ALEX, did, 0, bad)
    with pytest.raises(Invalid):
        docs.insert_table(store, ALEX, did, 9, [["x"]])
    with pytest.raises(Invalid):
        docs.replace_text(store, ALEX, did, "Vessel\tGT", "x")


def test_docx_has_a_real_table(store):
    import docx
    did = docs.create(store, ALEX, None, "T", [B.block("paragraph", "Fleet"),
                                               docs.table_block([["Vessel", "Tonnage"], ["Halcyon", "12,000"]])])
    d = docx.Document(io.BytesIO(docs.docx_bytes(store, "alex.chen", did)))
    (t,) = d.tables
    assert [[c.text for c in row.cells] for row in t.rows] == [["Vessel", "Tonnage"], ["Halcyon", "12,000"]]
    assert [p.text for p in d.paragraphs] == ["Fleet"]


def test_save_route_keeps_a_table_and_downloads_carry_it(client, hx, slot):
    r = client.post("/docs/new")
    did = int(r.headers["Location"].rsplit("/", 1)[1])
    assert hx.post(f"/docs/d/{did}/save", data={"html": HTML}).status_code == 200
    with slot.store() as st:
        assert docs.tables(st, "alex.chen", did) == [{"index": 1, "rows": [["Vessel", "Tonnage"], ["Halcyon", "12,000"]]}]
    page = client.get(f"/docs/d/{did}").data
    assert b"<table><tbody><tr><td>Vessel</td><td><strong>Tonnage</strong></td></tr>" in page
    assert b"| Vessel | **Tonnage** |" in client.get(f"/docs/d/{did}/download?format=md").data
    assert b"<td>Halcyon</td>" in client.get(f"/docs/d/{did}/download?format=html").data
