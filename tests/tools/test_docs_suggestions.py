"""The Docs suggestion tools: suggest an edit (only what differs), read suggestions and both texts,
accept or reject one or all; bad calls are refused with the app's message and write nothing."""
from __future__ import annotations

from .test_more_tools import DRAFT, call, refused


def test_suggest_read_accept_and_reject(slot_of):
    with slot_of("meridian").store() as st:
        made = call(st, "docs.suggest", {"doc": DRAFT, "find": "single question of statutory text",
                                         "replacement": "single, narrow question of statutory text"})
        assert [(s["kind"], s["text"], s["author"]) for s in made] == [("insert", ", narrow", "alex.chen")]
        out = call(st, "docs.suggestions", {"doc": DRAFT})
        assert [s["id"] for s in out["suggestions"]] == [made[0]["id"]]
        assert "single question of statutory text" in out["text"]
        assert "single, narrow question of statutory text" in out["text_if_accepted"]
        gone = call(st, "docs.suggest", {"doc": DRAFT, "find": "statutory text", "replacement": ""})
        assert [(s["kind"], s["text"]) for s in gone] == [("delete", "statutory text")]
        assert call(st, "docs.review_suggestions", {"doc": DRAFT, "accept": True, "suggestion_id": made[0]["id"]}) == 1
        out = call(st, "docs.suggestions", {"doc": DRAFT})
        assert "single, narrow question of statutory text" in out["text"] and len(out["suggestions"]) == 1
        refused(st, "docs.review_suggestions", {"doc": DRAFT, "accept": True, "suggestion_id": made[0]["id"]},
                "already accepted or rejected")
        refused(st, "docs.review_suggestions", {"doc": DRAFT, "accept": True, "suggestion_id": 99999}, "no suggestion")
        refused(st, "docs.suggest", {"doc": DRAFT, "find": "no such words here", "replacement": "x"}, "isn't in")
        refused(st, "docs.suggest", {"doc": DRAFT, "find": "statutory", "replacement": "statutory"}, "Suggest some text")
        assert call(st, "docs.review_suggestions", {"doc": DRAFT, "accept": False}) == 1
        assert call(st, "docs.suggestions", {"doc": DRAFT})["suggestions"] == []
        every = call(st, "docs.suggestions", {"doc": DRAFT, "status": None})["suggestions"]
        assert sorted(s["status"] for s in every) == ["accepted", "rejected"]


def test_insert_table(slot_of):
    with slot_of("meridian").store() as st:
        out = call(st, "docs.insert_table", {"doc": DRAFT, "after": "[Alex to draft",
                                             "rows": [["Item", "Amount"], ["Fund", "$151,840,000"]]})
        (t,) = out["tables"]
        assert t["rows"] == [["Item", "Amount"], ["Fund", "$151,840,000"]]
        md = call(st, "docs.read", {"doc": DRAFT})["markdown"]
        assert md.index("[Alex to draft") < md.index("| Item | Amount |\n| --- | --- |\n| Fund | $151,840,000 |")
        refused(st, "docs.insert_table", {"doc": DRAFT, "after": "no such words", "rows": [["x"]]}, "No paragraph")
        refused(st, "docs.insert_table", {"doc": DRAFT, "after": "", "rows": []}, "at least one row")
