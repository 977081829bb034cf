"""Objects on slides (apps.slides.objects): insert, move, resize, nudge, align, order, format,
bullets, delete; layout boxes as objects; images from Drive; what a change leaves in the store."""
from __future__ import annotations

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.slides import objects as O
from apps.slides import service as S

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
HENRY = Caller(user="henry.adeyemi")            # viewer on the matter folder
IMAGE = "Tern Reef grounding position.png"


def deck_id(store, title=CLIENT):
    return store.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (title,))


def first(store, did):
    return S.read_slides(store, did)[1]


def objs(store, did, n=2):
    return [o for o in S.slide_at(store, did, n)["objects"]]


def test_insert_each_kind_in_front_with_default_places(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    t = O.insert(store, alex, sid, "text", text="Note")
    r = O.insert(store, alex, sid, "shape", "rectangle", x=10, y=20, w=100, h=50)
    e = O.insert(store, alex, sid, "shape", "ellipse")
    a = O.insert(store, alex, sid, "shape", "right_arrow")
    ln = O.insert(store, alex, sid, "line", "arrow", x=100, y=300, w=200, h=-100)
    got = objs(store, did)
    assert [o["id"] for o in got] == [t, r, e, a, ln] and [o["z"] for o in got] == [1, 2, 3, 4, 5]
    assert got[0]["kind"] == "text" and got[0]["text"] == "Note" and (got[0]["x"], got[0]["w"]) == (180, 360)
    assert (got[1]["x"], got[1]["y"], got[1]["w"], got[1]["h"]) == (10, 20, 100, 50) and got[1]["shape"] == "rectangle"
    assert got[2]["shape"] == "ellipse" and got[3]["shape"] == "right_arrow" and got[2]["fill"] == "#4285f4"
    assert (got[4]["shape"], got[4]["w"], got[4]["h"]) == ("arrow", 200, -100)
    assert S.get(store, "alex.chen", did)["revision"] > 1


def test_bad_inserts_say_what_is_wrong_and_write_nothing(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    before = export(store)
    cases = [({"kind": "circle"}, "kind"), ({"kind": "shape", "shape": "blob"}, "shape"),
             ({"kind": "line", "shape": "rectangle"}, "shape"), ({"kind": "text", "w": 0}, "w"),
             ({"kind": "text", "x": "left"}, "x"), ({"kind": "line", "w": 0, "h": 0}, "w"),
             ({"kind": "image"}, "item"), ({"kind": "line", "text": "x"}, "text"), ({"kind": "text", "shape": "star"}, "shape")]
    for kw, field in cases:
        with pytest.raises(Invalid) as e:
            O.insert(store, alex, sid, **kw)
        assert e.value.field == field, (kw, e.value.message)
    with pytest.raises(Forbidden):
        O.insert(store, HENRY, sid, "text")
    with pytest.raises(NotFound):
        O.insert(store, alex, 10**9, "text")
    assert content_changes(diff(before, export(store))) == []


def test_move_resize_nudge_align_and_minimal_writes(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    oid = O.insert(store, alex, sid, "shape", "rectangle", x=10, y=20, w=100, h=50)
    assert O.move(store, alex, sid, oid, 30, 40) is True
    assert O.move(store, alex, sid, str(oid), 30, 40) is False              # unchanged: no write
    assert O.move(store, alex, sid, oid, 30, 40, 200, 80) is True
    assert O.nudge(store, alex, sid, oid, 1, 0) and O.nudge(store, alex, sid, oid, 0, -10)
    o = O.get(store, "alex.chen", sid, oid)
    assert (o["x"], o["y"], o["w"], o["h"]) == (31, 30, 200, 80)
    for side, want in [("left", (0, 30)), ("center", (260, 30)), ("right", (520, 30)), ("top", (520, 0)),
                       ("middle", (520, 162)), ("bottom", (520, 325))]:
        O.align(store, alex, sid, oid, side)
        o = O.get(store, "alex.chen", sid, oid)
        assert (o["x"], o["y"]) == want, side
    with pytest.raises(Invalid) as e:
        O.align(store, alex, sid, oid, "diagonal")
    assert e.value.field == "side"
    with pytest.raises(Invalid) as e:
        O.move(store, alex, sid, oid, 10, 10, -5, 10)
    assert e.value.field == "w"
    with pytest.raises(Invalid):
        O.nudge(store, alex, sid, oid, 99999, 0)
    # a line keeps its direction when aligned: its bounds go to the side
    ln = O.insert(store, alex, sid, "line", "line", x=300, y=300, w=-100, h=-50)
    O.align(store, alex, sid, ln, "left")
    o = O.get(store, "alex.chen", sid, ln)
    assert (o["x"], o["y"], o["w"], o["h"]) == (100, 300, -100, -50)


def test_layout_boxes_move_and_format_without_touching_their_text(store, alex):
    did = deck_id(store)
    s = first(store, did)
    sid = s["id"]
    before = export(store)
    assert O.move(store, alex, sid, "title", 33, 27) is False              # where the layout puts it: nothing to write
    assert O.set_format(store, alex, sid, "title", bold=False) is False
    assert content_changes(diff(before, export(store))) == []
    assert O.nudge(store, alex, sid, "title", 10, 0) is True
    t = O.get(store, "alex.chen", sid, "title")
    assert (t["x"], t["y"], t["kind"], t["text"]) == (43, 27, "placeholder", s["boxes"]["title"])
    assert O.set_format(store, alex, sid, "body", bold=True, size=20, color="#EA4335", align="center")
    b = O.get(store, "alex.chen", sid, "body")
    assert (b["bold"], b["size"], b["color"], b["align"], b["x"]) == (True, 20, "#ea4335", "center", 33)
    assert next(o for o in objs(store, did) if o["role"] == "body")["x"] is None    # still where its layout puts it
    assert S.slide_at(store, did, 2)["boxes"] == s["boxes"]                 # text untouched
    with pytest.raises(Invalid):
        O.delete(store, alex, sid, "title")
    with pytest.raises(Invalid) as e:
        O.move(store, alex, sid, "subtitle", 1, 1)                          # a title-and-body slide has none
    assert e.value.field == "ref"
    # a layout change keeps the formatting and puts the box where the new layout wants it
    S.set_layout(store, alex, sid, "two_columns")
    roles = {o["role"]: o for o in objs(store, did) if o["kind"] == "placeholder"}
    assert set(roles) == {"title", "left"} and roles["left"]["bold"] and roles["title"]["x"] is None


def test_format_and_bullets(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    t = O.insert(store, alex, sid, "text", text="One\nTwo")
    assert O.set_format(store, alex, sid, t, bold="true", italic=True, underline=False, size="24", color="red")
    o = O.get(store, "alex.chen", sid, t)
    assert (o["bold"], o["italic"], o["size"], o["color"]) == (True, True, 24, "#ea4335")
    assert O.set_bullets(store, alex, sid, t, True) and O.get(store, "alex.chen", sid, t)["text"] == "- One\n- Two"
    assert O.set_bullets(store, alex, sid, t, False) and O.get(store, "alex.chen", sid, t)["text"] == "One\nTwo"
    ln = O.insert(store, alex, sid, "line")
    bad = [({"size": 2}, "size"), ({"color": "blurple"}, "color"), ({"align": "justify"}, "align"),
           ({"font": "Arial"}, "font"), ({"bold": "maybe"}, "bold")]
    for kw, field in bad:
        with pytest.raises(Invalid) as e:
            O.set_format(store, alex, sid, t, **kw)
        assert e.value.field == field, kw
    with pytest.raises(Invalid):
        O.set_format(store, alex, sid, ln, bold=True)
    assert O.set_format(store, alex, sid, ln, stroke="#0b5394", weight=4)
    with pytest.raises(Invalid):
        O.set_bullets(store, alex, sid, "title", True)
    assert O.set_bullets(store, alex, sid, "body", False)
    assert not S.slide_at(store, did, 2)["boxes"]["body"].startswith("- ")


def test_order_delete_duplicate_and_delete_slide(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    a, b, c = (O.insert(store, alex, sid, "shape", "rectangle") for _ in range(3))
    O.order(store, alex, sid, a, "front")
    assert [o["id"] for o in objs(store, did)] == [b, c, a]
    O.order(store, alex, sid, a, "backward")
    O.order(store, alex, sid, b, "forward")
    assert [o["id"] for o in objs(store, did)] == [a, b, c]
    assert O.order(store, alex, sid, a, "back") is False                  # already at the back
    O.order(store, alex, sid, c, "back")
    assert [o["id"] for o in objs(store, did)] == [c, a, b]
    O.delete(store, alex, sid, c)
    with pytest.raises(NotFound):
        O.delete(store, alex, sid, c)
    copy = S.duplicate_slide(store, alex, sid)
    assert [o["kind"] for o in S.slide_at(store, did, 3)["objects"]] == ["shape", "shape"]
    S.delete_slide(store, alex, copy)
    assert store.scalar("SELECT COUNT(*) FROM slides_objects WHERE slide=?", (copy,)) == 0


def test_images_from_drive(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    found = O.images(store, "alex.chen", "grounding")
    assert [i["name"] for i in found] == [IMAGE]
    assert O.images(store, "laura.whitfield") == []                    # the client sees none of the firm's files
    oid = O.insert(store, alex, sid, "image", item=found[0]["id"])
    o = O.get(store, "alex.chen", sid, oid)
    assert o["kind"] == "image" and o["item"] == found[0]["id"] and o["w"] > 0 and o["h"] > 0
    row = store.get("slides_objects", oid)
    assert row["blob"] == found[0]["blob"]
    doc = store.scalar("SELECT id FROM drive_items WHERE kind='deck' LIMIT 1")
    with pytest.raises(NotFound):
        O.insert(store, alex, sid, "image", item=doc)


def test_pptx_carries_objects_positions_sizes_and_formatting(store, alex):
    import io

    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE, MSO_SHAPE_TYPE
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Pt
    did = deck_id(store)
    sid = first(store, did)["id"]
    O.nudge(store, alex, sid, "title", 10, 5)
    O.set_format(store, alex, sid, "title", bold=True, color="#0b5394", size=30)
    t = O.insert(store, alex, sid, "text", text="- One\nTwo", x=100, y=50, w=200, h=80)
    O.set_format(store, alex, sid, t, italic=True, size=20, align="center", underline=True, fill="#fbbc04",
                 stroke="#000000", weight=2)
    O.insert(store, alex, sid, "shape", "ellipse", x=400, y=200, w=150, h=100, text="Risk")
    r = O.insert(store, alex, sid, "shape", "right_arrow", x=10, y=300, w=90, h=40)
    O.set_format(store, alex, sid, r, fill="none", stroke="#ea4335", weight=3)
    O.insert(store, alex, sid, "line", "arrow", x=600, y=380, w=-200, h=-60)
    img = O.images(store, "alex.chen")[0]
    O.insert(store, alex, sid, "image", item=img["id"], x=560, y=20, w=140, h=90)
    data = S.pptx_bytes(store, "alex.chen", did)
    assert S.pptx_bytes(store, "alex.chen", did) == data                    # byte-stable
    prs = Presentation(io.BytesIO(data))
    assert (prs.slide_width, prs.slide_height) == (720 * 12700, 405 * 12700)
    shp = list(prs.slides[1].shapes)
    pt = 12700
    title = prs.slides[1].shapes.title
    assert (title.left, title.top) == (43 * pt, 32 * pt) and title.text == "Where things stand"
    run = title.text_frame.paragraphs[0].runs[0].font
    assert run.bold and run.size == Pt(30) and str(run.color.rgb) == "0B5394"
    body = prs.slides[1].placeholders[1]
    assert (body.left, body.top, body.width, body.height) == (33 * pt, 93 * pt, 654 * pt, 282 * pt)
    rest = shp[2:]                                                           # back to front, after the layout's boxes
    box, oval, arrow, line, pic = rest
    assert box.shape_type == MSO_SHAPE_TYPE.TEXT_BOX and (box.left, box.top, box.width, box.height) == (
        100 * pt, 50 * pt, 200 * pt, 80 * pt)
    p0, p1 = box.text_frame.paragraphs
    assert (p0.text, p1.text) == ("One", "Two") and p0.alignment == PP_ALIGN.CENTER
    assert p0._p.pPr.find("{http://schemas.openxmlformats.org/drawingml/2006/main}buChar") is not None
    assert p1._p.pPr is None or p1._p.pPr.find("{http://schemas.openxmlformats.org/drawingml/2006/main}buChar") is None
    f = p0.runs[0].font
    assert f.italic and f.underline and f.size == Pt(20)
    assert str(box.fill.fore_color.rgb) == "FBBC04" and box.line.width == Pt(2)
    assert oval.auto_shape_type == MSO_SHAPE.OVAL and oval.text == "Risk" and str(oval.fill.fore_color.rgb) == "4285F4"
    assert (oval.left, oval.width) == (400 * pt, 150 * pt)
    assert arrow.auto_shape_type == MSO_SHAPE.RIGHT_ARROW and str(arrow.line.color.rgb) == "EA4335"
    assert arrow.line.width == Pt(3)
    assert line.shape_type == MSO_SHAPE_TYPE.LINE
    assert (line.begin_x, line.begin_y, line.end_x, line.end_y) == (600 * pt, 380 * pt, 400 * pt, 320 * pt)
    assert line.line._get_or_add_ln().find("{http://schemas.openxmlformats.org/drawingml/2006/main}tailEnd") is not None
    assert pic.shape_type == MSO_SHAPE_TYPE.PICTURE and (pic.left, pic.top, pic.width, pic.height) == (
        560 * pt, 20 * pt, 140 * pt, 90 * pt)
    assert pic.image.blob[:4] == b"\x89PNG"


def test_the_standard_layouts_and_text_that_loses_its_place_becomes_a_text_box(store, alex):
    assert list(S.LAYOUT_NAMES.values()) == [
        "Title slide", "Section header", "Title and body", "Title and two columns", "Title only", "One column text",
        "Main point", "Section title and description", "Caption", "Big number", "Blank"]
    did = deck_id(store)
    s = first(store, did)
    sid, title, body = s["id"], s["boxes"]["title"], s["boxes"]["body"]
    O.nudge(store, alex, sid, "title", 0, 20)
    O.set_format(store, alex, sid, "title", bold=True)
    S.set_layout(store, alex, sid, "blank")
    now = S.slide_at(store, did, 2)
    assert now["layout"] == "blank" and now["boxes"] == {}
    boxes = [o for o in now["objects"] if o["kind"] == "text"]
    assert [(b["text"], b["x"], b["y"]) for b in boxes] == [(body, 33, 93), (title, 33, 47)]
    assert boxes[1]["bold"] is True and [o for o in now["objects"] if o["kind"] == "placeholder"] == []
    S.set_layout(store, alex, sid, "big_number")
    now = S.slide_at(store, did, 2)
    assert now["boxes"] == {"title": "", "body": ""} and len(now["objects"]) == 2
    S.set_text(store, alex, sid, "title", "$160.6m")
    S.set_layout(store, alex, sid, "section_description")
    assert S.slide_at(store, did, 2)["boxes"] == {"title": "$160.6m", "subtitle": "", "body": ""}
    S.set_layout(store, alex, sid, "caption")                       # the title has no place: into the caption
    now = S.slide_at(store, did, 2)
    assert now["boxes"] == {"body": "$160.6m"} and len(now["objects"]) == 2
    for layout in S.LAYOUTS:
        new = S.add_slide(store, alex, did, layout=layout, texts={r: f"{r} text" for r in S.LAYOUTS[layout]})
        assert S.slide(store, "alex.chen", new)["boxes"] == {r: f"{r} text" for r in S.LAYOUTS[layout]}
    import io

    from pptx import Presentation
    prs = Presentation(io.BytesIO(S.pptx_bytes(store, "alex.chen", did)))
    texts = [sorted(sh.text_frame.text for sh in sl.shapes if sh.has_text_frame) for sl in list(prs.slides)[-11:]]
    assert texts[0] == ["title text", "subtitle text"][::-1] or texts[0] == ["subtitle text", "title text"]
    assert texts[-1] == [] and texts[-3] == ["body text"]             # blank; caption: its body as a text box
    assert texts[-4] == ["body text", "subtitle text", "title text"]  # section title and description
    txt = S.text_export(store, "alex.chen", did)
    assert "$160.6m" in txt and "big_number" not in txt


def test_theme_and_background_minimal_writes_duplicate_and_pptx(store, alex):
    import io

    from pptx import Presentation

    from apps.slides import looks
    did = deck_id(store)
    s2, s3 = S.read_slides(store, did)[1:3]
    before = export(store)
    assert looks.set_theme(store, alex, did, "simple_light") is False            # the default: nothing to write
    assert looks.set_background(store, alex, s2["id"], "") is False
    assert content_changes(diff(before, export(store))) == []
    assert looks.set_theme(store, alex, did, "simple_dark") is True
    assert looks.set_theme(store, alex, did, "simple_dark") is False
    assert looks.set_background(store, alex, s2["id"], "#fbbc04") is True
    assert S.get(store, "alex.chen", did)["theme"] == "simple_dark"
    assert [s["background"] for s in S.read_slides(store, did)[1:3]] == ["#fbbc04", ""]
    with pytest.raises(Invalid) as e:
        looks.set_theme(store, alex, did, "vaporwave")
    assert e.value.field == "theme" and "Simple Dark" in e.value.message
    with pytest.raises(Invalid):
        looks.set_background(store, alex, s3["id"], "#ggg")
    with pytest.raises(Forbidden):
        looks.set_background(store, HENRY, s3["id"], "#ffffff")
    copy = S.duplicate_slide(store, alex, s2["id"])
    assert S.slide(store, "alex.chen", copy)["background"] == "#fbbc04"
    S.delete_slide(store, alex, copy)
    assert store.scalar("SELECT COUNT(*) FROM slides_looks WHERE slide=?", (copy,)) == 0
    prs = Presentation(io.BytesIO(S.pptx_bytes(store, "alex.chen", did)))
    assert str(prs.slides[1].background.fill.fore_color.rgb) == "FBBC04"
    assert str(prs.slides[2].background.fill.fore_color.rgb) == "212121"     # the theme's
    run = prs.slides[2].shapes.title.text_frame.paragraphs[0].runs[0]
    assert str(run.font.color.rgb) == "FFFFFF"
    assert looks.set_background(store, alex, s2["id"], "") is True
    assert S.read_slides(store, did)[1]["background"] == ""


def test_duplicate_an_object(store, alex):
    did = deck_id(store)
    sid = first(store, did)["id"]
    a = O.insert(store, alex, sid, "shape", "star", x=100, y=100, w=50, h=50, text="Hi")
    O.set_format(store, alex, sid, a, fill="#34a853", bold=True)
    b = O.insert(store, alex, sid, "line")
    c = O.duplicate(store, alex, sid, a)
    got = {o["id"]: o for o in objs(store, did)}
    assert [o["id"] for o in objs(store, did)] == [a, b, c] and got[c]["z"] == 3
    assert {k: got[c][k] for k in ("kind", "shape", "x", "y", "w", "h", "text", "fill", "bold")} == {
        "kind": "shape", "shape": "star", "x": 110, "y": 110, "w": 50, "h": 50, "text": "Hi", "fill": "#34a853", "bold": True}
    with pytest.raises(Invalid):
        O.duplicate(store, alex, sid, "title")
