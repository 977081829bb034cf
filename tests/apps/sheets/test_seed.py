"""World spreadsheets: a formula that doesn't evaluate, or a bad format, fails the compile
with the file, tab and cell named."""
from __future__ import annotations

import shutil

import pytest

from apps.core.store.compile import build
from apps.core.world import WorldError, load_world

DAMAGES = "drive/sofia.marchetti/Matters/Corvane – Aurelia Dawn (M-2026-0147)/04 Claims/Damages Model – Aurelia Dawn.gsheet.yaml"


def broken(tmp_path, world, old: str, new: str):
    bad = tmp_path / "bad"
    shutil.copytree(world.root, bad, ignore=shutil.ignore_patterns("tasks"))
    path = bad / DAMAGES
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(WorldError) as e:
        build(load_world(bad), tmp_path / "out.sqlite")
    return str(e.value)


def test_a_formula_error_names_file_tab_and_cell(tmp_path, world):
    msg = broken(tmp_path, world, '"=D10+D11"', '"=D10+SUMM(D11)"')
    assert "Damages Model" in msg and "(Claims)" in msg and "D12" in msg and "#NAME?" in msg


def test_a_reference_to_a_missing_tab_is_an_error(tmp_path, world):
    msg = broken(tmp_path, world, "\"='Limit'!B5\"", "\"='Limits'!B5\"")
    assert "(Summary)" in msg and "B5" in msg and "#REF!" in msg


def test_unknown_number_format(tmp_path, world):
    msg = broken(tmp_path, world, '{"D2:D12": "currency"}', '{"D2:D12": "roman"}')
    assert "formats.D2:D12" in msg and "roman" in msg
