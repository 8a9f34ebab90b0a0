"""Settings: validated once, at the edge. Library code takes explicit arguments.

Where a value comes from, strongest first: a command-line option, an environment
variable, the settings file (`radar.toml`, or the file named by `RADAR_CONFIG`), the
default. `GITHUB_TOKEN` enters the program only here and is never logged or stored.

The file is checked against typed sections (`[radar]`, `[github]`, `[arxiv]`, `[git]`,
`[publish]`, `[sheets]`, `[llm]`) by pydantic in strict mode: a wrong type, an unknown key or
table, or a value outside its choices stops with one message naming the file, the line,
the key and what was expected, before any request is made.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_radar.errors import SettingsError

__all__ = [
    "DEFAULT_ARXIV_API",
    "DEFAULT_DB",
    "DEFAULT_GITHUB_API",
    "ArxivSettings",
    "GitHubSettings",
    "GitSettings",
    "Language",
    "LlmSettings",
    "Policy",
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


class Policy(StrEnum):
    """Which updates of an already-reported project are reported again."""

    FIRST_DISCOVERED = "first-discovered"
    """Only the first discovery (the 2026-10-30 correction)."""
    SUBSTANTIVE_UPDATES = "substantive-updates"


class Language(StrEnum):
    """The report's language: Chinese insight with English names, or English throughout."""

    ZH = "zh"
    EN = "en"


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


# -- the file, as written ---------------------------------------------------------------


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _RadarFile(_Section):
    db: str | None = None
    profile: str | None = None
    host_path: str | None = None
    host_repo: str | None = None
    index_issue: str | None = None
    reports_dir: str | None = None
    language: Language | None = Field(default=None, strict=False)  # from its string value
    policy: Policy | None = Field(default=None, strict=False)
    feeds: list[str] | None = None
    repos: list[str] | None = None
    inbox_root: str | None = None
    aliases_file: str | None = None


class _GitHubFile(_Section):
    queries: list[str] | None = None
    repos: list[str] = []
    exclude: list[str] = []
    skip_reported: bool = True


class _ArxivFile(_Section):
    queries: list[str] | None = None
    delay: float = 3.0


class _GitFile(_Section):
    cache_dir: str | None = None


class _PublishFile(_Section):
    private_repos: list[str] = []
    allowed_hosts: list[str] = []


class _SheetsFile(_Section):
    spreadsheet: str | None = None
    worksheet: str = "findings"
    credentials: str | None = None


class _LlmFile(_Section):
    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    max_requests: int = Field(default=20, ge=0)
    timeout: float = Field(default=30.0, gt=0)


class _File(_Section):
    radar: _RadarFile = _RadarFile()
    github: _GitHubFile = _GitHubFile()
    arxiv: _ArxivFile = _ArxivFile()
    git: _GitFile = _GitFile()
    publish: _PublishFile = _PublishFile()
    sheets: _SheetsFile = _SheetsFile()
    llm: _LlmFile = _LlmFile()


_EXPECTED = {
    "string_type": "a string in quotes",
    "bool_type": "true or false",
    "float_type": "a number",
    "int_type": "a whole number",
    "greater_than_equal": "a number >= 0",
    "greater_than": "a number > 0",
    "list_type": 'a list of strings, e.g. ["a", "b"]',
    "enum": "one of {expected}",
    "extra_forbidden": None,
}


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """The parsed file and its text; every way of failing names the file."""
    if path.is_dir():
        raise SettingsError(
            "is a folder, not a settings file; name the radar.toml inside it", str(path)
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise SettingsError(
            "settings file not found; create it (`radar init`) or unset RADAR_CONFIG", str(path)
        ) from exc
    except OSError as exc:
        raise SettingsError(f"cannot read the settings file: {exc.strerror}", str(path)) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SettingsError(
            "not UTF-8 text; save the file as UTF-8 (TOML files must be UTF-8)", str(path), line
        ) from exc
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        at = int(found.group(1)) if found else None
        raise SettingsError(f"not valid TOML ({exc}); fix the file", str(path), at) from exc


def _line_of(text: str, section: str, key: str | None) -> int | None:
    """The line of `[section]` (or of `key` inside it) in the file's text."""
    lines = text.splitlines()
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if re.match(rf"^\s*\[\s*{re.escape(section)}\s*\]", line)
        ),
        None,
    )
    if start is None:  # a bare `section = value` at the top of the file
        return next(
            (
                i + 1
                for i, line in enumerate(lines)
                if re.match(rf"^\s*{re.escape(section)}\s*=", line)
            ),
            None,
        )
    if key is None:
        return start + 1
    for i in range(start + 1, len(lines)):
        if re.match(r"^\s*\[", lines[i]):
            break
        if re.match(rf"^\s*{re.escape(key)}\s*=", lines[i]):
            return i + 1
    return start + 1


def _explain(error: Mapping[str, Any], raw: Mapping[str, Any]) -> str:
    loc = [str(part) for part in error["loc"]]
    kind = str(error["type"])
    if kind == "extra_forbidden" and len(loc) == 1:
        known = ", ".join(f"[{name}]" for name in _File.model_fields)
        return f"unknown table [{loc[0]}]; the known tables are {known}"
    section, key = loc[0], loc[1] if len(loc) > 1 else ""
    where = f"[{section}] {key}"
    if kind == "extra_forbidden":
        known = ", ".join(sorted(_SECTIONS[section].model_fields))
        return f"unknown setting {key!r} in [{section}]; known settings: {known}"
    if kind == "model_type":
        return f"[{section}] must be a table of settings, not a single value"
    given = raw.get(section, {}).get(key) if isinstance(raw.get(section), Mapping) else None
    expected = _EXPECTED.get(kind) or str(error["msg"]).removeprefix("Input should be ")
    if kind == "enum":
        expected = "one of " + ", ".join(f'"{v}"' for v in _choices(section, key))
    if len(loc) > 2:
        where += f" (item {int(loc[2]) + 1})"
        expected = "a string in quotes"
    return f"{where}: expected {expected}, got {_kind_of(given)} {given!r}"


def _choices(section: str, key: str) -> list[str]:
    annotation = _SECTIONS[section].model_fields[key].annotation
    for enum in (Language, Policy):
        if annotation == enum | None:
            return [item.value for item in enum]
    return []


def _kind_of(value: Any) -> str:
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    names.update({list: "a list", dict: "a table"})
    return names.get(type(value), type(value).__name__)


_SECTIONS: dict[str, type[BaseModel]] = {
    name: info.annotation  # type: ignore[misc]
    for name, info in _File.model_fields.items()
}


def _parse_file(path: Path) -> _File:
    raw, text = _read_toml(path)
    if "radar" not in raw:  # a file of bare [radar] keys, written before the tables existed
        bare = {key: value for key, value in raw.items() if not isinstance(value, dict)}
        raw = {key: value for key, value in raw.items() if key not in bare} | {"radar": bare}
    try:
        return _File.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(part) for part in first["loc"]]
        line = _line_of(text, loc[0], loc[1] if len(loc) > 1 else None)
        raise SettingsError(_explain(first, raw), str(path), line) from exc


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


def _from_file(path: Path) -> dict[str, Any]:
    """Settings values from the file; relative paths are relative to the file's folder."""
    parsed = _parse_file(path)
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
