"""The settings file (`radar.toml`) as written: its typed tables, the choices its keys take,
and reading it so that every failure names the file, the line, the key and what was
expected (pydantic in strict mode). `config` turns it into `Settings`."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from research_radar.errors import SettingsError

__all__ = ["Language", "Policy", "SettingsFile", "parse_settings_file"]


class Policy(StrEnum):
    """Which updates of an already-reported project are reported again."""

    FIRST_DISCOVERED = "first-discovered"
    """Only the first discovery (the 2026-10-30 correction)."""
    SUBSTANTIVE_UPDATES = "substantive-updates"


class Language(StrEnum):
    """The report's language: Chinese insight with English names, or English throughout."""

    ZH = "zh"
    EN = "en"


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


class SettingsFile(_Section):
    """The settings file as written: one typed table per section."""

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
        known = ", ".join(f"[{name}]" for name in SettingsFile.model_fields)
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
    for name, info in SettingsFile.model_fields.items()
}


def parse_settings_file(path: Path) -> SettingsFile:
    """The settings file, checked; a SettingsError names the file, the line and the fix."""
    raw, text = _read_toml(path)
    if "radar" not in raw:  # a file of bare [radar] keys, written before the tables existed
        bare = {key: value for key, value in raw.items() if not isinstance(value, dict)}
        raw = {key: value for key, value in raw.items() if key not in bare} | {"radar": bare}
    try:
        return SettingsFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(part) for part in first["loc"]]
        line = _line_of(text, loc[0], loc[1] if len(loc) > 1 else None)
        raise SettingsError(_explain(first, raw), str(path), line) from exc
