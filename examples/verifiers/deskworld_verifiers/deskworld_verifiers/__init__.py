from deskworld_verifiers.env import DeskworldVerifiersEnv
from deskworld_verifiers.taskset import DeskworldVerifiersTaskset

__all__ = ["DeskworldVerifiersTaskset", "DeskworldVerifiersEnv"]
