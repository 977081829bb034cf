"""The Slides object tools (images, insert, edit_object, delete_object): each works on a fresh slot
as the agent, reads back through slides.read, and a bad call is a ToolError with the app's message
that writes nothing."""
from __future__ import annotations

from .test_more_tools import call, refused

CLIENT = "Client Update – Aurelia Dawn (April 2026)"
IMAGE = "Tern Reef grounding position.png"


def slide2(st):
    return call(st, "slides.read", {"deck": CLIENT})["slides"][1]


def test_object_tools(slot_of):
    with slot_of("meridian").store() as st:
        sid = slide2(st)["id"]
        assert [i["name"] for i in call(st, "slides.images", {"q": "tern"})] == [IMAGE]
        box = call(st, "slides.insert", {"slide_id": sid, "kind": "text", "text": "- One\n- Two", "x": 40, "y": 300,
                                         "w": 300, "h": 60})
        oval = call(st, "slides.insert", {"slide_id": sid, "kind": "shape", "shape": "ellipse"})
        pic = call(st, "slides.insert", {"slide_id": sid, "kind": "image", "image": IMAGE})
        arrow = call(st, "slides.insert", {"slide_id": sid, "kind": "line", "shape": "arrow", "x": 10, "y": 10,
                                           "w": 100, "h": 0})
        o = call(st, "slides.edit_object", {"slide_id": sid, "ref": oval, "x": 500, "y": 50, "w": 120, "text": "Risk",
                                            "fill": "none", "stroke": "#0b5394", "weight": 3})
        assert (o["x"], o["y"], o["w"], o["fill"], o["stroke"], o["weight"], o["text"]) == (
            500, 50, 120, "none", "#0b5394", 3, "Risk")
        t = call(st, "slides.edit_object", {"slide_id": sid, "ref": "title", "align_to": "right", "bold": True})
        assert t["x"] == 720 - t["w"] and t["bold"] and t["text"] == "Where things stand"
        call(st, "slides.edit_object", {"slide_id": sid, "ref": pic, "order": "back"})
        o = call(st, "slides.edit_object", {"slide_id": sid, "ref": box, "bold": True, "size": 24, "color": "#ea4335",
                                            "align": "center", "bullets": False})
        assert (o["text"], o["bold"], o["size"], o["color"], o["align"]) == ("One\nTwo", True, 24, "#ea4335", "center")
        o = call(st, "slides.edit_object", {"slide_id": sid, "ref": "body", "italic": True, "h": 200})
        assert o["italic"] and o["h"] == 200
        call(st, "slides.delete_object", {"slide_id": sid, "ref": arrow})
        kinds = [(o["kind"], o["role"] or o["shape"]) for o in slide2(st)["objects"]]
        assert kinds == [("placeholder", "title"), ("placeholder", "body"), ("image", ""), ("text", ""),
                         ("shape", "ellipse")]


def test_bad_object_calls_are_refused_and_write_nothing(slot_of):
    with slot_of("meridian").store() as st:
        sid = slide2(st)["id"]
        refused(st, "slides.insert", {"slide_id": sid, "kind": "video"}, "kind")
        refused(st, "slides.insert", {"slide_id": sid, "kind": "shape", "shape": "cloud"}, "Unknown shape")
        refused(st, "slides.insert", {"slide_id": sid, "kind": "image", "image": "Nope.png"}, "No image")
        refused(st, "slides.edit_object", {"slide_id": sid, "ref": "subtitle", "x": 1, "y": 1}, "has no subtitle box")
        refused(st, "slides.edit_object", {"slide_id": sid, "ref": "title", "color": "teal-ish"}, "isn't a colour")
        refused(st, "slides.edit_object", {"slide_id": sid, "ref": "title", "x": 5}, "Give both x and y")
        refused(st, "slides.edit_object", {"slide_id": sid, "ref": "title", "bold": True, "x": 99999, "y": 0},
                "between")                                     # all or nothing: the bold goes too
        refused(st, "slides.delete_object", {"slide_id": sid, "ref": 99999}, "isn't on this slide")
        refused(st, "slides.insert", {"slide_id": sid, "kind": "text"}, "only view", user="henry.adeyemi")


def test_look_and_comment_tools(slot_of):
    with slot_of("meridian").store() as st:
        deck = call(st, "slides.read", {"deck": CLIENT})
        sid = deck["slides"][2]["id"]
        assert call(st, "slides.set_look", {"deck": CLIENT, "theme": "plum"}) == {"theme": True, "background": False}
        assert call(st, "slides.set_look", {"deck": deck["id"], "slide_id": sid, "background": "#E0F2F1"}) == {
            "theme": False, "background": True}
        deck = call(st, "slides.read", {"deck": CLIENT})
        assert deck["theme"] == "plum" and [s["background"] for s in deck["slides"][1:4]] == ["", "#e0f2f1", ""]
        refused(st, "slides.set_look", {"deck": CLIENT, "theme": "neon"}, "theme")
        refused(st, "slides.set_look", {"deck": CLIENT, "slide_id": sid, "background": "greenish"}, "isn't a colour")
        refused(st, "slides.set_look", {"deck": CLIENT, "background": "#ffffff"}, "needs its slide")
        cid = call(st, "slides.comment", {"slide_id": sid, "text": "Check the rate"})
        call(st, "slides.comment", {"reply_to": cid, "text": "Checked: 2025 notice"})
        assert call(st, "slides.comment", {"reply_to": cid, "resolve": True}) is True
        [t] = call(st, "slides.read", {"deck": CLIENT})["slides"][2]["comments"]
        assert (t["text"], t["resolved"], [r["text"] for r in t["replies"]]) == (
            "Check the rate", True, ["Checked: 2025 notice"])
        refused(st, "slides.comment", {"text": "x"}, "Name the slide")
        refused(st, "slides.comment", {"slide_id": sid, "text": "x"}, "only view", user="henry.adeyemi")
