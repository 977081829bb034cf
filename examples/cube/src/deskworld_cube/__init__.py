"""deskworld as a CUBE benchmark: public re-exports.

Loaded on first use (PEP 562): reading deskworld's task registry (``benchmark``) takes seconds, and a
worker that only deserialises a ``DeskTaskConfig`` (``deskworld_cube.task``) does not need it.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "DeskBenchmark": "benchmark",
    "DeskBenchmarkConfig": "benchmark",
    "DebugAgent": "debug",
    "get_debug_benchmark": "debug",
    "make_debug_agent": "debug",
    "DeskTask": "task",
    "DeskTaskConfig": "task",
    "DeskTaskMetadata": "task",
    "DeskTool": "tool",
    "DeskToolConfig": "tool",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"deskworld_cube.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'deskworld_cube' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_EXPORTS])
