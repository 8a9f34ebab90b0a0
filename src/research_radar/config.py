"""Settings: validated once, at the edge. Library code takes explicit arguments.

Where a value comes from, strongest first: a command-line option, an environment
variable, the settings file (`radar.toml`, or the file named by `RADAR_CONFIG`), the
default. `GITHUB_TOKEN` enters the program only here and is never logged or stored.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from research_radar.errors import ConfigError

__all__ = ["DEFAULT_DB", "Settings", "github_token", "load_settings"]

DEFAULT_DB = "radar.db"
DEFAULT_GITHUB_API = "https://api.github.com"
DEFAULT_ARXIV_API = "https://export.arxiv.org/api/query"


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know, validated."""

    db: str = DEFAULT_DB
    """A file path or any SQLAlchemy URL."""
    profile: Path | None = None
    """A user's taxonomy profile that replaces or extends the bundled one."""
    host_path: Path | None = None
    """Local checkout of the host project."""
    host_repo: str | None = None
    """owner/name of the host project on GitHub."""
    index_issue: str | None = None
    """OWNER/REPO#N of the research-index issue."""
    github_api_url: str = DEFAULT_GITHUB_API
    arxiv_api_url: str = DEFAULT_ARXIV_API
    github_token: str | None = field(default=None, repr=False)
    reports_dir: Path = Path("reports")
    language: str = "zh"
    policy: str = "first-discovered"
    """first-discovered (the 2026-10-30 correction) or substantive-updates."""
    feeds: tuple[str, ...] = ()
    repos: tuple[str, ...] = ()
    """Local git checkouts or clone URLs to watch."""
    inbox_root: Path | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def with_overrides(self, **values: Any) -> Settings:
        """A copy with the given non-None values replaced."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


def github_token(environ: Mapping[str, str]) -> str | None:
    """GITHUB_TOKEN, else `gh auth token` when the GitHub CLI is installed."""
    token = environ.get("GITHUB_TOKEN") or environ.get("GH_TOKEN")
    if token:
        return token.strip()
    if shutil.which("gh") is None:
        return None
    try:
        done = subprocess.run(
            ["gh", "auth", "token"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ConfigError(
            "settings file not found; create it or unset RADAR_CONFIG", str(path)
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise ConfigError(f"not valid TOML ({exc}); fix the file", str(path), line) from exc


_PATH_KEYS = {"profile", "host_path", "reports_dir", "inbox_root"}
_TUPLE_KEYS = {"feeds", "repos"}


def load_settings(
    path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    resolve_token: bool = True,
) -> Settings:
    """Read settings from a TOML file and the environment.

    Args:
        path: the settings file; defaults to RADAR_CONFIG, else ./radar.toml if present.
        environ: the environment (os.environ when None).
        resolve_token: look for a GitHub token (skipped by offline commands).
    """
    env = os.environ if environ is None else environ
    if path is None and env.get("RADAR_CONFIG"):
        path = Path(env["RADAR_CONFIG"])
    if path is None and Path("radar.toml").is_file():
        path = Path("radar.toml")
    values: dict[str, Any] = {}
    if path is not None:
        raw = _read_toml(path)
        section = raw.get("radar", raw)
        known = set(Settings.__dataclass_fields__) - {"github_token", "extra"}
        for key, value in section.items():
            if key not in known:
                if isinstance(value, dict):
                    continue
                raise ConfigError(
                    f"unknown setting {key!r}; known settings: {', '.join(sorted(known))}",
                    str(path),
                )
            if key in _PATH_KEYS:
                value = (path.parent / str(value)).resolve()
            elif key == "db" and "://" not in str(value):
                value = str((path.parent / str(value)).resolve())  # a file beside the settings
            elif key in _TUPLE_KEYS:
                value = tuple(value)
            values[key] = value
        values["extra"] = {k: v for k, v in raw.items() if k != "radar" and isinstance(v, dict)}
    if env.get("RADAR_DB"):
        values["db"] = env["RADAR_DB"]
    if env.get("GITHUB_API_URL"):
        values["github_api_url"] = env["GITHUB_API_URL"].rstrip("/")
    if env.get("RADAR_ARXIV_API_URL"):
        values["arxiv_api_url"] = env["RADAR_ARXIV_API_URL"]
    if resolve_token:
        values["github_token"] = github_token(env)
    return Settings(**values)
