"""The facts of a finding's Chinese insight: what it targets and its headline claim.

report/ words them in the report's language together with the classification's labels
(mechanism, workload, system level); the source's own sentence follows as a quotation.
Pure.
"""

from __future__ import annotations

from research_radar.analyse.difference import targets
from research_radar.assess import headline_claims
from research_radar.extract.claimviews import own_metrics
from research_radar.models import Finding, Insight

__all__ = ["QUOTE_CHARS", "insight"]

QUOTE_CHARS = 160
"""The source's own sentence is quoted up to this many characters."""


def insight(finding: Finding) -> Insight:
    """Targets named by the claims, the best headline claim and the source's sentence."""
    hardware, models, precisions = targets(finding)
    headlines = headline_claims(finding.claims)
    best = (
        max(headlines, key=lambda c: (bool(c.conditions.repeats), len(own_metrics(c))))
        if headlines
        else None
    )
    quote = " ".join(finding.mechanism.split())
    if len(quote) > QUOTE_CHARS:
        cut = quote[:QUOTE_CHARS]
        quote = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"
    return Insight(
        hardware=hardware[:3],
        models=models[:3],
        precisions=precisions[:3],
        headline=finding.claims.index(best) + 1 if best is not None else None,
        quote=quote.rstrip("。."),
    )
