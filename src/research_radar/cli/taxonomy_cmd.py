"""`radar taxonomy` (show the profile) and `radar classify` (tag JSON lines)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.table import Table

from research_radar.classify.model import Dimension, Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.cli.common import ConfigOption, JsonOption, console, print_json, settings_for
from research_radar.errors import ConfigError

__all__ = ["register"]

_SAMPLES = 6
_PASSTHROUGH = ("id", "key", "url", "kind")

ProfileOption = Annotated[
    Path | None,
    typer.Option(
        "--profile",
        help="Your taxonomy profile (TOML). It extends the bundled profile unless it says "
        'mode = "replace" under \\[profile] or you pass --replace. Default: the profile '
        "named in the settings file, else the bundled one.",
        show_default=False,
    ),
]
ReplaceOption = Annotated[
    bool, typer.Option("--replace", help="Use --profile instead of the bundled profile.")
]

# Typer renders help as Rich markup: one line per paragraph, and \\[ for a literal [.
TAXONOMY_HELP = """Print the taxonomy profile: dimensions, values with 中文/English labels, sample terms.

The bundled profile tracks AI inference performance and RSI. Write a TOML file to add values or terms, then check what the radar will use:

  radar taxonomy --profile my-profile.toml

For example, a file holding these two lines adds a Chinese term to the cache mechanism:

  \\[dimensions.mechanism.values.cache]

  terms_zh = \\["显存复用"]

--json prints the whole profile, rules included, for scripts.
"""  # noqa: E501

CLASSIFY_HELP = """Tag items on every taxonomy dimension and print one JSON line per item.

Input: JSON lines, one object per line, with "title" and optional "summary" and "text" (id, key and url are passed through), read from FILE, or from standard input when FILE is - or left out. Example:

  echo '{"title": "EAGLE-3 speculative decoding for Qwen3"}' | radar classify

Each output line holds the value ids per dimension ("tags"), the words that matched ("terms"), a "confidence" per value, the RSI "target" (engine or harness), the maturity "flags" and "topic" (the probability that the item is about AI inference performance). A dimension without enough evidence is "unknown"; the RSI stage of work without an improvement loop is "not-applicable". With --explain, "explain" lists the evidence terms behind each dimension's values and "model" names the classifier. A malformed line is reported on stderr with its line number; the other lines are still classified, and the exit code is then 1.
"""  # noqa: E501


def register(app: typer.Typer) -> None:
    """Add `taxonomy` and `classify` to the app."""
    app.command("taxonomy", help=TAXONOMY_HELP)(taxonomy_command)
    app.command("classify", help=CLASSIFY_HELP)(classify_command)


def taxonomy_command(
    profile: ProfileOption = None,
    replace: ReplaceOption = False,
    as_json: JsonOption = False,
    config: ConfigOption = None,
) -> None:
    taxonomy = _load(profile, replace, config)
    if as_json:
        print_json(taxonomy.as_dict())
        return
    console.print(f"[bold]{taxonomy.name}[/bold] — {taxonomy.description_zh}")
    console.print(taxonomy.description_en, style="dim")
    console.print(f"from: {', '.join(taxonomy.origins)}", style="dim")
    for dim in taxonomy.dimensions:
        console.print(_dimension_table(dim))
    queries = taxonomy.queries
    console.print(
        f"queries: {len(queries.github())} GitHub combinations, arXiv "
        f"{', '.join(queries.arxiv_categories)} × {len(queries.arxiv_terms)} terms; "
        f"feeds: {len(taxonomy.feeds)}"
    )


def classify_command(
    file: Annotated[
        str, typer.Argument(help="JSON-lines file, or - for standard input.", show_default=False)
    ] = "-",
    profile: ProfileOption = None,
    replace: ReplaceOption = False,
    config: ConfigOption = None,
    explain: Annotated[
        bool,
        typer.Option("--explain", help="Add the evidence terms behind each dimension's values."),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Accepted like on the other data commands; changes nothing, as the output "
            "is always JSON lines.",
        ),
    ] = False,
) -> None:
    del as_json  # a no-op: scripts may pass --json to every data command
    taxonomy = _load(profile, replace, config)
    failures = 0
    for number, item in _read_lines(file):
        if isinstance(item, str):
            failures += 1
            typer.echo(f"{_name(file)}:{number}: {item}", err=True)
            continue
        record = _record(taxonomy, item, explain=explain)
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    if failures:
        typer.echo(f"{failures} line(s) skipped; fix them and run again", err=True)
        raise typer.Exit(1)


def _load(profile: Path | None, replace: bool, config: Path | None) -> Taxonomy:
    if profile is None:
        profile = settings_for(config).profile
    if replace and profile is None:
        raise typer.BadParameter("--replace needs --profile FILE", param_hint="--replace")
    return load_taxonomy(profile, extend=not replace)


def _dimension_table(dim: Dimension) -> Table:
    kind = "multi" if dim.multi else "single"
    extra = f", facet of {dim.parent}" if dim.parent else ""
    default = f", default {dim.default}" if dim.default else ""
    title = f"{dim.id} · {dim.label_zh} · {dim.label_en} ({kind}{default}{extra})"
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("id", no_wrap=True)
    for column in ("中文", "English", "sample terms"):
        table.add_column(column, overflow="fold")
    for value in dim.values:
        samples = (value.terms("term")[:3] + value.terms("term_zh")[:3])[:_SAMPLES]
        table.add_row(value.id, value.label_zh, value.label_en, ", ".join(samples))
    return table


def _record(taxonomy: Taxonomy, item: dict[str, Any], *, explain: bool) -> dict[str, Any]:
    from research_radar.classify.classifier import classify_item
    from research_radar.classify.learned import load_model

    body = "\n\n".join(str(item[key]) for key in ("summary", "text") if item.get(key))
    record: dict[str, Any] = {"title": item["title"]}
    record.update({key: item[key] for key in _PASSTHROUGH if key in item})
    kind = str(item.get("kind") or "")
    classification = classify_item(taxonomy, item["title"], body, kind=kind)
    record.update(classification.as_dict())
    if explain:
        record["explain"] = classification.explain
        record["model"] = load_model().info
    return record


def _read_lines(file: str) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, item) per non-blank line; the item is an error text when bad."""
    stream = _open(file)
    number = 0
    try:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield number, _parse_item(line)
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"not UTF-8 text ({exc.reason}); save it as UTF-8", file, number + 1
        ) from None
    finally:
        if stream is not sys.stdin:
            stream.close()


def _parse_item(line: str) -> dict[str, Any] | str:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg} at column {exc.colno}); write one object per line"
    if not isinstance(item, dict):
        return 'expected a JSON object such as {"title": "..."}'
    if not isinstance(item.get("title"), str):
        return 'missing "title" (a string); every line needs one'
    for key in ("summary", "text"):
        if key in item and not isinstance(item[key], str | None):
            return f'"{key}" must be a string'
    return item


def _open(file: str) -> IO[str]:
    if file == "-":
        return sys.stdin
    path = Path(file)
    if not path.is_file():
        raise ConfigError("input file not found; give a JSON-lines file or - for stdin", file)
    try:
        return path.open(encoding="utf-8-sig")
    except OSError as exc:
        raise ConfigError(f"cannot read the input ({exc})", file) from exc


def _name(file: str) -> str:
    return "<stdin>" if file == "-" else file
