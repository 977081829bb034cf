"""The workspace-wide search lists CRM and Service Desk records next to mail and files."""
from __future__ import annotations

from apps import create_app


def test_lumen_search_finds_accounts_and_incidents():
    app = create_app({"WORLD": "lumen", "AUTO_LOGIN": True})
    client = app.test_client()
    page = client.get("/search?q=harrowgate").get_data(as_text=True)
    assert "Harrowgate Logistics" in page and "/crm/" in page          # the account
    assert "> Service Desk</h2>" in page and "/tickets/incident/INC0010421" in page
    suggest = client.get("/search/suggest?q=INC0010421").get_data(as_text=True)
    assert "INC0010421" in suggest and "Freshness monitor delayed 6h" in suggest


def test_meridian_search_has_no_empty_record_sections(client):
    page = client.get("/search?q=survey").get_data(as_text=True)
    assert "Final Survey Report" in page
    assert "> Service Desk</h2>" not in page and "> CRM</h2>" not in page
