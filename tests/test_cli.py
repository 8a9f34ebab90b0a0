from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from research_radar.cli import app, reflow

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


def test_reflow_joins_a_paragraph_and_keeps_examples_and_lists() -> None:
    text = "First line of a\nparagraph.\n\n  radar x --y\n  radar z\nAfter.\n- one\n- two\nmore"
    assert reflow(text) == (
        "First line of a paragraph.\n\n  radar x --y\n  radar z\nAfter.\n- one\n- two more"
    )
    assert reflow(reflow(text)) == reflow(text)


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p))
def test_help_fills_its_lines_at_80_columns(path: tuple[str, ...]) -> None:
    """A docstring's own line breaks would leave a word or two alone on a line."""
    result = runner.invoke(app, [*path, "--help"], terminal_width=80)
    text = result.output.split("╭")[0]  # the description, before the option boxes
    lines = [line.rstrip() for line in text.splitlines()]
    for line, after in zip(lines, lines[1:], strict=False):
        if line.strip() and after.strip() and not after.startswith("   "):  # paragraph goes on
            assert len(line) > 50, f"radar {' '.join(path)}: a short line {line!r}"


def test_unknown_option_is_a_usage_error() -> None:
    result = runner.invoke(app, ["daily", "--no-such-option"])
    assert result.exit_code == 2


def test_bad_date_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["daily", "--sample", "--date", "yesterday", "--db", str(tmp_path / "r.db")]
    )
    assert result.exit_code == 2
    assert "YYYY-MM-DD" in result.output


DAY = "is not a date; expected YYYY-MM-DD, e.g. 2026-08-29"
MOMENT = (
    "is not a date or time; expected YYYY-MM-DD or ISO 8601, "
    "e.g. 2026-08-29 or 2026-08-29T08:30+08:00"
)


def _error_text(output: str) -> str:
    """The output with the error box's borders and line wrapping taken out."""
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            ["daily", "--sample", "--date", "someday"], f"--date: 'someday' {DAY}", id="daily"
        ),
        pytest.param(
            ["publish", "--issue", "o/r#1", "--date", "someday"],
            f"--date: 'someday' {DAY}",
            id="publish",
        ),
        pytest.param(
            ["export", "--date", "29.08.2026"], f"--date: '29.08.2026' {DAY}", id="export"
        ),
        pytest.param(
            ["collect", "--since", "someday"], f"--since: 'someday' {MOMENT}", id="collect-since"
        ),
        pytest.param(
            ["collect", "--until", "2026-08-29 25:00"],
            f"--until: '2026-08-29 25:00' {MOMENT}",
            id="collect-until",
        ),
        pytest.param(
            ["digest", "--sample", "--end", "tonight"], f"--end: 'tonight' {MOMENT}", id="digest"
        ),
    ],
)
def test_bad_date_option_is_a_usage_error_saying_what_to_write(
    tmp_path: Path, args: list[str], expected: str
) -> None:
    from research_radar.store.store import open_store

    db = tmp_path / "r.db"
    open_store(str(db))  # export reads an existing store only
    with_db = args if args[0] == "digest" else [*args, "--db", str(db)]
    result = runner.invoke(app, with_db)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {expected}" in _error_text(result.output)


def test_impossible_date_in_a_published_file_is_a_usage_error(tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    report.write_text("# 2026-02-30 Research Radar\n\nNothing new.\n", encoding="utf-8")
    args = ["publish", str(report), "--issue", "o/r#1", "--db", str(tmp_path / "r.db")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for FILE: '2026-02-30' {DAY}" in _error_text(result.output)


def test_bad_settings_file_is_one_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "radar.toml"
    config.write_text("[radar\n", encoding="utf-8")
    result = runner.invoke(app, ["runs", "--config", str(config)])
    assert result.exit_code == 2  # a wrong settings file is a usage error
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


def test_listed_help_is_each_commands_own() -> None:
    """`radar --help` lists COMMANDS without importing the commands: keep it their own help."""
    from research_radar.cli import COMMANDS

    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    for name, (_module, listed) in COMMANDS.items():
        command = group.commands[name]
        assert (command.help or "").split("\n\n")[0] == listed, name
    assert sorted(group.commands) == sorted(COMMANDS)


def test_top_level_help_imports_no_command_module() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from research_radar.cli import main\n"
        "sys.argv = ['radar', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m.startswith('research_radar.')]\n"
        "print('LOADED', sorted(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = result.stdout.split("LOADED", 1)[1]
    assert "daily" in result.stdout
    assert "_cmd" not in loaded and "store" not in loaded and "sqlalchemy" not in loaded


def test_console_script_keeps_loaded_modules_out_of_collections() -> None:
    """`main` (a process of its own) collects the young generation less often and freezes
    what a command loaded; the app called inside another program leaves the collector be."""
    import gc
    import subprocess
    import sys

    from research_radar.cli import keep_loaded

    frozen = gc.get_freeze_count()
    keep_loaded()
    assert gc.get_freeze_count() == frozen
    code = (
        "import gc, sys\n"
        "from research_radar.cli import main\n"
        "sys.argv = ['radar', 'init', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('GC', gc.get_threshold()[0], gc.get_freeze_count())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    young, frozen_there = result.stdout.split("GC", 1)[1].split()
    assert int(young) > 700 and int(frozen_there) > 0  # (0 only while they loaded: `loading`)


def test_loading_outside_the_console_script_leaves_the_collector_be() -> None:
    import gc

    from research_radar.cli import loading

    frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
    with loading():
        assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize(
    "data",
    [
        pytest.param([], id="empty"),
        pytest.param(
            [{"text": 'A100 跑 120 tok/s "quoted" \\ \t\n\x00\x1f\x7f\u2028', "ok": True}],
            id="escapes",
        ),
        pytest.param(
            {"values": [0.0, -0.0, 1.5, 1e16, 1e-10, 2.5e300, 123456789.125, 10**30, -7]},
            id="numbers",
        ),
        pytest.param({"small": [0.00005, -1e-9, 1.25e-5]}, id="floats-json-writes-with-e"),
        pytest.param({"a": {}, "b": [[]], "c": None, "d": "0.00001"}, id="nested"),
    ],
)
def test_plain_json_is_written_as_print_json_writes_it(
    data: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from research_radar.cli.common import print_json, print_plain_json

    print_json(data)
    expected = capsys.readouterr().out
    print_plain_json(data)
    assert capsys.readouterr().out == expected
