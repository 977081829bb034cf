"""CRM tables (a Salesforce-like sales app).

Records carry the world file's ``slug`` (``harrowgate``) so tasks, co-workers
and other apps can name them; records created in the app get a slug made from
their name. Dates without a time (close date, task due date) are plain
``YYYY-MM-DD`` text; moments are UTC ISO times.

Field classes: what a user means to change is ``content`` (a stage, an amount,
an owner, a note); ``probability`` is ``derived`` (always the stage's default),
as are ``modified_at`` stamps and the stage history, which the service writes
on every stage change. Saved list views (``crm_views``) and report definitions (``crm_reports``)
are user content.
"""
import re

from apps.core.store.schema import Kind, Table, content, derived, key

STAGES = ("Prospecting", "Qualification", "Discovery", "Proposal", "Negotiation", "Closed Won", "Closed Lost")
OPEN_STAGES = STAGES[:5]
CLOSED_STAGES = ("Closed Won", "Closed Lost")
STAGE_PROBABILITY = {"Prospecting": 10, "Qualification": 20, "Discovery": 40, "Proposal": 60,
                     "Negotiation": 80, "Closed Won": 100, "Closed Lost": 0}
LOSS_REASONS = ("Price", "Competitor", "No Decision", "Product Gap", "Timing")
OPP_TYPES = ("New Business", "Expansion", "Renewal")
INDUSTRIES = ("Logistics", "Fintech", "Retail", "Health", "Media", "Software", "Manufacturing")
ACCOUNT_TYPES = ("Prospect", "Customer", "Partner", "Churned")
LEAD_SOURCES = ("Web", "Referral", "Event", "Outbound", "Partner")
LEAD_STATUSES = ("New", "Working", "Qualified", "Unqualified", "Converted")
ACTIVITY_KINDS = ("call", "task", "meeting")
TASK_STATUSES = ("Open", "Completed")
EMAIL_RE = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")

ACCOUNTS = Table("crm_accounts", (
    key(),
    content("slug"),
    content("name"),
    content("industry", default=""),        # Logistics | Fintech | Retail | Health | Media | Software | Manufacturing
    content("type", default="Prospect"),    # Prospect | Customer | Partner | Churned
    content("website", default=""),
    content("phone", default=""),
    content("city", default=""),
    content("country", default=""),
    content("employees", Kind.INT),
    content("arr", Kind.INT, default=0),    # annual recurring revenue, whole USD
    content("owner"),                       # person id
    content("csm"),                         # person id or NULL
    content("description", default=""),
    content("created_at", Kind.TIME),
    content("created_by"),
    derived("modified_at", Kind.TIME),
), indexes=("slug", "owner"))

CONTACTS = Table("crm_contacts", (
    key(),
    content("slug"),
    content("account", Kind.INT, ref="crm_accounts"),
    content("first_name", default=""),
    content("last_name"),
    content("title", default=""),
    content("email", default=""),
    content("phone", default=""),
    content("owner"),
    content("created_at", Kind.TIME),
    content("created_by"),
    derived("modified_at", Kind.TIME),
), indexes=("slug", "account"))

LEADS = Table("crm_leads", (
    key(),
    content("slug"),
    content("first_name", default=""),
    content("last_name"),
    content("company"),
    content("title", default=""),
    content("email", default=""),
    content("phone", default=""),
    content("source", default=""),          # Web | Referral | Event | Outbound | Partner
    content("status", default="New"),       # New | Working | Qualified | Unqualified | Converted
    content("owner"),
    content("industry", default=""),
    content("locations", Kind.INT),
    content("description", default=""),
    content("created_at", Kind.TIME),
    content("created_by"),
    content("converted_account", Kind.INT, ref="crm_accounts"),
    content("converted_contact", Kind.INT, ref="crm_contacts"),
    content("converted_opportunity", Kind.INT, ref="crm_opportunities"),
    content("converted_at", Kind.TIME),
    content("converted_by"),
    derived("modified_at", Kind.TIME),
), indexes=("slug", "status"))

OPPORTUNITIES = Table("crm_opportunities", (
    key(),
    content("slug"),
    content("name"),
    content("account", Kind.INT, ref="crm_accounts"),
    content("type", default="New Business"),  # New Business | Expansion | Renewal
    content("stage"),                          # Prospecting … Negotiation | Closed Won | Closed Lost
    content("amount", Kind.INT, default=0),    # whole USD
    content("close_date"),                     # YYYY-MM-DD
    derived("probability", Kind.INT),          # from the stage (10/20/40/60/80/100/0)
    content("owner"),
    content("next_step", default=""),
    content("loss_reason"),                    # set iff Closed Lost
    content("contact", Kind.INT, ref="crm_contacts"),   # primary contact role (optional)
    content("lead", Kind.INT, ref="crm_leads"),         # the lead it was converted from
    content("description", default=""),
    content("created_at", Kind.TIME),
    content("created_by"),
    derived("modified_at", Kind.TIME),
), indexes=("slug", "account", "stage"))

STAGE_HISTORY = Table("crm_stage_history", (
    key(),
    derived("opportunity", Kind.INT, ref="crm_opportunities"),
    derived("from_stage"),                     # NULL for the first entry
    derived("to_stage"),
    derived("amount", Kind.INT),
    derived("close_date"),
    derived("by"),                             # person id
    derived("at", Kind.TIME),
), indexes=("opportunity",))

ACTIVITIES = Table("crm_activities", (
    key(),
    content("kind"),                           # call | task | meeting
    content("subject"),
    content("body", default=""),
    content("related_type"),                   # account | contact | lead | opportunity
    content("related_id", Kind.INT),
    content("who"),                            # person id: who logged it / assigned to
    content("at", Kind.TIME),                  # when the call / meeting happened (tasks: when created)
    content("due"),                            # tasks: YYYY-MM-DD
    content("status"),                         # tasks: Open | Completed; calls/meetings: Completed
    content("created_by"),
    derived("account", Kind.INT, ref="crm_accounts"),   # the account it rolls up to
), indexes=("related_type, related_id", "account", "who"))

NOTES = Table("crm_notes", (
    key(),
    content("related_type"),
    content("related_id", Kind.INT),
    content("title", default=""),
    content("body", default=""),
    content("author"),
    content("at", Kind.TIME),
    derived("account", Kind.INT, ref="crm_accounts"),
    derived("modified_at", Kind.TIME),
), indexes=("related_type, related_id", "account"))

VIEWS = Table("crm_views", (
    key(),
    content("object"),                         # accounts | contacts | leads | opportunities
    content("name"),
    content("owner"),                          # person id of who saved it
    content("filters", Kind.JSON, default=[]), # [{field, op, value}]
    content("sort", default=""),               # field name, "-" prefix = descending
    content("created_at", Kind.TIME),
), indexes=("object, owner",))

REPORTS = Table("crm_reports", (
    key(),
    content("name"),
    content("description", default=""),
    content("object"),                         # the report type: accounts | contacts | leads | opportunities
    content("columns", Kind.JSON, default=[]), # field names, in order
    content("filters", Kind.JSON, default=[]), # [{field, op, value}], as list views take them
    content("group_by", default=""),           # one field name, or "" (a tabular report)
    content("sort", default=""),               # field name, "-" prefix = descending
    content("owner"),                          # person id of who saved it
    content("created_at", Kind.TIME),
    derived("modified_at", Kind.TIME),
), indexes=("owner",))

TABLES = (ACCOUNTS, CONTACTS, LEADS, OPPORTUNITIES, STAGE_HISTORY, ACTIVITIES, NOTES, VIEWS, REPORTS)
