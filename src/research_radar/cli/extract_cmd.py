"""`radar extract`: the claims of one file, with their conditions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from research_radar.cli.common import (
    ConfigOption,
    JsonOption,
    console,
    print_plain_json,
    read_input,
    settings_for,
)
from research_radar.extract.cataloguefiles import load_catalog
from research_radar.extract.claimviews import claim_to_json
from research_radar.extract.documents import extract_document, load_included
from research_radar.report.wording import format_conditions


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("extract")(extract)


def extract(
    file: Annotated[Path, typer.Argument(help="A README, doc, note or benchmark JSON file.")],
    where: Annotated[
        str | None,
        typer.Option(
            "--where", help="Reference to cite, e.g. owner/repo@sha:path (default: FILE)."
        ),
    ] = None,
    reporter: Annotated[
        str, typer.Option("--reporter", help="Who reports the numbers: author, community or us.")
    ] = "author",
    catalog: Annotated[
        Path | None,
        typer.Option(
            "--catalog", help="Extra catalogue TOML file or folder that extends the bundled one."
        ),
    ] = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print the claims of FILE with their metrics, conditions, kind and line.

    Conditions are hardware, model, precision, baseline, software and load, worded in the
    configured language. Author numbers stay author numbers.

    Example: radar extract README.md --where owner/repo@<sha>:README.md --json
    """
    text = read_input(file)  # exit 2: missing, empty, binary or undecodable
    claims = extract_document(
        text,
        file.name,
        where or str(file),
        reporter,
        catalog=load_catalog(catalog),
        files=load_included(file, text),
    )
    if as_json:
        print_plain_json([claim_to_json(claim) for claim in claims])
        return
    language = settings_for(config).language
    table = Table(title=f"{len(claims)} claims in {file}", show_lines=False)
    for column in ("line", "kind", "metrics", "conditions", "text"):
        table.add_column(column, overflow="fold")
    for claim in claims:
        metrics = ", ".join(f"{m.value:g}{m.unit}" for m in claim.metrics)
        table.add_row(
            str(claim.line or ""),
            claim.kind.value + ("" if claim.complete else "*"),
            metrics,
            format_conditions(claim, language),
            claim.text[:160],
        )
    console.print(table)
    if any(not claim.complete for claim in claims):
        console.print(
            "* incomplete: lacks hardware, model, precision or baseline; never a headline"
        )
