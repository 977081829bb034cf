"""deskworld as a CUBE benchmark: public re-exports."""

from deskworld_cube.benchmark import DeskBenchmark, DeskBenchmarkConfig
from deskworld_cube.debug import DebugAgent, get_debug_benchmark, make_debug_agent
from deskworld_cube.task import DeskTask, DeskTaskConfig, DeskTaskMetadata
from deskworld_cube.tool import DeskTool, DeskToolConfig

__all__ = [
    "DebugAgent",
    "DeskBenchmark",
    "DeskBenchmarkConfig",
    "DeskTask",
    "DeskTaskConfig",
    "DeskTaskMetadata",
    "DeskTool",
    "DeskToolConfig",
    "get_debug_benchmark",
    "make_debug_agent",
]
