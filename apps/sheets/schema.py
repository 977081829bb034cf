"""Sheets tables. A spreadsheet is a Drive item (kind ``sheet``) plus tabs and
cells. A cell row holds what the user typed (``input``), its format, and the
computed value and display text (derived), so a check can ask "is D3 of the
Claims tab 6480000" without running the formula engine, and a diff names the
cells that changed. Rows and columns are 1-based; ``a1`` repeats the address
for people reading exports and diffs."""
from apps.core.store.schema import Kind, Table, content, derived, ephemeral, key

BOOKS = Table("sheets_books", (
    key(),
    content("item", Kind.INT, ref="drive_items", link="both"),
    derived("revision", Kind.INT, default=1),
    ephemeral("opened_at", Kind.TIME),
), indexes=("item",))

TABS = Table("sheets_tabs", (
    key(),
    content("book", Kind.INT, ref="sheets_books", link="part"),
    content("seq", Kind.INT),                          # position among the tabs, 1-based
    content("name"),
    derived("rows", Kind.INT, default=100),            # grid size (follows the cells and "add rows")
    derived("cols", Kind.INT, default=26),
    content("frozen", Kind.INT, default=0),            # frozen header rows
    content("widths", Kind.JSON, default={}),          # {"A": 280}: column widths in px
), indexes=("book, seq",), order=(("seq", "book"),))

CELLS = Table("sheets_cells", (
    key(),
    content("tab", Kind.INT, ref="sheets_tabs", link="part"),
    content("row", Kind.INT),
    content("col", Kind.INT),
    content("input"),                                  # as typed: "6480000", "=SUM(D2:D8)", "Third party"
    content("format", Kind.JSON, default={}),          # {"type": "currency", "decimals": 2, "bold": true, "align": "right"}
    derived("a1"),                                     # "D3"
    derived("value", Kind.JSON),                       # number, text, bool, {"error": "#REF!"} or null
    derived("display", default=""),                   # what the grid shows
), indexes=("tab, row, col",), order=(("row", "tab"), ("col", "tab")))

HISTORY = Table("sheets_history", (               # the undo and redo stacks of each spreadsheet
    key(),
    ephemeral("book", Kind.INT, ref="sheets_books"),
    ephemeral("seq", Kind.INT),
    ephemeral("stack"),                                # undo | redo
    ephemeral("label"),
    ephemeral("before", Kind.JSON),                    # the cells (and tabs) as they were, with their keys
), indexes=("book, stack, seq",), exported=False)

FILTERS = Table("sheets_filters", (               # a tab's filter (kind "filter", at most one) and its filter views
    key(),
    content("tab", Kind.INT, ref="sheets_tabs", link="part"),
    content("kind"),                                   # filter | view
    content("name"),                                   # a view's name ("Filter 1"); None for the tab's filter
    content("range"),                                  # "A1:F8": the header row is its first row
    content("criteria", Kind.JSON, default={}),        # {"D": {"hidden": ["Withdrawn"], "condition": {"type": "gt", "value": "100"}}}
), indexes=("tab",))

CHARTS = Table("sheets_charts", (                 # Insert → Chart: a chart over a tab's range, floating over the grid
    key(),
    content("tab", Kind.INT, ref="sheets_tabs", link="part"),
    content("type"),                                   # column | bar | line | pie
    content("range"),                                  # "A1:D8": header row first, categories in its first column
    content("title"),
    content("legend"),                                 # right | bottom | top | left | none
    content("anchor"),                                 # "H2": the cell its top-left corner sits on
    content("width", Kind.INT, default=600),           # px, as Sheets' default chart
    content("height", Kind.INT, default=371),
), indexes=("tab",))

MERGES = Table("sheets_merges", (                 # Format → Merge cells: a block shown as one cell (its top-left)
    key(),
    content("tab", Kind.INT, ref="sheets_tabs", link="part"),
    content("range"),                                  # "A1:C1"
), indexes=("tab",))

CONDITIONAL = Table("sheets_conditional", (       # Format → Conditional formatting: a rule over a range
    key(),
    content("tab", Kind.INT, ref="sheets_tabs", link="part"),
    content("range"),                                  # "D2:D8"
    content("condition", Kind.JSON, default={}),       # {"type": "gt", "value": "1000000"} or {"type": "custom", "value": "=$F2=\"Withdrawn\""}
    content("style", Kind.JSON, default={}),           # {"fill": "#b7e1cd", "color": "#137333", "bold": true}
), indexes=("tab",))

TABLES = (BOOKS, TABS, CELLS, HISTORY, FILTERS, CHARTS, MERGES, CONDITIONAL)
