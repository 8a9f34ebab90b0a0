"""Options and small pieces every command shares."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from research_radar.config import Settings, is_database_url, load_settings
from research_radar.errors import StorageError

if TYPE_CHECKING:
    from research_radar.store.store import Store

__all__ = [
    "ConfigOption",
    "check_out_file",
    "DbOption",
    "JsonOption",
    "console",
    "err_console",
    "open_store_for",
    "parse_day",
    "parse_moment",
    "print_json",
    "print_plain_json",
    "read_input",
    "sample_settings_for",
    "settings_for",
]

console = Console()
err_console = Console(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The store: a SQLite file path or any SQLAlchemy URL. [env: RADAR_DB] [default: radar.db]",
        show_default=False,
    ),
]
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Settings file (TOML). [env: RADAR_CONFIG] [default: ./radar.toml if present]",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print data as JSON instead of text.")]


def settings_for(config: Path | None, db: str | None = None, *, token: bool = False) -> Settings:
    """Settings from file and environment, with command-line overrides applied."""
    settings = load_settings(config, resolve_token=token)
    return settings.with_overrides(db=db)


def sample_settings_for(config: Path | None, db: str | None) -> Settings:
    """Settings for a `--sample` run: the sample's own store (radar-sample.db) unless --db
    names another, whatever radar.toml or RADAR_DB say; no token."""
    from research_radar.sample.demo import SAMPLE_DB

    return load_settings(config, resolve_token=False).with_overrides(db=db or SAMPLE_DB)


def open_store_for(settings: Settings, *, create: bool = True) -> Store:
    """Open the store; a read-only command (`create=False`) never makes an empty one."""
    if (
        not create
        and not is_database_url(settings.db)
        and not Path(settings.db).expanduser().exists()
    ):
        raise StorageError(
            f"no store at {settings.db}; run `radar daily` first, or pass --db "
            "(the bundled sample's store is radar-sample.db)"
        )
    from research_radar.store.store import open_store  # SQLAlchemy: only where a store is opened

    return open_store(settings.db)


def parse_day(value: str, option: str) -> date:
    """A day as the user wrote it (YYYY-MM-DD) -> date; anything else exits 2.

    Args:
        value: the text given on the command line (or found in a file).
        option: what it was given as, named in the message: `--date`, `FILE`.
    """
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date; expected YYYY-MM-DD, e.g. 2026-08-29", param_hint=option
        ) from None


def parse_moment(value: str, option: str, zone: tzinfo) -> datetime:
    """A day or an ISO 8601 time -> an aware datetime; anything else exits 2.

    A day means its 00:00. A time without an offset is taken in `zone`, the time zone
    the command works in.
    """
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date or time; expected YYYY-MM-DD or ISO 8601, "
            "e.g. 2026-08-29 or 2026-08-29T08:30+08:00",
            param_hint=option,
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def check_out_file(path: Path | None, option: str = "--out") -> None:
    """Refuse (exit 2, before any work) an output file that cannot be one: a folder, or a
    path under a file. Creates nothing."""
    if path is None:
        return
    if path.is_dir():
        raise typer.BadParameter(
            f"{path} is a folder; give a file name, e.g. {path / 'report.md'}", param_hint=option
        )
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise typer.BadParameter(
            f"{path} is under {parent}, which is a file, not a folder", param_hint=option
        )


def read_input(path: Path) -> str:
    """The text of a file a person handed a command (see `textinput`); says on stderr
    when it was not UTF-8 and which encoding it was read in."""
    from research_radar.textinput import read_text_input

    decoded = read_text_input(path)
    if decoded.encoding not in ("utf-8", "utf-8-sig", "ascii"):
        err_console.print(f"note: {path} is not UTF-8; read it as {decoded.encoding}")
    return decoded.text


def print_json(data: Any) -> None:
    """Write JSON to stdout (UTF-8, not escaped), one document."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def print_plain_json(data: Any) -> None:
    """`print_json` of data made of JSON's own types only (dicts with str keys, lists,
    str, int, float, bool, None): the same text, written by pydantic-core's serializer.

    The standard library indents in pure Python, seven times slower (0.19 s of `radar
    extract --json` on a 3.9 MB README, issue #19). pydantic-core writes a float under
    1e-4 in full (`0.00001`, where `json` writes `1e-05`) and refuses a lone surrogate:
    then `json` writes it."""
    from pydantic_core import PydanticSerializationError, to_json

    try:
        text = to_json(data, indent=2)
    except PydanticSerializationError:
        text = b"0.0000"  # (a lone surrogate: written by `json`, as it always was)
    if b"0.0000" in text:  # (also in a string: then too `json` writes it, to be sure)
        print_json(data)
        return
    sys.stdout.write(text.decode() + "\n")
