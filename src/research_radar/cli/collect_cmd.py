"""`radar collect` and `radar replay serve`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    console,
    err_console,
    open_store_for,
    parse_moment,
    print_json,
    sample_settings_for,
    settings_for,
)
from research_radar.collect.stage import SOURCE_NAMES, CollectSummary, collect
from research_radar.config import store_folder
from research_radar.models import BEIJING
from research_radar.replay.server import FAULT_KINDS, Fault, sample_root, serve_replay
from research_radar.sample.demo import SAMPLE_UNTIL, open_sample

__all__ = ["register"]


def health_table(summary: CollectSummary) -> Table:
    """One row per source: status, requests, 304s, reused, parsed, saved, errors."""
    table = Table(title="Sources", title_justify="left")
    for column in ("source", "status", "requests", "304", "reused", "parsed", "saved", "errors"):
        table.add_column(
            column, justify="left" if column in ("source", "status", "errors") else "right"
        )
    for name, health in summary.sources.items():
        status = health.status
        if health.stale_since:
            status = f"stale since {health.stale_since:%Y-%m-%d %H:%M}"
        colour = {"ok": "green", "failed": "red"}.get(health.status, "yellow")
        errors = "; ".join(health.errors[:2]) + (
            f" (+{len(health.errors) - 2})" if len(health.errors) > 2 else ""
        )
        table.add_row(
            name,
            f"[{colour}]{status}[/]",
            str(health.requests),
            str(health.not_modified),
            str(health.reused),
            str(health.parsed),
            str(health.saved),
            errors,
        )
    return table


def collect_command(
    source: Annotated[
        list[str] | None,
        typer.Option(
            "--source", "-s", help=f"Only this source (repeatable): {', '.join(SOURCE_NAMES)}."
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            help="Window start: a date (00:00 Beijing time) or an ISO time. "
            "Default: the last run's end."
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(help="Window end: a date (00:00 Beijing time) or an ISO time. Default: now."),
    ] = None,
    sample: Annotated[
        bool,
        typer.Option(
            "--sample",
            help="Collect the bundled sample offline (no token) into its own store, "
            "radar-sample.db (or --db); the window ends at the sample's day.",
        ),
    ] = False,
    db: DbOption = None,
    config: ConfigOption = None,
    json_output: JsonOption = False,
) -> None:
    """Collect new and updated sources (GitHub, arXiv, feeds, git) into the store.

    A failed source is reported and the rest go on; one with some errors shows as partial.
    Exit code 1 when a source failed.

    Example: radar collect --since 2026-11-29 --source github --source arxiv
    """
    for name in source or []:
        if name not in SOURCE_NAMES:
            raise typer.BadParameter(
                f"unknown source {name!r}; choose from {', '.join(SOURCE_NAMES)}",
                param_hint="--source",
            )
    # without an offset a time is Beijing time, as everywhere in the radar
    start = parse_moment(since, "--since", BEIJING) if since is not None else None
    end = parse_moment(until, "--until", BEIJING) if until is not None else None
    settings = sample_settings_for(config, db) if sample else settings_for(config, db, token=True)
    store = open_store_for(settings)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console,
        transient=True,
        disable=json_output,
    ) as bar:
        task = bar.add_task("collecting", total=None)

        def report(message: str, done: int, total: int) -> None:
            bar.update(task, description=message, completed=done, total=total or None)

        if sample:
            with open_sample(settings, cache_dir=store_folder(settings.db) / ".radar-cache") as run:
                until_ = end or SAMPLE_UNTIL
                summary = collect(
                    store,
                    run.settings,
                    sources=source or None,
                    since=start or run.since,
                    until=max(until_, start or run.since),
                    progress=report,
                )
        else:
            summary = collect(
                store, settings, sources=source or None, since=start, until=end, progress=report
            )
    if json_output:
        print_json(summary.model_dump(mode="json"))
    else:
        console.print(health_table(summary))
        console.print(
            f"{len(summary.keys)} sources kept; window {summary.window_start:%Y-%m-%d} .. {summary.window_end:%Y-%m-%d}"
        )
    if not summary.ok:
        failed = [name for name, h in summary.sources.items() if h.status in ("failed", "stale")]
        err_console.print(f"failed: {', '.join(failed)}; see the errors above or `radar runs`")
        raise typer.Exit(1)


def _parse_fault(text: str) -> Fault:
    pattern, _, rest = text.rpartition("=")
    kind, _, times = rest.partition(":")
    if not pattern or kind not in FAULT_KINDS:
        raise typer.BadParameter(
            f"use PATTERN=KIND[:N] with KIND one of {', '.join(FAULT_KINDS)}", param_hint="--fault"
        )
    return Fault(pattern, kind, int(times) if times.isdigit() else None)


def replay_serve(
    root: Annotated[
        Path | None, typer.Option(help="Folder of recorded responses. Default: the bundled sample.")
    ] = None,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0: any free port).")] = 0,
    fault: Annotated[
        list[str] | None,
        typer.Option(help="Inject a fault: PATTERN=KIND[:N], e.g. '/repos/*=5xx:2'."),
    ] = None,
) -> None:
    """Serve recorded GitHub/arXiv/feed responses on loopback until Ctrl-C."""
    folder = root or sample_root()
    if not (folder / "github").is_dir() and not (folder / "arxiv").is_dir():
        raise typer.BadParameter(f"{folder} has no github/ or arxiv/ folder", param_hint="--root")
    with serve_replay(folder, faults=[_parse_fault(f) for f in fault or []], port=port) as server:
        console.print(f"Replay server on {server.url}")
        console.print(f"  export GITHUB_API_URL={server.url}")
        console.print(f"  export RADAR_ARXIV_API_URL={server.arxiv_url}")
        for name in server.feed_names():
            console.print(f"  feed: {server.feed_url(name)}")
        console.print("Ctrl-C stops it.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            console.print(f"Stopped after {len(server.requests)} requests.")


def register(app: typer.Typer) -> None:
    """Add `collect` and `replay serve` to the app."""
    app.command("collect")(collect_command)
    replay = typer.Typer(
        help="A replay server of recorded API responses (offline testing).", no_args_is_help=True
    )
    replay.command("serve")(replay_serve)
    app.add_typer(replay, name="replay")
