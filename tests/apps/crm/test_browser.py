"""The CRM in a real browser (lumen, Jordan Blake): convert a lead, drag an opportunity on the
pipeline, inline edit, and Closed Lost asking for its reason; state checked in the store."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.crm import service as S
from tests.apps.crm.conftest import get, rec

pytestmark = pytest.mark.browser
USER = "jordan.blake"


def test_convert_a_lead(desk, live_slot):
    page = desk
    lead = rec(live_slot, "leads", "brookfield-dental-ava-lin")
    page.goto(f"/crm/o/leads/{lead['id']}")
    page.get_by_role("button", name="Convert").click()
    dlg = page.get_by_role("dialog", name="Convert Lead")
    expect(dlg).to_be_visible()
    expect(dlg.get_by_label("Account Name")).to_have_value("Brookfield Dental Group")
    dlg.get_by_label("Opportunity Name").fill("Brookfield Dental – 14 clinics")
    dlg.get_by_label("Amount").fill("-5")
    dlg.get_by_role("button", name="Convert").click()
    expect(dlg.locator(".fld-error")).to_contain_text("can't be negative")
    assert get(live_slot, "leads", lead["id"])["status"] != "Converted"          # nothing written
    dlg = page.get_by_role("dialog", name="Convert Lead")
    dlg.get_by_label("Amount").fill("84,000")
    dlg.get_by_role("button", name="Convert").click()
    done = page.get_by_role("dialog", name="Your lead has been converted")
    expect(done).to_be_visible()
    expect(done).to_contain_text("Brookfield Dental – 14 clinics")
    after = get(live_slot, "leads", lead["id"])
    assert after["status"] == "Converted"
    o = get(live_slot, "opportunities", after["converted_opportunity"])
    assert (o["name"], o["amount"], o["stage"], o["account_name"]) == \
        ("Brookfield Dental – 14 clinics", 84000, "Qualification", "Brookfield Dental Group")
    assert get(live_slot, "contacts", after["converted_contact"])["name"] == "Ava Lin"
    done.get_by_role("link", name="Done").click()
    expect(page.locator(".converted-note")).to_contain_text("read-only")
    expect(page.get_by_role("button", name="Convert")).to_have_count(0)
    expect(page.get_by_role("button", name="Edit", exact=True)).to_have_count(0)


def test_drag_an_opportunity_on_the_pipeline(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto("/crm/pipeline")
    card = page.locator(f".bcard[data-opp='{h['id']}']")
    expect(card).to_be_visible()
    card.drag_to(page.locator(".bcol[data-stage='Proposal'] .bcol-head"))
    expect(page.locator(f".bcol[data-stage='Proposal'] .bcard[data-opp='{h['id']}']")).to_be_visible()
    o = get(live_slot, "opportunities", h["id"])
    assert (o["stage"], o["probability"]) == ("Proposal", 60)
    with live_slot.store() as st:
        last = S.stage_history(st, USER, h["id"])[0]
    assert (last["from_stage"], last["to_stage"], last["by"]) == ("Negotiation", "Proposal", USER)
    # the column total follows
    col = page.locator(".bcol[data-stage='Proposal']")
    with live_slot.store() as st:
        total = next(c["total"] for c in S.pipeline(st, USER, "all", "THIS_QUARTER") if c["stage"] == "Proposal")
    expect(col.locator("[data-total]")).to_have_text(S.money(total))
    # dropping on Closed Lost asks for the loss reason first
    page.locator(f".bcard[data-opp='{h['id']}']").drag_to(page.locator(".bcol[data-stage='Closed Lost'] .bcol-head"))
    dlg = page.get_by_role("dialog", name="Close This Opportunity")
    expect(dlg).to_be_visible()
    assert get(live_slot, "opportunities", h["id"])["stage"] == "Proposal"
    dlg.get_by_role("button", name="Save").click()
    expect(dlg.locator(".fld-error")).to_contain_text("Loss Reason")
    assert get(live_slot, "opportunities", h["id"])["stage"] == "Proposal"
    dlg.get_by_role("button", name="Loss Reason").click()
    dlg.get_by_role("option", name="Competitor").click()
    dlg.get_by_role("button", name="Save").click()
    expect(page.locator(f".bcol[data-stage='Closed Lost'] .bcard[data-opp='{h['id']}']")).to_be_visible()
    o = get(live_slot, "opportunities", h["id"])
    assert (o["stage"], o["loss_reason"]) == ("Closed Lost", "Competitor")


def test_inline_edit_details(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto(h["url"])
    page.get_by_role("button", name="Edit Next Step").click()
    # the pencil's own label ("Edit Next Step") contains the field's name: wait for the edit form's input
    expect(page.locator("#crm-details.editing")).to_have_count(1)
    box = page.locator("#crm-details.editing").get_by_label("Next Step", exact=True)
    expect(box).to_be_focused()
    box.fill("Redlines back from Nadia by Friday")
    page.locator("#crm-details").get_by_label("Amount", exact=True).fill("-1")
    page.locator("#crm-details").get_by_role("button", name="Save").click()
    expect(page.locator("#crm-details .snag")).to_contain_text("We hit a snag")
    expect(page.locator("#crm-details [data-field='amount'] .fld-error")).to_contain_text("can't be negative")
    assert get(live_slot, "opportunities", h["id"])["next_step"] == h["next_step"]      # nothing written
    page.locator("#crm-details").get_by_label("Amount", exact=True).fill("495,000")
    page.locator("#crm-details").get_by_role("button", name="Save").click()
    expect(page.locator("#crm-details.editing")).to_have_count(0)
    page.wait_for_load_state()
    expect(page.locator("#crm-details [data-field='next_step'] .val")).to_have_text("Redlines back from Nadia by Friday")
    o = get(live_slot, "opportunities", h["id"])
    assert (o["next_step"], o["amount"], o["stage"]) == ("Redlines back from Nadia by Friday", 495000, "Negotiation")
    # Cancel leaves everything as it was
    page.get_by_role("button", name="Edit Next Step").click()
    expect(page.locator("#crm-details.editing")).to_have_count(1)
    page.locator("#crm-details.editing").get_by_label("Next Step", exact=True).fill("scrap this")
    page.locator("#crm-details").get_by_role("button", name="Cancel").click()
    expect(page.locator("#crm-details [data-field='next_step'] .val")).to_have_text("Redlines back from Nadia by Friday")


REFRESH = "document.body.dispatchEvent(new CustomEvent('deskworld:refresh', {bubbles: true}))"


def test_someone_elses_write_refreshes_the_record_but_not_an_open_inline_edit(desk, live_slot):
    """A co-worker's write refreshes the record page when the user is only looking; with an inline
    editor open (Farah's message arriving mid-edit), the refresh waits and the edit goes through."""
    page = desk
    acc = rec(live_slot, "accounts", "hearthstone-furniture")
    page.goto(acc["url"])
    with live_slot.store() as st:
        st.update("crm_accounts", acc["id"], "system", description="Furniture retailer; 14 stores.")
    page.evaluate(REFRESH)
    expect(page.locator("#crm-details [data-field='description'] .val")).to_have_text("Furniture retailer; 14 stores.")
    page.get_by_role("button", name="Edit Customer Success Manager").click()
    expect(page.locator("#crm-details.editing")).to_have_count(1)
    page.evaluate(REFRESH)                                   # before anything is typed: the editor stays
    expect(page.locator("#crm-details.editing")).to_have_count(1)
    page.get_by_role("combobox", name="Customer Success Manager").fill("Grace")
    page.evaluate(REFRESH)
    page.get_by_role("option", name="Grace Okoro").click()
    page.locator("#crm-details").get_by_role("button", name="Save").click()
    expect(page.locator("#crm-details.editing")).to_have_count(0)
    assert get(live_slot, "accounts", acc["id"])["csm"] == "grace.okoro"


def test_closed_lost_on_the_path_requires_a_reason(desk, live_slot):
    page = desk
    h = rec(live_slot, "opportunities", "harrowgate-fy27-renewal")
    page.goto(h["url"])
    page.get_by_role("button", name="Select Closed Stage").click()
    dlg = page.get_by_role("dialog", name="Close This Opportunity")
    dlg.get_by_role("button", name="Stage: Closed Won").click()
    dlg.get_by_role("option", name="Closed Lost").click()
    expect(dlg.get_by_role("button", name="Loss Reason")).to_be_visible()
    dlg.get_by_role("button", name="Save").click()
    expect(dlg.locator(".fld-error")).to_contain_text("required when the stage is Closed Lost")
    assert get(live_slot, "opportunities", h["id"])["stage"] == "Negotiation"
    dlg.get_by_role("button", name="Loss Reason").click()
    dlg.get_by_role("option", name="Price").click()
    dlg.get_by_role("button", name="Save").click()
    expect(page.locator(".chev.lost")).to_have_text("Closed Lost")
    o = get(live_slot, "opportunities", h["id"])
    assert (o["stage"], o["loss_reason"], o["probability"]) == ("Closed Lost", "Price", 0)
    # choosing an earlier stage on the path: "Mark as Current Stage"
    page.locator(".chev[data-stage='Proposal']").click()
    page.get_by_role("button", name="Mark as Current Stage").click()
    expect(page.locator(".chev.current")).to_have_text("Proposal")
    o = get(live_slot, "opportunities", h["id"])
    assert (o["stage"], o["loss_reason"]) == ("Proposal", None)
    page.get_by_role("button", name="Mark Stage as Complete").click()
    expect(page.locator(".chev.current")).to_have_text("Negotiation")
    assert get(live_slot, "opportunities", h["id"])["stage"] == "Negotiation"


def test_save_filters_as_a_list_view(desk, live_slot):
    """"Save as new list view" opens its dialog with the panel's filters (it used to throw in htmx:
    its hx-include selector found nothing) and saves them as a view of the user's."""
    page = desk
    page.goto("/crm/o/opportunities?view=all&f=type|equals|Renewal&f=close_date|ge|2026-04-01&filters=1")
    page.get_by_role("button", name="Save as new list view").click()
    dlg = page.get_by_role("dialog", name="New List View")
    expect(dlg).to_be_visible()
    dlg.get_by_label("List Name").fill("My renewals")
    dlg.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="My renewals", level=1)).to_be_visible()
    with live_slot.store() as st:
        v = st.one("SELECT * FROM crm_views WHERE name=? AND owner=?", ("My renewals", USER))
    assert v is not None and v["object"] == "opportunities"
    filters = v["filters"] if isinstance(v["filters"], list) else __import__("json").loads(v["filters"])
    assert filters == [{"field": "type", "op": "equals", "value": "Renewal"},
                       {"field": "close_date", "op": "ge", "value": "2026-04-01"}]
