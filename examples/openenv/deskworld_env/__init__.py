"""deskworld as an OpenEnv environment: the client (``DeskworldEnv``, needs openenv-core) and, in
``server/``, the entry point that runs ``deskworld env-server`` (needs deskworld, not openenv-core:
the client is imported only when asked for, so the server image doesn't carry OpenEnv's client)."""
__all__ = ["DeskworldEnv", "DeskStepResult"]


def __getattr__(name: str):
    if name in __all__:
        from . import client
        return getattr(client, name)
    raise AttributeError(f"module 'deskworld_env' has no attribute {name!r}")
