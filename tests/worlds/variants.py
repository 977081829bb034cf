"""What every world's variant tests read, once: a variant's facts, its rendered files and its compiled store,
and the three checks each world holds its variants to (nothing unrendered, every variant solvable and
rendering to valid YAML, no published spelling of a changed fact left behind). The worlds' own
``test_<world>_variants.py`` say which figures must equal which facts."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import yaml

from apps.core.facts import load_facts
from apps.core.store.compile import template_for
from apps.core.store.export import export
from apps.core.store.slot import Slot
from apps.core.variants import source_files, templated
from apps.core.world import load_world
from harness.verify import artifacts as A
from harness.verify.checks import Ctx, world_module

WORLDS = Path(__file__).resolve().parents[2] / "worlds"


class Variants:
    """One world's variants, cached per process (a compile is seconds; the tests read each many times)."""

    def __init__(self, world: str):
        self.world, self.source = world, WORLDS / world
        self._facts = load_facts(self.source, world)
        self.facts = lru_cache(maxsize=None)(self._facts.values)
        self.state = lru_cache(maxsize=None)(self._state)

    def ref(self, k: int) -> str:
        return f"{self.world}@{k}" if k else self.world

    def root(self, k: int) -> Path:
        return Path(load_world(self.ref(k)).root)

    def _state(self, k: int) -> tuple[Path, dict]:
        world = load_world(self.ref(k))
        with Slot(template_for(world)).store() as st:
            return Path(world.root), export(st)

    def ctx(self, k: int) -> Ctx:
        root, e = self.state(k)
        return Ctx(initial=e, final=e, diff={"tables": {}}, world_root=root)

    def module(self, name: str = "checks"):
        return world_module(self.source, name)

    def table(self, k: int, name: str) -> dict[str, dict]:
        return self.state(k)[1]["tables"][name]["records"]

    def records(self, k: int, name: str) -> list[dict]:
        return list(self.table(k, name).values())

    def by(self, k: int, table: str, field: str, value) -> dict:
        [r] = [r for r in self.records(k, table) if r.get(field) == value]
        return r

    def cell(self, k: int, book: str, tab: str, a1: str):
        """A computed cell of a Sheet in the variant's store (the verifiers' own reader)."""
        e = self.state(k)[1]
        return A.cells(e, A.tab_key(e, A.app_key(e, book, "sheet"), tab))[a1][1]["value"]

    def text(self, k: int, rel: str) -> str:
        return (self.root(k) / rel).read_text(encoding="utf-8")

    def rendered(self, k: int) -> dict[str, str]:
        """The variant's templated files as rendered (tasks are not world files: ``source_files`` skips them)."""
        root = self.root(k)
        return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in source_files(root) if templated(p)}

    def unrendered(self, k: int) -> list[str]:
        return [rel for rel, text in self.rendered(k).items() if "{{" in text]

    def solve_and_render(self, every: int = 10) -> None:
        """Every variant draws facts that keep the constraints; every ``every``-th renders to YAML that parses."""
        from apps.core.template import render
        files = [(p, p.read_text(encoding="utf-8")) for p in source_files(self.source) if templated(p) and p.suffix == ".yaml"]
        files = [(p, t) for p, t in files if "{{" in t]
        for k in range(self._facts.variants):
            env = self.facts(k)
            if k % every == 3:
                for p, t in files:
                    yaml.safe_load(render(t, env, str(p)))

    def stale(self, k: int, spellings: dict[str, list[str]], other_meanings: dict | None = None) -> list[str]:
        """Where variant ``k`` still writes a published spelling of a fact that changed in it. ``spellings``:
        fact → the ways variant 0 writes it; ``other_meanings``: (fact, spelling) → {file: occurrences that
        mean something else}. A fact whose published value another fact now has is skipped."""
        f0, fk = self.facts(0), self.facts(k)
        files, other_meanings, out = self.rendered(k), other_meanings or {}, []
        for fact, forms in spellings.items():
            others = {json.dumps(v, default=str) for name, v in fk.items() if name != fact}
            if fk[fact] == f0[fact] or json.dumps(f0[fact], default=str) in others:
                continue
            for s in forms:
                allowed = other_meanings.get((fact, s), {})
                for rel, body in files.items():
                    if rel != "facts.yaml" and body.count(s) > allowed.get(rel, 0):
                        out.append(f"{rel}: {s!r} ({fact} is {fk[fact]!r} in variant {k})")
        return out

    def never_written(self, spellings: dict[str, list[str]]) -> list[str]:
        """The facts none of whose spellings variant 0 writes anywhere (a search for them could never fail)."""
        files = self.rendered(0)
        return [fact for fact, forms in spellings.items() if not any(s in body for s in forms for body in files.values())]

    def published_digests_changed(self) -> list[str]:
        """Tables whose export differs from the digest taken before the world was templated."""
        from tests.apps.common.test_variants import GOLDEN, table_digests
        golden = json.loads((GOLDEN / f"{self.world}.digest.json").read_text())
        now = table_digests(self.world)
        return sorted(t for t in set(golden) | set(now) if golden.get(t) != now.get(t))
