"""Task families: one task file, many instances.

A task file that declares ``variants: all`` and/or ``params:`` is a family; every other task is a
family of one (variant 0, no params). An **instance** is ``(family, variant, params)``: the file
rendered (``apps.core.template``) with the variant's facts and the params, then parsed and
validated like any task file. Its id is stable:

- ``meridian/fund-shortfall`` — the hand-made task: variant 0 and every param at its default;
- ``meridian/fund-shortfall/v17`` — variant 17;
- ``meridian/claim-figure/v17-tourism`` — variant 17, the param keyed ``tourism``.

``variants:`` and ``params:`` are plain YAML at the top of the file's level (no ``{{ }}``): they are
read without rendering, so listing ten thousand instances costs no compile and no render::

    variants: all
    params:
      claimant: {from: "active_claims", key: id, default: tourism}
      colleague: {values: [eleanor.vance, marcus.okafor]}
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path

import yaml

from apps.core.facts import FactsError, evaluate, load_facts
from apps.core.template import slug
from apps.core.world import world_names, world_ref, worlds_root

TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.M)
FAMILY_KEYS = ("variants", "params")


class FamilyError(Exception):
    """A family's ``variants``/``params`` are invalid, or an instance id names no instance."""


@dataclass(frozen=True)
class Param:
    name: str
    source: str | None = None         # an expression over the facts giving the list
    values: tuple = ()                # or the literal list
    key: str | None = None            # a mapping's field that names it
    default: object = None


@dataclass
class Family:
    """A task file's family: which variants, which params."""
    id: str                            # meridian/fund-shortfall
    world: str
    path: Path
    text: str
    all_variants: bool = False
    params: list[Param] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[1]

    @property
    def source(self) -> Path:
        """The world's folder (the task file's grandparent)."""
        return self.path.parent.parent

    @property
    def is_family_of_one(self) -> bool:
        return not self.all_variants and not self.params

    def variants(self) -> range:
        if not self.all_variants:
            return range(1)
        fs = load_facts(self.source, self.world)
        return range(fs.variants if fs else 1)

    def param_choices(self, variant: int) -> list[list[tuple[str, object]]]:
        """For each param, its ``(key, value)`` choices in ``variant``."""
        if not self.params:
            return []
        facts = _facts(self.source, self.world, variant)
        out = []
        for p in self.params:
            if p.source is not None:
                try:
                    vals = evaluate(p.source, facts)
                except FactsError as e:
                    raise FamilyError(f"{self.path}: params.{p.name}.from: {e}") from None
                if not isinstance(vals, list) or not vals:
                    raise FamilyError(f"{self.path}: params.{p.name}.from: {p.source!r} is not a non-empty list "
                                      f"in variant {variant}")
            else:
                vals = list(p.values)
            choices = []
            for v in vals:
                if p.key is not None:
                    if not isinstance(v, dict) or p.key not in v:
                        raise FamilyError(f"{self.path}: params.{p.name}: {v!r} has no field {p.key!r}")
                    k = v[p.key]
                else:
                    k = v
                choices.append((slug(k), v))
            keys = [k for k, _ in choices]
            if len(set(keys)) != len(keys):
                raise FamilyError(f"{self.path}: params.{p.name}: two values share the key "
                                  f"{next(k for k in keys if keys.count(k) > 1)!r} in variant {variant}")
            out.append(choices)
        return out

    def default_keys(self) -> tuple[str, ...]:
        if not self.params:
            return ()
        keys = []
        for p, choices in zip(self.params, self.param_choices(0)):
            if p.default is None:
                keys.append(choices[0][0])
            else:
                k = slug(p.default)
                if k not in [c[0] for c in choices]:
                    raise FamilyError(f"{self.path}: params.{p.name}.default: {p.default!r} is not one of "
                                      f"{[c[0] for c in choices]} in variant 0")
                keys.append(k)
        return tuple(keys)

    def instance_id(self, variant: int, keys: tuple[str, ...]) -> str:
        if variant == 0 and keys == self.default_keys():
            return self.id
        return f"{self.id}/v{variant}" + "".join(f"-{k}" for k in keys)

    def instances(self) -> list["InstanceRef"]:
        from harness.tasks.splits import instance_split
        out = []
        for v in self.variants():
            combos = product(*self.param_choices(v)) if self.params else [()]
            for combo in combos:
                keys = tuple(k for k, _ in combo)
                split = instance_split(self, v, keys)
                if split is not None:
                    out.append(InstanceRef(self.instance_id(v, keys), self.id, self.world, v, keys, split))
        return out

    def values_for(self, variant: int, keys: tuple[str, ...]) -> dict:
        out = {}
        for p, choices, k in zip(self.params, self.param_choices(variant), keys):
            found = [v for ck, v in choices if ck == k]
            if not found:
                raise FamilyError(f"{self.id}: variant {variant} has no {p.name} {k!r} "
                                  f"(it has {[c[0] for c in choices]})")
            out[p.name] = found[0]
        return out

    def render(self, variant: int, keys: tuple[str, ...]) -> tuple[str, dict]:
        """The task file's text for one instance, and the params' values."""
        from apps.core.template import render
        params = self.values_for(variant, keys)
        if "{{" not in self.text:
            return self.text, params
        env = {**_facts(self.source, self.world, variant), **params}
        try:
            return render(self.text, env, str(self.path)), params
        except FactsError as e:
            raise FamilyError(str(e)) from None


@dataclass(frozen=True)
class InstanceRef:
    """An instance without its task: enough to list, select and split ten thousand of them."""
    id: str
    family: str
    world: str
    variant: int
    keys: tuple[str, ...]
    split: str

    @property
    def world_ref(self) -> str:
        return world_ref(self.world, self.variant)

    def as_dict(self) -> dict:
        return {"id": self.id, "family": self.family, "world": self.world, "variant": self.variant,
                "params": list(self.keys), "split": self.split}


def _facts(source: Path, world: str, variant: int) -> dict:
    fs = load_facts(source, world)
    if fs is None:
        if variant:
            raise FamilyError(f"the world '{world}' has no facts.yaml, so no variant {variant}")
        return {}
    return fs.values(variant)


def family_blocks(text: str) -> dict:
    """The top-level ``variants:`` and ``params:`` blocks of a task file, parsed on their own."""
    starts = [(m.start(), m.group(1)) for m in TOP_KEY.finditer(text)]
    out = {}
    for i, (pos, key) in enumerate(starts):
        if key not in FAMILY_KEYS:
            continue
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        block = text[pos:end]
        if "{{" in block:
            raise FamilyError(f"{key}: is read before the file is rendered, so it can't use {{{{ }}}}")
        try:
            out.update(yaml.safe_load(block) or {})
        except yaml.YAMLError as e:
            raise FamilyError(f"{key}: invalid YAML: {e}") from None
    return out


def family_of(path: Path, world: str, text: str) -> Family:
    fam = Family(f"{world}/{path.stem}", world, path, text)
    try:
        blocks = family_blocks(text)
    except FamilyError as e:
        raise FamilyError(f"{path}: {e}") from None
    v = blocks.get("variants")
    if v not in (None, "all", [0]):
        raise FamilyError(f"{path}: variants: 'all' (every variant of the world) or absent (variant 0 only), not {v!r}")
    fam.all_variants = v == "all"
    if fam.all_variants and load_facts(path.parent.parent, world) is None:
        raise FamilyError(f"{path}: variants: all, but the world '{world}' has no facts.yaml")
    params = blocks.get("params") or {}
    if not isinstance(params, dict):
        raise FamilyError(f"{path}: params: a mapping of name → {{from, key, default}} or {{values, default}}")
    for name, spec in params.items():
        where = f"{path}: params.{name}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", str(name)):
            raise FamilyError(f"{where}: param names are lower_snake_case")
        if not isinstance(spec, dict) or ("from" in spec) == ("values" in spec):
            raise FamilyError(f"{where}: give either from (an expression over the facts) or values (a list)")
        extra = set(spec) - {"from", "values", "key", "default"}
        if extra:
            raise FamilyError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: from, values, key, default)")
        if "values" in spec and not (isinstance(spec["values"], list) and spec["values"]):
            raise FamilyError(f"{where}.values: a non-empty list")
        fam.params.append(Param(str(name), spec.get("from"), tuple(spec.get("values") or ()), spec.get("key"),
                                spec.get("default")))
    if fam.params:
        fam.param_choices(0)
        fam.default_keys()
    return fam


@lru_cache(maxsize=None)
def _family_cached(path: str, mtime: int, world: str) -> Family:
    p = Path(path)
    return family_of(p, world, p.read_text(encoding="utf-8").removeprefix("\ufeff"))


def load_family(path: Path, world: str) -> Family:
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise FamilyError(f"{path}: file not found") from None
    try:
        return _family_cached(str(path), st.st_mtime_ns, world)
    except UnicodeDecodeError as e:
        raise FamilyError(f"{path}: not UTF-8: byte at offset {e.start}: {e.reason}; task files are UTF-8 text") from None


def task_files(root: Path | None = None, world: str | None = None) -> list[tuple[Path, str]]:
    """Every task file of every world (or of ``world``) with its world, in id order."""
    root = root or worlds_root()
    return [(path, w) for w in world_names(root) if not world or w == world
            for path in sorted((root / w / "tasks").glob("*.yaml"))]


def all_families(root: Path | None = None, world: str | None = None) -> list[Family]:
    return [load_family(path, w) for path, w in task_files(root, world)]
