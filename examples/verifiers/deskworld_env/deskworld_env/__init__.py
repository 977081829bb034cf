from deskworld_env.env import DeskworldEnvEnv
from deskworld_env.taskset import DeskworldEnvTaskset

__all__ = ["DeskworldEnvTaskset", "DeskworldEnvEnv"]
