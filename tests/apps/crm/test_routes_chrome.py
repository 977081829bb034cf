"""The CRM's own chrome and list editing through Flask's client: the scoped search and its CRM-only
type-ahead, the global actions, Setup, inline edit of list cells (all or nothing) and the Kanban display."""
from __future__ import annotations

from urllib.parse import quote

from tests.apps.crm.conftest import opp, writes

USER = "jordan.blake"
HX = {"HX-Request": "true"}


def test_header_is_salesforce_not_the_workspace_bar(client):
    html = client.get("/crm/").data.decode()
    assert 'aria-label="App Launcher"' in html and 'aria-label="Global Actions"' in html
    assert 'aria-label="Setup"' in html and 'aria-label="Notifications"' in html
    assert 'class="topbar"' not in html
    assert "/mail/" in html                      # the App Launcher still reaches the other apps


def test_suggest_is_crm_only_and_scoped(client):
    html = client.get("/crm/suggest?q=harrowgate&scope=all").data.decode()
    assert "Harrowgate Logistics" in html and "/mail/" not in html and "/drive/" not in html
    scoped = client.get("/crm/suggest?q=harrowgate&scope=opportunities").data.decode()
    assert "Harrowgate – FY27 Renewal" in scoped and "Account ·" not in scoped
    assert client.get("/crm/suggest?q=harrowgate&scope=cases").status_code == 422
    assert client.get("/crm/suggest?q=").data.strip() == b""
    page = client.get("/crm/search?q=harrowgate&scope=contacts").data.decode()
    assert "Contacts (" in page and "Accounts (" not in page
    assert client.get("/crm/search?q=x&scope=cases").status_code == 422


def test_global_actions(client, store):
    o = opp(store)
    for kind in ("task", "call", "meeting"):
        assert client.get(f"/crm/actions/{kind}", headers=HX).status_code == 200
    assert client.get("/crm/actions/email", headers=HX).status_code == 422
    before = writes(store)
    r = client.post("/crm/actions/task", data={"subject": "", "related": ""}, headers=HX)
    assert r.status_code == 422 and "Related To" in r.data.decode() and writes(store) == before
    r = client.post("/crm/actions/task", data={"subject": "Send plan", "related": f"opportunity:{o['id']}",
                                              "due": "2026-13-01"}, headers=HX)
    assert r.status_code == 422 and writes(store) == before
    r = client.post("/crm/actions/task", data={"subject": "Send plan", "related": f"opportunity:{o['id']}",
                                              "due": "2026-06-12", "who": USER}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"] == o["url"]
    a = store.one("SELECT * FROM crm_activities WHERE subject='Send plan'")
    assert (a["kind"], a["related_type"], a["related_id"], a["due"]) == ("task", "opportunity", o["id"], "2026-06-12")
    items = client.get("/crm/lookup/records?q=harrowgate").data.decode()
    assert f'data-id="opportunity:{o["id"]}"' in items


def test_setup(client):
    assert "Users (" in client.get("/crm/setup").data.decode()
    assert "Fields &amp; Relationships" in client.get("/crm/setup?tab=objects").data.decode()
    assert client.get("/crm/setup?tab=x").status_code == 422


def test_inline_edit_cells(client, store):
    o = opp(store)
    html = client.get(f"/crm/o/opportunities/{o['id']}/cell/stage", headers=HX).data.decode()
    assert f'name="e.{o["id"]}.stage"' in html and 'data-ie-edit' in html
    assert client.get(f"/crm/o/opportunities/{o['id']}/cell/name", headers=HX).status_code == 404
    assert client.get(f"/crm/o/opportunities/{o['id']}/cell/probability", headers=HX).status_code == 404
    assert client.get("/crm/o/opportunities/999999/cell/stage", headers=HX).status_code == 404
    # a bad value in one of two cells: nothing written, the record and field named
    before = writes(store)
    r = client.post("/crm/o/opportunities/inline", headers=HX, data={
        "ie": [f"{o['id']}.next_step", f"{o['id']}.amount"], f"e.{o['id']}.next_step": "Call Nadia",
        f"e.{o['id']}.amount": "-3", "back": "/crm/o/opportunities?view=open"})
    assert r.status_code == 422 and o["name"] in r.data.decode() and writes(store) == before
    r = client.post("/crm/o/opportunities/inline", headers=HX, data={
        "ie": [f"{o['id']}.next_step", f"{o['id']}.owner"], f"e.{o['id']}.next_step": "Call Nadia",
        f"e.{o['id']}.owner": "", f"e.{o['id']}.owner__text": "Rachel Kim", "back": "/crm/o/opportunities?view=open"})
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/crm/o/opportunities?view=open"
    after = opp(store)
    assert (after["next_step"], after["owner"]) == ("Call Nadia", "rachel.kim")
    assert client.post("/crm/o/opportunities/inline", headers=HX, data={"ie": "x.name"}).status_code == 422
    assert client.post("/crm/o/opportunities/inline", headers=HX, data={}).status_code == 422


def test_kanban_display_and_move(client, store):
    o = opp(store)
    html = client.get("/crm/o/opportunities?view=open&display=kanban").data.decode()
    assert 'class="board list-board"' in html and f'data-opp="{o["id"]}"' in html
    assert 'aria-label="Display as Kanban"' in html
    back = "/crm/o/opportunities?view=open&display=kanban"
    r = client.post(f"/crm/pipeline/move?back={quote(back)}", headers=HX,
                    data={"opportunity": o["id"], "stage": "Proposal"})
    assert r.status_code == 204 and r.headers["HX-Redirect"] == back
    assert opp(store)["stage"] == "Proposal"
    r = client.post(f"/crm/pipeline/move?back={quote(back)}", headers=HX,
                    data={"opportunity": o["id"], "stage": "Closed Lost"})
    assert "Close This Opportunity" in r.data.decode() and opp(store)["stage"] == "Proposal"
    assert client.post("/crm/pipeline/move", headers=HX,
                       data={"opportunity": "x", "stage": "Proposal"}).status_code == 422
    assert client.post("/crm/pipeline/move", headers=HX,
                       data={"opportunity": o["id"], "stage": "Won"}).status_code == 422
    # the close dialog from the Kanban comes back to the list
    r = client.post(f"/crm/o/opportunities/{o['id']}/stage", headers=HX,
                    data={"stage": "Closed Lost", "loss_reason": "Price", "dialog": "1", "back": back})
    assert r.headers["HX-Redirect"] == back and opp(store)["stage"] == "Closed Lost"
