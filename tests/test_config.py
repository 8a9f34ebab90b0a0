from __future__ import annotations

from pathlib import Path

import pytest

from research_radar.config import DEFAULT_DB, Settings, load_settings
from research_radar.errors import ConfigError


def test_defaults_without_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings(environ={}, resolve_token=False)
    assert settings.db == DEFAULT_DB
    assert settings.github_api_url == "https://api.github.com"


def test_file_then_environment(tmp_path: Path) -> None:
    path = tmp_path / "radar.toml"
    path.write_text(
        '[radar]\ndb = "team.db"\nhost_path = "host"\nfeeds = ["https://x/feed"]\n',
        encoding="utf-8",
    )
    settings = load_settings(path, {"GITHUB_API_URL": "http://127.0.0.1:9/", "GITHUB_TOKEN": "t0k"})
    assert settings.db == str(tmp_path / "team.db")
    assert settings.host_path == (tmp_path / "host").resolve()
    assert settings.feeds == ("https://x/feed",)
    assert settings.github_api_url == "http://127.0.0.1:9"
    assert settings.github_token == "t0k"
    assert "t0k" not in repr(settings)
    assert load_settings(path, {"RADAR_DB": "env.db"}, resolve_token=False).db == "env.db"


def test_bad_toml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "radar.toml"
    path.write_text('[radar]\ndb = "x"\nhost_path = \n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(path, {}, resolve_token=False)
    assert str(path) in str(info.value) and ":3:" in str(info.value)


def test_unknown_setting_is_named(tmp_path: Path) -> None:
    path = tmp_path / "radar.toml"
    path.write_text('[radar]\ndatabase = "x"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown setting 'database'"):
        load_settings(path, {}, resolve_token=False)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.toml", {}, resolve_token=False)


def test_overrides_skip_none() -> None:
    assert Settings().with_overrides(db=None, language="en").language == "en"
