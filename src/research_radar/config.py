"""Settings: validated once, at the edge. Library code takes explicit arguments.

Where a value comes from, strongest first: a command-line option, an environment
variable, the settings file (`radar.toml`, or the file named by `RADAR_CONFIG`), the
default. `GITHUB_TOKEN` enters the program only here and is never logged or stored.

The file is checked against typed sections (`[radar]`, `[github]`, `[arxiv]`, `[git]`,
`[publish]`, `[sheets]`, `[llm]`) by pydantic in strict mode: a wrong type, an unknown key or
table, or a value outside its choices stops with one message naming the file, the line,
the key and what was expected, before any request is made (`settings_file` reads and checks
the file; this module turns it into `Settings`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from research_radar.settings_file import Language, Policy, parse_settings_file

__all__ = [
    "DEFAULT_ARXIV_API",
    "DEFAULT_DB",
    "DEFAULT_GITHUB_API",
    "ArxivSettings",
    "GitHubSettings",
    "GitSettings",
    "LlmSettings",
    "PublishSettings",
    "Settings",
    "SheetsSettings",
    "github_token",
    "is_database_url",
    "load_settings",
    "store_folder",
]

DEFAULT_DB = "radar.db"
DEFAULT_GITHUB_API = "https://api.github.com"
DEFAULT_ARXIV_API = "https://export.arxiv.org/api/query"


@dataclass(frozen=True)
class GitHubSettings:
    """`[github]`: what the GitHub collector searches."""

    queries: tuple[str, ...] | None = None
    """Search queries; None means the profile's, a day's share in rotation."""
    repos: tuple[str, ...] = ()
    """owner/name of repositories to follow whatever the search finds."""
    exclude: tuple[str, ...] = ()
    """owner/name left out of search results."""
    skip_reported: bool = True
    """Under the first-discovered policy, leave already-reported repositories out of the
    search results (their updates are not reported again anyway)."""


@dataclass(frozen=True)
class ArxivSettings:
    """`[arxiv]`: the arXiv collector."""

    queries: tuple[str, ...] | None = None
    """arXiv API queries; None means the profile's terms × categories, in rotation."""
    delay: float = 3.0
    """Seconds between requests, as arXiv asks."""


@dataclass(frozen=True)
class GitSettings:
    """`[git]`: local checkouts and clones."""

    cache_dir: Path = Path(".radar-cache/repos")
    """Where clone URLs of `repos` are cloned."""


@dataclass(frozen=True)
class PublishSettings:
    """`[publish]`: the public-only gate before anything is posted."""

    private_repos: tuple[str, ...] = ()
    """owner/name never linked in a published report."""
    allowed_hosts: tuple[str, ...] = ()
    """Link hosts allowed beyond GitHub, arXiv, DOI and the other public defaults."""


@dataclass(frozen=True)
class SheetsSettings:
    """`[sheets]`: the optional Google Sheets sync of `radar export --sheet`."""

    spreadsheet: str | None = None
    worksheet: str = "findings"
    credentials: Path | None = None


@dataclass(frozen=True)
class LlmSettings:
    """`[llm]`: the optional OpenAI-compatible writer of the insight cells; off unless
    `base_url` and `model` are set. The API key is named by an environment variable and
    read from the environment only (`Settings.llm_api_key`): never written, stored or logged."""

    base_url: str | None = None
    """e.g. http://127.0.0.1:8080/v1 (llama.cpp server, vLLM, SGLang, Ollama, hosted APIs)."""
    model: str | None = None
    api_key_env: str | None = None
    """The name of the environment variable that holds the API key (none for local servers)."""
    max_requests: int = 20
    """Requests per run at most; further findings keep the template sentence."""
    timeout: float = 30.0
    """Seconds per request."""

    @property
    def enabled(self) -> bool:
        return bool(self.base_url and self.model)


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know, validated."""

    db: str = DEFAULT_DB
    """A file path or any SQLAlchemy URL (see `is_database_url`)."""
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
    language: Language = Language.ZH
    policy: Policy = Policy.FIRST_DISCOVERED
    feeds: tuple[str, ...] = ()
    repos: tuple[str, ...] = ()
    """Local git checkouts or clone URLs to watch."""
    inbox_root: Path | None = None
    aliases_file: Path | None = None
    """A TOML file of names that are the same project (see `radar history import`)."""
    github: GitHubSettings = GitHubSettings()
    arxiv: ArxivSettings = ArxivSettings()
    git: GitSettings = GitSettings()
    publish: PublishSettings = PublishSettings()
    sheets: SheetsSettings = SheetsSettings()
    llm: LlmSettings = LlmSettings()
    llm_api_key: str | None = field(default=None, repr=False)
    """Read from the variable named by `[llm] api_key_env`; never stored or logged."""

    def with_overrides(self, **values: Any) -> Settings:
        """A copy with the given non-None values replaced."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


def is_database_url(db: str) -> bool:
    """True when `db` is a SQLAlchemy URL (`postgresql+psycopg://…`, `sqlite:///…`), False
    when it is a file path. The one place that decides."""
    return re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", db) is not None


def store_folder(db: str) -> Path:
    """The folder a file store lives in (the working folder for a database URL)."""
    return Path(".") if is_database_url(db) else Path(db).expanduser().parent


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


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


def _from_file(path: Path) -> dict[str, Any]:
    """Settings values from the file; relative paths are relative to the file's folder."""
    parsed = parse_settings_file(path)
    folder = path.parent

    def beside(value: str | None) -> Path | None:
        return None if value is None else (folder / Path(value).expanduser()).resolve()

    radar = parsed.radar
    values: dict[str, Any] = {
        "profile": beside(radar.profile),
        "host_path": beside(radar.host_path),
        "host_repo": radar.host_repo,
        "index_issue": radar.index_issue,
        "reports_dir": beside(radar.reports_dir),
        "language": radar.language,
        "policy": radar.policy,
        "feeds": _tuple(radar.feeds),
        "repos": _tuple(radar.repos),
        "inbox_root": beside(radar.inbox_root),
        "aliases_file": beside(radar.aliases_file),
    }
    if radar.db is not None:
        values["db"] = radar.db if is_database_url(radar.db) else str(beside(radar.db))
    values = {key: value for key, value in values.items() if value is not None}
    values["github"] = GitHubSettings(
        queries=_tuple(parsed.github.queries),
        repos=tuple(parsed.github.repos),
        exclude=tuple(parsed.github.exclude),
        skip_reported=parsed.github.skip_reported,
    )
    values["arxiv"] = ArxivSettings(_tuple(parsed.arxiv.queries), parsed.arxiv.delay)
    cache_dir = beside(parsed.git.cache_dir)
    values["git"] = GitSettings(cache_dir) if cache_dir else GitSettings()
    values["publish"] = PublishSettings(
        tuple(parsed.publish.private_repos), tuple(parsed.publish.allowed_hosts)
    )
    credentials = parsed.sheets.credentials
    values["sheets"] = SheetsSettings(
        parsed.sheets.spreadsheet,
        parsed.sheets.worksheet,
        Path(credentials).expanduser() if credentials else None,
    )
    llm = parsed.llm
    values["llm"] = LlmSettings(
        llm.base_url.rstrip("/") if llm.base_url else None,
        llm.model,
        llm.api_key_env,
        llm.max_requests,
        llm.timeout,
    )
    return values


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
    values: dict[str, Any] = _from_file(path) if path is not None else {}
    if env.get("RADAR_DB"):
        values["db"] = env["RADAR_DB"]
    if env.get("GITHUB_API_URL"):
        values["github_api_url"] = env["GITHUB_API_URL"].rstrip("/")
    if env.get("RADAR_ARXIV_API_URL"):
        values["arxiv_api_url"] = env["RADAR_ARXIV_API_URL"]
    if resolve_token:
        values["github_token"] = github_token(env)
    llm = values.get("llm")
    if isinstance(llm, LlmSettings) and llm.api_key_env and env.get(llm.api_key_env):
        values["llm_api_key"] = env[llm.api_key_env].strip()
    return Settings(**values)
