"""Worlds: folders of plain files (see worlds/README.md), read and validated here.

Errors name the file and the field, e.g.
``worlds/meridian/world.yaml: people.3.email: value is not a valid email``.
"""
from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


class WorldError(Exception):
    """A world file is missing or invalid; the message names file and field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Clock(_Model):
    start: datetime
    timezone: str
    locale: str = "en-US"
    step_seconds: float = 30

    @field_validator("timezone")
    @classmethod
    def _tz(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {v!r}") from None
        return v


class Org(_Model):
    id: str
    name: str
    domain: str
    kind: str = ""
    adverse: bool = False      # the other side: nothing confidential may reach it unless a task requires it


class Person(_Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    name: str
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    org: str
    title: str = ""
    department: str = ""
    phone: str = ""
    note: str = ""
    adverse: bool = False      # walled off (or on the other side) even when inside the organisation


class MailLabel(_Model):
    name: str
    color: str = "#5f6368"


class MailSettings(_Model):
    labels: list[MailLabel] = []


class WorldSpec(_Model):
    name: str
    title: str
    clock: Clock
    user: str
    orgs: list[Org]
    people: list[Person]
    mail: MailSettings = MailSettings()


class World:
    """A loaded world: its spec plus the folder it came from.

    ``source`` is the world's own folder (``worlds/<w>``: its tasks, facts.yaml, checks); ``root``
    the folder its files are read from — the source itself, or for a world with facts the
    rendered files of ``variant`` (``apps.core.variants``)."""

    def __init__(self, root: Path, spec: WorldSpec, source: Path | None = None, variant: int = 0):
        self.root = root
        self.source = source or root
        self.variant = variant
        self.spec = spec
        self.name = spec.name
        self.tz = ZoneInfo(spec.clock.timezone)
        start = spec.clock.start
        self.start = start.replace(tzinfo=self.tz) if start.tzinfo is None else start
        self.people = {p.id: p for p in spec.people}
        self.by_email = {p.email.lower(): p for p in spec.people}

    def local_time(self, value: datetime | str, where: str = "") -> datetime:
        """A world-local timestamp from a world file (naive = world time zone)."""
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                raise WorldError(f"{where}: not an ISO date-time: {value!r}") from None
        return value.replace(tzinfo=self.tz) if value.tzinfo is None else value

    @property
    def ref(self) -> str:
        """``meridian`` for variant 0, ``meridian@17`` for another variant."""
        return world_ref(self.name, self.variant)

    def facts(self) -> dict:
        """This variant's facts (empty for a world without facts.yaml)."""
        from apps.core.facts import load_facts
        fs = load_facts(self.source, self.name)
        return fs.values(self.variant) if fs else {}

    def __repr__(self) -> str:
        return f"World({self.ref!r}, {self.root})"


def world_ref(name: str, variant: int = 0) -> str:
    return name if not variant else f"{name}@{variant}"


def parse_ref(ref: str) -> tuple[str, int]:
    """``meridian@17`` → ``("meridian", 17)``; ``meridian`` → ``("meridian", 0)``."""
    name, at, v = str(ref).partition("@")
    if not at:
        return name, 0
    if not v.isdigit():
        raise WorldError(f"a world variant is a whole number: {ref!r} (e.g. meridian@17)")
    return name, int(v)


def worlds_root() -> Path:
    """Where worlds live: ``$DESKWORLD_WORLDS`` or the project's ``worlds/``."""
    env = os.environ.get("DESKWORLD_WORLDS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "worlds"


def world_names(root: Path | None = None) -> list[str]:
    root = root or worlds_root()
    return sorted(p.name for p in root.iterdir() if (p / "world.yaml").is_file())


def load_yaml(path: Path) -> object:
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f)
    except FileNotFoundError:
        raise WorldError(f"{path}: file not found") from None
    except yaml.YAMLError as e:
        raise WorldError(f"{path}: invalid YAML: {e}") from None


def load_spec(path: Path, model):
    """A world file validated against a pydantic model; errors name the file and the field."""
    try:
        return model.model_validate(load_yaml(path) or {})
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None


def validation_message(path: Path, err: ValidationError) -> str:
    lines = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(top level)"
        lines.append(f"{path}: {loc}: {e['msg']}")
    return "\n".join(lines)


def load_world(name_or_path: str | Path, variant: int | None = None) -> World:
    """A world by name (``meridian``), reference (``meridian@17``: variant 17) or folder."""
    p = Path(name_or_path)
    if (p / "world.yaml").is_file():
        source, v = p, 0
    else:
        name, v = parse_ref(str(name_or_path))
        source = worlds_root() / name
    if variant is not None:
        v = variant
    path = source / "world.yaml"
    if not path.is_file():
        known = ", ".join(world_names()) if worlds_root().is_dir() else "none"
        raise WorldError(f"no world {str(name_or_path)!r} (no {path}); known worlds: {known}")
    from apps.core.facts import FactsError
    from apps.core.variants import variant_root
    try:
        root = variant_root(source, source.resolve().name, v)
    except FactsError as e:
        raise WorldError(str(e)) from None
    path = root / "world.yaml"
    raw = load_yaml(path)
    try:
        spec = WorldSpec.model_validate(raw)
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None
    world = World(root, spec, source, v)
    if spec.user not in world.people:
        raise WorldError(f"{path}: user: {spec.user!r} is not a person in the world")
    orgs = {o.id for o in spec.orgs}
    for i, person in enumerate(spec.people):
        if person.org not in orgs:
            raise WorldError(f"{path}: people.{i}.org: unknown org {person.org!r}")
    if len(world.people) != len(spec.people):
        raise WorldError(f"{path}: people: duplicate person id")
    return world
