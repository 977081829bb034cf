"""Service Desk tools for issue 21: tickets.cmdb, tickets.list with an encoded query and grouping,
tickets.update setting Service / Configuration item and Canceled; bad input is a tool error."""
from __future__ import annotations

import pytest

from harness.tools import ToolError, get_tool

from .conftest import USERS


@pytest.fixture
def st(slot_of):
    with slot_of("lumen").store() as store:
        yield store


ME = USERS["lumen"]


def test_cmdb_lists_cis_and_services(st):
    cis = get_tool("tickets.cmdb").call(st, ME, {"service": "Lumen Web App"})
    assert {c["name"] for c in cis} >= {"lumen-web-prod", "lumen-api-gateway"}
    assert all(c["service"] == "Lumen Web App" for c in cis)
    services = get_tool("tickets.cmdb").call(st, ME, {"services": True})
    assert "Data Freshness Monitoring" in {s["name"] for s in services}
    with pytest.raises(ToolError):
        get_tool("tickets.cmdb").call(st, ME, {"service": "No Such Service"})


def test_list_with_encoded_query_and_group(st):
    res = get_tool("tickets.list").call(st, ME, {"query": "state=New^ORstate=On Hold", "per_page": 100,
                                                  "group": "state"})
    assert {r["state"] for r in res["rows"]} == {"New", "On Hold"} and set(res["group_counts"]) == {"New", "On Hold"}
    with pytest.raises(ToolError):
        get_tool("tickets.list").call(st, ME, {"query": "state~New"})


def test_update_sets_ci_and_cancels(st):
    out = get_tool("tickets.update").call(st, ME, {"ref": "INC0010445", "fields": {
        "state": "Canceled", "business_service": "Lumen Web App", "cmdb_ci": "lumen-web-prod"}})
    assert (out["record"]["state"], out["record"]["ci_name"]) == ("Canceled", "lumen-web-prod")
    with pytest.raises(ToolError):
        get_tool("tickets.update").call(st, ME, {"ref": "INC0010444", "fields": {"cmdb_ci": "nope-prod"}})
