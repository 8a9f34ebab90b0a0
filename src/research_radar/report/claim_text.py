"""How a claim is worded in the report: a number with its metric name and unit, its
conditions joined by " · ", the compared system after "vs"; a finding's limits."""

from __future__ import annotations

from research_radar.extract.claimviews import own_metrics
from research_radar.language import written_in
from research_radar.models import Claim, ClaimKind, Finding, Metric
from research_radar.report.wording import labelled, strings

__all__ = [
    "claim_conditions",
    "claim_text",
    "limits",
    "values",
]


def claim_conditions(claim: Claim) -> str:
    c = claim.conditions
    parts = [*c.hardware, *c.model, *c.precision]
    parts += [f"{key} {value}" for key, value in sorted(c.load.items())]
    parts += [*c.software]
    if c.baseline:
        parts.append("vs " + " / ".join(c.baseline))
    if c.repeats:
        parts.append(c.repeats)
    return " · ".join(parts)


def values(metrics: list[Metric]) -> str:
    return "，".join(labelled(m) for m in metrics)


def claim_text(claim: Claim, t: dict[str, str]) -> str:
    """`作者报告：963 tok/s（Arc Pro B70 · … · vs llama.cpp 763 tok/s）`: the claim's own
    numbers first, the compared system's numbers with the baseline."""
    own = own_metrics(claim)
    metrics = values(own)
    conditions = claim_conditions(claim)
    theirs = [m for m in claim.metrics if m not in own]
    if theirs:
        conditions += f" {values(theirs)}"
    who = t["author"] if claim.reporter == "author" and not claim.validated else claim.reporter
    return f"{who}：{metrics or claim.text}（{conditions}）"


def limits(finding: Finding, lang: str) -> list[str]:
    """Limits and negative results, without the trailing punctuation of their sentences.

    They are the author's own sentences: one written in the other language than the
    report's is shown as a quotation of the source (`原文：“Only … is covered”`), so that a
    Chinese report never passes English text off as its own insight (or the reverse)."""
    kinds = {ClaimKind.LIMITATION, ClaimKind.NEGATIVE}
    stated = [c.text.rstrip(" ;；。.,，") for c in finding.claims if c.kind in kinds]
    quote = strings(lang)["limit_quote"]
    return [text if written_in(text) == lang else quote.format(quote=text) for text in stated]
