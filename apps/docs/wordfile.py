"""A document as a Word file (.docx): headings, lists, bold/italic/underline, lines and page breaks, and
pending suggestions as tracked changes (``w:ins`` / ``w:del`` with their author and date), so Word shows
them under Review and can accept or reject them."""
from __future__ import annotations

import io

import apps.docs.blocks as B
from apps.core.files import blob_bytes, stamped_zip
from apps.core.store.db import Store


def _track(run, kind: str, s: dict, rev: int, author: str) -> None:
    """Wrap ``run`` in a ``w:ins`` or ``w:del`` (a deleted run's text is ``w:delText``)."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    el = OxmlElement("w:ins" if kind == "insert" else "w:del")
    el.set(qn("w:id"), str(rev))
    el.set(qn("w:author"), author)
    if s.get("created_at"):
        el.set(qn("w:date"), s["created_at"])
    r = run._r
    r.addprevious(el)
    el.append(r)
    if kind == "delete":
        for t in r.findall(qn("w:t")):
            t.tag = qn("w:delText")


def _runs(p, b: dict, suggestions: list[dict], names: dict[str, str]) -> None:
    dels = [s for s in suggestions if s["kind"] == "delete"]
    inserts = sorted((s for s in suggestions if s["kind"] == "insert"), key=lambda s: (s["start"], s["id"]))
    cuts = tuple(x for s in suggestions for x in (s["start"], s["end"]))
    pos = 0

    def add(text: str, active: list, track: tuple[str, dict] | None) -> None:
        run = p.add_run(text)
        kinds = {m[2]: m[3] for m in active}
        run.bold = "bold" in kinds or None
        run.italic = "italic" in kinds or None
        run.underline = "underline" in kinds or None
        _style(run, kinds)
        if track:
            _track(run, track[0], track[1], track[1]["id"], names.get(track[1]["author"], track[1]["author"]))

    for seg, active in B._segments(b, cuts):
        for s in inserts:
            if s["start"] == pos:
                add(s["text"], [], ("insert", s))
        d = next((s for s in dels if s["start"] <= pos and pos + len(seg) <= s["end"]), None)
        add(seg, active, ("delete", d) if d else None)
        pos += len(seg)
    for s in inserts:
        if s["start"] >= pos:
            add(s["text"], [], ("insert", s))


def _style(run, kinds: dict) -> None:
    """Font, size, text colour and highlight (as shading, which takes any colour) on a run."""
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls
    from docx.shared import Pt, RGBColor
    if kinds.get("font"):
        run.font.name = str(kinds["font"])
    if isinstance(kinds.get("size"), int):
        run.font.size = Pt(kinds["size"])
    if kinds.get("color"):
        run.font.color.rgb = RGBColor.from_string(str(kinds["color"])[1:].upper())
    if kinds.get("highlight"):
        fill = str(kinds["highlight"])[1:].upper()
        run._r.get_or_add_rPr().append(parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="{fill}"/>'))


ALIGN = {"center": 1, "right": 2, "justify": 3}       # WD_ALIGN_PARAGRAPH: CENTER, RIGHT, JUSTIFY


def _image_bytes(store: Store, doc: dict, b: dict) -> bytes | None:
    """A picture Word can read (PNG, JPEG, GIF, BMP), else None (the image is left out)."""
    from PIL import Image
    iid = next((m[3] for m in b["marks"] if m[2] == "image"), None)
    row = store.get("drive_items", int(iid)) if iid is not None else None
    if row is None or not row.get("blob"):
        return None
    data = blob_bytes(store, row["blob"])
    try:
        with Image.open(io.BytesIO(data)) as im:
            return data if im.format in ("PNG", "JPEG", "GIF", "BMP") else None
    except Exception:                                  # not an image after all: nothing to draw
        return None


def docx_bytes(store: Store, doc: dict, suggestions: dict[int, list[dict]]) -> bytes:
    from docx import Document
    from docx.shared import Inches
    from docx.enum.text import WD_BREAK
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls
    names = {r["slug"]: r["name"] for r in store.all("SELECT slug, name FROM people")}
    out = Document()
    for i, b in enumerate(doc["blocks"]):
        if b["type"] == "page_break":
            out.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
            continue
        if b["type"] == "rule":                 # a paragraph with a bottom border, as Word draws a line
            bdr = parse_xml(f'<w:pBdr {nsdecls("w")}><w:bottom w:val="single" w:sz="6" w:space="1" w:color="auto"/></w:pBdr>')
            out.add_paragraph()._p.get_or_add_pPr().append(bdr)
            continue
        if b["type"] == "image":                # the Drive image's own bytes, at most the text's width
            data = _image_bytes(store, doc, b)
            if data:
                out.add_paragraph().add_run().add_picture(io.BytesIO(data), width=Inches(6))
            continue
        if b["type"] == "table":                # a real Word table, cell by cell
            rows = B.table_rows(b)
            table = out.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            col, last = 0, -1
            for r, cell, sg in B._cells(b, suggestions.get(i, [])):
                col = col + 1 if r == last else 0
                last = r
                _runs(table.cell(r, col).paragraphs[0], cell, sg, names)
            continue
        if b["type"] in ("title", "subtitle"):
            p = out.add_paragraph(style=b["type"].capitalize())
        elif b["type"] == "heading":
            p = out.add_heading(level=max(1, b["level"]))
        elif b["type"] == "bullet":
            p = out.add_paragraph(style="List Bullet" if b["level"] <= 1 else "List Bullet 2")
        elif b["type"] == "numbered":
            p = out.add_paragraph(style="List Number" if b["level"] <= 1 else "List Number 2")
        else:
            p = out.add_paragraph()
        _runs(p, b, suggestions.get(i, []), names)
        align = next((m[3] for m in b["marks"] if m[2] == "align"), None)
        if align in ALIGN:
            p.alignment = ALIGN[align]
    props = out.core_properties
    props.title = doc["title"]
    props.author = props.last_modified_by = doc["item"].get("owner", "") or ""
    stamp = store.now().replace(tzinfo=None)                          # world time: byte-stable downloads
    props.created = props.modified = stamp
    props.revision = int(doc["revision"])
    buf = io.BytesIO()
    out.save(buf)
    return stamped_zip(buf.getvalue(), stamp)
