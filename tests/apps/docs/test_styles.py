"""Paragraph styles (Title, Subtitle, Heading 1–6), alignment, font, size, text and highlight colour:
read from the editor's HTML as block types and marks, drawn back in one form, carried into .docx;
nothing else gets through the sanitiser."""
from __future__ import annotations

import io

from apps.core.store.db import Caller
from apps.docs import blocks as B
from apps.docs import service as docs
from apps.docs import styles as ST

HTML = ('<p data-style="title" style="text-align:center">Memo</p><p data-style="subtitle">For the hearing</p>'
        '<h4>Four</h4><h5>Five</h5><h6>Six</h6>'
        '<p style="text-align: right">A <span style="color: rgb(217, 48, 37); font-size: 14pt">red big</span> '
        '<font face="Georgia" color="#00f">geo</font> <span style="background-color: rgb(255, 255, 0);">hi</span> '
        '<font style="font-size: 20pt">large</font></p>'
        '<ul><li style="text-align:center">item</li></ul><p style="text-align:justify"><br></p>')


def test_styles_are_block_types_and_marks():
    blocks = B.from_html(B.sanitize(HTML))
    assert [(b["type"], b["level"]) for b in blocks] == [
        ("title", 0), ("subtitle", 0), ("heading", 4), ("heading", 5), ("heading", 6), ("paragraph", 0), ("bullet", 1),
        ("paragraph", 0)]
    assert blocks[0]["marks"] == [[0, 4, "align", "center"]]
    p = blocks[5]
    assert p["text"] == "A red big geo hi large"
    assert p["marks"] == [[0, 22, "align", "right"], [2, 9, "size", 14], [2, 9, "color", "#d93025"],
                          [10, 13, "font", "Georgia"], [10, 13, "color", "#0000ff"], [14, 16, "highlight", "#ffff00"],
                          [17, 22, "size", 20]]
    assert blocks[6]["marks"] == [[0, 4, "align", "center"]] and blocks[7]["marks"] == [[0, 0, "align", "justify"]]
    html = B.to_html(blocks)
    assert '<p data-style="title" style="text-align:center">Memo</p>' in html and "<h6>Six</h6>" in html
    assert B.from_html(B.sanitize(html)) == blocks                                     # one HTML form
    md = B.to_markdown(blocks)
    assert md.startswith("# Memo\n\nFor the hearing\n\n#### Four\n\n##### Five\n\n###### Six")


def test_only_known_styles_get_through():
    evil = ('<p style="text-align:left; position:fixed">x<span style="color:url(javascript:1); font-size:9999pt; '
            'font-family:\'<b>\'">y</span><span style="background-color: transparent">z</span></p>')
    clean = B.sanitize(evil)
    assert "position" not in clean and "javascript" not in clean
    (b,) = B.from_html(clean)
    assert b["marks"] == []                                                  # left is the default; bad values dropped
    assert ST.color("#ABC") == "#aabbcc" and ST.color("rgba(0, 0, 0, 0)") is None and ST.size("16px") == 12
    assert ST.font('"times new roman", serif') == "Times New Roman" and ST.size("x-large") == 18


def test_docx_carries_styles(store):
    import docx
    did = docs.create(store, Caller(user="alex.chen"), None, "S", B.from_html(B.sanitize(HTML)))
    d = docx.Document(io.BytesIO(docs.docx_bytes(store, "alex.chen", did)))
    ps = d.paragraphs
    assert [p.style.name for p in ps[:5]] == ["Title", "Subtitle", "Heading 4", "Heading 5", "Heading 6"]
    assert ps[0].alignment == 1 and ps[5].alignment == 2
    runs = {r.text: r for r in ps[5].runs}
    assert str(runs["red big"].font.color.rgb) == "D93025" and runs["red big"].font.size.pt == 14
    assert runs["geo"].font.name == "Georgia"
    assert 'w:fill="FFFF00"' in runs["hi"]._r.xml


def test_outline_is_the_title_and_headings(store):
    did = docs.create(store, Caller(user="alex.chen"), None, "S", B.from_html(B.sanitize(HTML)))
    assert docs.outline(store, "alex.chen", did) == [
        {"index": 0, "level": 0, "text": "Memo"}, {"index": 2, "level": 4, "text": "Four"},
        {"index": 3, "level": 5, "text": "Five"}, {"index": 4, "level": 6, "text": "Six"}]
