"""Service desk service layer: incidents, catalog requests, changes, journal, history, knowledge.

Everything the GUI routes, co-workers, oracles and checks do goes through
here. Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and
record ``caller.actor``. A record is named by its number ("INC0010421") or
its row id; ``kind`` is ``incident``, ``request`` or ``change``.

Rules (ServiceNow's, as the world's triage KB states them):

- priority = impact × urgency: P1 High×High; P2 High×Medium or Medium×High;
  P3 Medium×Medium; P4 anything with Low. Never set by hand.
- SLA (resolution target from opened): P1 4h, P2 8h, P3 72h, P4 120h;
  breached when the world clock (or the resolve time) is past the due time.
- incident states New → In Progress → On Hold → Resolved → Closed, with the
  transitions in ``INCIDENT_TRANSITIONS`` and the fields each state needs in
  ``requirements``; Closed is final. Every refusal is an ``Invalid`` naming
  the rule, and nothing is written.
- "Assigned to" must be a member of the assignment group.
- every changed field writes a ``tk_history`` row (who, from, to, when).

Visibility: Lumen staff (people of the signed-in world user's organisation)
see and work everything. Anyone else (an external directory person) sees only
incidents they are the caller of and requests they are requested for
(anything else is a 404), may comment on them and order from the catalog.

The package re-exports its modules' public names, so ``service.X`` is the API: ``people``
(people, CRM, groups), ``base`` (vocabularies, the rules, records and the helpers the others
share), ``editing`` (validation, updates, creation), ``journal``, ``knowledge``, ``catalog``,
``lists`` and ``search``.
"""
from apps.tickets.service.base import (CATEGORIES, CATEGORY_GROUP, CHANGE_STATES, CHANGE_TRANSITIONS, CHANGE_TYPES,
                                       CLOSE_CODES, DONE_STATES, EDITABLE, FINAL_STATES, INCIDENT_STATES,
                                       INCIDENT_TRANSITIONS, KINDS, LABELS, LEVEL_LABELS, LEVELS, MAX_LINE, MAX_TEXT,
                                       NUMBER_RE, ON_HOLD_REASONS, OPEN_INCIDENT, PREFIX_KIND, PRIORITY_LABELS,
                                       REQUEST_ALIASES, REQUEST_STATES, REQUEST_TRANSITIONS, RESOLUTION_CODES, RISKS,
                                       SLA_HOURS, STATES, TRANSITIONS, breached, can_see, decorate, get, get_change,
                                       get_incident, get_request, kind_of, next_number, priority_of, requirements,
                                       sla_due, transition_error)
from apps.tickets.service.catalog import catalog, catalog_categories, catalog_item, clean_variables, submit_request
from apps.tickets.service.editing import (create_change, create_incident, update, update_change, update_incident,
                                          update_request)
from apps.tickets.service.journal import activity, add_comment, add_journal, add_work_note, history, journal
from apps.tickets.service.knowledge import attach_kb, attached_kb, detach_kb, kb_categories, kb_get, kb_list
from apps.tickets.service.lists import (LIST_COLUMNS, OPERATORS, QUICK, bulk_update, counts, filter_fields,
                                        list_records, parse_condition)
from apps.tickets.service.people import (account_name, caller_info, crm_account, crm_contact, group_by, group_name,
                                         groups, is_staff, members, person_name, resolve_account, resolve_caller,
                                         resolve_person, user_groups)
from apps.tickets.service.search import search
from apps.tickets.service.sla import task_slas
from apps.tickets.service.query import conjoin, describe as describe_query, encode_query, from_rows
from apps.tickets.service.lists import parse_query
from apps.tickets.service.lists import (GROUPABLE, TIMES, available_columns, cell_value, list_columns,
                                        set_list_columns)
from apps.tickets.service.cmdb import ci_name, cis, resolve_ci
from apps.tickets.service.refs import ref_options
from apps.tickets.service.base import clean_choice
from apps.tickets.service.people import contact_name, has_table

__all__ = [
    "clean_choice", "contact_name", "has_table", "task_slas", "conjoin", "describe_query", "encode_query", "from_rows", "parse_query", "GROUPABLE", "TIMES", "available_columns", "cell_value", "list_columns", "set_list_columns", "ci_name", "cis", "resolve_ci", "ref_options",
    "CATEGORIES", "CATEGORY_GROUP", "CHANGE_STATES", "CHANGE_TRANSITIONS", "CHANGE_TYPES", "CLOSE_CODES",
    "DONE_STATES", "EDITABLE", "FINAL_STATES", "INCIDENT_STATES", "INCIDENT_TRANSITIONS", "KINDS", "LABELS",
    "LEVEL_LABELS", "LEVELS", "LIST_COLUMNS", "MAX_LINE", "MAX_TEXT", "NUMBER_RE", "ON_HOLD_REASONS",
    "OPEN_INCIDENT", "OPERATORS", "PREFIX_KIND", "PRIORITY_LABELS", "QUICK", "REQUEST_ALIASES", "REQUEST_STATES",
    "REQUEST_TRANSITIONS", "RESOLUTION_CODES", "RISKS", "SLA_HOURS", "STATES", "TRANSITIONS", "account_name",
    "activity", "add_comment", "add_journal", "add_work_note", "attach_kb", "attached_kb", "breached", "bulk_update",
    "caller_info", "can_see", "catalog", "catalog_categories", "catalog_item", "clean_variables", "counts",
    "create_change", "create_incident", "crm_account", "crm_contact", "decorate", "detach_kb", "filter_fields",
    "get", "get_change", "get_incident", "get_request", "group_by", "group_name", "groups", "history", "is_staff",
    "journal", "kb_categories", "kb_get", "kb_list", "kind_of", "list_records", "members", "next_number",
    "parse_condition", "person_name", "priority_of", "requirements", "resolve_account", "resolve_caller",
    "resolve_person", "search", "sla_due", "submit_request", "transition_error", "update", "update_change",
    "update_incident", "update_request", "user_groups",
]
