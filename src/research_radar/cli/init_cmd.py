"""`radar init`: write a commented settings file to start from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from research_radar.cli.common import console

TEMPLATE = """\
# Research Radar settings. Every key is optional; the values below are the defaults or
# examples. Command-line options and environment variables (RADAR_DB, GITHUB_TOKEN,
# GITHUB_API_URL, RADAR_CONFIG) win over this file. Relative paths are relative to it.

[radar]
db = "radar.db"                         # a SQLite file, or any SQLAlchemy URL
# host_path = "../inferhost"            # local checkout of your host project
# host_repo = "example-org/inferhost"   # its GitHub name (open PRs/issues become touch points)
# index_issue = "example-org/inferhost#126"   # where `radar daily --publish` posts
policy = "first-discovered"             # or "substantive-updates"
language = "zh"                         # or "en"
reports_dir = "reports"
# profile = "my-taxonomy.toml"          # extends (or, with mode = "replace", replaces) the profile
# feeds = ["https://example.org/engineering/feed.xml"]
# repos = ["../checkouts/some-engine"]  # local git checkouts or clone URLs to watch
# inbox_root = "../team-inbox"          # analysts' notes, paper cards, living docs (radar digest)

# [github]                              # default: the profile's queries, 12 a day in rotation
# queries = ["llm inference engine kv cache"]
# exclude = ["some-org/known-repo"]

# [arxiv]
# queries = ['abs:"speculative decoding" AND cat:cs.LG']
# delay = 3.0                           # seconds between requests, as arXiv asks

# [publish]                             # the public-only gate before anything is posted
# private_repos = ["example-org/internal-engine"]
# allowed_hosts = ["blog.example.org"]  # link hosts allowed beyond GitHub, arXiv, DOI...
"""


def init(
    path: Annotated[Path, typer.Argument(help="Where to write the settings.")] = Path("radar.toml"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented radar.toml to start from.

    Example: radar init && $EDITOR radar.toml && radar daily
    """
    if path.exists() and not force:
        raise typer.BadParameter(
            f"{path} exists; edit it, or pass --force to overwrite it", param_hint="PATH"
        )
    path.write_text(TEMPLATE, encoding="utf-8")
    console.print(f"wrote [bold]{path}[/bold]; next: set GITHUB_TOKEN, then `radar daily`")


def register(app: typer.Typer) -> None:
    """Add `init`."""
    app.command()(init)
