"""Lint and verify any house-style report: the rules of CONVENTIONS.md as stable rule ids.

`review_report` reads a report (GitHub Markdown or the tab-separated export; a file with
many dated reports is reviewed report by report, the earlier ones serving as history for
the later ones) and returns a `Review`: what was verified and found true, and findings
with Where / Problem / Conditions / Impact / Fix. Pure: the only I/O goes through the
`Verifier` the caller passes in (see verify.py). It never raises on malformed text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from research_radar.models import Finding
from research_radar.report.parse import ParsedReport, split_reports
from research_radar.report.templates import environment
from research_radar.review.entries import build_findings, header_text
from research_radar.review.findings import Review, ReviewContext, Severity
from research_radar.review.report_rules import (
    check_comparisons,
    check_header,
    check_proposals,
    check_public,
    check_refs,
)
from research_radar.review.rules import (
    check_already_reported,
    check_dimensions,
    check_family,
    check_host_mapping,
    check_novelty,
    check_numbers,
    check_version,
)
from research_radar.review.verifiers import Verifier
from research_radar.review.verify import Check, verify_report
from research_radar.review.vocab import GLOBAL_AUTHOR, HEADER_NOVELTY, POLICY_SWITCH

__all__ = ["render_review", "review_report"]


def _report_kind(report: ParsedReport) -> str:
    """charter (undated issue body), correction, supplement, baseline or daily."""
    if report.date is None:
        return "charter"
    head = report.title + "\n" + "\n".join(report.text.splitlines()[:4])
    if re.search(r"纠偏|更正|correction", report.title, re.I):
        return "correction"
    if re.search(r"补录|补充|supplement", report.title, re.I):
        return "supplement"
    if re.search(r"基线|baseline", head, re.I) and not report.evidence:
        return "baseline"
    return "daily"


# -- verification ---------------------------------------------------------------------------


def _add_checks(ctx: ReviewContext, checks: list[Check], review: Review) -> None:
    unchecked: dict[str | None, list[Check]] = {}
    for check in checks:
        if check.ok is True:
            review.verified.append(f"{ctx.label}: {check.statement}")
        elif check.ok is False:
            ctx.add(
                "claim-false",
                Severity.BLOCKING,
                ctx.where(check.line, check.entry),
                check.statement,
                entry=check.entry,
                conditions="checked against the sources the verifier could reach",
                impact="the report states something its own sources contradict",
                fix=check.fix or "correct the claim or cite the right source",
            )
        else:
            unchecked.setdefault(check.entry, []).append(check)
    for entry, items in unchecked.items():
        shown = "; ".join(item.statement for item in items[:4]) + (" …" if len(items) > 4 else "")
        ctx.add(
            "claim-unverified",
            Severity.INFO,
            ctx.where(items[0].line, entry),
            f"{len(items)} claim(s) could not be checked: {shown}",
            entry=entry,
            conditions="no local checkout, store record or API answer for these sources",
            impact="these claims rest on the report alone",
            fix="pass --repo owner/name=PATH, a store with the sources, or reach the API",
        )


# -- the review -----------------------------------------------------------------------------


def _review_one(
    report: ParsedReport,
    ctx: ReviewContext,
    host_repo: str | None,
    verifier: Verifier | None,
    review: Review,
) -> None:
    if ctx.kind != "charter":
        check_header(ctx)
        head = header_text(report)
        global_author = bool(GLOBAL_AUTHOR.search(head))
        report_novelty = bool(HEADER_NOVELTY.search(head))
        for entry in report.entries:
            check_dimensions(ctx, entry)
            check_host_mapping(ctx, entry)
            check_family(ctx, entry)
            check_already_reported(ctx, entry)
            check_version(ctx, entry)
            check_numbers(ctx, entry, global_author)
            check_novelty(ctx, entry, report_novelty)
        check_proposals(ctx)
    check_comparisons(ctx)
    check_public(ctx)
    check_refs(ctx)
    if verifier is not None:
        _add_checks(ctx, verify_report(report, verifier, host_repo=host_repo), review)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def review_report(
    text: str,
    *,
    history: Sequence[Finding] = (),
    aliases: Mapping[str, str] | None = None,
    host_repo: str | None = None,
    verifier: Verifier | None = None,
    now: datetime | None = None,
    policy: str = "first-discovered",
) -> Review:
    """Review every report in `text`, earlier ones serving as history for later ones.

    Args:
        history: findings reported before (the store's, or imported from earlier reports).
        aliases: alias -> project key (the store's aliases).
        host_repo: owner/name of the host; enables the host-SHA and host PR checks.
        verifier: where claims are checked (verify.py); None checks rules only.
        now: when the review was made (shown in the output).
        policy: first-discovered (report only new projects) or substantive-updates; a
            report announcing the first-discovered policy switches to it.
    """
    aliases = aliases or {}
    past = list(history)
    review = Review(reviewed_at=now)
    reviewed = []
    for report in split_reports(text):
        if POLICY_SWITCH.search(report.text):
            policy = "first-discovered"
        earlier = [item for item in past if report.date is None or item.date < report.date]
        ctx = ReviewContext(report, _report_kind(report), earlier, aliases, policy)
        _review_one(report, ctx, host_repo, verifier, review)
        review.findings += ctx.findings
        label = report.date.isoformat() if report.date else "undated"
        reviewed.append(f"{label} {report.title[:60]} (sha256 {_digest(report.text)})")
        review.coverage.append(_coverage_line(ctx, verifier))
        review.host_sha = report.host_sha or review.host_sha
        past += build_findings(report, aliases)
    review.reviewed = "; ".join(reviewed)
    return review


def _coverage_line(ctx: ReviewContext, verifier: Verifier | None) -> str:
    kind = ctx.kind
    checked = "rules only (no verifier)" if verifier is None else "rules + claim verification"
    return (
        f"{ctx.label} [{kind}]: {len(ctx.report.entries)} entries, "
        f"{len(ctx.report.evidence)} evidence blocks, {len(ctx.history)} history findings, "
        f"policy {ctx.policy}; {checked}"
    )


def render_review(review: Review) -> str:
    """The review as GitHub Markdown (report/templates/review.md.j2)."""
    counts = {severity.value: 0 for severity in Severity}
    for item in review.findings:
        counts[item.severity.value] += 1
    return environment().get_template("review.md.j2").render(review=review, counts=counts)
