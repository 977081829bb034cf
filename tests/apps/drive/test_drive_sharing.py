"""Drive's general access, Make a copy, layout and Activity (apps.drive.sharing), and the filter chips."""
from __future__ import annotations

import pytest

from apps.core.errors import Invalid, NotFound
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


@pytest.mark.parametrize("name, table, part", [(CALC, "sheets_tabs", "sheets_cells"), (MEMO, "docs_blocks", None),
                                               ("Case Strategy – Limitation and §9", "slides_slides", None)])
def test_make_a_copy_of_an_editor_file_copies_its_content(store, name, table, part):
    src = by_name(store, name)
    new = sharing.make_copy(store, ALEX, src["id"])
    assert new["name"] == f"Copy of {name}" and new["owner"] == "alex.chen" and new["parent"] == src["parent"]
    assert new["ref"] != src["ref"] and new["kind"] == src["kind"]
    root = sharing.APP_TABLES[src["kind"]]
    assert store.get(root, new["ref"])["item"] == new["id"]
    fk = {"sheets_tabs": "book", "docs_blocks": "doc", "slides_slides": "deck"}[table]
    old_rows = store.select(table, f"{fk}=?", (src["ref"],), order="id")
    new_rows = store.select(table, f"{fk}=?", (new["ref"],), order="id")
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("id", fk)} for r in rows]  # noqa: E731
    assert old_rows and strip(old_rows) == strip(new_rows)
    if part:
        olds = store.all(f"SELECT count(*) AS n FROM {part} WHERE tab IN (SELECT id FROM {table} WHERE {fk}=?)", (src["ref"],))
        news = store.all(f"SELECT count(*) AS n FROM {part} WHERE tab IN (SELECT id FROM {table} WHERE {fk}=?)", (new["ref"],))
        assert olds[0]["n"] == news[0]["n"] > 0


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
