"""Co-workers from ``worlds/<world>/coworkers.yaml`` (see ``spec.py``).

Runs after every app is seeded: the spec is checked against the seeded store
(people, channels, Drive paths, each trigger's example phrasings) and stored
in the slot, and the tick cursor starts after the seed's own writes."""
from __future__ import annotations

import yaml
from pydantic import ValidationError

from apps.common.store.db import Store
from apps.common.world import World, WorldError, validation_message
from apps.coworkers import engine
from apps.coworkers.spec import CoworkersFile


def load(world: World) -> CoworkersFile:
    path = world.root / "coworkers.yaml"
    if not path.exists():
        return CoworkersFile()
    try:
        return CoworkersFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    except yaml.YAMLError as e:
        raise WorldError(f"{path}: invalid YAML: {e}") from None
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None


def seed(store: Store, world: World) -> None:
    spec = load(world)
    problems = engine.validate(store, spec)
    if problems:
        raise WorldError(f"{world.root / 'coworkers.yaml'}: {problems[0]}"
                         + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    engine.install(store, spec)
