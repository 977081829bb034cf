"""Slides service: world decks, minimal writes, slide commands, layouts, access, exports."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.core.store.export import content_changes, diff, export
from apps.core.world import WorldError
from apps.slides import seed
from apps.slides import service as slides

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
STRATEGY = "Case Strategy – Limitation and §9"
HENRY = Caller(user="henry.adeyemi")            # viewer on the matter folder
LAURA = Caller(user="laura.whitfield")          # client: no access to the firm's decks


def deck_id(store, title):
    rows = store.select("drive_items", "name=? AND kind='deck'", (title,))
    assert len(rows) == 1, rows
    return rows[0]["ref"]


def titles(store, did):
    return [s["boxes"]["title"] for s in slides.read_slides(store, did)]


def changes(before, store):
    return content_changes(diff(before, export(store)))


def test_world_decks_import_in_order_with_layouts_titles_and_notes(store):
    d = slides.get(store, "alex.chen", deck_id(store, CLIENT))
    assert d["role"] == "editor" and d["item"]["kind"] == "deck" and d["item"]["owner"] == "eleanor.vance"
    assert d["item"]["app_url"] == f"/slides/p/{d['id']}"
    ss = d["slides"]
    assert [s["seq"] for s in ss] == list(range(1, 9))
    assert [s["layout"] for s in ss] == ["title", "title_body", "title_body", "two_columns", "title_body",
                                        "title_body", "title_body", "title_body"]
    assert ss[0]["boxes"]["title"] == "MT Aurelia Dawn — Update for the Board"
    assert ss[0]["boxes"]["subtitle"].startswith("Corvane Energy Corporation | April 2026")
    assert ss[2]["boxes"]["title"] == "Halcyon's limit vs. the fund it put up"
    assert "- Halcyon's COPLA limit: 58,400 x $2,750 = $160,600,000" in ss[2]["boxes"]["body"].split("\n")
    assert ss[3]["boxes"]["left"].startswith("Third-party claims presented (Claims Register):\n- State DEP")
    assert "Third-party total: [to confirm]" in ss[3]["boxes"]["left"]
    assert ss[3]["boxes"]["right"].endswith("it may move materially")
    assert ss[1]["notes"].startswith("Board members have seen 12,000 and 18,400 bbl")
    assert not ss[1]["notes"].endswith("\n")
    # one box row per box of the layout, stored as the editor saves it
    rows = store.select("slides_boxes", "slide=?", (ss[3]["id"],))
    assert sorted(r["role"] for r in rows) == ["left", "right", "title"]
    strategy = slides.get(store, "alex.chen", deck_id(store, STRATEGY))
    assert [s["layout"] for s in strategy["slides"]][:3] == ["title", "section", "two_columns"]
    assert strategy["slides"][1]["boxes"] == {"title": "Part 1 — The fund (hearing April 22)", "subtitle": ""}
    assert slides.slide_at(store, strategy["id"], 4)["boxes"]["title"] == "The arithmetic"
    assert slides.slide_at(store, strategy["id"], 99) is None
    assert [x["name"] for x in slides.decks(store, "alex.chen")] == [CLIENT, STRATEGY]
    assert [x["name"] for x in slides.decks(store, "alex.chen", "strategy")] == [STRATEGY]


def test_opening_and_saving_everything_unchanged_writes_nothing(store, alex):
    before = export(store)
    for title in (CLIENT, STRATEGY):
        did = deck_id(store, title)
        slides.DECKS.record_open(store, alex, did)
        for s in slides.get(store, "alex.chen", did)["slides"]:
            for role, text in s["boxes"].items():
                assert slides.set_text(store, alex, s["id"], role, text + "\n  ") is False
            assert slides.set_notes(store, alex, s["id"], s["notes"]) is False
            assert slides.set_layout(store, alex, s["id"], s["layout"]) is False
            assert slides.move_slide(store, alex, s["id"], s["seq"]) is False
    assert changes(before, store) == []


def test_set_text_writes_only_that_box(store, alex):
    did = deck_id(store, CLIENT)
    s = slides.slide_at(store, did, 4)
    box = store.one("SELECT id FROM slides_boxes WHERE slide=? AND role='left'", (s["id"],))["id"]
    before = export(store)
    new = s["boxes"]["left"].replace("Third-party total: [to confirm]", "Third-party total: $122,755,000")
    assert slides.set_text(store, alex, s["id"], "left", new) is True
    got = changes(before, store)
    assert [(c["table"], c["key"], c["field"]) for c in got] == [("slides_boxes", str(box), "text")]
    assert "Third-party total: $122,755,000" in slides.slide_at(store, did, 4)["boxes"]["left"]
    assert slides.DECKS.open(store, "alex.chen", did)["revision"] == 2
    # text is cleaned: control characters, non-breaking spaces, CRLF, trailing spaces
    slides.set_text(store, alex, s["id"], "title", "The\x07 claims\u00a0picture  \r\nnow\x00\n\n")
    assert slides.slide_at(store, did, 4)["boxes"]["title"] == "The claims picture\nnow"
    slides.set_notes(store, alex, s["id"], "Say the total out loud.")
    assert store.get("slides_slides", s["id"])["notes"] == "Say the total out loud."


def test_add_duplicate_delete_and_move_renumber_minimally(store, alex):
    did = deck_id(store, STRATEGY)
    ss = slides.read_slides(store, did)
    ids = [s["id"] for s in ss]
    new = slides.add_slide(store, alex, did, after=ids[1], layout="title_body")
    after = slides.read_slides(store, did)
    assert [s["id"] for s in after] == ids[:2] + [new] + ids[2:]
    assert [s["seq"] for s in after] == list(range(1, 9))
    assert after[2]["boxes"] == {"title": "", "body": ""} and after[2]["layout"] == "title_body"
    end = slides.add_slide(store, alex, did, layout="section", texts={"title": "Questions"})
    assert slides.read_slides(store, did)[-1]["id"] == end and titles(store, did)[-1] == "Questions"
    copy = slides.duplicate_slide(store, alex, ids[3])
    got = slides.read_slides(store, did)
    i = [s["id"] for s in got].index(copy)
    assert got[i - 1]["id"] == ids[3]
    assert {k: got[i][k] for k in ("layout", "notes", "boxes")} == {k: got[i - 1][k] for k in ("layout", "notes", "boxes")}
    # moving rewrites only the seq of the slides that moved
    before = export(store)
    assert slides.move_slide(store, alex, ids[0], 3) is True
    got = changes(before, store)
    moved = [c for c in got if c["table"] == "slides_slides"]
    assert {c["field"] for c in moved} == {"seq"} and len(moved) == 3
    order = [s["id"] for s in slides.read_slides(store, did)]
    assert order[:4] == [ids[1], new, ids[0], ids[2]]
    # deleting takes the boxes too and closes the gap; the next slide takes its place
    box_ids = [b["id"] for b in store.select("slides_boxes", "slide=?", (new,))]
    assert slides.delete_slide(store, alex, new) == ids[0]
    assert store.get("slides_slides", new) is None and all(store.get("slides_boxes", b) is None for b in box_ids)
    got = slides.read_slides(store, did)
    assert [s["seq"] for s in got] == list(range(1, len(got) + 1))
    assert slides.delete_slide(store, alex, end) == got[-2]["id"]      # the last slide: the one before


def test_changing_layout_keeps_the_text(store, alex):
    did = deck_id(store, STRATEGY)
    two = slides.slide_at(store, did, 3)                  # two columns
    left, right = two["boxes"]["left"], two["boxes"]["right"]
    box_ids = {b["role"]: b["id"] for b in store.select("slides_boxes", "slide=?", (two["id"],))}
    assert slides.set_layout(store, alex, two["id"], "title_body") is True
    s = slides.slide_at(store, did, 3)
    assert s["layout"] == "title_body" and s["boxes"]["title"] == "Which rate? Halcyon vs. Corvane"
    assert s["boxes"]["body"] == left + "\n" + right       # the right column is appended, not lost
    rows = {b["role"]: b["id"] for b in store.select("slides_boxes", "slide=?", (two["id"],))}
    assert rows == {"title": box_ids["title"], "body": box_ids["left"]}      # same rows, body was left
    slides.set_layout(store, alex, two["id"], "two_columns")
    s = slides.slide_at(store, did, 3)
    assert s["boxes"]["left"] == left + "\n" + right and s["boxes"]["right"] == ""
    slides.set_text(store, alex, s["id"], "right", "")
    slides.set_layout(store, alex, two["id"], "title")
    assert slides.slide_at(store, did, 3)["boxes"] == {"title": "Which rate? Halcyon vs. Corvane",
                                                       "subtitle": left + "\n" + right}
    slides.set_layout(store, alex, two["id"], "section")
    assert slides.slide_at(store, did, 3)["boxes"]["subtitle"] == left + "\n" + right
    sec = slides.slide_at(store, did, 2)                  # section, empty subtitle -> two columns
    slides.set_layout(store, alex, sec["id"], "two_columns")
    assert slides.slide_at(store, did, 2)["boxes"] == {"title": "Part 1 — The fund (hearing April 22)",
                                                       "left": "", "right": ""}


def test_bad_input_is_refused_and_changes_nothing(store, alex):
    did = deck_id(store, STRATEGY)
    ss = slides.read_slides(store, did)
    before = export(store)
    with pytest.raises(Invalid, match="Unknown layout"):
        slides.add_slide(store, alex, did, layout="comparison")
    with pytest.raises(Invalid, match="Unknown layout"):
        slides.set_layout(store, alex, ss[0]["id"], "picture")
    with pytest.raises(Invalid, match="from 1 to 7"):
        slides.move_slide(store, alex, ss[0]["id"], 8)
    with pytest.raises(Invalid):
        slides.move_slide(store, alex, ss[0]["id"], 0)
    with pytest.raises(Invalid, match="at most 5,000"):
        slides.set_text(store, alex, ss[0]["id"], "title", "x" * 5001)
    with pytest.raises(Invalid, match="no body box"):
        slides.set_text(store, alex, ss[0]["id"], "body", "a title slide has no body")
    with pytest.raises(Invalid, match="Unknown text box"):
        slides.set_text(store, alex, ss[0]["id"], "footer", "x")
    with pytest.raises(Invalid):
        slides.set_notes(store, alex, ss[0]["id"], "n" * 20_001)
    with pytest.raises(Invalid, match="Enter a name"):
        slides.DECKS.rename(store, alex, did, "   ")
    with pytest.raises(NotFound):
        slides.set_text(store, alex, 999999, "title", "x")
    with pytest.raises(NotFound):
        slides.add_slide(store, alex, did, after=slides.read_slides(store, deck_id(store, CLIENT))[0]["id"])
    with pytest.raises(NotFound):                         # a slide of another deck
        slides.move_slide(store, alex, ss[0]["id"], 1, deck_id=deck_id(store, CLIENT))
    with pytest.raises(NotFound):
        slides.get(store, "alex.chen", 999999)
    assert changes(before, store) == []
    one = slides.create(store, alex, None, "One slide")
    only = slides.read_slides(store, one)[0]["id"]
    with pytest.raises(Invalid, match="at least one slide"):
        slides.delete_slide(store, alex, only)
    assert len(slides.read_slides(store, one)) == 1


def test_viewers_and_commenters_cannot_edit_and_strangers_cannot_see(store, alex):
    did = deck_id(store, CLIENT)
    s = slides.slide_at(store, did, 2)
    assert slides.get(store, "henry.adeyemi", did)["role"] == "viewer"
    before = export(store)
    for call in (lambda: slides.set_text(store, HENRY, s["id"], "title", "Hacked"),
                 lambda: slides.set_notes(store, HENRY, s["id"], "x"),
                 lambda: slides.add_slide(store, HENRY, did),
                 lambda: slides.duplicate_slide(store, HENRY, s["id"]),
                 lambda: slides.delete_slide(store, HENRY, s["id"]),
                 lambda: slides.move_slide(store, HENRY, s["id"], 1),
                 lambda: slides.set_layout(store, HENRY, s["id"], "section")):
        with pytest.raises(Forbidden, match="You can only view"):
            call()
    with pytest.raises(Forbidden):
        slides.DECKS.rename(store, HENRY, did, "Mine now")
    for call in (lambda: slides.get(store, LAURA.user, did), lambda: slides.slide(store, LAURA.user, s["id"]),
                 lambda: slides.set_text(store, LAURA, s["id"], "title", "x"), lambda: slides.pptx_bytes(store, LAURA.user, did)):
        with pytest.raises(NotFound):
            call()
    assert changes(before, store) == []
    # a commenter can't change text either
    from apps.drive import service as drive
    drive.share(store, alex, slides.DECKS.open(store, "alex.chen", did)["item"]["id"], ["laura.whitfield"], "commenter",
                notify=False)
    assert slides.get(store, LAURA.user, did)["role"] == "commenter"
    with pytest.raises(Forbidden, match="You can only comment on"):
        slides.set_text(store, LAURA, s["id"], "title", "x")


def test_create_puts_a_title_slide_deck_in_drive(store, alex):
    did = slides.create(store, alex, None, "Hearing prep")
    d = slides.get(store, "alex.chen", did)
    assert d["item"]["owner"] == "alex.chen" and d["item"]["parent"] is None and d["title"] == "Hearing prep"
    assert [(s["layout"], s["boxes"]) for s in d["slides"]] == [("title", {"title": "", "subtitle": ""})]
    folder = store.one("SELECT id FROM drive_items WHERE name='09 Presentations'")["id"]
    did2 = slides.create(store, alex, folder, slides=[{"layout": "section", "title": "A"},
                                                      {"title": "B", "body": "- one\n- two", "notes": "n"}])
    d2 = slides.get(store, "alex.chen", did2)
    assert d2["title"] == slides.UNTITLED and d2["item"]["parent"] == folder
    assert [s["boxes"]["title"] for s in d2["slides"]] == ["A", "B"] and d2["slides"][1]["notes"] == "n"
    with pytest.raises(Forbidden):
        slides.create(store, HENRY, folder, "Not allowed")


def test_pptx_has_titles_bullets_and_notes_and_is_byte_stable(store, alex):
    from pptx import Presentation
    did = deck_id(store, CLIENT)
    data = slides.pptx_bytes(store, "alex.chen", did)
    prs = Presentation(io.BytesIO(data))
    assert prs.slide_width * 9 == prs.slide_height * 16
    got = [s.shapes.title.text for s in prs.slides]
    assert got == titles(store, did)
    first = prs.slides[0]
    assert first.placeholders[1].text.startswith("Corvane Energy Corporation | April 2026")
    body = [p.text for p in prs.slides[2].placeholders[1].text_frame.paragraphs]
    assert body[2] == "Halcyon's COPLA limit: 58,400 x $2,750 = $160,600,000" and len(body) == 5
    left = prs.slides[3].placeholders[1].text_frame.paragraphs
    assert left[0].text == "Third-party claims presented (Claims Register):"
    assert left[0]._p.pPr.find("{http://schemas.openxmlformats.org/drawingml/2006/main}buNone") is not None
    assert prs.slides[3].placeholders[2].text_frame.paragraphs[-1].text.endswith("it may move materially")
    assert prs.slides[1].notes_slide.notes_text_frame.text.startswith("Board members have seen")
    assert prs.core_properties.title == CLIENT
    assert prs.core_properties.modified == store.now().replace(tzinfo=None)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert {i.date_time for i in z.infolist()} == {store.now().timetuple()[:6]}
    assert slides.pptx_bytes(store, "alex.chen", did) == data
    # an edit shows up in the download
    slides.move_slide(store, alex, slides.slide_at(store, did, 8)["id"], 1)
    assert Presentation(io.BytesIO(slides.pptx_bytes(store, "alex.chen", did))).slides[0].shapes.title.text \
        == "What we need from the board"


def test_text_and_markdown_exports(store):
    did = deck_id(store, STRATEGY)
    txt = slides.text_export(store, "alex.chen", did)
    blocks = txt.strip().split("\n\n")
    assert blocks[0].startswith("Case Strategy — Limitation and §9\nCorvane Energy – MT Aurelia Dawn")
    assert blocks[1] == "Part 1 — The fund (hearing April 22)"
    assert "- Limit: 58,400 x $2,750 = $160,600,000 (above the $23,300,000 minimum)" in txt
    assert "Rate point first" not in txt                  # notes are not slide text
    md = slides.markdown(store, "alex.chen", did)
    assert md.startswith("# Case Strategy – Limitation and §9\n\n## 1. Case Strategy — Limitation and §9")
    assert "## 4. The arithmetic" in md and "**Right column**" in md
    assert "> Notes: Rate point first" in md


def test_world_file_errors_name_the_file_and_field(store, world, tmp_path: Path):
    item = store.one("SELECT id FROM drive_items WHERE kind='deck'")["id"]
    cases = {
        "slides: []\n": "slides: List should have at least 1 item",
        "slides:\n  - {layout: comparison, title: x}\n": "slides.0.layout",
        "slides:\n  - {layout: blank, title: x}\n": "slides.0.title: a blank slide has no title box",
        "slides:\n  - {layout: title, title: x, body: y}\n": "slides.0.body: a title slide has no body box",
        "slides:\n  - {layout: title, title: x, colour: red}\n": "slides.0.colour",
        "slides: [\n": "invalid YAML",
    }
    for text, msg in cases.items():
        p = tmp_path / "Bad.gslides.yaml"
        p.write_text(text, encoding="utf-8")
        with pytest.raises(WorldError) as e:
            seed.import_file(store, world, p, item)
        assert str(p) in str(e.value) and msg in str(e.value), str(e.value)
