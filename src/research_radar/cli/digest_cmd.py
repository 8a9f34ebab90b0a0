"""`radar digest`: the E1 pre-digest of the team inbox for one topic (refs #9)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from research_radar.cli import keep_loaded
from research_radar.cli.common import (
    ConfigOption,
    JsonOption,
    console,
    err_console,
    parse_moment,
    print_json,
    settings_for,
)
from research_radar.digest.build import build_digest
from research_radar.digest.render import render_digest_json, render_digest_markdown
from research_radar.digest.shapes import Digest
from research_radar.errors import ConfigError
from research_radar.sources.inbox_files import load_inbox
from research_radar.sources.notes import SHANGHAI, TOPIC_TERMS

__all__ = ["SAMPLE_END", "register", "sample_root"]

SAMPLE_END = datetime(2026, 9, 3, 22, 20, tzinfo=SHANGHAI)
"""The default window end for the bundled sample: its notes fall in the 24h before it."""

DIGEST_HELP = """Digest the team inbox for one topic over a window (default: the last 24h, Asia/Shanghai).

The root holds inbox/<analyst>/*.md (notes; timestamp in the file name such as 2026-09-03_0840_radar.md, or `date:`/`time:` front matter), paper_cards/NNNN-*.md (numbered cards naming arXiv ids), knowledge/<topic>.md (the living document) and work-queue.md; each can be given its own path.

The digest lists every source checked with its count of topic items, the main increments (deduplicated across notes and cards; NET-new = not yet anchored in the living document), adjacent items, contradictions between notes, the NET-new arXiv ids and the input problems (notes without a timestamp, duplicate card numbers, broken links, unreadable files).

Without --root (and no inbox_root setting) it runs on the bundled sample, so this works offline:

  radar digest --sample

  radar digest --root ~/team --end 2026-09-03T22:20 --json
"""  # noqa: E501


def sample_root() -> Path:
    """The bundled sample inbox root."""
    return Path(str(resources.files("research_radar") / "sample" / "inbox"))


def register(app: typer.Typer) -> None:
    """Add `digest` to the app."""
    app.command("digest", help=DIGEST_HELP)(digest_command)


def _path_option(flag: str, what: str) -> Any:
    return typer.Option(flag, help=f"{what} (default: under --root).", show_default=False)


def _end(value: str | None, sample: bool) -> datetime:
    """--end (naive = Asia/Shanghai), else the sample's end with the sample, else now."""
    if value is not None:
        return parse_moment(value, "--end", SHANGHAI)
    return SAMPLE_END if sample else datetime.now(SHANGHAI)


def _load_previous(path: Path | None) -> Digest | None:
    """The previous digest from its --json file, or None."""
    if path is None:
        return None
    try:
        return Digest.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            f"cannot read the previous digest ({exc.strerror}); check --previous"
        ) from exc
    except ValueError as exc:
        raise ConfigError(
            f"{path} is not a digest written by `radar digest --json`; check --previous"
        ) from exc


def digest_command(
    root: Annotated[
        Path | None,
        typer.Option("--root", help="Inbox root folder.", show_default=False),
    ] = None,
    sample: Annotated[
        bool, typer.Option("--sample", help="Use the bundled sample inbox (offline demo).")
    ] = False,
    inbox: Annotated[Path | None, _path_option("--inbox", "Folder of analysts' notes")] = None,
    cards: Annotated[Path | None, _path_option("--cards", "Folder of paper cards")] = None,
    knowledge: Annotated[
        Path | None, _path_option("--knowledge", "Living document file or knowledge folder")
    ] = None,
    queue: Annotated[Path | None, _path_option("--queue", "work-queue.md")] = None,
    topic: Annotated[str, typer.Option("--topic", help="Topic of the digest.")] = "inference",
    end: Annotated[
        str | None,
        typer.Option(
            "--end",
            help="Window end, ISO (naive = Asia/Shanghai). Default: now; 2026-09-03T22:20 "
            "with the sample.",
            show_default=False,
        ),
    ] = None,
    hours: Annotated[
        float, typer.Option("--hours", min=0.01, help="Window length in hours.")
    ] = 24.0,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write to this file instead of stdout.", show_default=False),
    ] = None,
    previous: Annotated[
        Path | None,
        typer.Option(
            "--previous",
            help="The previous digest as JSON (--json output): say what moved from to-verify "
            "to confirmed and what is still open.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    config: ConfigOption = None,
) -> None:
    if topic not in TOPIC_TERMS:
        known = ", ".join(sorted(TOPIC_TERMS))
        raise typer.BadParameter(f"unknown topic {topic!r}; known: {known}", param_hint="--topic")
    if sample and root is not None:
        raise typer.BadParameter("use either --sample or --root, not both", param_hint="--sample")
    if root is None and not sample:
        root = settings_for(config).inbox_root
    use_sample = root is None
    if use_sample and not sample:
        err_console.print("Using the bundled sample inbox; pass --root DIR for your own.")
    stop = _end(end, use_sample)
    loaded = load_inbox(
        root or sample_root(), inbox=inbox, cards=cards, knowledge=knowledge, queue=queue
    )
    keep_loaded()  # the inbox is read to the end of the run (#19)
    digest = build_digest(
        loaded,
        topic=topic,
        start=stop - timedelta(hours=hours),
        end=stop,
        previous=_load_previous(previous),
    )
    if as_json and out is None:
        print_json(render_digest_json(digest))
        return
    if as_json:
        text = json.dumps(render_digest_json(digest), ensure_ascii=False, indent=2) + "\n"
    else:
        text = render_digest_markdown(digest)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"cannot write the digest ({exc.strerror}); check --out", str(out)
        ) from exc
    console.print(f"Wrote {out}", highlight=False)
