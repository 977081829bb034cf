"""The CRM's objects and their fields: names, tables and labels, the field metadata the forms,
list columns and filters are built from, filter operators and date ranges.
"""
from __future__ import annotations

from apps.crm.schema import ACCOUNT_TYPES, INDUSTRIES, LEAD_SOURCES, LEAD_STATUSES, LOSS_REASONS, OPP_TYPES, STAGES

PREFIX = "/crm"

RELATED_TYPES = ("account", "contact", "lead", "opportunity")
OBJECTS = ("accounts", "contacts", "leads", "opportunities")
TABLE = {"accounts": "crm_accounts", "contacts": "crm_contacts", "leads": "crm_leads",
         "opportunities": "crm_opportunities"}
SINGULAR = {"accounts": "account", "contacts": "contact", "leads": "lead", "opportunities": "opportunity"}
PLURAL = {v: k for k, v in SINGULAR.items()}
LABEL = {"accounts": "Account", "contacts": "Contact", "leads": "Lead", "opportunities": "Opportunity"}
LABEL_PLURAL = {"accounts": "Accounts", "contacts": "Contacts", "leads": "Leads", "opportunities": "Opportunities"}

MAX_TEXT = 255
MAX_LONG = 32_000
NOT_FOUND = "That record doesn't exist or has been deleted."
REQUIRED = "Complete this field."


# ---------------------------------------------------------------- field metadata
def F(name, label, type="text", required=False, choices=None, list=False, edit=True, width=None):
    return {"name": name, "label": label, "type": type, "required": required, "choices": choices,
            "list": list, "edit": edit}


FIELDS: dict[str, list[dict]] = {
    "accounts": [
        F("name", "Account Name", required=True, list=True),
        F("type", "Type", "picklist", choices=ACCOUNT_TYPES, list=True),
        F("industry", "Industry", "picklist", choices=INDUSTRIES, list=True),
        F("website", "Website", "url"),
        F("phone", "Phone", "phone", list=True),
        F("city", "Billing City", list=True),
        F("country", "Billing Country"),
        F("employees", "Employees", "int"),
        F("arr", "Annual Recurring Revenue", "currency", list=True),
        F("owner", "Account Owner", "user", required=True, list=True),
        F("csm", "Customer Success Manager", "user"),
        F("description", "Description", "textarea"),
    ],
    "contacts": [
        F("first_name", "First Name"),
        F("last_name", "Last Name", required=True),
        F("account", "Account Name", "account", required=True, list=True),
        F("title", "Title", list=True),
        F("email", "Email", "email", list=True),
        F("phone", "Phone", "phone", list=True),
        F("owner", "Contact Owner", "user", required=True, list=True),
    ],
    "leads": [
        F("first_name", "First Name"),
        F("last_name", "Last Name", required=True),
        F("company", "Company", required=True, list=True),
        F("title", "Title", list=True),
        F("email", "Email", "email", list=True),
        F("phone", "Phone", "phone"),
        F("source", "Lead Source", "picklist", choices=LEAD_SOURCES, list=True),
        F("status", "Lead Status", "picklist", required=True, choices=LEAD_STATUSES[:4], list=True),
        F("industry", "Industry", "picklist", choices=INDUSTRIES),
        F("locations", "Locations", "int"),
        F("owner", "Lead Owner", "user", required=True, list=True),
        F("description", "Description", "textarea"),
    ],
    "opportunities": [
        F("name", "Opportunity Name", required=True, list=True),
        F("account", "Account Name", "account", required=True, list=True),
        F("type", "Type", "picklist", choices=OPP_TYPES),
        F("stage", "Stage", "picklist", required=True, choices=STAGES, list=True),
        F("amount", "Amount", "currency", required=True, list=True),
        F("close_date", "Close Date", "date", required=True, list=True),
        F("probability", "Probability (%)", "percent", edit=False),
        F("owner", "Opportunity Owner", "user", required=True, list=True),
        F("next_step", "Next Step"),
        F("loss_reason", "Loss Reason", "picklist", choices=LOSS_REASONS),
        F("contact", "Primary Contact", "contact"),
        F("description", "Description", "textarea"),
    ],
}
# Columns shown in list views, in order (names, plus "name" for the record title).
COLUMNS = {
    "accounts": ["name", "type", "industry", "city", "phone", "arr", "owner"],
    "contacts": ["name", "account", "title", "email", "phone", "owner"],
    "leads": ["name", "company", "title", "email", "source", "status", "owner", "created_at"],
    "opportunities": ["name", "account", "stage", "amount", "close_date", "owner"],
}
EXTRA_FIELDS = {"name": F("name", "Name"), "created_at": F("created_at", "Created", "datetime", edit=False),
                "modified_at": F("modified_at", "Last Modified", "datetime", edit=False)}
# The highlights panel under a record's title.
HIGHLIGHTS = {
    "accounts": ["type", "industry", "phone", "website", "arr", "owner"],
    "contacts": ["title", "account", "email", "phone", "owner"],
    "leads": ["company", "title", "email", "phone", "status", "owner"],
    "opportunities": ["account", "close_date", "amount", "probability", "owner"],
}
OPS = {"equals": "equals", "not_equals": "not equal to", "contains": "contains", "starts_with": "starts with",
       "lt": "less than", "gt": "greater than", "le": "less or equal", "ge": "greater or equal",
       "in": "is one of", "not_in": "is not one of"}
DATE_RANGES = {"TODAY": "Today", "THIS_WEEK": "This Week", "THIS_MONTH": "This Month", "NEXT_MONTH": "Next Month",
               "LAST_QUARTER": "Last Quarter", "THIS_QUARTER": "This Quarter", "NEXT_QUARTER": "Next Quarter",
               "THIS_YEAR": "This Year"}


def field(obj: str, name: str) -> dict | None:
    f = next((f for f in FIELDS.get(obj, []) if f["name"] == name), None)
    return f or EXTRA_FIELDS.get(name)


def filter_fields(obj: str) -> list[dict]:
    out = [f for f in FIELDS[obj] if f["type"] != "textarea"]
    if obj in ("contacts", "leads"):
        out = [EXTRA_FIELDS["name"]] + out
    return out + [EXTRA_FIELDS["created_at"]]


def ops_for(ftype: str) -> list[str]:
    if ftype in ("int", "currency", "percent"):
        return ["equals", "not_equals", "lt", "gt", "le", "ge"]
    if ftype in ("date", "datetime"):
        return ["equals", "lt", "gt", "le", "ge"]
    if ftype == "picklist":
        return ["equals", "not_equals", "in", "not_in"]
    if ftype == "user":
        return ["equals", "not_equals"]
    return ["equals", "not_equals", "contains", "starts_with"]
