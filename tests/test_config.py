from __future__ import annotations

from pathlib import Path

import pytest

from research_radar.config import (
    DEFAULT_DB,
    Settings,
    is_database_url,
    load_settings,
)
from research_radar.errors import ConfigError
from research_radar.settings_file import Language, Policy


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


def _load(tmp_path: Path, text: str | bytes) -> Settings:
    path = tmp_path / "radar.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return load_settings(path, {}, resolve_token=False)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        pytest.param(
            '[radar]\ndb = "x.db"\n\n[publish]\nprivate_repos = "org/x"\n',
            5,
            "[publish] private_repos: expected a list of strings",
            id="private-repos-string",
        ),
        pytest.param(
            '[radar]\nfeeds = "https://example.org/feed.xml"\n',
            2,
            "[radar] feeds: expected a list of strings",
            id="feeds-string",
        ),
        pytest.param(
            '[arxiv]\ndelay = "fast"\n', 2, "[arxiv] delay: expected a number", id="delay-string"
        ),
        pytest.param(
            '[radar]\nlanguage = "fr"\n',
            2,
            '[radar] language: expected one of "zh", "en", got a string \'fr\'',
            id="language-fr",
        ),
        pytest.param(
            '[radar]\npolicy = "latest"\n',
            2,
            '[radar] policy: expected one of "first-discovered", "substantive-updates"',
            id="policy-unknown",
        ),
        pytest.param(
            '[radar]\ndb = "x.db"\n\n[githbu]\nqueries = ["x"]\n',
            4,
            "unknown table [githbu]; the known tables are [radar], [github]",
            id="unknown-table",
        ),
        pytest.param(
            '[github]\nquery = ["x"]\n',
            2,
            "unknown setting 'query' in [github]; known settings: exclude, queries",
            id="unknown-key",
        ),
        pytest.param(
            '[github]\nqueries = ["a", 3]\n',
            2,
            "[github] queries (item 2): expected a string in quotes",
            id="list-item-number",
        ),
        pytest.param(
            '[github]\nskip_reported = "no"\n',
            2,
            "[github] skip_reported: expected true or false",
            id="bool-string",
        ),
        pytest.param("github = 3\n[radar]\n", 1, "[github] must be a table", id="section-scalar"),
    ],
)
def test_bad_settings_name_file_line_key_and_type(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, text)
    shown = str(info.value)
    assert f"radar.toml:{line}:" in shown, shown
    assert message in shown, shown


def test_config_path_that_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder, not a settings file"):
        load_settings(tmp_path, {}, resolve_token=False)


def test_config_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, '[radar]\nhost_repo = "a"\nindex_issue = "\xe9quipe#1"\n'.encode("latin-1"))
    assert "radar.toml:3:" in str(info.value) and "not UTF-8" in str(info.value)


def test_typed_sections_are_read(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        '[radar]\nlanguage = "en"\npolicy = "substantive-updates"\naliases_file = "aliases.toml"\n'
        '[github]\nqueries = ["kv cache"]\nexclude = ["Org/Repo"]\nskip_reported = false\n'
        '[arxiv]\ndelay = 1\n[publish]\nprivate_repos = ["org/x"]\n'
        '[sheets]\nspreadsheet = "key"\n',
    )
    assert settings.language is Language.EN and settings.policy is Policy.SUBSTANTIVE_UPDATES
    assert settings.aliases_file == (tmp_path / "aliases.toml").resolve()
    assert settings.github.queries == ("kv cache",) and not settings.github.skip_reported
    assert settings.arxiv.delay == 1.0 and settings.publish.private_repos == ("org/x",)
    assert settings.sheets.spreadsheet == "key" and settings.sheets.worksheet == "findings"


def test_bare_keys_without_a_radar_table_still_load(tmp_path: Path) -> None:
    assert _load(tmp_path, 'language = "en"\n').language is Language.EN


@pytest.mark.parametrize(
    ("db", "url"),
    [
        pytest.param("radar.db", False, id="file"),
        pytest.param("/srv/radar/team.db", False, id="absolute"),
        pytest.param("C:/radar.db", False, id="drive-letter"),
        pytest.param("sqlite:///radar.db", True, id="sqlite-url"),
        pytest.param("postgresql+psycopg://u@h/radar", True, id="postgres"),
    ],
)
def test_database_url_or_file(db: str, url: bool) -> None:
    assert is_database_url(db) is url


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('[publish]\nprivate_repos = "org/x"\n', id="private-repos"),
        pytest.param('[radar]\nlanguage = "fr"\n', id="language"),
        pytest.param("[githbu]\n", id="unknown-table"),
    ],
)
def test_cli_refuses_bad_settings_before_any_request(tmp_path: Path, text: str) -> None:
    from typer.testing import CliRunner

    from research_radar.cli import app

    config = tmp_path / "radar.toml"
    config.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["collect", "--config", str(config), "--db", str(tmp_path / "x.db")]
    )
    assert result.exit_code == 2, result.output
    assert "radar.toml" in result.output
    assert not (tmp_path / "x.db").exists(), "nothing happens before the settings are valid"
