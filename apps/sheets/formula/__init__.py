"""Formula engine for the Sheets clone: parsing, evaluation, dependency tracking, reference rewriting.

Pure standard library. The pipeline is

    raw text --tokenizer--> tokens --Pratt parser--> AST (nested tuples) --evaluator--> value

and the package is laid out along it, each module importing only the ones above it:

* :mod:`~apps.sheets.formula.base` -- values, :class:`ErrorValue`, the epoch, the limits;
* :mod:`~apps.sheets.formula.a1` -- A1 notation (``col_letter``, ``parse_ref``, ``parse_range``...);
* :mod:`~apps.sheets.formula.inputs` -- what a user typed, as a value (``parse_input``);
* :mod:`~apps.sheets.formula.tokenizer` -- tokens, and reference rewriting for structural edits;
* :mod:`~apps.sheets.formula.parser` -- the Pratt parser and compiled formulas;
* :mod:`~apps.sheets.formula.coercion` -- grids, coercion and the operators;
* :mod:`~apps.sheets.formula.matching` -- criteria (SUMIF & co.) and lookup search;
* :mod:`~apps.sheets.formula.display` -- number formats and TEXT() patterns (``format_value``);
* :mod:`~apps.sheets.formula.arrays` -- operators cell by cell, for functions whose arguments are arrays;
* :mod:`~apps.sheets.formula.functions` -- the functions, one module per family;
* :mod:`~apps.sheets.formula.graph` -- recalculation order (Tarjan's SCCs);
* :mod:`~apps.sheets.formula.workbook` -- :class:`Workbook`: cells, the dependency graph, evaluation
  and structural edits.

Semantics follow Google Sheets where it matters to users:

* Precedence: unary ``-``/``+`` binds tighter than ``^`` (``=-2^2`` is 4), then postfix ``%``
  (tighter still), ``^`` (left-associative: ``=2^3^2`` is 64), ``* /``, ``+ -``, ``&``,
  comparisons.
* Empty is 0 in arithmetic, "" in text, FALSE in logic. Numeric text coerces in arithmetic
  (``="3"+1`` is 4); other text gives ``#VALUE!``. Sums and differences are rounded to 15
  significant digits (``=0.1+0.2`` is 0.3) and number comparisons are made at 15 digits
  (``=0.1*3=0.3`` is TRUE); products and quotients keep full precision so that ``=1/3*3`` is 1.
  Whole results are returned as ``int``.
* Comparisons: numbers < text < booleans; text compares case-insensitively.
* SUM/AVERAGE/MIN/MAX/... skip text, booleans and empties inside ranges but coerce direct
  arguments; errors inside ranges propagate (first error wins).
* A formula that evaluates to a range yields its top-left value (no array spill). A formula
  that points at an empty cell (``=A1``) is itself empty.
* Unknown functions give ``#NAME?``, wrong argument counts ``#N/A``, syntax errors ``#ERROR!``,
  references to missing tabs (or deleted cells, written ``#REF!``) ``#REF!``.
* Criteria (SUMIF & co.): a number or "=5" matches that number (and the text "5"); "text" matches
  case-insensitively with ``*``/``?`` wildcards (``~`` escapes); "<>x" matches everything else,
  empties included; ">100" compares numbers only; "" matches empty cells.
* SUMPRODUCT's arguments are arrays: operators inside them apply cell by cell
  (``=SUMPRODUCT((D2:D9="North")*B2:B9)``). SUMIF's and AVERAGEIF's sum range takes the criteria
  range's shape from its top-left cell. Criteria "#N/A" (and the other error codes) match those errors.
* TEXT() patterns: ``0``/``#`` placeholders (optional ``#`` decimals trimmed), thousands commas and
  trailing-comma scaling, ``%``, scientific ``0.00E+00``, quoted literal text and ``\\`` escapes,
  ``;`` sections, date and time tokens. TRIM removes spaces only (tabs and non-breaking spaces stay).
* Lookups: exact matches (VLOOKUP/HLOOKUP FALSE, MATCH 0) are case-insensitive and honour
  wildcards; approximate ones assume sorted data and take the last value <= key (MATCH -1: >= key)
  before the first larger one. XLOOKUP matches exactly (wildcards only with match_mode 2).
* Dates are serial numbers (days since 1899-12-30), as in Sheets.
* Structural edits rewrite references like Sheets does: ``$``-absolute references shift too,
  ranges spanning an insertion grow, ranges lose deleted rows (``#REF!`` only when wholly
  deleted), references to deleted cells or tabs become the literal ``#REF!``.

``benchmarks/formula.py`` times a build, a full recalculation and a single edit.
"""
from apps.sheets.formula.a1 import col_index, col_letter, parse_range, parse_ref, ref_name
from apps.sheets.formula.base import ErrorValue
from apps.sheets.formula.display import format_value
from apps.sheets.formula.inputs import parse_input
from apps.sheets.formula.tokenizer import closed_parens, to_ooxml
from apps.sheets.formula.workbook import Workbook

__all__ = [
    "ErrorValue", "Workbook", "col_letter", "col_index", "parse_ref", "ref_name", "parse_range",
    "parse_input", "format_value", "to_ooxml", "closed_parens",
]
