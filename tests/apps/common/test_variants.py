"""World facts, variants and their rendering (apps.core.facts, template, variants)."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest

from apps.core.facts import FactsError, load_facts
from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.template import render
from apps.core.world import WorldError, load_world, parse_ref, world_names

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "variant0"

FACTS = """\
revision: 1
variants: 40
facts:
  gross_tonnage: {value: 58400, draw: {int: [42000, 86000], step: 100}}
  old_rate: {value: 2600, draw: {choice: [2450, 2500, 2600]}}
  new_rate: {value: 2750, draw: {choice: [2700, 2750, 2800]}}
  fund: {value: 151840000, is: "gross_tonnage * old_rate"}
  limit: {is: "gross_tonnage * new_rate"}
  hearing: {value: 2026-04-22, draw: {date: [2026-04-20, 2026-04-30], weekdays: true}}
  deadline: {value: 2026-05-29, draw: {date: [2026-04-27, 2026-06-05], weekdays: true}}
  claims: {value: [{id: a, amount: 5}, {id: b, amount: 7}, {id: c, amount: 9}], draw: shuffle}
constraints:
  - "hearing < deadline"
  - "new_rate > old_rate"
"""


def table_digests(world_ref: str) -> dict[str, str]:
    with Slot(template_for(world_ref)).store() as st:
        e = export(st)
    return {t: hashlib.sha256(json.dumps(v, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
            for t, v in e["tables"].items()}


@pytest.mark.parametrize("world", world_names())
def test_variant_0_is_the_published_world(world):
    """Variant 0 compiles to the template the world had before its facts were templated: every exported
    table is the same, record for record. (After a deliberate change to a world's data, rewrite the
    digests with ``python -m tests.apps.common.test_variants``.)"""
    golden = json.loads((GOLDEN / f"{world}.digest.json").read_text())
    now = table_digests(world)
    assert [t for t in sorted(golden) if golden[t] != now.get(t)] == []
    assert sorted(now) == sorted(golden)


def fact_world(tmp_path, text=FACTS) -> Path:
    (tmp_path / "facts.yaml").write_text(text)
    return tmp_path


def test_variant_0_is_the_values_and_computed_facts_hold(tmp_path):
    fs = load_facts(fact_world(tmp_path), "w")
    v0 = fs.values(0)
    assert v0["gross_tonnage"] == 58400 and v0["fund"] == 151840000 and v0["limit"] == 160600000
    assert v0["hearing"] == dt.date(2026, 4, 22)


def test_variants_are_seeded_differ_and_keep_the_constraints(tmp_path):
    fs = load_facts(fact_world(tmp_path), "w")
    seen = set()
    for k in range(1, 40):
        v = fs.values(k)
        assert v == fs.values(k)                       # the same every time
        assert v["hearing"] < v["deadline"] and v["new_rate"] > v["old_rate"]
        assert v["fund"] == v["gross_tonnage"] * v["old_rate"]
        assert v["hearing"].weekday() < 5 and 42000 <= v["gross_tonnage"] <= 86000
        assert sorted(c["id"] for c in v["claims"]) == ["a", "b", "c"]
        seen.add(v["gross_tonnage"])
    assert len(seen) > 30


@pytest.mark.parametrize("text, message", [
    ("facts:\n  fund: {value: 1, is: 'a * 2'}\n", "unknown fact 'a'"),
    ("facts:\n  a: {value: 2}\n  fund: {value: 5, is: 'a * 2'}\n", "facts.fund: value 5 but a * 2 is 4"),
    ("facts:\n  a: {value: 2, draw: {int: [1, 3]}, is: '1'}\n", "drawn or computed"),
    ("facts:\n  a: {draw: {int: [1, 3]}}\n", "a value (variant 0) is required"),
    ("facts:\n  a: {value: 2, draw: {range: [1, 3]}}\n", "draw: one of"),
    ("facts:\n  a: {value: 2}\nconstraints: ['a > 3']\n", "variant 0 breaks the constraint 'a > 3'"),
    ("facts:\n  a: {value: 1, is: 'b'}\n  b: {value: 1, is: 'a'}\n", "computed from itself"),
    ("variants: 0\n", "variants: a whole number"),
    ("facts:\n  Bad-Name: 1\n", "lower_snake_case"),
    ("facts:\n  xs: {value: [1, 2]}\n  big: {value: [2], is: '[x for x in xs if x > 1]'}\n  y: {value: 1, is: 'z'}\n",
     "facts.y.is: unknown fact 'z'"),
    ("facts:\n  a: {value: 1, draw: {int: [2, 3]}}\nconstraints: ['a > 5 or a == 1']\nvariants: 3\n", None),
])
def test_bad_facts_are_named(tmp_path, text, message):
    if message is None:        # variant 0 holds, no other draw can: the error names the variant
        fs = load_facts(fact_world(tmp_path, text), "w")
        with pytest.raises(FactsError, match="no draw of variant 1 satisfies"):
            fs.values(1)
        return
    with pytest.raises(FactsError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        load_facts(fact_world(tmp_path, text), "w").values(0)


@pytest.mark.parametrize("expr, out", [
    ("{{ n }}", "160600000"), ("{{n|comma}}", "160,600,000"), ("{{ n | usd }}", "$160,600,000"),
    ("{{ m | usd:2 }}", "$10,250.00"), ("{{ m | comma:2 }}", "10,250.00"), ("{{ n | millions }}", "160.6"),
    ("{{ f | millions }}", "151.84"), ("{{ f | millions:1 }}", "151.8"), ("{{ m | thousands }}", "10.25"),
    ("{{ d | date:%B %-d, %Y }}", "April 22, 2026"), ("{{ d | date:%d/%m }}", "22/04"), ("{{ d }}", "2026-04-22"),
    ("{{ d + days(7) | date:%b %-d }}", "Apr 29"), ("{{ workdays(d, 3) | date:%a %-d }}", "Mon 27"),
    ("{{ name | upper }}", "PORT CALDER"), ("{{ name | slug }}", "port-calder"), ("{{ 12 | words }}", "twelve"),
    ("{{ 374 | words }}", "three hundred seventy-four"), ("{{ 40 | words }}", "forty"), ("{{ 300 | words }}", "three hundred"),
    ("{{ 21 | words }}", "twenty-one"), ("{{ 1005 | words }}", "one thousand five"),
    ("{{ n - f | usd }}", "$8,760,000"), ("{{ r | pct:1 }}", "12.5"), ("{{ rows[1].id }}", "b"),
    ("{{ 'a|b' }}", "a|b"), ("{{ [r.id for r in rows if r.id != 'a'] }}", "['b']"), ("no marks", "no marks"), ("{{ m / 4 | short }}", "2562.5"),
])
def test_formats(expr, out):
    env = {"n": 160600000, "f": 151840000, "m": 10250, "d": dt.date(2026, 4, 22), "name": "Port Calder",
           "r": 0.125, "rows": [{"id": "a"}, {"id": "b"}]}
    assert render(expr, env) == out


@pytest.mark.parametrize("expr, message", [
    ("{{ nope }}", "x.md:2: {{ nope }}: .*unknown fact 'nope'"),
    ("{{ n | dollars }}", "unknown format 'dollars'"),
    ("{{ n * 2000000 | words }}", "2000000: words covers whole numbers 0–999,999"),
    ("{{ name | comma }}", "'Port Calder' is not a number"),
    ("{{ __import__('os') }}", "unknown fact '__import__'"),
    ("{{ (lambda: 1)() }}", "Lambda is not allowed"),
    ("{{ [a for a in rows for b in rows] }}", "one 'for name in"),
])
def test_render_errors_name_file_line_and_expression(expr, message):
    with pytest.raises(FactsError, match=message):
        render("first line\n" + expr, {"n": 1, "name": "Port Calder"}, "x.md")


def test_world_refs():
    assert parse_ref("meridian") == ("meridian", 0)
    assert parse_ref("meridian@17") == ("meridian", 17)
    with pytest.raises(WorldError, match="a world variant is a whole number"):
        parse_ref("meridian@x")


def test_a_variant_renders_its_files_and_links_the_rest(tmp_path, monkeypatch):
    """A toy world with facts: variant 3's folder has its own figures; untemplated files are the source's."""
    src = Path(__file__).resolve().parents[3] / "worlds" / "lumen"
    world = tmp_path / "toy"
    world.mkdir()
    (world / "world.yaml").write_text((src / "world.yaml").read_text().replace("name: lumen", "name: toy", 1))
    fact_world(world)
    (world / "note.md").write_text("GT {{ gross_tonnage | comma }}; fund {{ fund | usd }}.\n")
    (world / "plain.md").write_text("no facts here\n")
    monkeypatch.setenv("DESKWORLD_WORLDS", str(tmp_path))
    monkeypatch.setenv("DESKWORLD_CACHE", str(tmp_path / "cache"))
    v0, v3 = load_world("toy"), load_world("toy@3")
    assert (v0.root / "note.md").read_text() == "GT 58,400; fund $151,840,000.\n"
    f3 = v3.facts()
    assert (v3.root / "note.md").read_text() == f"GT {f3['gross_tonnage']:,}; fund ${f3['fund']:,}.\n"
    assert (v3.root / "plain.md").resolve() == (world / "plain.md").resolve()
    assert v3.ref == "toy@3" and v3.source == world and v3.variant == 3
    with pytest.raises(WorldError, match="variants 0–39, not 40"):
        load_world("toy@40")


if __name__ == "__main__":          # rewrite the golden digests (after a deliberate change to a world)
    for w in world_names():
        (GOLDEN / f"{w}.digest.json").write_text(json.dumps(table_digests(w), indent=1, sort_keys=True) + "\n")
        print("wrote", GOLDEN / f"{w}.digest.json")


def test_pdfs_render_the_same_bytes_with_the_shared_fonts_and_kept_subsets(tmp_path, monkeypatch):
    """The first document of a process parses the fonts and subsets them itself; later ones share the
    parsed fonts and keep their subsets: the same bytes either way."""
    import subprocess
    import sys
    from apps.core import pdfdoc
    monkeypatch.setenv("DESKWORLD_CACHE", str(tmp_path))
    text = "# Memo\n\nThe fund is **$151,840,000**; the limit *$160.6 million*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    code = ("import sys; from apps.core import pdfdoc; t = sys.stdin.read(); a = pdfdoc.render_pdf(t, title='Memo'); "
            "b = pdfdoc.render_pdf(t, title='Memo'); assert a == b; sys.stdout.buffer.write(b)")
    fresh = subprocess.run([sys.executable, "-c", code], input=text.encode(), capture_output=True,
                           check=True, env={**__import__("os").environ, "DESKWORLD_CACHE": str(tmp_path / "other")}).stdout
    first = pdfdoc.render_pdf(text, title="Memo")
    again = pdfdoc.render_pdf(text, title="Memo")
    assert first == again == fresh and fresh.startswith(b"%PDF")
    assert list((tmp_path / "other" / "built").glob("subset-*.ttf"))
