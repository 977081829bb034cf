"""tickets from world files (scaffold)."""
from apps.common.store.db import Store
from apps.common.world import World


def seed(store: Store, world: World) -> None:
    return None
