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
