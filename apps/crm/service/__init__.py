"""CRM service layer: accounts, contacts, leads, opportunities, activities, notes, list views,
the pipeline, reports and search.

Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and record ``caller.actor``.
Visibility: every CRM record is visible to, and editable by, the company's own staff (people in
the signed-in world user's org); anyone else gets ``NotFound`` for everything. Bad input raises
``Invalid`` (with ``errors`` = {field: message} for every bad field) and writes nothing.

Objects are named ``accounts``, ``contacts``, ``leads``, ``opportunities``. Records are dicts
with the table's columns plus display helpers (``title``, ``url``, ``owner_name``,
``account_name`` …). References (account, contact, owner) may be given as a row id, a world
slug, or (for people) a person id / email; for accounts also the exact account name.

The package re-exports its modules' public names (and the schema's picklists), so
``service.X`` is the API: ``fields`` (objects and field metadata), ``values`` (dates and
numbers), ``base`` (people, visibility and reading records, shared by the others),
``editing``, ``leads``, ``related`` (related lists, activities, notes), ``views`` (list views),
``reports`` (the canned pipeline report, the dashboard), ``builder`` (saved reports) and ``search``.
"""
from apps.crm.schema import (ACCOUNT_TYPES, ACTIVITY_KINDS, CLOSED_STAGES, EMAIL_RE, INDUSTRIES, LEAD_SOURCES,
                             LEAD_STATUSES, LOSS_REASONS, OPEN_STAGES, OPP_TYPES, STAGE_PROBABILITY, STAGES,
                             TASK_STATUSES)
from apps.crm.service.base import by_slug, get, is_internal, person_id, record_title, resolve, url, users
from apps.crm.service.editing import change_owner, clone_values, create, delete, set_stage, update, update_many
from apps.crm.service.fields import (COLUMNS, DATE_RANGES, EXTRA_FIELDS, FIELDS, HIGHLIGHTS, LABEL, LABEL_PLURAL,
                                     MAX_LONG, MAX_TEXT, NOT_FOUND, OBJECTS, OPS, PLURAL, PREFIX, RELATED_TYPES,
                                     REQUIRED, SINGULAR, TABLE, F, field, filter_fields, ops_for)
from apps.crm.service.leads import account_matches, convert_lead
from apps.crm.service.related import (add_note, contacts_of, delete_activity, delete_note, log_activity, my_tasks,
                                      opportunities_of, opportunities_of_contact, set_task_status, stage_history,
                                      timeline)
from apps.crm.service.builder import (clean_definition, column_label, delete_report, export_csv, get_report,
                                      group_fields, list_reports, report_fields, report_types, run_definition,
                                      run_report, save_report)
from apps.crm.service.reports import dashboard, pipeline, report, stage_columns
from apps.crm.service.search import lookup, search, search_records, suggest
from apps.crm.service.values import (date_range, money, money_short, month_range, parse_amount, parse_date,
                                     parse_local_dt, quarter_range, slugify, today)
from apps.crm.service.views import (BUILTIN_VIEWS, clean_filters, delete_view, describe_filter, get_view, list_records,
                                    list_views, matches_filter, picklist_order, save_view, select_records)

__all__ = [
    "clean_definition", "delete_report", "export_csv", "get_report", "group_fields", "list_reports", "report_fields",
    "report_types", "suggest", "update_many", "run_definition", "run_report", "save_report", "picklist_order",
    "matches_filter", "column_label", "select_records", "stage_columns",
    "ACCOUNT_TYPES", "ACTIVITY_KINDS", "BUILTIN_VIEWS", "CLOSED_STAGES", "COLUMNS", "DATE_RANGES", "EMAIL_RE",
    "EXTRA_FIELDS", "FIELDS", "HIGHLIGHTS", "INDUSTRIES", "LABEL", "LABEL_PLURAL", "LEAD_SOURCES", "LEAD_STATUSES",
    "LOSS_REASONS", "MAX_LONG", "MAX_TEXT", "NOT_FOUND", "OBJECTS", "OPEN_STAGES", "OPP_TYPES", "OPS", "PLURAL",
    "PREFIX", "RELATED_TYPES", "REQUIRED", "SINGULAR", "STAGE_PROBABILITY", "STAGES", "TABLE", "TASK_STATUSES", "F",
    "account_matches", "add_note", "by_slug", "change_owner", "clean_filters", "clone_values", "contacts_of",
    "convert_lead", "create", "dashboard", "date_range", "delete", "delete_activity", "delete_note", "delete_view",
    "describe_filter", "field", "filter_fields", "get", "get_view", "is_internal", "list_records", "list_views",
    "log_activity", "lookup", "money", "money_short", "month_range", "my_tasks", "opportunities_of",
    "opportunities_of_contact", "ops_for", "parse_amount", "parse_date", "parse_local_dt", "person_id", "pipeline",
    "quarter_range", "record_title", "report", "resolve", "save_view", "search", "search_records", "set_stage",
    "set_task_status", "slugify", "stage_history", "timeline", "today", "update", "url", "users",
]
