"""Render a Report as house-style Markdown (pure).

The template (`templates/report.md.j2`) gets one typed context, `ReportContext`, whose
cells are already written: all wording decisions live here and in `report.claim_text`
(how a claim reads) and `report.evidence_index` (the evidence index and the proposals), in
small functions, so the template stays a layout. Fixed words come from `strings.toml` per
language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from research_radar.extract.claimviews import own_metrics
from research_radar.language import spaced
from research_radar.models import BEIJING, ClaimKind, Finding, Report
from research_radar.report.claim_text import claim_text, limits, values
from research_radar.report.compose import split_sections
from research_radar.report.evidence_index import (
    EvidenceItem,
    Proposal,
    evidence_item,
    proposal_item,
)
from research_radar.report.templates import environment
from research_radar.report.wording import (
    differs_text,
    exclusion_text,
    novelty_label,
    prior_art_text,
    recommendation_label,
    strings,
)
from research_radar.resolve.keys import key_name

__all__ = [
    "ENTRY_COLUMNS",
    "Labeller",
    "ReportContext",
    "build_context",
    "render_markdown",
]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
ENTRY_COLUMNS = (
    "col_class",
    "col_mechanism",
    "col_evidence",
    "col_maturity",
    "col_version",
    "col_host",
    "col_source",
)


class Labeller(Protocol):
    """Anything that names a taxonomy value in a language (the Taxonomy does)."""

    def label(self, dimension: str, value: str, lang: str = "zh") -> str: ...


def _cell(text: str) -> str:
    """Make text safe inside a Markdown table cell."""
    lines = [_CONTROL.sub("", line) for line in text.replace("|", "\\|").strip().splitlines()]
    return "<br>".join(lines)


@dataclass
class EntryRow:
    """One finding as the seven cells of the house-style table."""

    cells: list[str]


@dataclass
class ReportContext:
    """Everything report.md.j2 needs, already worded."""

    t: dict[str, str]
    date: str
    marker: str
    cutoff: str
    host_line: str
    counts: str
    dedup: str
    window: str
    header: list[str]
    validate: list[EntryRow]
    watch: list[EntryRow]
    risk: list[EntryRow]
    defer: list[str]
    corrections: list[str]
    horizons: list[tuple[str, str]]
    top: list[str]
    proposals: list[Proposal]
    evidence: list[EvidenceItem]
    coverage: list[str]
    not_run: str
    degraded: str = ""
    """Set when a source failed: the report says it is incomplete."""
    empty: bool = False


def _labels(labeller: Labeller, finding: Finding, dimension: str, lang: str) -> str:
    values = finding.values(dimension)
    if not values:
        return strings(lang)["unknown"]
    return "、".join(labeller.label(dimension, value, lang) for value in values)


def _class_cell(finding: Finding, labeller: Labeller, t: dict[str, str], lang: str) -> str:
    rsi = (
        _labels(labeller, finding, "rsi_stage", lang)
        if finding.values("rsi_stage")
        else t["rsi_none"]
    )
    if finding.rsi_target:
        rsi += f"（{finding.rsi_target}）"
    former = (
        f"（{t['formerly']} {'、'.join(finding.former_names)}）" if finding.former_names else ""
    )
    return (
        f"**{finding.name}**{former}\n{t['workload']}：{_labels(labeller, finding, 'workload', lang)}；"
        f"{t['system_level']}：{_labels(labeller, finding, 'system_level', lang)}；{t['rsi']}：{rsi}"
    )


def _insight_text(finding: Finding, labeller: Labeller, t: dict[str, str], lang: str) -> str:
    """`面向 LLM 与 Agentic 的模型执行工作，目标 Arc Pro B70、Q8_0；作者报告 decode 63 tok/s（…）`:
    the classification and the headline claim, in the report's language."""
    insight = finding.insight
    assert insight is not None
    if insight.text:
        return insight.text.rstrip("。.")
    level = (
        _labels(labeller, finding, "system_level", lang)
        if finding.values("system_level")
        else t["insight_level_none"]
    )
    text = spaced(
        t["insight_lead"].format(workload=_labels(labeller, finding, "workload", lang), level=level)
    )
    targets = [*insight.hardware, *insight.models, *insight.precisions]
    if targets:
        text += t["insight_targets"].format(targets=t["list_sep"].join(targets))
    if insight.headline and 0 < insight.headline <= len(finding.claims):
        claim = finding.claims[insight.headline - 1]
        c = claim.conditions
        parts = [*c.hardware, *c.model, *c.precision]
        if c.baseline:
            parts.append("vs " + " / ".join(c.baseline))
        text += t["insight_headline"].format(
            metrics=values(own_metrics(claim)[:2]), conditions=" · ".join(parts)
        )
    else:
        text += t["insight_no_headline"]
    return text


def _summary(finding: Finding, labeller: Labeller, t: dict[str, str], lang: str) -> str:
    """A list line's summary: the mechanism and the Chinese insight in a Chinese report, else
    the source's own sentence."""
    if lang != "zh" or finding.insight is None:
        return finding.mechanism
    text = _insight_text(finding, labeller, t, lang)
    if finding.values("mechanism"):
        text = f"{t['mechanism']}：{_labels(labeller, finding, 'mechanism', lang)}。{text}"
    return text


def _mechanism_cell(finding: Finding, labeller: Labeller, t: dict[str, str], lang: str) -> str:
    text = f"{t['mechanism']}：{_labels(labeller, finding, 'mechanism', lang)}。"
    if finding.insight is not None:
        text += _insight_text(finding, labeller, t, lang) + "。"
        if finding.insight.quote:
            text += t["insight_quote"].format(quote=finding.insight.quote) + "。"
    elif finding.mechanism:
        text += finding.mechanism.rstrip("。.") + "。"
    text += f"{t['prior_art']}：{prior_art_text(finding, lang) or t['prior_art_unsearched']}"

    def label(dimension: str, value: str) -> str:
        return labeller.label(dimension, value, lang)

    if finding.related:
        family = "、".join(key_name(key) for key in finding.related)
        differs = differs_text(finding, lang, label) or "—"
        text += f"；{t['family']}：{family}；{t['differs']}：{differs}"
    elif finding.difference is not None or finding.differs:
        text += f"；{t['differs']}：{differs_text(finding, lang, label)}"
    return text


def _evidence_cell(finding: Finding, t: dict[str, str], lang: str) -> str:
    headline = [c for c in finding.claims if c.kind in {ClaimKind.PERFORMANCE, ClaimKind.QUALITY}]
    complete = [c for c in headline if c.complete and c.conditions.load.get("hedged") != "yes"][:2]
    parts = [claim_text(claim, t) for claim in complete]
    gaps = []
    incomplete = len(headline) - len([c for c in headline if c.complete])
    if incomplete:
        gaps.append(t["incomplete"].format(n=incomplete))
    gaps += limits(finding, lang)[:2]
    if not finding.claims:
        gaps.append(t["none"])
    return "；".join(parts + [f"{t['gaps']}：" + "；".join(gaps)])


def _maturity_cell(finding: Finding, labeller: Labeller, t: dict[str, str], lang: str) -> str:
    recommendation = recommendation_label(finding.recommendation, lang)
    text = f"{labeller.label('maturity', finding.maturity, lang)} / {recommendation}"
    flags = [labeller.label("maturity_flags", flag, lang) for flag in finding.flags]
    if finding.maturity != "locally-validated":
        flags.append(t["unvalidated"])
    return text + "；" + "、".join(flags)


def _version_cell(finding: Finding, t: dict[str, str], lang: str) -> str:
    text = novelty_label(finding.novelty, lang)
    snap = finding.snapshot
    if snap:
        version = snap.version if snap.version.startswith("v") else snap.version[:8]
        text += f" · `{version}`"
        if snap.version_date:
            text += f"（{snap.version_date.date().isoformat()}）"
        if snap.tag:
            text += f" {snap.tag}"
    created = snap.meta.get("created_at") if snap else None
    if created:
        label = t["first_posted"] if finding.project_key.startswith("arxiv:") else t["created"]
        text += f"；{label} {str(created)[:10]}"
    return text


def _host_cell(finding: Finding, labeller: Labeller, lang: str) -> str:
    refs = [
        f"`{tp.ref}`" if tp.kind not in {"pr", "issue"} else tp.ref
        for tp in finding.touch_points[:3]
    ]
    relation = labeller.label("relation", finding.relation, lang)
    where = "、".join(refs) if refs else "—"
    return f"{relation}：{where}；{finding.priority} · {finding.horizon}"


def _row(finding: Finding, labeller: Labeller, lang: str) -> EntryRow:
    t = strings(lang)
    cells = [
        _class_cell(finding, labeller, t, lang),
        _mechanism_cell(finding, labeller, t, lang),
        _evidence_cell(finding, t, lang),
        _maturity_cell(finding, labeller, t, lang),
        _version_cell(finding, t, lang),
        _host_cell(finding, labeller, lang),
        f"[{finding.evidence_id}]",
    ]
    return EntryRow([_cell(cell) for cell in cells])


def _header(report: Report, t: dict[str, str]) -> tuple[str, str]:
    cutoff = report.cutoff.astimezone(BEIJING).strftime("%Y-%m-%d %H:%M:%S")
    if not report.host_sha:
        return cutoff, t["no_host"]
    check = t["rechecked"] if report.host_rechecked else t["not_rechecked"]
    if report.host_remote_sha:
        check = t["remote_differs"].format(sha=report.host_remote_sha[:12])
    host = report.host_name or t["host"]
    return cutoff, f"{t['host']} {host} {t['default_branch']} `{report.host_sha}`（{check}）"


def _coverage(report: Report, t: dict[str, str]) -> list[str]:
    cov = report.coverage
    health = " · ".join(f"{name} {state}" for name, state in sorted(cov.sources.items()))
    lines = [f"{t['sources_health']}：{health or t['none']}"]
    if cov.queries:
        lines.append(f"{t['queries']}：" + "；".join(cov.queries))
    if cov.excluded:
        excluded = [exclusion_text(item, report.language) for item in cov.excluded]
        lines.append(f"{t['excluded']}：" + "；".join(excluded))
    lines.append(t["bounded"] + "；" + t["not_ranked"])
    return lines


def _window(report: Report, t: dict[str, str]) -> str:
    cov = report.coverage
    if not (cov.window_start and cov.window_end):
        return ""
    fmt = "%Y-%m-%d %H:%M"
    start, end = cov.window_start.astimezone(BEIJING), cov.window_end.astimezone(BEIJING)
    return f"{t['window']} {start.strftime(fmt)} → {end.strftime(fmt)}（{t['beijing']}）"


def _degraded(report: Report, t: dict[str, str]) -> str:
    failed = [
        name
        for name, state in sorted(report.coverage.sources.items())
        if state.startswith(("failed", "stale", "partial"))
    ]
    return t["incomplete_sources"].format(names="、".join(failed)) if failed else ""


def build_context(report: Report, labeller: Labeller) -> ReportContext:
    """Word every part of the report for the template."""
    lang = report.language
    t = strings(lang)
    sections = split_sections(report)
    cutoff, host_line = _header(report, t)
    counts = t["counts"].format(
        validate=len(sections.validate), watch=len(sections.watch), risk=len(sections.risk)
    )
    horizon_names = (("Now", sections.now), ("Next", sections.next), ("Watch", sections.later))
    return ReportContext(
        t=t,
        date=report.date.isoformat(),
        marker=f"<!-- research-radar:report {report.date.isoformat()} {lang} -->",
        cutoff=cutoff,
        host_line=host_line,
        counts=counts,
        dedup=t["dedup"].format(n=report.coverage.dedup_scope),
        window=_window(report, t),
        header=[t[key] for key in ENTRY_COLUMNS],
        validate=[_row(f, labeller, lang) for f in sections.validate],
        watch=[_row(f, labeller, lang) for f in sections.watch],
        risk=[_row(f, labeller, lang) for f in sections.risk],
        defer=[
            f"**{f.name}**：{f.why or _summary(f, labeller, t, lang) or t['none']}"
            for f in sections.defer
        ],
        corrections=[f"**{c.name}**（{c.supersedes}）：{c.text}" for c in report.corrections],
        horizons=[
            (name, "、".join(f.name for f in items) or t["none"]) for name, items in horizon_names
        ],
        top=[
            f"**{f.name}**：{f.why or _summary(f, labeller, t, lang)}".rstrip("：")
            for f in sections.top
        ],
        proposals=[proposal_item(f, lang) for f in sections.proposals],
        evidence=[evidence_item(f, lang) for f in report.findings],
        coverage=_coverage(report, t),
        not_run=report.not_run or t["not_run"],
        degraded=_degraded(report, t),
        empty=not report.findings,
    )


def render_markdown(report: Report, labeller: Labeller) -> str:
    """The report as Markdown for a GitHub comment."""
    context = build_context(report, labeller)
    text = environment().get_template("report.md.j2").render(c=context)
    return _ascii_punctuation(text) if report.language == "en" else text


_FULL_WIDTH = str.maketrans(
    {
        "：": ": ",
        "；": "; ",
        "。": ". ",
        "、": ", ",
        "，": ", ",
        "（": " (",
        "）": ")",
        "｜": " | ",
    }
)


def _ascii_punctuation(text: str) -> str:
    """English reports use ASCII punctuation; the house template is written with Chinese."""
    lines = [
        re.sub(r" {2,}", " ", line.translate(_FULL_WIDTH)).rstrip() for line in text.split("\n")
    ]
    return "\n".join(lines)
