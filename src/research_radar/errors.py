"""The radar's errors. One base, caught once in the CLI.

Every message says what failed and what to do next.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "InputError",
    "PublishError",
    "RadarError",
    "RenderError",
    "SettingsError",
    "SourceError",
    "StorageError",
]


class RadarError(Exception):
    """Base of every error the radar raises on purpose."""


class ConfigError(RadarError):
    """A settings file, profile or option is wrong.

    Args:
        message: what is wrong and how to fix it.
        path: the file at fault, if any.
        line: the line at fault, if known.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        where = ""
        if path:
            where = f"{path}:{line}: " if line else f"{path}: "
        super().__init__(f"{where}{message}")
        self.path = path
        self.line = line


class SettingsError(ConfigError):
    """The settings file (radar.toml) is wrong: a usage error, so the CLI exits 2 before
    doing anything."""


class InputError(RadarError):
    """An input file or value the command cannot use (empty, binary, undecodable, a date
    that is probably a mistake): a usage error, so the CLI exits 2 and changes nothing."""


class SourceError(RadarError):
    """A source could not be read (network, status code, malformed payload)."""

    def __init__(
        self,
        message: str,
        source: str,
        url: str | None = None,
        status: int | None = None,
        retry: bool = False,
    ):
        super().__init__(f"{source}: {message}" + (f" ({url})" if url else ""))
        self.source = source
        self.url = url
        self.status = status
        self.retry = retry


class StorageError(RadarError):
    """The store could not be opened, migrated or written."""


class RenderError(RadarError):
    """A report could not be composed or rendered."""


class PublishError(RadarError):
    """Publishing to GitHub failed or was refused by the public-only gate."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status
