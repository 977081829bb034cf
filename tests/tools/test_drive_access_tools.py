"""drive.general_access and drive.copy: the Share dialog's general access and Make a copy as tools
(lumen, Jordan Blake): what they store, and bad input refused with nothing written."""
from __future__ import annotations

import pytest

from harness.tools import ToolError, get_tool

from .conftest import last_seq

USER = "jordan.blake"


def find(st, name, owner=None):
    sql, params = "name=?", [name]
    if owner:
        sql, params = sql + " AND owner=?", params + [owner]
    rows = st.select("drive_items", sql, params)
    assert len(rows) == 1, rows
    return rows[0]


def test_general_access_sets_the_link_and_keeps_the_people(slot_of):
    with slot_of("lumen").store() as st:
        proposal = find(st, "Lumen Pricing H2 2026 (proposal)")
        assert proposal["link_access"] == "anyone"             # seeded from drive.yaml
        people = st.select("drive_shares", order="id")
        out = get_tool("drive.general_access").call(st, USER, {"item_id": proposal["id"], "access": "restricted"})
        assert (out["access"], out["effective"]) == ("restricted", "restricted")
        out = get_tool("drive.general_access").call(
            st, USER, {"item_id": find(st, "Q2 FY26 Pipeline Review", USER)["id"], "access": "org", "role": "commenter"})
        assert (out["access"], out["role"], out["org"]) == ("org", "commenter", "Lumen Analytics, Inc.")
        assert st.select("drive_shares", order="id") == people
        got = get_tool("drive.get").call(st, USER, {"item_id": proposal["id"]})
        assert got["link_access"] == "restricted"


@pytest.mark.parametrize("args, message", [
    ({"access": "public"}, "access"),
    ({"access": "anyone", "role": "owner"}, "role"),
])
def test_general_access_refuses_bad_input(slot_of, args, message):
    with slot_of("lumen").store() as st:
        item = find(st, "Q2 FY26 Pipeline Review", USER)["id"]
        before = last_seq(st)
        with pytest.raises(ToolError) as e:
            get_tool("drive.general_access").call(st, USER, {"item_id": item, **args})
        assert message in e.value.message
        assert last_seq(st) == before


def test_copy_makes_copy_of_in_the_same_folder(slot_of):
    with slot_of("lumen").store() as st:
        src = find(st, "Q2 FY26 Forecast", USER)
        new = get_tool("drive.copy").call(st, USER, {"item_id": src["id"]})
        assert (new["name"], new["parent"], new["owner"], new["kind"]) == \
            ("Copy of Q2 FY26 Forecast", src["parent"], USER, "sheet")
        cells = lambda ref: st.scalar("SELECT count(*) FROM sheets_cells WHERE tab IN "  # noqa: E731
                                      "(SELECT id FROM sheets_tabs WHERE book=?)", (ref,))
        assert cells(new["ref"]) == cells(src["ref"]) > 0
        before = last_seq(st)
        with pytest.raises(ToolError) as e:
            get_tool("drive.copy").call(st, USER, {"item_id": find(st, "RevOps", USER)["id"]})
        assert "Folders can't be copied" in e.value.message and last_seq(st) == before
