"""The stages that make and deliver the day's report: compose, review and publish (or
refuse to). Split from `pipeline.stages`, which holds the stages up to the assessed
findings; `pipeline.run` calls both in order.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from functools import cache, partial
from typing import Any

from research_radar.classify.model import Taxonomy
from research_radar.config import Settings
from research_radar.history import decide as history
from research_radar.hostmap.index import HostIndex
from research_radar.models import Coverage, Finding, Report
from research_radar.pipeline.host import recheck_host, remote_host_sha
from research_radar.pipeline.stages import StageRecorder
from research_radar.report.compose import build_report
from research_radar.report.markdown import render_markdown
from research_radar.settings_file import Language
from research_radar.store.history_reads import count_finding_keys, load_findings_of, load_keys_named
from research_radar.store.store import Store

__all__ = ["BodyOf", "compose_stage", "publish_stage", "refuse_stage", "review_stage"]


def compose_stage(
    run: StageRecorder,
    store: Store,
    findings: list[Finding],
    prior: list[Finding],
    *,
    cutoff: datetime,
    host: HostIndex | None,
    taxonomy: Taxonomy,
    language: Language,
    coverage: Coverage,
    body_of: BodyOf,
    on_report: Callable[[Report], object] | None = None,
) -> tuple[Report, str, Callable[[], dict[str, str]]]:
    """The report and its Markdown, saved with the day's findings, and a function giving
    its stored HTML body (`stored_body`). `on_report`: told the report once it is built,
    before the writing transaction opens (a caller may fork meanwhile:
    `pipeline.outputs.ReportFiles`).

    `body_of`: starts rendering the body of some Markdown and gives a function waiting
    for it (`ReportFiles.body`); the body is then saved with the report only once that
    function is called, so that a large report's body is rendered (by a forked process)
    while this one reviews the report, not while it waits (#19). A run that stops in
    between keeps the report without its body, which is rendered again when asked for
    (`report.html.reuse_body`)."""
    with run.stage("compose") as counts:
        host, findings, rechecked = recheck_host(host, findings)
        findings, carried = _with_earlier_today(store, findings, cutoff.date())
        sha = host.head_sha if host else None
        remote = remote_host_sha(store, host)
        corrections = history.corrections(prior, findings)
        scope = count_finding_keys(store, before=cutoff.date())
        coverage = coverage.model_copy(update={"dedup_scope": scope})
        report = build_report(
            findings,
            now=cutoff,
            host_name=host.repo or host.name if host else None,
            host_sha=sha,
            host_rechecked=rechecked and remote is None,
            host_remote_sha=remote,
            coverage=coverage,
            corrections=corrections,
            language=language,
        )
        if on_report is not None:
            on_report(report)
        markdown = render_markdown(report, taxonomy)
        data: dict[str, Any] = {
            "cutoff": cutoff.isoformat(),
            "findings": [f.project_key for f in report.findings],
        }
        pending = body_of(markdown)  # started before the transaction opens
        with store.transaction() as conn:
            store.save_findings(conn, report.findings)
            store.save_report(conn, report.date, language, markdown, data)
        kept = cache(partial(_save_body, store, report.date, language, markdown, data, pending))
        counts.update(findings=len(report.findings), corrections=len(corrections))
        if carried:
            counts["kept_from_earlier_run"] = carried
    return report, markdown, kept


BodyOf = Callable[[str], Callable[[], dict[str, str]]]
"""body_of(markdown): starts rendering its stored body; gives a function waiting for it."""


def _save_body(
    store: Store,
    day: date,
    language: Language,
    markdown: str,
    data: dict[str, Any],
    pending: Callable[[], dict[str, str]],
) -> dict[str, str]:
    """The report's body, once rendered, saved with the report (the rest as before)."""
    html = pending()
    with store.transaction() as conn:
        store.save_report(conn, day, language, markdown, {**data, "body": html})
    return html


def _with_earlier_today(
    store: Store, findings: list[Finding], day: date
) -> tuple[list[Finding], int]:
    """Today's findings with those an earlier run of the same day reported and this run did
    not weigh again (a live re-run collects only what changed since): the day's report
    keeps them. Returns the findings and how many were kept from the earlier run."""
    weighed = {finding.project_key for finding in findings}
    earlier = [
        finding
        for finding in store.load_findings(on=day, origin="radar")
        if finding.project_key not in weighed
    ]
    return [*findings, *earlier], len(earlier)


def review_stage(
    run: StageRecorder,
    store: Store,
    report: Report,
    markdown: str,
    prior: list[Finding],
    host: HostIndex | None,
) -> tuple[Any, int]:
    """Review our own report: house rules, and its SHAs and numbers against the store.

    The history it is reviewed against is the part that can bear on it: the prior findings
    of its projects and families, and earlier findings under the same names."""
    from research_radar.review import run as review
    from research_radar.review.verifiers import StoreVerifier

    with run.stage("review") as counts:
        result = review.review_report(
            markdown,
            history=_review_history(store, report, prior),
            aliases=store.load_aliases(),
            host_repo=host.repo if host else None,
            verifier=StoreVerifier(store),
        )
        blocking = sum(1 for item in result.findings if item.severity == "blocking")
        counts.update(
            findings=len(result.findings), blocking=blocking, verified=len(result.verified)
        )
    return result, blocking


def _review_history(store: Store, report: Report, prior: list[Finding]) -> list[Finding]:
    from research_radar.review.entries import base_name, name_slug

    slugs = {name_slug(base_name(finding.name)) for finding in report.findings}
    named = load_keys_named(store, slugs, before=report.date)  # by an index (#19)
    if not named - {finding.project_key for finding in prior}:
        return prior
    keys = named | {finding.project_key for finding in prior}
    families = {finding.family for finding in prior if finding.family}
    return load_findings_of(store, keys, families=families, before=report.date)


def publish_stage(
    run: StageRecorder,
    store: Store,
    settings: Settings,
    report: Report,
    markdown: str,
    confirm: bool,
) -> Any:
    from research_radar.github import open_github_client
    from research_radar.publish import index_issue as publish
    from research_radar.publish.gate import allowed_hosts

    with run.stage("publish") as counts:
        if not settings.index_issue:
            counts["skipped"] = "no index issue configured (index_issue / --issue)"
            return None
        private = set(settings.publish.private_repos)  # the store's are added inside
        with open_github_client(settings.github_api_url, settings.github_token) as github:
            result = publish.publish_report(
                github,
                target=settings.index_issue,
                markdown=markdown,
                report_date=report.date,
                store=store,
                dry_run=not confirm,
                private_repos=private,
                allowed_hosts=allowed_hosts(settings.publish.allowed_hosts),
            )
        counts["dry_run"] = not confirm
    return result


def refuse_stage(run: StageRecorder, reason: str) -> None:
    with run.stage("publish") as counts:
        counts["refused"] = reason
