"""The spreadsheet functions, one module per family.

Each family registers its functions in :data:`FUNCTIONS` (``NAME -> (function, least and most
arguments, lazy)``) as it is imported; importing this package imports them all.
"""
from apps.sheets.formula.functions import conditional, dates, info, logic, lookup, numeric, text  # noqa: F401
from apps.sheets.formula.functions.base import FUNCTIONS
from apps.sheets.formula.functions.signatures import SIGNATURES

__all__ = ["FUNCTIONS", "SIGNATURES"]
