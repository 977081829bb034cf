"""The crm.report tool: save a report definition, run it (saved or ad hoc), list; bad input is a tool
error that writes nothing."""
from __future__ import annotations

import pytest

from harness.tools import ToolError, get_tool

from .conftest import last_seq

JORDAN = "jordan.blake"


def call(st, name, args):
    return get_tool(name).call(st, JORDAN, args)


def test_save_run_list(slot_of):
    with slot_of("lumen").store() as st:
        out = call(st, "crm.report", {"action": "save", "name": "Open by owner", "obj": "opportunities",
                                      "columns": ["name", "owner", "amount"], "group_by": "owner",
                                      "filters": [{"field": "stage", "op": "not_in",
                                                   "value": "Closed Won,Closed Lost"}], "sort": "-amount"})
        saved = st.one("SELECT * FROM crm_reports WHERE name='Open by owner'")
        assert saved["group_by"] == "owner" and out["report"]["id"] == saved["id"]
        assert out["count"] == sum(g["count"] for g in out["groups"]) > 0
        assert set(out["rows"][0]) == {"id", "name", "owner", "amount"}
        again = call(st, "crm.report", {"report": "open by owner"})
        assert again["count"] == out["count"]
        adhoc = call(st, "crm.report", {"obj": "accounts", "columns": ["name", "arr"]})
        assert adhoc["count"] == st.scalar("SELECT count(*) FROM crm_accounts")
        assert [r["name"] for r in call(st, "crm.report", {"action": "list"})["reports"]] == ["Open by owner"]


@pytest.mark.parametrize("args", [
    {"action": "save", "obj": "opportunities"},
    {"action": "save", "name": "X", "obj": "opportunities", "columns": ["nope"]},
    {"action": "run", "report": "No such report"},
])
def test_bad_input_writes_nothing(slot_of, args):
    with slot_of("lumen").store() as st:
        before = last_seq(st)
        with pytest.raises(ToolError):
            call(st, "crm.report", args)
        assert last_seq(st) == before
