"""Drive's service layer: visibility, roles, folders, moves, trash, sharing, search."""
from __future__ import annotations

import pytest

from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.store.db import Caller
from apps.drive import service as drive
from apps.drive.service import Role

MATTER = "Corvane – Aurelia Dawn (M-2026-0147)"


def by_name(store, name):
    rows = store.select("drive_items", "name=?", (name,))
    assert len(rows) == 1, (name, rows)
    return rows[0]


def test_my_drive_and_shared_with_me(store):
    mine = [i["name"] for i in drive.children(store, "alex.chen", None)]
    assert {"Notes", "Templates", "CLE", "Timesheet – March 2026.csv"} <= set(mine)
    shared = [i["name"] for i in drive.shared_with_me(store, "alex.chen")]
    assert MATTER in shared and "Matters" not in shared


def test_visibility_follows_sharing_down_the_tree(store):
    matter = by_name(store, MATTER)
    survey = by_name(store, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    assert drive.role_of(store, "alex.chen", matter) is Role.EDITOR
    assert drive.role_of(store, "alex.chen", survey) is Role.EDITOR
    assert drive.role_of(store, "henry.adeyemi", survey) is Role.VIEWER
    assert drive.role_of(store, "sofia.marchetti", survey) is Role.OWNER
    with pytest.raises(NotFound):
        drive.get(store, "alex.chen", drive.find_path(store, "sofia.marchetti", "Matters")["id"])
    with pytest.raises(NotFound):
        drive.get(store, "laura.whitfield", survey["id"])
    crumbs = drive.breadcrumbs(store, "alex.chen", survey)
    assert [c["name"] for c in crumbs] == ["Shared with me", MATTER, "02 Vessel & Casualty", survey["name"]]


def test_create_rename_and_name_validation(store, alex):
    fid = drive.create_folder(store, alex, None, "  Board   pack ")
    assert drive.get(store, "alex.chen", fid)["name"] == "Board pack"
    for bad in ("", "   ", "x" * 256):
        with pytest.raises(Invalid):
            drive.create_folder(store, alex, None, bad)
    drive.rename(store, alex, fid, "Board pack v2")
    assert drive.get(store, "alex.chen", fid)["name"] == "Board pack v2"
    viewer_only = by_name(store, "Damages Summary.csv")          # Pelagic: Alex is a viewer
    with pytest.raises(Forbidden):
        drive.rename(store, alex, viewer_only["id"], "mine now")
    with pytest.raises(Forbidden):
        drive.create_folder(store, alex, viewer_only["parent"], "new")


def test_move_rules(store, alex):
    notes = by_name(store, "Notes")
    ts = by_name(store, "Timesheet – March 2026.csv")
    assert drive.move(store, alex, [ts["id"]], notes["id"]) == 1
    assert drive.get(store, "alex.chen", ts["id"])["parent"] == notes["id"]
    assert drive.move(store, alex, [ts["id"]], notes["id"]) == 0
    sub = drive.create_folder(store, alex, notes["id"], "Sub")
    with pytest.raises(Invalid):
        drive.move(store, alex, [notes["id"]], sub)             # into its own child
    with pytest.raises(Invalid):
        drive.move(store, alex, [notes["id"]], notes["id"])
    pelagic = by_name(store, "Damages Summary.csv")["parent"]
    with pytest.raises(Forbidden):
        drive.move(store, alex, [ts["id"]], pelagic)            # viewer on the target
    survey = by_name(store, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    with pytest.raises(Forbidden):
        drive.move(store, alex, [survey["id"]], None)           # only the owner can take it to My Drive
    memos = by_name(store, "06 Internal Memos")
    assert drive.move(store, alex, [ts["id"]], memos["id"]) == 1
    with pytest.raises(Invalid):
        drive.move(store, alex, [], memos["id"])


def test_trash_restore_delete_forever(store, alex):
    notes = by_name(store, "Notes")
    inside = [i["id"] for i in drive.children(store, "alex.chen", notes["id"])]
    assert inside
    drive.set_trashed(store, alex, [notes["id"]], True)
    assert notes["id"] in [i["id"] for i in drive.trash(store, "alex.chen")]
    with pytest.raises(NotFound):
        drive.get(store, "alex.chen", inside[0])                 # inside a trashed folder
    assert notes["name"] not in [i["name"] for i in drive.children(store, "alex.chen", None)]
    drive.set_trashed(store, alex, [notes["id"]], False)
    assert drive.get(store, "alex.chen", inside[0])
    with pytest.raises(Invalid):
        drive.delete_forever(store, alex, [notes["id"]])
    drive.set_trashed(store, alex, [notes["id"]], True)
    assert drive.delete_forever(store, alex, [notes["id"]]) == 1 + len(inside)
    assert store.get("drive_items", inside[0]) is None
    assert drive.empty_trash(store, alex) == 0


def test_share_set_role_unshare_and_notify(store, alex):
    notes = by_name(store, "Notes")
    added = drive.share(store, alex, notes["id"], ["priya.raman", "daniel.ortiz@meridianshaw.com"], "commenter",
                        message="For the hearing")
    assert added == ["priya.raman", "daniel.ortiz"]
    assert drive.role_of(store, "priya.raman", notes) is Role.COMMENTER
    note = store.select("mail_messages", "subject LIKE 'Folder shared with you%'")
    assert len(note) == 1 and "For the hearing" in note[0]["body"]
    assert store.scalar("SELECT actor FROM _writes WHERE tbl='mail_messages' ORDER BY seq DESC") == "system"
    drive.set_role(store, alex, notes["id"], "priya.raman", "editor")
    assert drive.role_of(store, "priya.raman", notes) is Role.EDITOR
    drive.unshare(store, alex, notes["id"], "priya.raman")
    assert drive.role_of(store, "priya.raman", notes) is None
    with pytest.raises(Invalid):
        drive.share(store, alex, notes["id"], ["nobody@nowhere.example"], "viewer")
    with pytest.raises(Invalid):
        drive.share(store, alex, notes["id"], ["priya.raman"], "owner")
    with pytest.raises(Invalid):
        drive.share(store, alex, notes["id"], [], "viewer")
    pelagic_file = by_name(store, "Damages Summary.csv")
    with pytest.raises(Forbidden):
        drive.share(store, alex, pelagic_file["id"], ["priya.raman"], "viewer")


def test_upload_from_the_computer_and_star(store, alex):
    local = store.select("local_files", "owner='alex.chen'")
    ids = drive.upload_local(store, alex, None, [local[0]["id"]])
    up = drive.get(store, "alex.chen", ids[0])
    assert up["name"] == local[0]["name"] and up["owner"] == "alex.chen" and up["blob"] == local[0]["blob"]
    with pytest.raises(NotFound):
        drive.upload_local(store, Caller("priya.raman"), None, [local[0]["id"]])
    drive.set_starred(store, alex, ids, True)
    assert [i["id"] for i in drive.starred(store, "alex.chen")] == ids


def test_search_matches_names_and_text(store):
    names = [i["name"] for i in drive.search(store, "alex.chen", "ullage")]
    assert "Ullage Survey Summary (2026-02-20).pdf" in names
    by_text = [i["name"] for i in drive.search(store, "alex.chen", "105,300")]
    assert "Vessel Particulars – MT Aurelia Dawn.pdf" in by_text
    assert drive.search(store, "laura.whitfield", "ullage") == []


def test_search_finds_the_text_on_slides(store):
    """A word that is only on a deck's slides (not in its name) finds the deck, as in Drive."""
    deck = store.select("drive_items", "kind='deck' AND name=?", ("Case Strategy – Limitation and §9",))[0]
    assert "breaking the limit" not in deck["name"].lower()
    found = [i["name"] for i in drive.search(store, "alex.chen", "breaking the limit")]
    assert deck["name"] in found
    assert drive.search(store, "alex.chen", "breaking the limit zzqx") == []
    from apps.slides import objects
    from apps.core.store.db import Caller
    slide = store.select("slides_slides", "deck=?", (deck["ref"],), order="seq")[0]
    objects.insert(store, Caller(user="alex.chen"), slide["id"], "text", text="Quorvane anchorage sketch")
    assert [i["name"] for i in drive.search(store, "alex.chen", "quorvane anchorage")] == [deck["name"]]


def test_recent_follows_views(store, alex):
    survey = by_name(store, "Final Survey Report – Calder Marine Surveys (2026-03-06).pdf")
    drive.record_view(store, alex, survey["id"])
    assert drive.recent(store, "alex.chen")[0]["id"] == survey["id"]


def test_search_operators_narrow_as_drive_does(store, alex):
    """type:, owner:, is:starred, before: / after: and quoted phrases, alone or with words; an unknown type
    finds nothing; a bad date is an error naming the operator; a word with a colon that is no operator is a word."""
    def names(q):
        return [i["name"] for i in drive.search(store, "alex.chen", q)]
    pdfs = names("type:pdf")
    assert pdfs and all(n.lower().endswith(".pdf") for n in pdfs)
    assert "Ullage Survey Summary (2026-02-20).pdf" in names("ullage type:pdf")
    assert "Ullage Survey Summary (2026-02-20).pdf" not in names("ullage type:spreadsheet")
    assert names("ullage type:spreadsheet") == ["Billing Tracker – M-2026-0147.csv"]     # its text says ullage
    sheets = names("type:spreadsheet")
    assert "Damages Model – Aurelia Dawn" in sheets and all(not n.lower().endswith(".pdf") for n in sheets)
    assert "Client Update – Aurelia Dawn (April 2026)" in names("type:presentation aurelia")
    assert all(i["kind"] == "folder" for i in drive.search(store, "alex.chen", "type:folder"))
    assert names("type:hologram") == [] and names("is:haunted") == []
    assert set(names("owner:me")) <= {i["name"] for i in drive.search(store, "alex.chen", "type:folder")} | set(names("owner:alex.chen"))
    sofia = names("owner:sofia.marchetti type:pdf")
    assert sofia and set(sofia) == set(names("owner:sofia.marchetti@meridianshaw.com type:pdf"))
    assert names("is:starred") == []
    ids = [i["id"] for i in drive.search(store, "alex.chen", "ullage")][:1]
    drive.set_starred(store, alex, ids, True)
    assert names("is:starred") == [i["name"] for i in drive.search(store, "alex.chen", "ullage")][:1]
    assert set(names('"final survey" after:2026-03-01')) <= set(names("final survey"))
    assert names("type:pdf before:2000-01-01") == []
    with pytest.raises(Invalid, match="before: takes a date"):
        drive.search(store, "alex.chen", "before:yesterday")
    assert drive.search_terms('re: "tern reef" type:PDF 10:30') == (["re:", "tern reef", "10:30"], [("type", "pdf")])
