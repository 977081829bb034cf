"""The CRM's Salesforce surfaces in a real browser (lumen, Jordan Blake), state checked in the store:
the global header (App Launcher to another app, scoped CRM-only search, global actions), the report
builder, Stage sorted in picklist order, lookup pills, inline edit in a list view and its Kanban
display, and the in-page date boxes.

Inline edit waits for the cell's editor to be settled and focused before typing (under CPU load a
fill could land while the htmx swap was still in flight)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.crm import service as S
from tests.apps.crm.conftest import get, rec

pytestmark = pytest.mark.browser
USER = "jordan.blake"


def test_app_launcher_switches_apps(desk):
    page = desk
    page.goto("/crm/")
    page.get_by_role("button", name="App Launcher").click()
    launcher = page.get_by_role("dialog", name="App Launcher")
    launcher.get_by_role("searchbox", name="Search apps and items").fill("mai")
    expect(launcher.get_by_role("link", name="Chat")).to_be_hidden()
    launcher.get_by_role("link", name="Mail").click()
    expect(page).to_have_url(re.compile(r"/mail/"))


def test_scoped_search_shows_crm_records_only(desk):
    page = desk
    page.goto("/crm/")
    box = page.get_by_role("textbox", name="Search CRM records…")
    box.fill("harrowgate")
    sug = page.locator("#suggest")
    expect(sug.get_by_role("option", name=re.compile(r"^Harrowgate Logistics"))).to_be_visible()
    expect(sug.locator("a[href^='/mail'], a[href^='/drive']")).to_have_count(0)
    page.get_by_role("button", name="Search scope: All").click()
    page.get_by_role("listbox", name="Search scope").get_by_role("option", name="Opportunities").click()
    expect(box).to_have_attribute("placeholder", "Search Opportunities...")
    expect(sug.get_by_role("option", name=re.compile(r"^Harrowgate Logistics"))).to_have_count(0)
    expect(sug.get_by_role("option", name=re.compile(r"^Harrowgate – FY27 Renewal"))).to_be_visible()
    box.press("Enter")
    expect(page.get_by_role("heading", name="“harrowgate”")).to_be_visible()
    expect(page.get_by_role("table", name="Opportunities")).to_be_visible()
    expect(page.get_by_role("table", name="Accounts")).to_have_count(0)


def test_global_action_new_task_with_related_to_pill_and_date(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto("/crm/o/accounts")
    page.get_by_role("button", name="Global Actions").click()
    page.get_by_role("menuitem", name="New Task").click()
    dlg = page.get_by_role("dialog", name="New Task")
    expect(dlg).to_be_visible()
    dlg.get_by_label("Subject").fill("Send remediation plan")
    dlg.get_by_role("textbox", name="Due Date").fill("6/12/2026")
    related = dlg.get_by_role("combobox", name="Related To")
    related.fill("FY27")
    expect(dlg.get_by_role("option", name=re.compile(r"Harrowgate – FY27 Renewal"))).to_be_visible()
    related.press("Enter")                            # picked from the keyboard: the pill still gets its icon
    pill = dlg.locator("[data-lk-pill]:visible").filter(has_text="Harrowgate – FY27 Renewal")
    expect(pill).to_be_visible()
    expect(pill.locator(".obj-icon")).to_have_count(1)
    expect(dlg.get_by_role("button", name="Clear Selection: Assigned To")).to_be_visible()   # me, as a pill
    dlg.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(re.escape(h["url"]) + "$"))
    with live_slot.store() as st:
        a = st.one("SELECT * FROM crm_activities WHERE subject='Send remediation plan'")
    assert (a["kind"], a["related_type"], a["related_id"], a["due"], a["who"]) == \
        ("task", "opportunity", h["id"], "2026-06-12", USER)


def test_build_and_save_a_report(desk, live_slot):
    page = desk
    page.goto("/crm/reports")
    page.get_by_role("button", name="New Report").click()
    page.get_by_role("menu", name="Choose Report Type").get_by_role("menuitem", name="Opportunities").click()
    expect(page.get_by_role("heading", name="New Opportunity Report")).to_be_visible()
    page.get_by_role("button", name="Remove column Close Date").click()
    expect(page.get_by_role("button", name="Remove column Close Date")).to_have_count(0)
    page.get_by_role("button", name="Add group: Add group...").click()
    page.get_by_role("listbox", name="Add group").get_by_role("option", name="Stage", exact=True).click()
    expect(page.get_by_role("button", name="Remove group Stage")).to_be_visible()
    page.get_by_role("button", name="Filter field: Choose a field...").click()
    page.get_by_role("listbox", name="Filter field").get_by_role("option", name="Type", exact=True).click()
    page.get_by_role("textbox", name="Value", exact=True).fill("Renewal")
    page.get_by_role("textbox", name="Value", exact=True).press("Enter")
    expect(page.get_by_role("button", name="Remove filter Type equals Renewal")).to_be_visible()
    page.get_by_role("button", name="Sort by: None").click()
    page.get_by_role("listbox", name="Sort by").get_by_role("option", name="Amount", exact=True).click()
    # the choice reloads the builder; its menu shows the choice at once, so wait for the new page
    expect(page).to_have_url(re.compile(r"sort_by=amount"))
    expect(page.get_by_role("button", name="Sort by: Amount")).to_be_visible()
    page.get_by_role("button", name="Save & Run").click()
    page.get_by_role("dialog", name="Save Report").get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("dialog", name="Save Report").locator(".fld-error")).to_contain_text("report name")
    page.get_by_label("Report Name").fill("Renewals by stage")
    page.get_by_role("dialog", name="Save Report").get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("heading", name="Renewals by stage")).to_be_visible()
    with live_slot.store() as st:
        r = st.one("SELECT * FROM crm_reports WHERE name='Renewals by stage'")
        res = S.run_report(st, USER, r["id"])
    assert r["group_by"] == "stage" and r["sort"] == "amount" and "close_date" not in r["columns"]
    assert res["count"] == sum(1 for o in res["rows"] if o["type"] == "Renewal") > 0
    expect(page.locator(".report-grid tr.grp").first).to_contain_text(res["groups"][0]["label"])


def test_stage_sorts_in_picklist_order(desk):
    page = desk
    page.goto("/crm/o/opportunities?view=all")
    page.get_by_role("columnheader", name="Stage").get_by_role("link").click()
    expect(page.get_by_role("columnheader", name="Stage")).to_have_attribute("aria-sort", "ascending")
    stages = page.locator("tr.drow .stage-pill").all_inner_texts()
    assert stages == sorted(stages, key=S.STAGES.index) and stages[0] == "Prospecting"


def test_inline_edit_in_a_list_view(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto("/crm/o/opportunities?view=open&q=harrowgate")
    row = page.locator(f"tr.drow[data-id='{h['id']}']")
    cell = row.locator(f"td[data-ie='{h['id']}.amount']")
    cell.dblclick()
    box = cell.locator(".ie-edit input[type=text]")
    expect(box).to_be_focused()                       # the swap has settled: safe to type
    box.fill("-5")
    stage = row.locator(f"td[data-ie='{h['id']}.stage']")
    row.hover()
    stage.get_by_role("button", name=re.compile(r"^Edit Stage")).click()
    expect(stage.locator(".ie-edit summary")).to_be_focused()
    stage.get_by_role("button", name=re.compile(r"^Stage:")).click()
    stage.get_by_role("option", name="Proposal").click()
    bar = page.get_by_role("group", name="Inline edit")
    bar.get_by_role("button", name="Save").click()
    expect(bar.get_by_role("alert")).to_contain_text("can't be negative")
    o = get(live_slot, "opportunities", h["id"])
    assert (o["amount"], o["stage"]) == (h["amount"], h["stage"])          # nothing written
    box.fill("510,000")
    bar.get_by_role("button", name="Save").click()
    expect(page.get_by_text("1 record saved.")).to_be_visible()
    o = get(live_slot, "opportunities", h["id"])
    assert (o["amount"], o["stage"]) == (510000, "Proposal")


def test_kanban_display_drag_a_card(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto("/crm/o/opportunities?view=open")
    page.get_by_role("button", name="Display as Table").click()
    page.get_by_role("menu", name="Display as").get_by_role("menuitem", name="Kanban").click()
    card = page.locator(f".list-board .bcard[data-opp='{h['id']}']")
    expect(card).to_be_visible()
    card.drag_to(page.locator(".list-board .bcol[data-stage='Discovery'] .bcol-head"))
    expect(page.locator(f".list-board .bcol[data-stage='Discovery'] .bcard[data-opp='{h['id']}']")).to_be_visible()
    assert get(live_slot, "opportunities", h["id"])["stage"] == "Discovery"
    expect(page.get_by_role("button", name="Display as Kanban")).to_be_visible()
