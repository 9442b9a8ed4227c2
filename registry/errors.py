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


class ReportError(A2AError):
    """A run directory the report cannot be built from."""


class EngineError(A2AError):
    """An engine that cannot run here (missing extra, unreachable cluster)."""


class GraphError(A2AError):
    """A drawing that cannot be made (format, missing graphviz)."""


class TuningError(A2AError):
    """A run directory or weights file that tuning cannot use."""


class UnknownWorkflowError(InputError):
    """An event or a command names a workflow the store does not hold."""


class StoreBusyError(InputError):
    """Another process holds the database file."""
