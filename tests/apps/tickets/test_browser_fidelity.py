"""Issue 21 in a real browser: ServiceNow's global header, reference fields (type-ahead, lookup list,
invalid value), Canceled with Service / Configuration item, Task SLAs, the list's column and cell
context menus, grouping, Personalize list columns and the wide list's scroll cue. State is checked in
the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.tickets import service as S

pytestmark = pytest.mark.browser


def inc(page, number):
    with page.slot.store() as st:
        return S.get_incident(st, "jordan.blake", number)


def test_reference_fields_typeahead_lookup_and_invalid(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident/INC0010443")
    grp = page.get_by_role("textbox", name="Assignment group")
    grp.fill("Platf")
    page.get_by_role("listbox", name="Assignment group suggestions").get_by_role("option", name=re.compile("^Platform Infra")).click()
    expect(grp).to_have_value("Platform Infra")
    who = page.get_by_role("textbox", name="Assigned to")
    who.fill("a")                                   # only Platform Infra's members are offered
    box = page.get_by_role("listbox", name="Assigned to suggestions")
    expect(box.get_by_role("option", name=re.compile("^Hana Sato"))).to_be_visible()
    expect(box.get_by_role("option", name=re.compile("^Ines Duarte"))).to_have_count(0)
    page.get_by_role("button", name="Look up value for field: Assigned to").click()
    dlg = page.get_by_role("dialog", name="Lookup: Assigned to")
    expect(dlg.get_by_role("button", name="Paul Novak")).to_have_count(0)
    dlg.get_by_role("button", name="Hana Sato", exact=True).click()
    expect(who).to_have_value("Hana Sato")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="INC0010443 saved")).to_be_visible()
    r = inc(page, "INC0010443")
    assert (r["group_name"], r["assigned_to"]) == ("Platform Infra", "hana.sato")
    # an invalid value is refused with the field named, nothing saved
    page.get_by_role("textbox", name="Assignment group").fill("Platform Ops")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#err-assignment_group")).to_contain_text("not an assignment group")
    assert inc(page, "INC0010443")["group_name"] == "Platform Infra"


def test_cancel_with_service_and_ci_and_task_slas(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident/INC0010445")
    sla = page.get_by_role("table", name="Task SLAs")
    expect(sla).to_contain_text("P4 resolution (5 day)")
    expect(sla).to_contain_text("In progress")
    page.get_by_role("textbox", name="Service", exact=True).fill("Lumen Web")
    page.get_by_role("option", name=re.compile("^Lumen Web App")).click()
    page.get_by_role("button", name="Look up value for field: Configuration item").click()
    dlg = page.get_by_role("dialog", name="Lookup: Configuration item")
    expect(dlg.get_by_role("button", name="billing-db")).to_have_count(0)     # only the service's CIs
    dlg.get_by_role("button", name="lumen-web-prod", exact=True).click()
    page.get_by_role("button", name="State: New").click()
    page.get_by_role("option", name="Canceled", exact=True).click()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="INC0010445 saved")).to_be_visible()
    expect(page.get_by_role("button", name="State: Canceled")).to_be_visible()
    r = inc(page, "INC0010445")
    assert (r["state"], r["service_name"], r["ci_name"]) == ("Canceled", "Lumen Web App", "lumen-web-prod")
    expect(page.get_by_role("table", name="Task SLAs")).to_contain_text("Cancelled")


def test_header_column_menu_cell_menu_group_and_personalize(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident?quick=open")
    # the global header: All pins/unpins the navigator; the search suggests Service Desk records only
    nav = page.get_by_role("navigation", name="Application navigator")
    expect(nav).to_be_visible()
    page.get_by_role("button", name="All", exact=True).click()
    expect(nav).to_be_hidden()
    page.get_by_role("button", name="All", exact=True).click()
    expect(nav).to_be_visible()
    page.get_by_label("Search Service Desk").fill("collector")
    expect(page.get_by_role("listbox", name="Search suggestions")).to_contain_text("INC0010443")
    page.get_by_role("button", name="App launcher").click()
    expect(page.get_by_role("navigation", name="Apps").get_by_role("link", name=re.compile("Mail"))).to_be_visible()
    page.keyboard.press("Escape")
    # the wide list shows it overflows
    expect(page.locator("[data-hscroll-box]")).to_have_class(re.compile("over-right"))
    # column menu: sort z to a
    page.get_by_role("button", name="Column options: Short description").click()
    page.get_by_role("menu", name="Short description column").get_by_role("menuitem", name="Sort (z to a)").click()
    expect(page).to_have_url(re.compile(r"sort=short_description&dir=desc"))
    # right-click a cell: Show Matching
    page.get_by_role("table", name="Incidents").locator("td.c-category", has_text="Billing").first.click(button="right")
    page.get_by_role("menu", name="Cell options").get_by_role("menuitem", name="Show Matching").click()
    expect(page.get_by_role("navigation", name="Filter breadcrumb")).to_contain_text("Category is Billing")
    expect(page.get_by_role("table", name="Incidents").locator("tbody tr")).to_have_count(1)
    # group by, from a header right-click
    page.goto(f"{page.base}/tickets/incident?quick=open")
    page.get_by_role("columnheader", name=re.compile("State")).click(button="right")
    page.get_by_role("menu", name="State column").get_by_role("menuitem", name="Group By State").click()
    expect(page.locator(".tk-group-row").first).to_contain_text("State: New")
    # personalize: remove Category, move Caller up, add Configuration item and move it up; stored for the user
    page.get_by_role("button", name="Column options: Number").click()
    page.get_by_role("menu", name="Number column").get_by_role("menuitem", name="Personalize list columns").click()
    dlg = page.get_by_role("dialog", name="Personalize list columns")
    selected, available = dlg.get_by_role("list", name="Selected columns"), dlg.get_by_role("list", name="Available columns")
    dlg.get_by_role("button", name="Remove Category").click()
    expect(available.get_by_text("Category", exact=True)).to_be_visible()
    dlg.get_by_role("button", name="Move Caller up").click()
    dlg.get_by_role("button", name="Add Configuration item").click()
    expect(selected.get_by_role("button", name="Remove Configuration item")).to_be_visible()
    expect(dlg.get_by_role("button", name="Add Configuration item")).to_have_count(0)
    dlg.get_by_role("button", name="Move Configuration item up").click()
    dlg.get_by_role("button", name="OK").click()
    expect(page.get_by_role("columnheader", name=re.compile("Category"))).to_have_count(0)
    expect(page.get_by_role("columnheader", name=re.compile("Configuration item"))).to_be_visible()
    with page.slot.store() as st:
        cols = S.list_columns(st, "jordan.blake", "incident")
    assert "category" not in cols and cols.index("caller_id") < cols.index("short_description")
    assert cols[-2:] == ("cmdb_ci", S.LIST_COLUMNS["incident"][-1])


def test_condition_builder_or_and_new_criteria(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident")
    page.get_by_role("button", name="Show filter").click()
    page.get_by_role("textbox", name="Value").fill("New")                # State is New
    page.get_by_role("button", name="OR", exact=True).click()
    page.get_by_role("textbox", name="Value").nth(1).fill("On Hold")     # or State is On Hold
    page.get_by_role("button", name="New criteria", exact=True).click()
    page.get_by_role("button", name="Field: State").nth(2).click()
    page.get_by_role("option", name="Assigned to", exact=True).click()
    page.get_by_role("textbox", name="Value").nth(2).fill("Hana Sato")   # — or — Assigned to is Hana Sato
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page).to_have_url(re.compile(r"sysparm_query=state%3DNew%5EORstate%3DOn\+Hold%5ENQassigned_to%3DHana\+Sato"))
    crumbs = page.get_by_role("navigation", name="Filter breadcrumb")
    expect(crumbs).to_contain_text("State is New or State is On Hold — or — Assigned to is Hana Sato")
    table = page.get_by_role("table", name="Incidents")
    for n in ("INC0010441", "INC0010434", "INC0010437"):
        expect(table.get_by_role("link", name=n, exact=True)).to_be_visible()
    expect(table.get_by_role("link", name="INC0010421", exact=True)).to_have_count(0)
    with page.slot.store() as st:
        want = S.list_records(st, "jordan.blake", "incident", per_page=500,
                              query="state=New^ORstate=On Hold^NQassigned_to=Hana Sato")["total"]
    expect(page.locator(".tk-range")).to_contain_text(f"of {want}")


def test_change_planned_dates_use_the_in_page_picker(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/change/CHG0000320")
    start = page.locator("#f-planned_start")
    start.fill("2026-06-25 18:00:00")
    end = page.locator("#f-planned_end")
    end.click()
    dlg = page.get_by_role("dialog", name="Choose date")
    expect(dlg).to_be_visible()
    dlg.get_by_role("button", name="Friday, June 26, 2026").click()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="CHG0000320 saved")).to_be_visible()
    with page.slot.store() as st:
        ch = S.get_change(st, "jordan.blake", "CHG0000320")
        assert st.local(ch["planned_start"]).strftime("%Y-%m-%d %H:%M") == "2026-06-25 18:00"
        assert st.local(ch["planned_end"]).strftime("%Y-%m-%d") == "2026-06-26"

