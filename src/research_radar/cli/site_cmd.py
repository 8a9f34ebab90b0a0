"""`radar site`: build the static site from the store, and preview it on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from research_radar.classify.profile import load_taxonomy
from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    console,
    err_console,
    open_store_for,
    print_json,
    settings_for,
)
from research_radar.config import DEFAULT_DB, Settings
from research_radar.publish.gate import allowed_hosts, load_private_repos
from research_radar.site.build import SiteResult, build_site
from research_radar.site.data import load_site_data
from research_radar.site.serve import make_server

__all__ = ["register"]

SITE_HELP = """Build a static, searchable site from the store: no server needed to read it.

Pages: home (latest report, source health, findings per day), one page per daily report (cards readable on a phone and a desktop), per project (aliases, renames, forks, papers, claims with conditions and pinned versions, every report that mentioned it), per mechanism family and per dimension value (with facets by dimension, maturity, recommendation and month), charts (static SVG) and full-text search in Chinese and English (Pagefind, built into pagefind/).

Nothing private reaches the site: findings and reports the public-only gate of `radar publish` refuses (private repositories, hosts not allowed, local paths, token-like strings) are left out and counted. A rebuild rewrites only the pages that changed.

Without --db, after `radar daily --sample` and with no radar.db here, the sample's store (radar-sample.db) is used.

  radar daily --sample && radar site --out site/

  radar site --out site/ --serve
"""


def _settings(config: Path | None, db: str | None) -> Settings:
    """The settings, falling back to the sample's store when no store was named or made."""
    from research_radar.sample.demo import SAMPLE_DB

    settings = settings_for(config, db)
    fallback = db is None and settings.db == DEFAULT_DB and not Path(DEFAULT_DB).exists()
    if fallback and Path(SAMPLE_DB).exists():
        err_console.print(f"no {DEFAULT_DB} here: building from the sample's store {SAMPLE_DB}")
        return settings.with_overrides(db=SAMPLE_DB)
    return settings


def _print(result: SiteResult) -> None:
    seconds = result.seconds.get("total", 0.0)
    console.print(
        f"site written to {result.out}: {result.pages} pages "
        f"({result.written} written, {result.unchanged} unchanged, {result.removed} removed) "
        f"in {seconds:.1f}s",
        highlight=False,
    )
    if result.indexed:
        console.print(f"search index: {result.search}", highlight=False, markup=False)
    withheld = result.withheld_findings + result.withheld_reports
    if withheld:
        console.print(
            f"[yellow]withheld:[/yellow] {result.withheld_findings} finding(s) and "
            f"{result.withheld_reports} report(s) the public-only gate refuses"
        )


def site(
    out: Annotated[Path, typer.Option("--out", help="Folder to write the site into.")] = Path(
        "site"
    ),
    search: Annotated[
        bool, typer.Option("--search/--no-search", help="Build the Pagefind search index.")
    ] = True,
    serve: Annotated[
        bool,
        typer.Option(
            "--serve", help="After building, preview the site on 127.0.0.1 (Ctrl-C stops)."
        ),
    ] = False,
    port: Annotated[
        int, typer.Option("--port", help="Port for --serve (0: any free port).")
    ] = 8000,
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    settings = _settings(config, db)
    store = open_store_for(settings, create=False)
    taxonomy = load_taxonomy(settings.profile)
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        TextColumn("{task.completed} pages"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=json,
    ) as bar:
        task = bar.add_task("reading the store", total=None)
        data = load_site_data(
            store,
            private_repos=load_private_repos(store, settings.publish.private_repos),
            allowed_hosts=allowed_hosts(settings.publish.allowed_hosts),
            language=settings.language.value,
        )

        def progress(step: str, count: int) -> None:
            bar.update(task, description=step, completed=count)

        result = build_site(data, taxonomy, out, search=search, progress=progress)
    if json:
        print_json(result.to_dict())
    else:
        _print(result)
    if serve:
        server = make_server(out, port)
        console.print(
            f"serving {out} at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)",
            highlight=False,
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()


def register(app: typer.Typer) -> None:
    """Add `site` to the app."""
    app.command("site", help=SITE_HELP)(site)
