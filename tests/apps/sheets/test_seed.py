"""World spreadsheets: a formula that doesn't evaluate, or a bad format, fails the compile
with the file, tab and cell named."""
from __future__ import annotations

from tests.apps.worldfiles import compile_error

DAMAGES = "drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)/04 Claims/Damages Model – Aurelia Dawn.gsheet.yaml"


def broken(tmp_path, world, old: str, new: str) -> str:
    return compile_error(tmp_path, world, DAMAGES, old, new)


def test_a_formula_error_names_file_tab_and_cell(tmp_path, world):
    msg = broken(tmp_path, world, '"=D10+D11"', '"=D10+SUMM(D11)"')
    assert "Damages Model" in msg and "(Claims)" in msg and "D12" in msg and "#NAME?" in msg


def test_a_reference_to_a_missing_tab_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, "\"='Limit'!B5\"", "\"='Limits'!B5\"")
    assert "(Summary)" in msg and "B5" in msg and "#REF!" in msg


def test_unknown_number_format(tmp_path, world):
    msg = broken(tmp_path, world, '{"D2:D12": "currency"}', '{"D2:D12": "roman"}')
    assert "formats.D2:D12" in msg and "roman" in msg
