"""Co-workers from ``worlds/<world>/coworkers.yaml`` (see ``spec.py``).

Runs after every app is seeded: the spec is checked against the seeded store
(people, channels, Drive paths, each trigger's example phrasings) and stored
in the slot, and the tick cursor starts after the seed's own writes."""
from __future__ import annotations

from apps.core.store.db import Store
from apps.core.world import World, WorldError, load_spec
from apps.coworkers import engine
from apps.coworkers.spec import CoworkersFile


def load(world: World) -> CoworkersFile:
    path = world.root / "coworkers.yaml"
    if not path.exists():
        return CoworkersFile()
    return load_spec(path, CoworkersFile)


def seed(store: Store, world: World) -> None:
    spec = load(world)
    problems = engine.validate(store, spec)
    if problems:
        raise WorldError(f"{world.root / 'coworkers.yaml'}: {problems[0]}"
                         + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    engine.install(store, spec)
