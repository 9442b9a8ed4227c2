"""The project's small error hierarchy."""


class A2AError(Exception):
    """Base of every error the project raises on purpose."""


class RegistryError(A2AError):
    """A registry file is missing or invalid; the message names the file and the field."""

    def __init__(self, file: str, field: str, message: str):
        self.file, self.field = file, field
        super().__init__(f"{file}: {field}: {message}")


class InputError(A2AError):
    """User input (a set row, a context JSON, a structured request) cannot be used."""


class ConfigError(A2AError):
    """A driver or backend configuration is invalid."""


class KnowledgeIndexError(A2AError):
    """The knowledge index (documents, graph) is missing, locked or cannot be built; the message says how to fix it."""


class ModelUnavailable(A2AError):
    """A model call got no answer after its bounded retries (timeout, 429, 5xx, connection):
    the stage takes its safe route and records why."""


class CassetteMiss(A2AError):
    """Replay found no recorded answer for a request; the message names the stage and the utterance."""
