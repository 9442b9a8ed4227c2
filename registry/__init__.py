"""Registries (capabilities, skills, rooms, lexicon, evidence weights) and the shared contracts."""

from registry.errors import A2AError, ConfigError, InputError, RegistryError
from registry.loader import Registry, load_registry

__all__ = ["A2AError", "ConfigError", "InputError", "Registry", "RegistryError", "load_registry"]
