"""Catalogues of hardware, models, precisions and software, kept as data (TOML).

Each bundled file (`data/hardware.toml`, `data/models.toml`, `data/precisions.toml`,
`data/software.toml`) holds an array of tables named after its field. An entry either
names one thing with literal aliases::

    [[hardware]]
    name = "RTX 4090"
    aliases = ["4090", "GeForce RTX 4090"]

or a family with a regular expression and a template that renders the canonical name
from the named groups (`[...]` segments are dropped when a group inside is empty)::

    [[model]]
    name = "Qwen"
    pattern = 'Qwen(?P<ver>\\d(?:\\.\\d+)?)?-?(?P<size>\\d+)B'
    template = "Qwen[{ver}]-{size}B"

A user extends the catalogue with their own file (or folder of files) in the same
format: `load_catalog(extra)`. User entries win ties over bundled ones.

Pure but for `load_catalog`, which reads the bundled files and the user's.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from research_radar.errors import ConfigError
from research_radar.extract.aliassearch import alias_regex, name_source
from research_radar.extract.catalogue import FIELDS, Catalog, Entry

__all__ = ["default_catalog", "load_catalog", "parse_catalog"]

_BUNDLED = ("hardware.toml", "models.toml", "precisions.toml", "software.toml")


def _build_entry(
    field_name: str, table: dict[str, Any], origin: str, *, check: bool = True
) -> Entry:
    """One entry of a TOML table; `check`: compile its pattern now, to say what is wrong."""
    name = table.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"every [[{field_name}]] entry needs a name", path=origin)
    meta = {k: v for k, v in table.items() if k not in {"name", "aliases", "pattern", "template"}}
    pattern = table.get("pattern")
    aliases: tuple[str, ...] = ()
    if pattern:
        body, template = str(pattern), str(table.get("template") or name)
    else:
        aliases = (name, *(str(a) for a in table.get("aliases", [])))
        body = "|".join(alias_regex(a) for a in sorted(aliases, key=len, reverse=True))
        template = ""
    source = name_source(body)
    if pattern and check:
        try:
            re.compile(source, re.I)
        except re.error as exc:
            raise ConfigError(
                f"bad pattern in {field_name} entry {name!r}: {exc}", path=origin
            ) from exc
    return Entry(field_name, name, source, template, aliases, meta)


def parse_catalog(text: str, origin: str = "<catalog>", *, check: bool = True) -> Catalog:
    """Entries of one TOML document (any of the four arrays).

    `check`: compile each pattern now, to name a bad one (the bundled files are checked
    by the tests instead, and compile their patterns on first use)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", path=origin) from exc
    entries: list[Entry] = []
    for field_name in FIELDS:
        tables = data.get(field_name, [])
        if not isinstance(tables, list):
            raise ConfigError(f"{field_name} must be an array of tables", path=origin)
        entries.extend(_build_entry(field_name, table, origin, check=check) for table in tables)
    return Catalog(tuple(entries))


def _extra_files(extra: Path) -> Iterable[Path]:
    if extra.is_dir():
        return sorted(extra.glob("*.toml"))
    if extra.is_file():
        return [extra]
    raise ConfigError("catalogue file not found; pass an existing .toml file or folder", str(extra))


def load_catalog(extra: Path | None = None) -> Catalog:
    """The bundled catalogues, extended by a user's TOML file or folder of files."""
    bundled = resources.files("research_radar").joinpath("data")
    entries: list[Entry] = []
    if extra is not None:
        for path in _extra_files(extra):
            entries.extend(parse_catalog(path.read_text(encoding="utf-8"), str(path)).entries)
    for name in _BUNDLED:
        text = bundled.joinpath(name).read_text(encoding="utf-8")
        entries.extend(parse_catalog(text, f"research_radar/data/{name}", check=False).entries)
    return Catalog(tuple(entries))


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The bundled catalogues, read once per process."""
    return load_catalog(None)
