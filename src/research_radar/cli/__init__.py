"""The `radar` command: a thin shell over the library.

Each command family lives in its own module with a `register(app)` function; this file
builds the app, registers them and turns every RadarError into one clear `Error: ...`
line with exit code 1 (a wrong settings file, unusable input and usage errors exit 2).
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from research_radar.cli import (
    collect_cmd,
    daily_cmd,
    digest_cmd,
    extract_cmd,
    history_cmd,
    host_cmd,
    init_cmd,
    publish_cmd,
    review_cmd,
    taxonomy_cmd,
)
from research_radar.cli.common import err_console
from research_radar.errors import InputError, RadarError, SettingsError

__all__ = ["app", "main"]


class _RadarGroup(TyperGroup):
    """Catches RadarError in exactly one place."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except RadarError as exc:
            err_console.print(f"Error: {exc}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(2 if isinstance(exc, SettingsError | InputError) else 1) from exc

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(super().list_commands(ctx))


app = typer.Typer(
    cls=_RadarGroup,
    name="radar",
    help=(
        "Research Radar: a daily radar for AI inference performance and self-improving "
        "optimisation (RSI).\n\nStart with `radar daily --sample` to see a report made "
        "offline from the bundled sample."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
)

for _module in (
    init_cmd,
    daily_cmd,
    collect_cmd,
    taxonomy_cmd,
    extract_cmd,
    history_cmd,
    host_cmd,
    publish_cmd,
    review_cmd,
    digest_cmd,
):
    _module.register(app)


def main() -> None:
    """Entry point of the console script."""
    app()
