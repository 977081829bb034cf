"""Objects on slides in a real browser, with the mouse and keyboard: insert from the Insert menu
and the toolbar, select by click, move by drag, resize by a corner handle, nudge with the arrow
keys, align and order from the Arrange menu, format text (Ctrl+B, size, colour, alignment,
bullets), insert an image from Drive, delete with the Delete key; every step checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.slides import objects as O
from apps.slides import service as S

pytestmark = pytest.mark.browser

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
IMAGE = "Tern Reef grounding position.png"


def open_slide(page, slot, n=2):
    with slot.store() as st:
        did = st.scalar("SELECT ref FROM drive_items WHERE name=? AND kind='deck'", (CLIENT,))
        sid = S.slide_at(st, did, n)["id"]
    page.goto(f"/slides/p/{did}?slide={sid}")
    expect(page.locator("#workspace")).to_have_attribute("data-slide", str(sid))
    return did, sid


def stored(slot, sid, ref):
    with slot.store() as st:
        return O.get(st, "alex.chen", sid, ref)


def objects_of(slot, did, n=2):
    with slot.store() as st:
        return [o for o in S.slide_at(st, did, n)["objects"] if o["kind"] != "placeholder"]


def obj(page, ref):
    return page.locator(f'#canvas [data-obj="{ref}"]:not(.obj-text)')


def geom(page, ref, g):
    """Wait until the re-rendered canvas shows the object at g = (x, y, w, h): the store has it by then."""
    expect(obj(page, ref)).to_have_attribute("data-geom", ",".join(str(v) for v in g))


def menu(page, name, item):
    page.get_by_role("button", name=name, exact=True).click()
    page.get_by_role("menuitem", name=item, exact=True).click()


def inserted(page, previous=None):
    """The id of the object just inserted (the workspace comes back with it selected)."""
    expect(page.locator("#workspace[data-sel]")).to_have_count(1)
    if previous is not None:
        expect(page.locator("#workspace")).not_to_have_attribute("data-sel", previous)
    return page.locator("#workspace").get_attribute("data-sel")


def scale(page):
    return page.locator("#canvas .canvas-frame .slide").bounding_box()["width"] / 720


def center(page, ref):
    b = obj(page, ref).bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def test_insert_a_shape_then_drag_resize_nudge_align_and_delete(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    menu(page, "Insert", "Shape: Rectangle")
    oid = inserted(page)
    o = stored(live_slot, sid, oid)
    assert (o["kind"], o["shape"], o["x"], o["y"], o["w"], o["h"]) == ("shape", "rectangle", 260, 128, 200, 150)
    expect(page.locator("#selframe")).to_be_visible()
    # drag it 60 px right and 30 px down
    k = scale(page)
    x, y = center(page, oid)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 15, steps=4)
    page.mouse.move(x + 60, y + 30, steps=4)
    page.mouse.up()
    want = (260 + round(60 / k), 128 + round(30 / k), 200, 150)
    geom(page, oid, want)
    assert tuple(stored(live_slot, sid, oid)[f] for f in "xywh") == want
    # resize from the bottom-right handle
    h = page.locator("#selframe .h-se").bounding_box()
    hx, hy = h["x"] + h["width"] / 2, h["y"] + h["height"] / 2
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(hx + 40, hy + 20, steps=5)
    page.mouse.up()
    want = (want[0], want[1], 200 + round(40 / k), 150 + round(20 / k))
    geom(page, oid, want)
    # nudge: arrows move 1 pt, Shift+arrow 10 pt
    page.keyboard.press("ArrowRight")
    geom(page, oid, (want[0] + 1, *want[1:]))
    page.keyboard.press("Shift+ArrowDown")
    geom(page, oid, (want[0] + 1, want[1] + 10, *want[2:]))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    want = (want[0], want[1] + 9, want[2], want[3])
    geom(page, oid, want)
    assert tuple(stored(live_slot, sid, oid)[f] for f in "xywh") == want
    # Arrange → align to the slide's right edge, then its middle
    menu(page, "Arrange", "Align to slide: Right")
    geom(page, oid, (720 - want[2], want[1], want[2], want[3]))
    menu(page, "Arrange", "Align to slide: Middle")
    geom(page, oid, (720 - want[2], (405 - want[3]) // 2, want[2], want[3]))
    # Delete removes it; nothing else on the slide changed
    page.keyboard.press("Delete")
    expect(obj(page, oid)).to_have_count(0)
    assert objects_of(live_slot, did) == []


def test_text_box_typing_and_formatting_from_keyboard_and_toolbar(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    page.get_by_role("button", name="Text box", exact=True).click()
    oid = inserted(page)
    box = obj(page, oid)
    expect(box).to_be_focused()                          # a new text box takes the caret
    page.keyboard.type("Key dates")
    page.keyboard.press("Enter")
    page.keyboard.type("Hearing 22 April")
    page.keyboard.press("Control+b")                     # bold: the whole box, saved first
    expect(obj(page, oid)).to_have_attribute("data-bold", "1")
    o = stored(live_slot, sid, oid)
    assert o["text"] == "Key dates\nHearing 22 April" and o["bold"] is True
    # the box stays selected: Ctrl+I, a size, a colour, centred, bullets from the toolbar
    page.keyboard.press("Control+i")
    expect(obj(page, oid)).to_have_attribute("data-italic", "1")
    size = page.get_by_role("spinbutton", name="Font size")
    expect(size).to_have_value("18")                     # a text box's default
    size.fill("28")
    size.press("Enter")
    expect(obj(page, oid)).to_have_attribute("data-size", "28")
    k = scale(page)                                      # the box grows with its text; the text keeps its size
    px = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('[data-obj=\"{oid}\"]')).fontSize)")
    assert abs(px - 28 * k) < 0.5
    assert obj(page, oid).bounding_box()["height"] > 60 * k
    page.get_by_role("button", name="Text color").click()
    page.get_by_role("menuitem", name="red", exact=True).click()
    expect(obj(page, oid)).to_have_attribute("data-color", "#ea4335")
    menu(page, "Format", "Align text: Center")
    expect(obj(page, oid)).to_have_attribute("data-align", "center")
    page.get_by_role("button", name="Bulleted list").click()
    expect(obj(page, oid).locator("li")).to_have_count(2)
    o = stored(live_slot, sid, oid)
    assert (o["bold"], o["italic"], o["size"], o["color"], o["align"]) == (True, True, 28, "#ea4335", "center")
    assert o["text"] == "- Key dates\n- Hearing 22 April"
    page.keyboard.press("Control+b")                     # and off again
    expect(obj(page, oid)).to_have_attribute("data-bold", "0")
    assert stored(live_slot, sid, oid)["bold"] is False


def test_layout_title_moves_by_its_frame_and_nudges_keeping_its_text(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    before = stored(live_slot, sid, "title")
    title = page.get_by_role("textbox", name="Title")
    title.click()                                       # the caret goes in; the frame shows
    expect(page.locator("#selframe")).to_be_visible()
    k = scale(page)
    edge = page.locator("#selframe .e-t").bounding_box()
    x, y = edge["x"] + 40, edge["y"] + edge["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 40, steps=5)
    page.mouse.up()
    want = (before["x"] + round(20 / k), before["y"] + round(40 / k), before["w"], before["h"])
    geom(page, "title", want)
    page.keyboard.press("Shift+ArrowLeft")
    want = (want[0] - 10, *want[1:])
    geom(page, "title", want)
    t = stored(live_slot, sid, "title")
    assert (t["x"], t["y"], t["w"], t["h"]) == want and t["text"] == before["text"] == "Where things stand"
    page.keyboard.press("Control+b")
    expect(obj(page, "title")).to_have_attribute("data-bold", "1")
    assert stored(live_slot, sid, "title")["bold"] is True
    page.keyboard.press("Delete")                       # a layout box stays
    expect(page.locator("#toast-region")).to_contain_text("can't be deleted")
    assert stored(live_slot, sid, "title")["text"] == "Where things stand"


def test_image_from_drive_line_end_and_ellipse_order(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    page.get_by_role("button", name="Insert image").click()
    dialog = page.get_by_role("dialog", name="Insert image from Drive")
    dialog.get_by_role("searchbox", name="Search images in Drive").fill("tern")
    dialog.get_by_role("option", name=IMAGE).click()
    oid = inserted(page)
    expect(obj(page, oid).locator("img")).to_have_js_property("complete", True)
    o = stored(live_slot, sid, oid)
    with live_slot.store() as st:
        item = st.scalar("SELECT id FROM drive_items WHERE name=?", (IMAGE,))
    assert o["kind"] == "image" and o["item"] == item and o["w"] > 0
    assert page.evaluate(f"document.querySelector('[data-obj=\"{oid}\"] img').naturalWidth") > 0
    # an arrow: drag its end 50 px down
    page.get_by_role("button", name="Line", exact=True).click()
    page.get_by_role("menuitem", name="Arrow", exact=True).click()
    lid = inserted(page, oid)
    k = scale(page)
    end = page.locator("#selframe .h-end").bounding_box()
    ex, ey = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    page.mouse.move(ex, ey)
    page.mouse.down()
    page.mouse.move(ex, ey + 50, steps=5)
    page.mouse.up()
    geom(page, lid, (210, 203, 300, round(50 / k)))
    ln = stored(live_slot, sid, lid)
    assert (ln["shape"], ln["h"]) == ("arrow", round(50 / k))
    # an oval, sent to the back: behind the image and the arrow
    page.get_by_role("button", name="Shape", exact=True).click()
    page.get_by_role("menuitem", name="Oval", exact=True).click()
    eid = inserted(page, lid)
    menu(page, "Arrange", "Send to back")
    expect(page.locator("#canvas .slide > .obj").first).to_have_attribute("data-obj", eid)
    assert [str(o["id"]) for o in objects_of(live_slot, did)] == [eid, oid, lid]


def test_new_big_number_slide_theme_and_background_from_the_toolbar(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    page.get_by_role("button", name="New slide with layout").click()
    page.get_by_role("menuitem", name="Big number").click()
    expect(page.get_by_role("option", name="Slide 3")).to_have_attribute("aria-selected", "true")
    page.get_by_role("textbox", name="Title").click()
    page.keyboard.type("$160.6m")
    page.get_by_role("textbox", name="Body").click()                 # leaving the title saves it
    page.keyboard.type("Halcyon's COPLA limit")
    page.keyboard.press("Escape")
    expect(page.locator("#save-status")).to_have_text("All changes saved in Drive")
    with live_slot.store() as st:
        s3 = S.slide_at(st, did, 3)
    assert s3["layout"] == "big_number" and s3["boxes"] == {"title": "$160.6m", "body": "Halcyon's COPLA limit"}
    # the whole deck takes a theme; this slide gets a background of its own
    page.get_by_role("button", name="Theme", exact=True).click()
    page.get_by_role("menuitemradio", name="Simple Dark").click()
    expect(page.locator("#workspace")).to_have_attribute("data-theme", "simple_dark")
    expect(page.locator("[data-ocmd=theme][data-value=simple_dark]")).to_have_attribute("aria-checked", "true")
    page.get_by_role("button", name="Background", exact=True).click()
    page.get_by_role("menu", name="Background").get_by_role("menuitem", name="dark blue").click()
    expect(page.locator("#canvas .slide")).to_have_attribute("style", re.compile("--bg:#0b5394"))
    with live_slot.store() as st:
        d = S.get(st, "alex.chen", did)
    assert d["theme"] == "simple_dark" and [s["background"] for s in d["slides"][1:4]] == ["", "#0b5394", ""]
    # a layout with no place for the body: its text stays, as a text box
    page.get_by_role("button", name="Layout", exact=True).click()
    page.get_by_role("menuitemradio", name="Title only").click()
    expect(page.get_by_role("textbox", name="Text box")).to_have_text("Halcyon's COPLA limit")
    with live_slot.store() as st:
        s3 = S.slide_at(st, did, 3)
    assert s3["boxes"] == {"title": "$160.6m"} and [o["text"] for o in s3["objects"]] == ["Halcyon's COPLA limit"]


def test_undo_and_redo_with_the_keyboard_and_the_toolbar(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    menu(page, "Insert", "Shape: Triangle")
    oid = inserted(page)
    page.keyboard.press("Shift+ArrowRight")
    geom(page, oid, (270, 128, 200, 150))
    page.keyboard.press("Control+z")                               # the nudge
    geom(page, oid, (260, 128, 200, 150))
    page.keyboard.press("Control+z")                               # the insert
    expect(obj(page, oid)).to_have_count(0)
    assert objects_of(live_slot, did) == []
    page.keyboard.press("Control+y")
    expect(obj(page, oid)).to_have_count(1)
    page.get_by_role("button", name="Redo").click()
    geom(page, oid, (270, 128, 200, 150))
    assert [(o["id"], o["x"]) for o in objects_of(live_slot, did)] == [(int(oid), 270)]
    page.get_by_role("button", name="Undo").click()
    geom(page, oid, (260, 128, 200, 150))
    assert objects_of(live_slot, did)[0]["x"] == 260


def test_ctrl_d_duplicates_the_selected_object_not_the_slide(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    page.get_by_role("button", name="Shape", exact=True).click()
    page.get_by_role("menuitem", name="Star", exact=True).click()
    oid = inserted(page)
    page.keyboard.press("Control+d")
    copy = inserted(page, oid)
    geom(page, copy, (270, 138, 200, 150))
    with live_slot.store() as st:
        assert len(S.read_slides(st, did)) == 8                    # no new slide
    assert [(o["shape"], o["x"]) for o in objects_of(live_slot, did)] == [("star", 260), ("star", 270)]


def test_copy_an_object_and_paste_it_on_another_slide(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    menu(page, "Insert", "Shape: Oval")
    oid = inserted(page)
    page.keyboard.press("Shift+ArrowUp")
    geom(page, oid, (260, 118, 200, 150))
    page.keyboard.press("Control+c")
    page.get_by_role("listbox", name="Slides").get_by_role("option", name=re.compile("^Slide 3")).click()
    expect(page.locator("#workspace")).not_to_have_attribute("data-slide", str(sid))
    page.keyboard.press("Control+v")
    new = inserted(page)
    geom(page, new, (260, 118, 200, 150))                         # where it was on its slide
    assert [(o["shape"], o["x"], o["y"]) for o in objects_of(live_slot, did, 3)] == [("ellipse", 260, 118)]
    assert len(objects_of(live_slot, did, 2)) == 1


def test_size_and_position_dialog(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    page.get_by_role("textbox", name="Title").click()
    menu(page, "Arrange", "Size and position…")
    dialog = page.get_by_role("dialog", name="Size and position")
    expect(dialog.get_by_role("spinbutton", name="X")).to_have_value("33")
    dialog.get_by_role("spinbutton", name="Y").fill("300")
    dialog.get_by_role("spinbutton", name="Width").fill("400")
    dialog.get_by_role("spinbutton", name="Height").press("Enter")
    geom(page, "title", (33, 300, 400, 56))
    t = stored(live_slot, sid, "title")
    assert (t["x"], t["y"], t["w"], t["h"], t["text"]) == (33, 300, 400, 56, "Where things stand")


def test_fill_border_colour_and_weight_from_the_toolbar(desk, live_slot):
    page = desk
    did, sid = open_slide(page, live_slot)
    menu(page, "Insert", "Shape: Rounded rectangle")
    oid = inserted(page)
    for button, name in (("Fill color", "green"), ("Border color", "dark blue")):
        page.get_by_role("button", name=button).click()
        page.get_by_role("menu", name=button).get_by_role("menuitem", name=name, exact=True).click()
        expect(page.locator("#workspace")).to_have_attribute("data-sel", oid)
    page.get_by_role("button", name="Border weight").click()
    page.get_by_role("menuitem", name="4 pt").click()
    expect(obj(page, oid).locator("svg")).to_have_attribute("stroke-width", "4")
    o = stored(live_slot, sid, oid)
    assert (o["fill"], o["stroke"], o["weight"]) == ("#34a853", "#0b5394", 4)
    # a line's colour and weight
    page.get_by_role("button", name="Line", exact=True).click()
    page.get_by_role("menuitem", name="Line", exact=True).click()
    lid = inserted(page, oid)
    page.get_by_role("button", name="Border color").click()
    page.get_by_role("menu", name="Border color").get_by_role("menuitem", name="red", exact=True).click()
    expect(obj(page, lid).locator("line")).to_have_attribute("stroke", "#ea4335")
    assert stored(live_slot, sid, lid)["stroke"] == "#ea4335"
