"""`radar history`: import earlier reports, list the projects history knows, show one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    console,
    open_store_for,
    print_json,
    settings_for,
)
from research_radar.errors import RadarError
from research_radar.history.imports import ImportSummary, import_texts, load_projects
from research_radar.resolve.keys import NameIndex, canonical_key, load_aliases_file
from research_radar.textinput import read_text_input

__all__ = ["register"]

history_app = typer.Typer(
    help="History: earlier reports, projects across renames and forks, mechanism families.",
    no_args_is_help=True,
)

AliasesOption = Annotated[
    Path | None,
    typer.Option(
        "--aliases",
        help='Aliases file (TOML): \\[aliases] "Project Maya" = "gh:owner/maya". '
        "See the bundled example research_radar/data/aliases.toml.",
        show_default=False,
    ),
]


def _import_line(summary: ImportSummary) -> str:
    """What the import added, then what was already known (so a re-import reads as no-op)."""
    known = summary.findings - summary.new_findings
    return (
        f"Read {summary.reports} reports, {summary.entries} entries: "
        f"{summary.new_findings} new findings, {known} already known; "
        f"{summary.new_projects} new projects, {summary.new_aliases} new aliases, "
        f"{summary.new_corrections} new corrections; skipped {len(summary.skipped)}."
    )


@history_app.command("import")
def import_command(
    files: Annotated[
        list[Path], typer.Argument(help="Earlier reports: Markdown or the plain-text export.")
    ],
    db: DbOption = None,
    config: ConfigOption = None,
    aliases: AliasesOption = None,
    as_json: JsonOption = False,
) -> None:
    """Import earlier house-style reports into the store (importing twice changes nothing).

    Reads GitHub Markdown tables or the tab-separated plain-text export, with the evidence
    index; pinned SHAs and URLs give canonical keys, names and "X（原 Y）" give aliases.
    """
    # an unusable file is refused before the store is opened (or made); each is read once
    texts = [(path.name, read_text_input(path).text) for path in files]
    store = open_store_for(settings_for(config, db))
    summary = import_texts(store, texts, aliases=load_aliases_file(aliases) if aliases else None)
    if as_json:
        print_json(summary.as_dict())
        return
    console.print(_import_line(summary), markup=False, soft_wrap=True)
    for line in summary.skipped:
        console.print(f"  skipped: {line}", markup=False)


@history_app.command("list")
def list_command(
    db: DbOption = None, config: ConfigOption = None, as_json: JsonOption = False
) -> None:
    """Every project with its key, aliases, linked sources, fork parent, family and report dates."""
    rows = load_projects(open_store_for(settings_for(config, db), create=False))
    if as_json:
        print_json(rows)
        return
    table = Table("project", "key", "aliases", "sources", "family", "reported on")
    for row in rows:
        table.add_row(
            row["name"],
            row["key"] + (f"\nfork of {row['fork_of']}" if row["fork_of"] else ""),
            ", ".join(row["aliases"]),
            ", ".join(f"{s['kind']}:{s['key'].split(':', 1)[1]}" for s in row["sources"]),
            row["family"] or "",
            ", ".join(row["reported_on"]),
        )
    console.print(table)


def _find(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """The project a name, alias, URL, canonical key or former name (`gh:old/name`) means."""
    by_key = {row["key"]: row for row in rows}
    by_alias: dict[str, str] = {}
    for row in rows:
        for alias in row["aliases"]:
            by_alias.setdefault(alias, row["key"])
            by_alias.setdefault(canonical_key(alias) or alias, row["key"])
    for probe in (canonical_key(name), name.strip()):
        if probe in by_key:
            return by_key[probe]
        if probe in by_alias and by_alias[probe] in by_key:
            return by_key[by_alias[probe]]
    index = NameIndex()
    for row in rows:
        index.add(row["name"], row["key"])
        index.add_repo(row["key"])
        for alias in row["aliases"]:
            index.add(alias, row["key"])
    found = index.lookup(name)
    if found is None or found not in by_key:
        raise RadarError(f"no project named {name!r} in history; see `radar history list`")
    return by_key[found]


@history_app.command("show")
def show_command(
    name: Annotated[str, typer.Argument(help="A name, alias, URL or canonical key.")],
    db: DbOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one project: identity, aliases, sources, family, report dates and corrections."""
    row = _find(load_projects(open_store_for(settings_for(config, db), create=False)), name)
    if as_json:
        print_json(row)
        return
    console.print(f"[bold]{row['name']}[/bold]  {row['key']}")
    console.print(f"aliases: {', '.join(row['aliases']) or '-'}", markup=False)
    for source in row["sources"]:
        console.print(
            f"  {source['kind']:<6} {source['key']}  ({source['relation']})", markup=False
        )
    if row["fork_of"]:
        kind = "derivative" if row["derivative"] else "ordinary fork"
        console.print(f"fork of {row['fork_of']} ({kind})", markup=False)
    console.print(f"family: {row['family'] or '-'}", markup=False)
    console.print(f"reported on: {', '.join(row['reported_on']) or '-'}", markup=False)
    for fix in row["corrections"]:
        console.print(f"correction {fix['date']}: {fix['text']}", markup=False)


def register(app: typer.Typer) -> None:
    """Add `radar history` to the app."""
    app.add_typer(history_app, name="history")
