"""The Service Desk in a real browser: triage an incident (impact/urgency → priority live, group and assignee,
save), a work note vs a customer-visible comment, attach a KB article from "Search knowledge", resolve with
notes. State is checked in the store."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.core.store.db import Caller
from apps.tickets import service as S

pytestmark = pytest.mark.browser


@pytest.fixture
def fresh(tk_desk):
    with tk_desk.slot.store() as st:
        inc = S.create_incident(st, Caller("kofi.mensah", "kofi.mensah"), short_description="Freshness checks late",
                                caller_id="raj.iyer", account="harrowgate", category="Pipelines")
    return inc["number"]


def rec(page, number):
    with page.slot.store() as st:
        return S.get_incident(st, "jordan.blake", number)


def pick(page, label, option):
    page.get_by_role("button", name=re.compile(rf"^{re.escape(label)}:")).click()
    page.get_by_role("listbox", name=label).get_by_role("option", name=option, exact=True).click()


def test_triage_note_comment_kb_and_resolve(tk_desk, fresh):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident/{fresh}")
    prio = page.get_by_label("Priority")
    expect(prio).to_have_text("4 - Low")
    pick(page, "Impact", "1 - High")
    expect(prio).to_have_text("4 - Low")
    pick(page, "Urgency", "1 - High")
    expect(prio).to_have_text("1 - Critical")                    # computed live, read-only
    page.get_by_role("textbox", name="Assignment group").fill("Pipeline")
    page.get_by_role("listbox", name="Assignment group suggestions").get_by_role("option", name=re.compile("^Pipeline Ops")).click()
    page.get_by_role("textbox", name="Assigned to").fill("e")
    box = page.get_by_role("listbox", name="Assigned to suggestions")
    expect(box.get_by_role("option", name=re.compile("^Ines Duarte"))).to_be_visible()
    expect(box.get_by_role("option", name=re.compile("^Lena Fischer"))).to_have_count(0)   # Billing Ops, not in the group
    box.get_by_role("option", name=re.compile("^Ines Duarte")).click()
    pick(page, "State", "In Progress")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text=f"{fresh} saved")).to_be_visible()
    r = rec(page, fresh)
    assert (r["priority"], r["state"], r["group_name"], r["assigned_to"]) == (1, "In Progress", "Pipeline Ops", "ines.duarte")
    expect(page.locator(".tk-entry.changes").first).to_contain_text("1 - Critical")

    # a work note (internal) and a comment (customer visible)
    page.get_by_role("textbox", name="Work notes").fill("Backfill queued; see KB0001207.")
    page.get_by_role("button", name="Post work note").click()
    expect(page.locator(".tk-entry.work_note", has_text="Backfill queued")).to_be_visible()
    page.get_by_role("tab", name="Additional comments (Customer visible)").click()
    page.get_by_role("textbox", name="Additional comments (Customer visible)").fill("We're backfilling now.")
    page.get_by_role("button", name="Post comment").click()
    expect(page.locator(".tk-entry.comment", has_text="backfilling now")).to_be_visible()
    with page.slot.store() as st:
        kinds = [(j["kind"], j["text"]) for j in S.journal(st, "jordan.blake", "incident", fresh)]
    assert kinds == [("work_note", "Backfill queued; see KB0001207."), ("comment", "We're backfilling now.")]

    # search knowledge from the incident and attach the article
    page.get_by_role("button", name="Search knowledge").click()
    panel = page.get_by_role("complementary", name="Search knowledge")
    panel.get_by_role("searchbox").fill("backfill freshness")
    panel.get_by_role("searchbox").press("Enter")
    panel.get_by_role("button", name=f"Attach KB0001207 to {fresh}").click()
    related = page.get_by_role("region", name="Attached knowledge")
    expect(related.get_by_role("link", name="KB0001207")).to_be_visible()
    with page.slot.store() as st:
        assert [a["number"] for a in S.attached_kb(st, "jordan.blake", "incident", fresh)] == ["KB0001207"]

    # resolve: the rule is enforced, then notes make it pass
    page.get_by_role("button", name="Resolve").click()
    expect(page.get_by_role("tabpanel", name="Resolution Information")).to_be_visible()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("Resolved needs a Resolution code and Resolution notes")
    assert rec(page, fresh)["state"] == "In Progress"
    page.get_by_role("tab", name="Resolution Information").click()
    pick(page, "Resolution code", "Solution provided")
    page.get_by_label("Resolution notes").fill("Backfilled per KB0001207; monitor caught up.")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text=f"{fresh} saved")).to_be_visible()
    r = rec(page, fresh)
    assert r["state"] == "Resolved" and r["resolution_code"] == "Solution provided"
    assert r["resolution_notes"] == "Backfilled per KB0001207; monitor caught up." and r["resolved_at"]


def test_list_filter_select_and_bulk_assign(tk_desk):
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident?quick=open&q=harrowgate")
    rows = page.locator(".tk-table tbody tr")
    expect(rows.first).to_be_visible()
    page.get_by_role("checkbox", name="Select INC0010433").check()
    page.get_by_role("checkbox", name="Select INC0010440").check()
    bulk = page.get_by_role("form", name="Update selected")
    expect(bulk).to_be_visible()
    bulk.get_by_label("Bulk assigned to").fill("ines.duarte")
    bulk.get_by_role("button", name="Update").click()
    result = page.get_by_role("alert", name="Bulk update results")
    expect(result).to_contain_text("Updated 1 of 2")
    expect(result).to_contain_text("INC0010440: Ines Duarte is not a member of Platform Infra")
    assert rec(page, "INC0010433")["assigned_to"] == "ines.duarte"
    assert rec(page, "INC0010440")["assigned_to"] != "ines.duarte"


REFRESH = "document.body.dispatchEvent(new CustomEvent('deskworld:refresh', {bubbles: true}))"


def test_a_coworkers_write_refreshes_the_record_but_not_under_the_users_hands(tk_desk, fresh):
    """Another write in the world (a customer filing an incident, a comment) refreshes the open record
    when the user is only looking at it; with a choice menu open, the cursor in a field or a comment
    half typed, the refresh waits and what the user was doing stays as it was."""
    page = tk_desk
    page.goto(f"{page.base}/tickets/incident/{fresh}")
    with page.slot.store() as st:
        S.add_comment(st, Caller("raj.iyer", "raj.iyer"), "incident", fresh, "Still late as of 10:00.")
    page.evaluate(REFRESH)
    expect(page.locator(".tk-entry.comment", has_text="Still late as of 10:00.")).to_be_visible()  # idle: refreshed

    # a menu open: the refresh waits, the menu stays open and its choice still works
    page.get_by_role("button", name=re.compile(r"^Impact:")).click()
    box = page.get_by_role("listbox", name="Impact")
    expect(box).to_be_visible()
    with page.slot.store() as st:
        S.add_comment(st, Caller("raj.iyer", "raj.iyer"), "incident", fresh, "Now 3 hours late.")
    page.evaluate(REFRESH)
    expect(box).to_be_visible()
    box.get_by_role("option", name="2 - Medium", exact=True).click()
    expect(page.get_by_role("button", name="Impact: 2 - Medium")).to_be_visible()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status").filter(has_text=f"{fresh} saved")).to_be_visible()
    assert rec(page, fresh)["impact"] == "Medium"

    # the cursor in the comment box, then a comment half typed: neither is lost to a refresh
    page.get_by_role("tab", name="Additional comments (Customer visible)").click()
    comment = page.get_by_role("textbox", name="Additional comments (Customer visible)")
    comment.click()
    page.evaluate(REFRESH)
    expect(comment).to_be_focused()
    comment.press_sequentially("We're on it")
    page.evaluate(REFRESH)
    expect(comment).to_have_value("We're on it")
    page.get_by_role("button", name="Post comment").click()
    expect(page.locator(".tk-entry.comment", has_text="We're on it")).to_be_visible()
