from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from research_radar.cli import app

README = Path(__file__).parents[1] / "README.md"
runner = CliRunner()


def _commands() -> list[tuple[str, ...]]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    found: list[tuple[str, ...]] = []
    for name, command in group.commands.items():
        if isinstance(command, TyperGroup):
            found += [(name, sub) for sub in command.commands]
        else:
            found.append((name,))
    return sorted(found)


def test_top_level_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "daily" in result.output


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p))
def test_every_command_has_help_and_is_documented(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    command = group.commands[path[0]]
    if len(path) > 1:
        assert isinstance(command, TyperGroup)
        command = command.commands[path[1]]
    assert (command.help or "").strip(), f"radar {' '.join(path)} has no help text"
    assert f"radar {' '.join(path)}" in README.read_text(encoding="utf-8"), (
        f"README does not document radar {' '.join(path)}"
    )


def test_unknown_option_is_a_usage_error() -> None:
    result = runner.invoke(app, ["daily", "--no-such-option"])
    assert result.exit_code == 2


def test_bad_date_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["daily", "--sample", "--date", "yesterday", "--db", str(tmp_path / "r.db")]
    )
    assert result.exit_code == 2
    assert "YYYY-MM-DD" in result.output


def test_bad_settings_file_is_one_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "radar.toml"
    config.write_text("[radar\n", encoding="utf-8")
    result = runner.invoke(app, ["runs", "--config", str(config)])
    assert result.exit_code == 1
    assert (
        "Error:" in result.output
        and "radar.toml:1" in result.output
        and "Traceback" not in result.output
    )


def test_runs_on_empty_store(tmp_path: Path) -> None:
    from research_radar.store.store import open_store

    open_store(str(tmp_path / "r.db"))
    result = runner.invoke(app, ["runs", "--db", str(tmp_path / "r.db"), "--json"])
    assert result.exit_code == 0 and result.output.strip() == "[]"


def test_read_commands_do_not_create_a_store(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.db"
    result = runner.invoke(app, ["runs", "--db", str(missing)])
    assert (
        result.exit_code == 1
        and "no store at" in result.output
        and "radar-sample.db" in result.output
    )
    assert not missing.exists()


def test_init_writes_settings_that_load(tmp_path: Path) -> None:
    from research_radar.config import load_settings

    target = tmp_path / "radar.toml"
    result = runner.invoke(app, ["init", str(target)])
    assert result.exit_code == 0, result.output
    settings = load_settings(target, {}, resolve_token=False)
    assert settings.db == str(tmp_path / "radar.db") and settings.policy == "first-discovered"
    again = runner.invoke(app, ["init", str(target)])
    assert again.exit_code == 2 and "--force" in again.output
    assert runner.invoke(app, ["init", str(target), "--force"]).exit_code == 0
