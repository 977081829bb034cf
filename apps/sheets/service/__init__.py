"""Sheets service layer: spreadsheets, tabs, cells, formats, structure, undo.

A spreadsheet is a Drive item of kind ``sheet`` (name, owner, folder, sharing
are Drive's; ``SHEETS`` opens, lists, creates, renames it, see
``apps.drive.editors``) plus tabs and cells. Every change goes through here: the GUI
routes, the oracles and the checks all call these functions. Values are
computed by ``apps.sheets.formula`` and written next to the inputs (derived
fields), so whoever reads the store sees what the grid shows.

Addresses in this package are 1-based ``(row, col)``; the formula engine is
0-based. Ranges are ``(top, left, bottom, right)``, inclusive.

Undo is server-side: each change records the cells (and for structural
changes, the tabs) it is about to touch, with their row keys, in
``sheets_history``; undo puts them back under the same keys, so a sheet
edited and undone is the sheet it was, row for row.

The modules, each building on the ones before: ``base`` (constants, reading,
values), ``history`` (the undo log), ``editing`` (cells, formats, copy and
paste, fill), ``filters`` (filters and filter views), ``structure`` (rows, columns, sorting, tabs) and ``spreadsheets``
(creating, importing, exporting). Import the service as a whole
(``from apps.sheets import service``): the names below are its surface.
"""
from __future__ import annotations

from apps.sheets.service.base import (ALIGNS, DEFAULT_COLS, DEFAULT_ROWS, KIND, MAX_COLS, MAX_INPUT, MAX_ROWS,
                                      NUMBER_TYPES, SHEET_MIME, SHEETS, UNTITLED, Range, books, cell, cells,
                                      encode_value, engine_raw, get, parse_range, tab, tabs, workbook, write_values)
from apps.sheets.service.history import redo, undo
from apps.sheets.service.editing import clear, fill, paste_cells, paste_text, set_cells, set_format
from apps.sheets.service.structure import (add_rows, add_tab, delete_cols, delete_rows, delete_tab, insert_cols,
                                           insert_rows, rename_tab, set_frozen, set_width, sort_range)
from apps.sheets.service.filters import active as active_filter, one as get_filter, sort_range_of as filter_sort_range
from apps.sheets.service.filters import (CONDITIONS, create_filter, create_view, delete_view, filters, hidden_rows,
                                         remove_filter, set_criteria, shown_rows, shown_rows_in_export, update_view, views)
from apps.sheets.service.charts import LEGENDS as CHART_LEGENDS, TYPES as CHART_TYPES
from apps.sheets.service.charts import chart_data, charts, delete_chart, insert_chart, update_chart
from apps.sheets.service.charts import one as get_chart
from apps.sheets.service.merges import HOW as MERGE_HOW, merge, merged_at, merges, unmerge
from apps.sheets.service.conditional import CONDITIONS as RULE_CONDITIONS
from apps.sheets.service.conditional import add_rule, delete_rule, describe as describe_rule, rules, styles, update_rule
from apps.sheets.service.conditional import one as get_rule
from apps.sheets.service.selection import clear_ranges, format_ranges
from apps.sheets.service.spreadsheets import (XLSX_FORMATS, create, csv_bytes, grid_json, import_rows, input_text,
                                              open_file_in_sheets, xlsx_bytes)

__all__ = [
    "ALIGNS", "DEFAULT_COLS", "DEFAULT_ROWS", "KIND", "MAX_COLS", "MAX_INPUT", "MAX_ROWS", "NUMBER_TYPES",
    "SHEET_MIME", "SHEETS", "UNTITLED", "Range", "books", "cell", "cells", "encode_value", "engine_raw", "get",
    "parse_range", "tab", "tabs", "workbook", "write_values", "redo", "undo", "clear", "fill", "paste_cells", "paste_text",
    "set_cells", "set_format", "add_rows", "add_tab", "delete_cols", "delete_rows", "delete_tab", "insert_cols",
    "insert_rows", "rename_tab", "set_frozen", "set_width", "sort_range", "XLSX_FORMATS", "create", "csv_bytes",
    "grid_json", "import_rows", "input_text", "open_file_in_sheets", "xlsx_bytes", "CONDITIONS", "create_filter",
    "create_view", "delete_view", "filters", "hidden_rows", "remove_filter", "set_criteria", "shown_rows", "shown_rows_in_export",
    "update_view", "views", "active_filter", "get_filter", "filter_sort_range",
    "CHART_LEGENDS", "CHART_TYPES", "chart_data", "charts", "delete_chart", "insert_chart", "update_chart", "get_chart",
    "MERGE_HOW", "merge", "merged_at", "merges", "unmerge",
    "clear_ranges", "format_ranges", "RULE_CONDITIONS", "add_rule", "delete_rule", "describe_rule", "rules", "styles", "update_rule", "get_rule",
]
