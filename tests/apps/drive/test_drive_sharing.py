"""Drive's general access, Make a copy, layout and Activity (apps.drive.sharing), and the filter chips."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid, NotFound
from apps.core.registry import all_tables
from apps.core.store.db import Caller
from apps.drive import service as drive
from apps.drive import sharing
from tests.apps.drive.test_service import MATTER, by_name

ALEX = Caller("alex.chen")
CALC = "Limitation Fund Calculation"
MEMO = "Case Strategy Outline (E. Vance, 2026-02-25)"


def test_general_access_is_stored_reaches_the_folder_contents_and_keeps_the_people(store):
    matter, calc = by_name(store, MATTER), by_name(store, CALC)
    assert sharing.general_access(store, "alex.chen", calc["id"])["effective"] == "restricted"
    shares_before = drive.shares(store, calc["id"]) + drive.shares(store, matter["id"])
    ga = sharing.set_general_access(store, ALEX, matter["id"], "org", "commenter")
    assert (ga["access"], ga["role"]) == ("org", "commenter") and ga["org"]
    assert store.get("drive_items", matter["id"])["link_access"] == "org"
    inside = sharing.general_access(store, "alex.chen", calc["id"])
    assert (inside["access"], inside["effective"], inside["effective_role"], inside["inherited_from"]) == \
        ("restricted", "org", "commenter", MATTER)
    sharing.set_general_access(store, ALEX, calc["id"], "anyone")
    inside = sharing.general_access(store, "alex.chen", calc["id"])
    assert (inside["effective"], inside["inherited_from"]) == ("anyone", None)
    sharing.set_general_access(store, ALEX, matter["id"], "restricted")
    assert drive.shares(store, calc["id"]) + drive.shares(store, matter["id"]) == shares_before
    assert sharing.access_label(sharing.general_access(store, "alex.chen", calc["id"])) == "Anyone with the link"


def test_general_access_refuses_bad_input_and_viewers(store):
    calc = by_name(store, CALC)
    with pytest.raises(Invalid) as e:
        sharing.set_general_access(store, ALEX, calc["id"], "everyone")
    assert e.value.errors and "access" in e.value.errors
    with pytest.raises(Invalid) as e:
        sharing.set_general_access(store, ALEX, calc["id"], "anyone", "owner")
    assert "role" in e.value.errors
    with pytest.raises(NotFound):
        sharing.set_general_access(store, ALEX, 999999, "anyone")
    survey = by_name(store, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    with pytest.raises(Invalid):
        sharing.set_general_access(store, Caller("henry.adeyemi"), survey["id"], "anyone")
    assert store.get("drive_items", survey["id"])["link_access"] == "restricted"


def test_make_a_copy_of_a_file_and_where_it_goes(store):
    sheet = by_name(store, "Timesheet – March 2026.csv")
    new = sharing.make_copy(store, ALEX, sheet["id"])
    assert (new["blob"], new["size"], new["parent"]) == (sheet["blob"], sheet["size"], None)
    with pytest.raises(Invalid):
        sharing.make_copy(store, ALEX, by_name(store, "Notes")["id"])
    # A viewer's copy lands in their own My Drive.
    survey = by_name(store, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    mine = sharing.make_copy(store, Caller("henry.adeyemi"), survey["id"])
    assert (mine["owner"], mine["parent"]) == ("henry.adeyemi", None)


def test_layout_is_per_user(store):
    assert sharing.layout(store, "alex.chen") == "list"
    sharing.set_layout(store, ALEX, "grid")
    assert sharing.layout(store, "alex.chen") == "grid" and sharing.layout(store, "sofia.marchetti") == "list"
    with pytest.raises(Invalid):
        sharing.set_layout(store, ALEX, "tiles")


def test_activity_lists_what_happened(store):
    notes = by_name(store, "Notes")
    drive.rename(store, ALEX, notes["id"], "Notes 2026")
    drive.share(store, ALEX, notes["id"], ["priya.raman"], "editor", notify=False)
    sharing.set_general_access(store, ALEX, notes["id"], "anyone")
    drive.move(store, ALEX, [notes["id"]], by_name(store, "Templates")["id"])
    what = [e["what"] for e in sharing.activity(store, "alex.chen", notes["id"])]
    assert what[-1] == "created"
    assert {"renamed", "shared", "changed general access", "moved"} <= set(what)
    shared = next(e for e in sharing.activity(store, "alex.chen", notes["id"]) if e["what"] == "shared")
    assert shared["who"] == "You" and "Priya" in shared["detail"]


def test_activity_says_only_what_the_log_can_tell(store):
    """The log keeps which fields changed, not their values: an earlier rename or role change names no
    value (only the latest can: the value now); trashing and restoring are told apart."""
    notes = by_name(store, "Notes")["id"]
    drive.rename(store, ALEX, notes, "Notes 2025")
    store.advance(60)
    drive.rename(store, ALEX, notes, "Notes 2026")
    store.advance(60)
    drive.share(store, ALEX, notes, ["priya.raman"], "viewer", notify=False)
    store.advance(60)
    drive.set_role(store, ALEX, notes, "priya.raman", "editor")
    store.advance(60)
    sharing.set_general_access(store, ALEX, notes, "anyone")
    store.advance(60)
    sharing.set_general_access(store, ALEX, notes, "restricted")
    store.advance(60)
    drive.set_trashed(store, ALEX, [notes], True)
    store.advance(60)
    drive.set_trashed(store, ALEX, [notes], False)
    got = [(e["what"], e["detail"]) for e in sharing.activity(store, "alex.chen", notes)]
    assert got[:8] == [("restored", ""), ("moved to the trash", ""), ("changed general access", "Restricted"),
                       ("changed general access", ""), ("changed access", "Priya Raman (Editor)"),
                       ("shared", "Priya Raman"), ("renamed", "Notes 2026"), ("renamed", "")]
    assert got[-1] == ("created", "Notes 2026")


LEFT_BEHIND = {"docs_comments", "docs_replies", "docs_suggestions", "slides_comments"}


def _content(store, root, ref):
    """An editor file's rows, table by table (every table that is part of it, through part links), without
    their keys and the keys they point at."""
    ids, out, tables = {root: {ref}}, {}, [t for t in all_tables() if t.name != root]
    while True:
        t = next((t for t in tables if t.name not in ids and any(f.ref in ids and f.link for f in t.fields)
                  and all(f.ref in ids for f in t.fields if f.ref and f.link and f.ref != t.name)), None)
        if t is None:
            return out
        links = [f for f in t.fields if f.ref in ids or f.ref == t.name]
        rows = [r for r in store.select(t.name) if any(r[f.name] in ids.get(f.ref, ()) for f in links if f.link)]
        ids[t.name] = {r["id"] for r in rows}
        out[t.name] = sorted(repr({k: v for k, v in r.items() if k != "id" and k not in {f.name for f in links}})
                             for r in rows)


@pytest.mark.parametrize("name", [CALC, "Case Strategy – Limitation and §9", MEMO])
def test_make_a_copy_of_an_editor_file_copies_every_part_but_comments(store, name):
    """Charts, merges, conditional formats and filter views of a sheet; objects, theme and backgrounds of a
    deck: every table that is part of the file comes along, its rows pointing at the copy's; comments and
    suggestions stay behind, as in Drive."""
    src = by_name(store, name)
    root = sharing.APP_TABLES[src["kind"]]
    if src["kind"] == "doc":
        block = store.select("docs_blocks", "doc=?", (src["ref"],))[0]["id"]
        comment = store.insert("docs_comments", "agent", doc=src["ref"], author="alex.chen", text="Left behind")
        store.insert("docs_replies", "agent", comment=comment, author="alex.chen", text="Also")
        store.insert("docs_suggestions", "agent", doc=src["ref"], block=block, kind="insert", text="x", author="alex.chen")
    elif src["kind"] == "sheet":
        tab = store.select("sheets_tabs", "book=?", (src["ref"],))[0]["id"]
        store.insert("sheets_charts", "agent", tab=tab, type="pie", range="A1:B4", title="Split", legend="right", anchor="H2")
        store.insert("sheets_merges", "agent", tab=tab, range="A1:C1")
        store.insert("sheets_conditional", "agent", tab=tab, range="B2:B9", condition={"type": "gt", "value": "1"})
        store.insert("sheets_filters", "agent", tab=tab, kind="view", name="Filter 1", range="A1:C9")
    else:
        slide = store.select("slides_slides", "deck=?", (src["ref"],))[0]["id"]
        store.insert("slides_objects", "agent", slide=slide, kind="shape", shape="ellipse", x=1, y=2, w=3, h=4)
        store.insert("slides_looks", "agent", deck=src["ref"], theme="coral")
        store.insert("slides_looks", "agent", slide=slide, background="#ffeeaa")
        store.insert("slides_comments", "agent", slide=slide, author="alex.chen", text="Left behind")
    new = sharing.make_copy(store, ALEX, src["id"])
    assert new["name"] == f"Copy of {name}" and new["owner"] == "alex.chen" and new["parent"] == src["parent"]
    assert new["ref"] != src["ref"] and new["kind"] == src["kind"] and store.get(root, new["ref"])["item"] == new["id"]
    old, got = _content(store, root, src["ref"]), _content(store, root, new["ref"])
    assert {t for t, rows in old.items() if rows} >= ({"sheets_tabs", "sheets_cells", "sheets_charts", "sheets_merges",
                                                       "sheets_conditional", "sheets_filters"} if src["kind"] == "sheet"
                                                      else {"slides_slides", "slides_boxes", "slides_objects",
                                                            "slides_looks", "slides_comments"} if src["kind"] == "deck"
                                                      else {"docs_blocks", "docs_comments", "docs_replies",
                                                            "docs_suggestions"})
    assert got == {t: ([] if t in LEFT_BEHIND else rows) for t, rows in old.items()}
