"""The evidence index of a report: per finding its pinned version, its numbers with their
conditions (or what they miss), its limits, its gates and links at the pinned version; and
the worded verification proposals."""

from __future__ import annotations

import re
from dataclasses import dataclass

from research_radar.extract.claimviews import own_metrics
from research_radar.models import Claim, ClaimKind, Finding
from research_radar.report.claim_text import claim_conditions, limits
from research_radar.report.wording import labelled, proposal_parts, strings
from research_radar.resolve.keys import github_repo

__all__ = ["EvidenceItem", "Proposal", "evidence_item", "pin", "proposal_item"]


@dataclass
class EvidenceItem:
    id: str
    name: str
    pin: str
    conditions: str
    limits: str
    gates: str
    links: list[str]


@dataclass
class Proposal:
    name: str
    text: str


def pin(finding: Finding) -> str:
    snap = finding.snapshot
    if snap is None:
        return "—"
    repo = github_repo(finding.project_key) or ""
    name = finding.url.removeprefix("https://github.com/") if repo else finding.project_key
    when = f"（{snap.version_date.date().isoformat()}）" if snap.version_date else ""
    return f"`{name}@{snap.version}`{when}"


_WHERE = re.compile(
    r"^(?P<repo>[\w.-]+/[\w.-]+)@(?P<sha>[0-9a-f]{7,40}):(?P<path>[^#\s]+)(?:#L(?P<line>\d+))?$"
)


def claim_link(claim: Claim) -> str | None:
    """A GitHub link at the pinned SHA for a claim kept as `owner/repo@sha:path#Lnn`."""
    found = _WHERE.match(claim.where)
    if not found:
        return None
    line = f"#L{found['line']}" if found["line"] else ""
    return f"https://github.com/{found['repo']}/blob/{found['sha']}/{found['path']}{line}"


def pinned_links(finding: Finding) -> list[str]:
    """The pinned version, then where each headline number stands at that version.

    Each is a Markdown autolink (`<url>`), so several in one line stay separate links:
    GitHub's autolinker would run bare URLs joined by "，" into one broken link.
    """
    snap = finding.snapshot
    links = [snap.url] if snap and snap.url else []
    if not links and finding.url:
        links.append(finding.url)
    headline = [c for c in finding.claims if c.kind in {ClaimKind.PERFORMANCE, ClaimKind.QUALITY}]
    for claim in [c for c in headline if c.complete][:2]:
        link = claim_link(claim)
        if link and link not in links:
            links.append(link)
    return [f"<{link}>" for link in links]


def gates_text(finding: Finding, lang: str) -> str:
    names = {
        "zh": {
            "correctness": "正确性",
            "solidity": "扎实",
            "timeliness": "时效",
            "prior_art": "prior art",
            "value": "价值",
        },
        "en": {
            "correctness": "correctness",
            "solidity": "solidity",
            "timeliness": "timeliness",
            "prior_art": "prior art",
            "value": "value",
        },
    }[lang if lang in {"zh", "en"} else "zh"]
    return " · ".join(f"{names[gate.name.value]} {gate.verdict.value}" for gate in finding.gates)


def evidence_item(finding: Finding, lang: str) -> EvidenceItem:
    t = strings(lang)
    conditions = "；".join(
        f"{'，'.join(labelled(m) for m in own_metrics(c))}"
        f"（{claim_conditions(c) if c.complete else t['missing'] + '、'.join(c.conditions.missing())}）"
        for c in finding.claims
        if c.kind in {ClaimKind.PERFORMANCE, ClaimKind.QUALITY} and c.metrics
    )
    stated_limits = "；".join(limits(finding, lang))
    none = strings(lang)["none"]
    return EvidenceItem(
        id=finding.evidence_id,
        name=finding.name,
        pin=pin(finding),
        conditions=conditions or none,
        limits=stated_limits or none,
        gates=gates_text(finding, lang) or none,
        links=pinned_links(finding),
    )


def proposal_item(finding: Finding, lang: str) -> Proposal:
    assert finding.proposal is not None
    t = strings(lang)
    hypothesis, baseline, metrics, budget, stop = proposal_parts(
        finding.name, finding.proposal, lang
    )
    text = (
        f"{t['hypothesis']}：{hypothesis}；{t['baseline']}：{baseline}；"
        f"{t['metrics']}：{'、'.join(metrics)}；{t['budget']}：{budget}；{t['stop']}：{stop}"
    )
    if "未执行" not in stop and "not executed" not in stop:
        text += f"（{t['not_executed']}）"
    return Proposal(finding.name, text.replace("\n", " "))
