"""Service desk tables (a ServiceNow-like app).

Records: ``tk_incidents`` (INC…), ``tk_requests`` (REQ…, from the service
catalog ``tk_catalog`` with the form's ``variables``) and ``tk_changes``
(CHG…). Each record's journal (``tk_journal``: work notes, internal, vs
customer-visible comments) and audit trail (``tk_history``: who changed which
field from what to what, written by the service on every change) point at the
record by ``(record_table, record)`` where ``record_table`` is ``incident``,
``request`` or ``change``.

People are directory slugs; an incident's ``caller_id`` may also be a CRM
contact slug and ``account`` a CRM account slug (stored as given). Priority
and the SLA due time are derived from impact × urgency and the opened time;
the breach flag is computed from the world clock when read, never stored.
"""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

GROUPS = Table("tk_groups", (
    key(),
    content("name"),
    content("manager", default=""),               # person slug
    content("description", default=""),
), indexes=("name",))

CIS = Table("tk_cis", (                          # the CMDB: business services and configuration items
    key(),
    content("name"),
    content("sys_class", default="Application"),  # Business Service | Application | Database | Server | Cluster
    content("service", Kind.INT, ref="tk_cis"),    # a CI's business service (None for a service)
    content("support_group", Kind.INT, ref="tk_groups"),
    content("environment", default="Production"), # Production | Staging
    content("description", default=""),
), indexes=("name",))

LIST_PREFS = Table("tk_list_prefs", (            # Personalize list columns, per user and list
    key(),
    ephemeral("user"),
    ephemeral("kind"),
    ephemeral("columns", Kind.JSON, default=[]),
), indexes=("user, kind",))

GROUP_MEMBERS = Table("tk_group_members", (
    key(),
    content("group_id", Kind.INT, ref="tk_groups"),
    content("person"),
), indexes=("group_id", "person"))

INCIDENTS = Table("tk_incidents", (
    key(),
    content("number"),                            # INC0010421
    content("caller_id", default=""),             # person or CRM contact slug
    content("account", default=""),               # CRM account slug or ""
    content("category", default="Other"),
    content("subcategory", default=""),
    content("impact", default="Low"),             # High | Medium | Low
    content("urgency", default="Low"),
    derived("priority", Kind.INT, default=4),     # 1..4 from impact x urgency
    content("state", default="New"),              # New | In Progress | On Hold | Resolved | Closed | Canceled
    content("assignment_group", Kind.INT, ref="tk_groups"),
    content("assigned_to", default=""),           # person slug or ""
    content("business_service", Kind.INT, ref="tk_cis"),
    content("cmdb_ci", Kind.INT, ref="tk_cis"),   # Configuration item
    content("short_description", default=""),
    content("description", default=""),
    content("on_hold_reason", default=""),
    content("resolution_code", default=""),
    content("resolution_notes", default=""),
    content("opened_at", Kind.TIME),
    content("opened_by", default=""),
    derived("sla_due", Kind.TIME),                # opened_at + target(priority)
    derived("resolved_at", Kind.TIME),
    derived("closed_at", Kind.TIME),
    derived("updated_at", Kind.TIME),
), indexes=("number", "assigned_to", "state"))

REQUESTS = Table("tk_requests", (
    key(),
    content("number"),                            # REQ0002001
    content("item", Kind.INT, ref="tk_catalog"),
    content("short_description", default=""),
    content("requested_for", default=""),         # person slug
    content("opened_by", default=""),
    content("variables", Kind.JSON, default={}),  # the catalog form's answers
    content("state", default="New"),              # New | In Progress | On Hold | Fulfilled | Closed | Cancelled
    content("assignment_group", Kind.INT, ref="tk_groups"),
    content("assigned_to", default=""),
    content("opened_at", Kind.TIME),
    derived("closed_at", Kind.TIME),
    derived("updated_at", Kind.TIME),
), indexes=("number", "requested_for"))

CHANGES = Table("tk_changes", (
    key(),
    content("number"),                            # CHG0000310
    content("type", default="Normal"),            # Normal | Standard | Emergency
    content("category", default="Other"),
    content("short_description", default=""),
    content("description", default=""),
    content("justification", default=""),
    content("implementation_plan", default=""),
    content("backout_plan", default=""),
    content("risk", default="Moderate"),          # Low | Moderate | High
    content("impact", default="Medium"),          # High | Medium | Low
    content("state", default="New"),              # New | Assess | Scheduled | Implement | Review | Closed | Canceled
    content("requested_by", default=""),
    content("assignment_group", Kind.INT, ref="tk_groups"),
    content("assigned_to", default=""),
    content("business_service", Kind.INT, ref="tk_cis"),
    content("cmdb_ci", Kind.INT, ref="tk_cis"),
    content("planned_start", Kind.TIME),
    content("planned_end", Kind.TIME),
    content("close_code", default=""),            # Successful | Successful with issues | Unsuccessful
    content("close_notes", default=""),
    content("opened_at", Kind.TIME),
    derived("closed_at", Kind.TIME),
    derived("updated_at", Kind.TIME),
), indexes=("number",))

JOURNAL = Table("tk_journal", (
    key(),
    content("record_table"),                      # incident | request | change
    content("record", Kind.INT),
    content("kind"),                              # work_note | comment
    content("author"),                            # person slug
    content("at", Kind.TIME),
    content("text"),
), indexes=("record_table, record",))

HISTORY = Table("tk_history", (
    key(),
    derived("record_table"),
    derived("record", Kind.INT),
    derived("field"),                             # field label, e.g. "State"
    derived("old", default=""),                   # display values
    derived("new", default=""),
    derived("by"),                                # the person acting (caller.user)
    derived("via"),                               # the write log's actor (agent, a co-worker id, system)
    derived("at", Kind.TIME),
), indexes=("record_table, record",))

KB = Table("tk_kb", (
    key(),
    content("number"),                            # KB0001207
    content("title"),
    content("category", default="General"),
    content("author", default=""),
    content("published", Kind.TIME),
    content("body", default=""),                  # Markdown
    content("state", default="Published"),
), indexes=("number",))

KB_LINKS = Table("tk_kb_links", (
    key(),
    content("kb", Kind.INT, ref="tk_kb"),
    content("record_table"),
    content("record", Kind.INT),
    content("by", default=""),
    content("at", Kind.TIME),
), indexes=("record_table, record",))

CATALOG = Table("tk_catalog", (
    key(),
    content("name"),
    content("category", default="General"),
    content("description", default=""),
    content("fields", Kind.JSON, default=[]),     # [{name, label, type: string|text|choice|boolean|date, choices, required}]
    content("group_name", default=""),            # fulfilment group (optional)
    content("active", Kind.BOOL, default=True),
))

TABLES = (GROUPS, GROUP_MEMBERS, CIS, LIST_PREFS, INCIDENTS, REQUESTS, CHANGES, JOURNAL, HISTORY, KB, KB_LINKS, CATALOG)
