"""`radar review`: lint and verify any house-style report."""

from __future__ import annotations

import json
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated

import httpx
import typer

from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    check_out_file,
    open_store_for,
    print_json,
    read_input,
    settings_for,
)
from research_radar.config import DEFAULT_DB, Settings
from research_radar.github import GitHubClient, open_github_client
from research_radar.report.parse import split_reports
from research_radar.review.run import render_review, review_report
from research_radar.review.verifiers import (
    ChainVerifier,
    GitHubVerifier,
    GitVerifier,
    StoreVerifier,
    Verifier,
)
from research_radar.sources.http import RetryPolicy
from research_radar.store.store import Store

__all__ = ["register"]

RepoOption = Annotated[
    list[str] | None,
    typer.Option(
        "--repo",
        help="A local git checkout to verify against, as owner/name=PATH (repeatable).",
        show_default=False,
    ),
]


def _repo_paths(values: list[str]) -> dict[str, Path]:
    paths = {}
    for value in values:
        repo, sep, path = value.partition("=")
        if not sep or "/" not in repo or not path:
            raise typer.BadParameter(f"{value!r}: write it as owner/name=PATH", param_hint="--repo")
        paths[repo.strip()] = Path(path).expanduser()
    return paths


def _verifier(
    settings: Settings, store: Store | None, paths: dict[str, Path], offline: bool
) -> Verifier | None:
    verifiers: list[Verifier] = []
    if paths:
        verifiers.append(GitVerifier(paths))
    if store is not None:
        verifiers.append(StoreVerifier(store))
    if not offline:
        # A review neither sits out a long rate limit nor retries much: the claims it
        # could not check are reported as unverified instead.
        policy = RetryPolicy(retries=1, timeout=10.0, max_wait=60.0)
        github = GitHubClient(
            httpx.Client(), settings.github_api_url, settings.github_token, policy
        )
        verifiers.append(GitHubVerifier(github))
    return ChainVerifier(verifiers) if verifiers else None


def _post(
    settings: Settings, store: Store | None, target: str, markdown: str, report_text: str
) -> str:
    """Post the review as a new comment through the publisher (public-only gate included).

    The comment is dated like the last dated report reviewed (today when none is dated).
    The gate refuses the private repositories of the store and of `[publish] private_repos`.
    """
    from research_radar.publish.gate import allowed_hosts
    from research_radar.publish.index_issue import publish_report

    dated = [report.date for report in split_reports(report_text) if report.date]
    day = dated[-1] if dated else date.today()
    with open_github_client(settings.github_api_url, settings.github_token) as github:
        result = publish_report(
            github,
            target=target,
            markdown=markdown,
            report_date=day,
            store=store,
            dry_run=False,
            private_repos=set(settings.publish.private_repos),  # publish_report adds the store's
            allowed_hosts=allowed_hosts(settings.publish.allowed_hosts),
            kind="review",
        )
    urls = [part.url for part in result.parts if part.url]
    return ", ".join(urls) or target


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""

    @app.command("review")
    def review(
        file: Annotated[
            Path, typer.Argument(help="The report: Markdown or the tab-separated export.")
        ],
        db: DbOption = None,
        repo: RepoOption = None,
        host_repo: Annotated[
            str | None, typer.Option("--host-repo", help="owner/name of the host project.")
        ] = None,
        json_output: JsonOption = False,
        out: Annotated[
            Path | None, typer.Option("--out", help="Also write the review to this file.")
        ] = None,
        post: Annotated[
            str | None,
            typer.Option("--post", help="Post the review as a new comment on OWNER/REPO#N."),
        ] = None,
        offline: Annotated[
            bool, typer.Option("--offline", help="Do not ask the GitHub API; local sources only.")
        ] = False,
        lang: Annotated[
            str | None,
            typer.Option(
                "--lang", help="Language of the review: zh or en (default: the report's)."
            ),
        ] = None,
        config: ConfigOption = None,
    ) -> None:
        """Review a report: house rules plus claim verification. Exit 1 on a blocking finding.

        A file with several dated reports is reviewed report by report; the history and
        aliases of --db (when given) count as reported before.
        """
        if lang is not None and lang not in ("zh", "en"):
            raise typer.BadParameter(f"{lang!r}: use zh or en", param_hint="--lang")
        paths = _repo_paths(repo or [])
        check_out_file(out)
        text = read_input(file)  # exit 2: missing, empty, binary or undecodable
        settings = settings_for(config, db, token=not offline)
        store = open_store_for(settings, create=False) if db or settings.db != DEFAULT_DB else None
        result = review_report(
            text,
            history=store.load_findings() if store else (),
            aliases=store.load_aliases() if store else None,
            host_repo=host_repo or settings.host_repo,
            verifier=_verifier(settings, store, paths, offline),
            now=datetime.now(UTC),
            policy=settings.policy,
            language=lang,
            offline=offline,
        )
        markdown = render_review(result)
        if json_output:
            print_json(result.to_json())
        else:
            sys.stdout.write(markdown)
        if out is not None:
            data = json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"
            out.write_text(data if json_output else markdown, encoding="utf-8")
        if post:
            # The gate needs the private repositories the default store knows, even when
            # the review itself did not use it (opened only if it exists: nothing is created).
            if store is None and Path(settings.db).is_file():
                store = open_store_for(settings)
            where = _post(settings, store, post, markdown, text)
            typer.echo(f"posted the review to {where}", err=True)
        if result.blocking:
            raise typer.Exit(1)
