"""Lint and verify any house-style report: the rules of CONVENTIONS.md as stable rule ids.

`review_report` reads a report (GitHub Markdown or the tab-separated export; a file with
many dated reports is reviewed report by report, the earlier ones serving as history for
the later ones) and returns a `Review`: what was verified and found true, one finding per
rule and entry, and those findings grouped by rule across entries with Where / Problem /
Conditions / Impact / Fix in the report's language (refs #17). Pure: the only I/O goes through the
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
from research_radar.review.grouping import group_findings, report_label
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
from research_radar.review.wording import detect_language, fact_fix, fact_text, review_strings

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


def _add_checks(ctx: ReviewContext, checks: list[Check], review: Review) -> list[Check]:
    """Verified claims and contradictions into the review, worded in its language; returns
    the unchecked ones. A record's `problem` stays English for tools, like every rule's."""
    unchecked: list[Check] = []
    language = review.language
    strings = review_strings(language)
    label = ctx.report.date.isoformat() if ctx.report.date else strings["undated"]
    for check in checks:
        if check.ok is True:
            statement = fact_text(check.fact, check.params, language)
            review.verified.append(f"{label}{strings['colon']}{statement}")
        elif check.ok is False:
            ctx.add(
                "claim-false",
                Severity.BLOCKING,
                check.line,
                fact_text(check.fact, check.params, "en"),
                entry=check.entry,
                conditions="checked against the sources the verifier could reach",
                impact="the report states something its own sources contradict",
                fix=fact_fix(check.fact, check.params, "en")
                or "correct the claim or cite the right source",
                detail={
                    "fact": check.fact,
                    "statement": fact_text(check.fact, check.params, language),
                    "fix_detail": fact_fix(check.fact, check.params, language)
                    or strings["rules"]["claim-false"]["fix_default"],
                },
            )
        else:
            unchecked.append(check)
    return unchecked


def _shown(items: list[Check], language: str) -> str:
    strings = review_strings(language)
    shown = str(strings["list_sep"]).join(fact_text(c.fact, c.params, language) for c in items[:4])
    return shown + (" …" if len(items) > 4 else "")


def _add_unchecked(ctx: ReviewContext, unchecked: list[Check], language: str) -> None:
    """One claim-unverified finding per entry whose claims no reachable source could check."""
    by_entry: dict[str | None, list[Check]] = {}
    for check in unchecked:
        by_entry.setdefault(check.entry, []).append(check)
    for entry, items in by_entry.items():
        ctx.add(
            "claim-unverified",
            Severity.INFO,
            items[0].line,
            f"{len(items)} claim(s) could not be checked: {_shown(items, 'en')}",
            entry=entry,
            conditions="no local checkout, store record or API answer for these sources",
            impact="these claims rest on the report alone",
            fix="pass --repo owner/name=PATH, a store with the sources, or reach the API",
            detail={"count": str(len(items)), "claims": _shown(items, language)},
        )


# -- the review -----------------------------------------------------------------------------


def _review_one(
    report: ParsedReport,
    ctx: ReviewContext,
    host_repo: str | None,
    verifier: Verifier | None,
    review: Review,
) -> list[Check]:
    """Apply every rule to one report; returns its claims that no source could check."""
    if ctx.kind != "charter":
        check_header(ctx)
        head = header_text(report)
        global_author = bool(GLOBAL_AUTHOR.search(head))
        report_novelty = bool(HEADER_NOVELTY.search(head))
        check_dimensions(ctx, report.entries)
        for entry in report.entries:
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
    if verifier is None:
        return []
    return _add_checks(ctx, verify_report(report, verifier, host_repo=host_repo), review)


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
    language: str | None = None,
    offline: bool = False,
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
        language: zh or en for the grouped findings; None detects the report's language.
        offline: GitHub was not asked: unchecked claims become one coverage line.
    """
    aliases = aliases or {}
    language = language or detect_language(text)
    past = list(history)
    review = Review(reviewed_at=now, language=language)
    reviewed, titles = [], {}
    pending: list[tuple[ReviewContext, list[Check]]] = []
    entries = 0
    for report in split_reports(text):
        if POLICY_SWITCH.search(report.text):
            policy = "first-discovered"
        earlier = [item for item in past if report.date is None or item.date < report.date]
        ctx = ReviewContext(report, _report_kind(report), earlier, aliases, policy)
        pending.append((ctx, _review_one(report, ctx, host_repo, verifier, review)))
        label = report_label(
            report.date.isoformat() if report.date else "undated", report.title, language
        )
        reviewed.append(f"{label} (sha256 {_digest(report.text)})")
        titles[report.line] = report.title
        entries += len(report.entries)
        review.coverage.append(_coverage_line(ctx, label, verifier, language))
        review.host_sha = report.host_sha or review.host_sha
        past += build_findings(report, aliases)
    unchecked = sum(len(checks) for _, checks in pending)
    down = offline or bool(getattr(verifier, "unreachable", False))
    for ctx, checks in pending:
        if not down:
            _add_unchecked(ctx, checks, language)
        review.findings += ctx.findings
    if down and unchecked:
        key = "not_verified_offline" if offline else "not_verified_unreachable"
        review.coverage.append(review_strings(language)[key].format(count=unchecked))
    review.reviewed = "; ".join(reviewed)
    review.groups = group_findings(review.findings, language, titles)
    strings = review_strings(language)
    review.checked = strings["checked_rules"].format(entries=entries) + (
        strings["list_sep"] + strings["checked_verify"] if verifier is not None else ""
    )
    return review


def _coverage_line(
    ctx: ReviewContext, report: str, verifier: Verifier | None, language: str
) -> str:
    """`report`: how the review names the report (`report_label`)."""
    strings = review_strings(language)
    policy = "policy_first" if ctx.policy == "first-discovered" else "policy_updates"
    return str(
        strings["coverage_line"].format(
            report=report,
            entries=len(ctx.report.entries),
            evidence=len(ctx.report.evidence),
            history=len(ctx.history),
            policy=strings[policy],
            checked=strings["coverage_rules" if verifier is None else "coverage_verified"],
        )
    )


def render_review(review: Review) -> str:
    """The review as GitHub Markdown in its language (report/templates/review.md.j2)."""
    counts = {severity.value: 0 for severity in Severity}
    for group in review.groups:
        counts[group.severity.value] += 1
    strings = review_strings(review.language)
    summary = strings["summary"].format(
        findings=len(review.groups), records=len(review.findings), **counts
    )
    return (
        environment().get_template("review.md.j2").render(review=review, t=strings, summary=summary)
    )
