from deskworld_verifiers.env import DeskworldVerifiersEnv, DeskworldVerifiersEnvConfig
from deskworld_verifiers.taskset import DeskworldVerifiersConfig, DeskworldVerifiersTaskset

__all__ = [
    "DeskworldVerifiersTaskset",
    "DeskworldVerifiersEnv",
    "DeskworldVerifiersConfig",
    "DeskworldVerifiersEnvConfig",
]
