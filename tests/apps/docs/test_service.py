"""Docs service: documents from the world, saving as the smallest change, comments, access."""
from __future__ import annotations

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.docs import blocks as B
from apps.docs import service as docs

V2 = "Corvane Claim in Limitation – DRAFT v2"
SETTLEMENT = "Draft Settlement and Release – Calder Bay Fishermen's Cooperative (DRAFT)"


def doc_id(store, title):
    rows = store.select("drive_items", "name=? AND kind='doc'", (title,))
    assert len(rows) == 1, rows
    return rows[0]["ref"]


def test_world_documents_are_blocks_with_comments(store):
    d = docs.get(store, "alex.chen", doc_id(store, V2))
    assert d["role"] == "editor" and d["item"]["kind"] == "doc"
    types = [b["type"] for b in d["blocks"]]
    assert "heading" in types and "numbered" in types and "paragraph" in types
    assert any("$[__________]" in b["text"] for b in d["blocks"])
    cs = docs.comments(store, "alex.chen", d["id"])
    open_ = [c for c in cs if not c["resolved"]]
    assert [c["author"] for c in open_] == ["eleanor.vance"]
    assert open_[0]["quote"] == "The fund is therefore deficient by"
    # the anchor is a comment mark over exactly that text
    b = next(b for b in d["blocks"] if "deficient by" in b["text"])
    m = next(m for m in b["marks"] if m[2] == "comment" and m[3] == str(open_[0]["id"]))
    assert b["text"][m[0]:m[1]] == "The fund is therefore deficient by"
    resolved = [c for c in cs if c["resolved"]]
    assert resolved and resolved[0]["replies"][0]["author"] == "alex.chen"


def test_opening_and_saving_unchanged_changes_nothing(store, alex):
    did = doc_id(store, V2)
    before = export(store)
    html = B.to_html(docs.get(store, "alex.chen", did)["blocks"])
    assert docs.save_html(store, alex, did, html) is False
    docs.DOCS.record_open(store, alex, did)
    assert content_changes(diff(before, export(store))) == []


def test_saving_an_edit_writes_only_that_block(store, alex):
    did = doc_id(store, V2)
    d = docs.get(store, "alex.chen", did)
    blocks = d["blocks"]
    i = next(i for i, b in enumerate(blocks) if "deficient by" in b["text"])
    edited = blocks[i]["text"].replace("$[__________], and Corvane", "$8,760,000, and Corvane")
    assert edited != blocks[i]["text"]
    blocks[i]["text"] = edited
    before = export(store)
    assert docs.save_html(store, alex, did, B.to_html(blocks)) is True
    changes = content_changes(diff(before, export(store)))
    block_changes = [c for c in changes if c["table"] == "docs_blocks"]
    assert len(block_changes) == 1 and "$8,760,000" in str(block_changes[0])
    assert docs.get(store, "alex.chen", did)["revision"] == d["revision"] + 1
    assert "$8,760,000, and Corvane" in docs.text(store, did)


def test_save_drops_scripts_and_foreign_comment_marks(store, alex):
    did = docs.create(store, alex, None, "Scratch")
    docs.save_html(store, alex, did, '<p>ok<script>alert(1)</script> <span data-comment="99999">x</span>'
                                      '<a href="javascript:alert(1)">y</a></p>')
    [b] = docs.get(store, "alex.chen", did)["blocks"]
    assert b["text"] == "ok xy" and b["marks"] == []


def test_create_puts_the_document_in_drive(store, alex):
    did = docs.create(store, alex, None, "Meeting notes")
    d = docs.get(store, "alex.chen", did)
    assert d["item"]["owner"] == "alex.chen" and d["item"]["parent"] is None and d["title"] == "Meeting notes"
    assert d["blocks"] == [B.block("paragraph")]
    assert [x["title"] if "title" in x else x["name"] for x in docs.documents(store, "alex.chen", "meeting")] \
        == ["Meeting notes"]


def test_comment_reply_resolve(store, alex):
    did = doc_id(store, V2)
    d = docs.get(store, "alex.chen", did)
    html = B.to_html(d["blocks"]).replace("Hon. Imelda Rourke", '<span data-comment="new">Hon. Imelda Rourke</span>', 1)
    cid = docs.add_comment(store, alex, did, "Check the judge's initials.", html)
    c = store.get("docs_comments", cid)
    assert c["quote"] == "Hon. Imelda Rourke" and c["author"] == "alex.chen" and not c["resolved"]
    docs.reply(store, alex, cid, "Confirmed against the order.")
    docs.resolve(store, alex, cid)
    assert store.get("docs_comments", cid)["resolved"] and store.get("docs_comments", cid)["resolved_by"] == "alex.chen"
    docs.resolve(store, alex, cid, False)
    assert not store.get("docs_comments", cid)["resolved"]
    with pytest.raises(Invalid):
        docs.add_comment(store, alex, did, "  ", html)
    with pytest.raises(Invalid):
        docs.add_comment(store, alex, did, "no range", B.to_html(d["blocks"]))
    with pytest.raises(Invalid):
        docs.reply(store, alex, cid, "")
    with pytest.raises(NotFound):
        docs.reply(store, alex, 999999, "x")


def test_viewers_cannot_edit_and_commenters_cannot_change_text(store):
    henry = Caller(user="henry.adeyemi")          # viewer on the matter folder
    did = doc_id(store, V2)
    html = B.to_html(docs.get(store, "henry.adeyemi", did)["blocks"])
    with pytest.raises(Forbidden):
        docs.save_html(store, henry, did, "<p>gone</p>")
    with pytest.raises(Forbidden):
        docs.add_comment(store, henry, did, "hi", html.replace("Hon.", '<span data-comment="new">Hon.</span>', 1))
    laura = Caller(user="laura.whitfield")        # commenter on the settlement draft
    sid = doc_id(store, SETTLEMENT)
    d = docs.get(store, "laura.whitfield", sid)
    assert d["role"] == "commenter"
    html = B.to_html(d["blocks"])
    word = d["blocks"][0]["text"].split()[0]
    marked = html.replace(word, f'<span data-comment="new">{word}</span>', 1)
    cid = docs.add_comment(store, laura, sid, "Client comment", marked)
    assert store.get("docs_comments", cid)["quote"] == word
    with pytest.raises(Forbidden):
        docs.add_comment(store, laura, sid, "sneaky", marked.replace("</p>", " (amended)</p>", 1))
    with pytest.raises(NotFound):
        docs.get(store, "laura.whitfield", doc_id(store, V2))


def test_exports(store):
    did = doc_id(store, V2)
    md = docs.markdown(store, "alex.chen", did)
    assert "# PORT CALDER ADMIRALTY COURT" in md and "$[__________]" in md
    assert B.from_markdown(md) == [{**b, "marks": [m for m in b["marks"] if m[2] != "comment"]}
                                   for b in docs.get(store, "alex.chen", did)["blocks"]]
    data = docs.docx_bytes(store, "alex.chen", did)
    import io

    from docx import Document
    d = Document(io.BytesIO(data))
    assert any("PORT CALDER ADMIRALTY COURT" in p.text for p in d.paragraphs)
    assert d.core_properties.title == V2
    assert docs.docx_bytes(store, "alex.chen", did) == data       # byte-stable: world time, no wall clock


def test_docx_export_draws_a_line_and_breaks_the_page(store, alex):
    import io

    from docx import Document
    did = doc_id(store, V2)
    html = B.to_html(docs.get(store, "alex.chen", did)["blocks"])
    docs.save_html(store, alex, did, html + '<hr><p>After the line</p><hr data-break="page"><p>Next page</p>')
    d = Document(io.BytesIO(docs.docx_bytes(store, "alex.chen", did)))
    xml = d.element.xml
    assert '<w:br w:type="page"/>' in xml and "<w:pBdr>" in xml
    texts = [p.text for p in d.paragraphs]
    assert texts.index("Next page") > texts.index("After the line")


def test_find_and_replace_keeps_formatting_and_anchors(store, alex):
    did = doc_id(store, V2)
    assert docs.replace_text(store, alex, did, "$[__________]", "$160,600,000", every=False) == 1
    assert docs.replace_text(store, alex, did, "$[__________]", "$8,760,000") == 2
    assert docs.replace_text(store, alex, did, "[ac: insert rate]", "($2,750)") == 1          # any case
    assert docs.replace_text(store, alex, did, "[AC: insert rate]", "x", match_case=True) == 0
    blocks = docs.get(store, "alex.chen", did)["blocks"]
    p12 = next(b for b in blocks if "The fund is inadequate" in b["text"])
    assert "is $160,600,000. The fund deposited" in p12["text"]
    assert "deficient by $8,760,000," in p12["text"] and "($2,750)" in p12["text"]
    bold = [p12["text"][m[0]:m[1]] for m in p12["marks"] if m[2] == "bold"]
    assert "$160,600,000" in bold and "$8,760,000" in bold                      # the blanks were bold
    anchored = [p12["text"][m[0]:m[1]] for m in p12["marks"] if m[2] == "comment"]
    assert anchored == ["The fund is therefore deficient by"]
    with pytest.raises(Invalid):
        docs.replace_text(store, alex, did, "", "x")
    with pytest.raises(Forbidden):
        docs.replace_text(store, Caller(user="henry.adeyemi"), did, "Corvane", "X")
