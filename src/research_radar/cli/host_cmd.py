"""`radar host ...`: index the host project and map a finding onto its touch points."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from research_radar.cli.common import ConfigOption, JsonOption, console, print_json, settings_for
from research_radar.errors import ConfigError
from research_radar.hostmap.index import HostIndex, load_host_index, map_finding, parse_host_items
from research_radar.models import Finding
from research_radar.sample.host import SAMPLE_HOST_REPO, build_sample_host, load_sample_items

__all__ = ["register"]

HostOption = Annotated[
    Path | None,
    typer.Option("--host", help="Local checkout of the host project. [default: host_path setting]"),
]
RepoOption = Annotated[
    str | None,
    typer.Option("--repo", help="The host's GitHub owner/name. [default: host_repo setting]"),
]
PullsOption = Annotated[
    Path | None,
    typer.Option("--pulls", help="The host's pull requests: a GitHub REST list saved as JSON."),
]
IssuesOption = Annotated[
    Path | None,
    typer.Option("--issues", help="The host's issues: a GitHub REST list saved as JSON."),
]
SampleOption = Annotated[
    bool,
    typer.Option("--sample", help="Use the bundled sample host (inferhost), built in a temp dir."),
]


def _read_list(path: Path | None) -> list[dict[str, Any]]:
    if path is None:
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError("file not found; save the GitHub list payload there", str(path)) from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"not valid JSON ({exc.msg}); expected a GitHub REST list", str(path)
        ) from exc
    if not isinstance(data, list):
        raise ConfigError("expected a JSON list of pull requests or issues", str(path))
    return data


@contextmanager
def _open_host(
    host: Path | None,
    repo: str | None,
    pulls: Path | None,
    issues: Path | None,
    sample: bool,
    config: Path | None,
) -> Iterator[HostIndex]:
    """The host index for the options; the sample host lives only inside the block."""
    if sample:
        sample_pulls, sample_issues = load_sample_items()
        with tempfile.TemporaryDirectory(prefix="radar-host-") as tmp:
            root = build_sample_host(Path(tmp) / "inferhost")
            yield load_host_index(
                root, repo=SAMPLE_HOST_REPO, items=parse_host_items(sample_pulls, sample_issues)
            )
        return
    settings = settings_for(config)
    checkout = host or settings.host_path
    if checkout is None:
        raise typer.BadParameter("no host project: pass --host PATH, --sample or set host_path")
    yield load_host_index(
        checkout,
        repo=repo or settings.host_repo,
        items=parse_host_items(_read_list(pulls), _read_list(issues)),
    )


def _index_data(index: HostIndex) -> dict[str, Any]:
    return {
        "name": index.name,
        "repo": index.repo,
        "root": str(index.root) if index.root else None,
        "default_branch": index.default_branch,
        "head_sha": index.head_sha,
        "counts": index.counts(),
        "open": [
            {"number": i.number, "kind": i.kind, "state": i.state, "title": i.title, "url": i.url}
            for i in index.open_items()
        ],
    }


def _print_index(data: dict[str, Any]) -> None:
    say = console.print
    repo = f" ({data['repo']})" if data["repo"] else ""
    say(f"host {data['name']}{repo} at {data['root']}", markup=False, highlight=False)
    say(f"default branch {data['default_branch']} @ {data['head_sha']}", markup=False)
    say("counts: " + ", ".join(f"{k} {v}" for k, v in data["counts"].items()), markup=False)
    say(f"open PRs/issues: {len(data['open'])}", markup=False)
    for item in data["open"]:
        line = f"  #{item['number']} {item['kind']} [{item['state']}] {item['title']}"
        say(line, markup=False, highlight=False, soft_wrap=True)


def index_command(
    host: HostOption = None,
    repo: RepoOption = None,
    pulls: PullsOption = None,
    issues: IssuesOption = None,
    sample: SampleOption = False,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Index the host project: default-branch SHA, files per kind, open PRs/issues."""
    with _open_host(host, repo, pulls, issues, sample, config) as index:
        data = _index_data(index)
    if as_json:
        print_json(data)
    else:
        _print_index(data)


def map_command(
    title: Annotated[str, typer.Option("--title", help="The finding's name or title.")],
    text: Annotated[
        str, typer.Option("--text", help="What the finding does (mechanism), any language.")
    ] = "",
    k: Annotated[int, typer.Option("-k", min=1, max=20, help="How many touch points.")] = 3,
    host: HostOption = None,
    repo: RepoOption = None,
    pulls: PullsOption = None,
    issues: IssuesOption = None,
    sample: SampleOption = False,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Map a finding onto ranked host touch points (with matched terms) and a relation."""
    finding = Finding(project_key="query:cli", name=title, date=date.today(), mechanism=text)
    with _open_host(host, repo, pulls, issues, sample, config) as index:
        points, relation = map_finding(index, finding, k=k)
        name, sha = index.name, index.head_sha
        head = {"name": name, "repo": index.repo, "head_sha": sha}
    if as_json:
        print_json(
            {"host": head, "relation": relation, "touch_points": [p.model_dump() for p in points]}
        )
        return
    console.print(f"host {name} @ {sha[:12]}", markup=False)
    console.print(f"relation: {relation}", markup=False)
    for rank, point in enumerate(points, 1):
        state = f" [{point.state}]" if point.state else ""
        line = f"{rank}. {point.kind} {point.ref}{state} score {point.score:.2f} - {point.reason}"
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    if not points:
        console.print("no touch point matched", markup=False)


def register(app: typer.Typer) -> None:
    """Add `radar host index` and `radar host map`."""
    host_app = typer.Typer(
        help="The host project: index its files and PRs, map findings to touch points.",
        no_args_is_help=True,
    )
    host_app.command("index")(index_command)
    host_app.command("map")(map_command)
    app.add_typer(host_app, name="host")
