"""Gates, maturity, flags, recommendation and a validation proposal for a finding.

Pure: everything comes in as arguments, `now` included. The rules follow DESIGN.md and
CONVENTIONS.md §5, §6 and §9: author numbers stay author numbers, a number without its
conditions is never a headline, a merge is not performance acceptance, historical
numbers are not inherited by the current head, and nothing is recommended more strongly
than `validate` without local validation. It returns facts (reason ids, a structured
proposal); report/ words them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from research_radar.extract.claimviews import own_metrics
from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Finding,
    Gate,
    GateName,
    GateReason,
    Novelty,
    Recommendation,
    Snapshot,
    StopCondition,
    ValidationProposal,
    Verdict,
)
from research_radar.resolve.keys import github_repo

__all__ = ["assess", "headline_claims"]

FRESH_DAYS = 14
"""A head updated within this many days is timely."""
STALE_DAYS = 90
"""A head older than this has no substantive update to report."""

_WITHDRAWN = re.compile(r"withdr[ae]wn?|retract|incorrect|wrong|撤回|错误|不等价|mismatch", re.I)
_COUNTER = re.compile(
    r"regress|slower|worse|degrad|reverted?|回退|变慢|倒退|质量下降|负例|反例", re.I
)
_FAILURE = re.compile(r"fail|crash|broken|失败|崩溃|不支持|unsupported|not supported", re.I)
_MERGED = re.compile(r"\bmerged\b|\bintegrated\b|upstreamed|已合入|已合并|合入|集成", re.I)
_VERSION = re.compile(r"(?<![\w.])v\d+(?:\.\d+){1,3}\b|\b[0-9a-f]{7,40}\b")
_TAIL = re.compile(r"p9[059]|tail|尾延迟", re.I)
PROPOSAL_GPU_HOURS = 2.0
"""The budget of a minimal validation proposal, on the claim's own hardware."""
PROPOSAL_REPEATS = 2
"""Runs per configuration in a minimal validation proposal."""


def headline_claims(claims: Sequence[Claim]) -> list[Claim]:
    """Performance claims complete enough to headline: metrics and all four conditions."""
    return [
        claim
        for claim in claims
        if claim.kind is ClaimKind.PERFORMANCE
        and own_metrics(claim)
        and claim.complete
        and claim.conditions.load.get("hedged") != "yes"  # "reportedly" is not a headline
    ]


def _reason(reason_id: str, **facts: object) -> GateReason:
    return GateReason(id=reason_id, facts=facts)


def assess(
    finding: Finding,
    *,
    snapshots: list[Snapshot],
    now: datetime,
    prior: Sequence[Finding] = (),
    host_touch_points: bool | None = None,
) -> Finding:
    """A new finding with gates, maturity, flags, recommendation, priority and proposal.

    Args:
        finding: the finding with its claims (from extract) and its snapshot, if any.
        snapshots: the pinned observations of the finding's sources, newest anywhere.
        now: the assessment time (timezone-aware or naive UTC).
        prior: earlier findings (same project or same mechanism family).
        host_touch_points: whether the host map found a touch point; None = not checked.
    """
    claims = finding.claims
    flags = _flags(claims)
    gates = [
        _correctness(finding, claims),
        _solidity(claims),
        _timeliness(finding, snapshots, now),
        _prior_art(finding, prior),
        _value(finding, host_touch_points),
    ]
    recommendation = _recommend(gates, flags, claims)
    priority, horizon = _priority(recommendation, gates)
    proposal = _proposal(claims) if recommendation is Recommendation.VALIDATE else None
    return finding.model_copy(
        update={
            "gates": gates,
            "maturity": _maturity(finding, claims),
            "flags": flags,
            "recommendation": recommendation,
            "priority": priority,
            "horizon": horizon,
            "proposal": proposal,
        },
    )  # shallow: nothing here changes the finding's own parts, and a deep copy of every
    # claim and snapshot was a fifth of the assess stage (#19)


def _numbered(claims: Sequence[Claim], kinds: set[ClaimKind]) -> list[tuple[int, Claim]]:
    """Claims of some kinds with their 1-based position in the finding."""
    return [(i, c) for i, c in enumerate(claims, start=1) if c.kind in kinds]


def _flags(claims: Sequence[Claim]) -> list[str]:
    flags: list[str] = []
    measured = [c for c in claims if c.metrics]
    if measured and not any(c.validated for c in measured):
        flags.append("unverified")
    negatives = [c.text for c in claims if c.kind is ClaimKind.NEGATIVE]
    if any(_COUNTER.search(text) or _WITHDRAWN.search(text) for text in negatives):
        flags.append("counterexample")
    if any(_FAILURE.search(text) for text in negatives):
        flags.append("failure")
    if any(c.kind is ClaimKind.LIMITATION for c in claims):
        flags.append("boundary")
    return flags


def _correctness(finding: Finding, claims: Sequence[Claim]) -> Gate:
    gate = Gate(name=GateName.CORRECTNESS)
    if not claims:
        gate.reasons.append(_reason("no-claims"))
        return gate
    negatives = _numbered(claims, {ClaimKind.NEGATIVE})
    withdrawn = [i for i, c in negatives if _WITHDRAWN.search(c.text)]
    checks = _numbered(claims, {ClaimKind.CORRECTNESS})
    reasons = [_reason("claim-withdrawn", claim=i) for i in withdrawn]
    reasons += [_reason("claim-failure", claim=i) for i, _ in negatives if i not in withdrawn]
    reasons += [_reason("claim-correctness-check", claim=i) for i, _ in checks]
    if finding.snapshot is None:
        reasons.append(_reason("no-pinned-version"))
    gate.reasons.extend(reasons)
    if withdrawn:
        gate.verdict = Verdict.FAIL
    elif negatives or finding.snapshot is None:
        gate.verdict = Verdict.PARTIAL
    elif checks:
        gate.verdict = Verdict.PASS
    else:
        gate.reasons.append(_reason("no-correctness-evidence"))
        gate.verdict = Verdict.PARTIAL
    return gate


def _solidity(claims: Sequence[Claim]) -> Gate:
    gate = Gate(name=GateName.SOLIDITY)
    performance = _numbered(claims, {ClaimKind.PERFORMANCE})
    performance = [(i, c) for i, c in performance if c.metrics]
    if not performance:
        gate.reasons.append(_reason("no-measured-claim"))
        return gate
    complete = [(i, c) for i, c in performance if c.complete]
    for i, claim in performance:
        missing = claim.conditions.missing()
        if missing:
            gate.reasons.append(_reason("claim-lacks", claim=i, missing=missing))
    repeated = [i for i, c in complete if c.conditions.repeats]
    tail = [i for i, c in complete if _TAIL.search(" ".join(c.conditions.load.values()))]
    validated = [i for i, c in complete if c.validated and c.reporter == "us"]
    if complete and not repeated:
        gate.reasons.append(_reason("single-run"))
    if complete and not tail:
        gate.reasons.append(_reason("no-tail-latency"))
    if complete and not validated:
        gate.reasons.append(_reason("author-only"))
    if not complete:
        gate.verdict = Verdict.FAIL
    elif validated and repeated:
        gate.verdict = Verdict.PASS
    else:
        gate.verdict = Verdict.PARTIAL
    return gate


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _timeliness(finding: Finding, snapshots: Sequence[Snapshot], now: datetime) -> Gate:
    gate = Gate(name=GateName.TIMELINESS)
    dated = [s for s in snapshots if s.version_date is not None]
    if finding.snapshot and finding.snapshot.version_date:
        dated.append(finding.snapshot)
    if not dated:
        gate.reasons.append(_reason("no-dated-version"))
        return gate
    head = max(dated, key=lambda s: _aware(s.version_date or now))
    age = (_aware(now) - _aware(head.version_date or now)).days
    gate.reasons.append(_reason("head-age", version=head.version[:12], days=age))
    stale = _historical_claims(finding, head)
    gate.reasons.extend(_reason("historical-claim", claim=i, version=ver) for i, ver in stale)
    if finding.novelty in (Novelty.HISTORICAL, Novelty.BASELINE):
        gate.reasons.append(_reason("not-news", novelty=finding.novelty.value))
    if age > STALE_DAYS:
        gate.verdict = Verdict.FAIL
    elif age > FRESH_DAYS or stale or finding.novelty in (Novelty.HISTORICAL, Novelty.BASELINE):
        gate.verdict = Verdict.PARTIAL
    else:
        gate.verdict = Verdict.PASS
    return gate


def _historical_claims(finding: Finding, head: Snapshot) -> list[tuple[int, str]]:
    """Claims that name a version or commit other than the head."""
    current = {head.version.lower(), (head.tag or "").lower().lstrip("v")}
    stale: list[tuple[int, str]] = []
    for i, claim in enumerate(finding.claims, start=1):
        if not claim.metrics:
            continue
        for version in _VERSION.findall(claim.text):
            lowered = version.lower()
            if not any(c and (c.startswith(lowered) or lowered.lstrip("v") == c) for c in current):
                stale.append((i, version))
                break
    return stale


def _prior_art(finding: Finding, prior: Sequence[Finding]) -> Gate:
    gate = Gate(name=GateName.PRIOR_ART)
    same = [p for p in prior if p.project_key == finding.project_key]
    family = [p for p in prior if finding.family and p.family == finding.family and p not in same]
    for earlier in same:
        gate.reasons.append(
            _reason("reported-before", date=earlier.date.isoformat(), name=earlier.name)
        )
    for earlier in family:
        gate.reasons.append(
            _reason("same-family", name=earlier.name, date=earlier.date.isoformat())
        )
    named = bool(finding.prior_art or finding.derived_from)
    if finding.prior_art:
        gate.reasons.append(_reason("prior-art-named", prior_art=finding.prior_art))
    elif finding.derived_from:
        derived = finding.derived_from.model_dump(mode="json")
        gate.reasons.append(_reason("prior-art-named", derived_from=derived))
    if finding.prior_search is not None:
        gate.verdict = _searched_verdict(finding, gate, named=named, known=bool(same or family))
        return gate
    # a difference still to be written counts as stated: the report shows the to-do
    if (same or family) and not (finding.differs or finding.differs_pending):
        gate.reasons.append(_reason("no-difference"))
        gate.verdict = Verdict.PARTIAL if named else Verdict.FAIL
    elif named:
        gate.verdict = Verdict.PASS
    elif same or family:
        gate.verdict = Verdict.PARTIAL
    else:
        gate.reasons.append(_reason("prior-art-unnamed"))
    return gate


def _searched_verdict(finding: Finding, gate: Gate, *, named: bool, known: bool) -> Verdict:
    """The verdict once the prior-art search ran (analyse/prior_art.py): pass when the nearest
    earlier works are named and the finding adds something over them (or nothing near was
    found), partial when the difference cannot be compared or a source was down, fail when
    it repeats a reported family member with nothing new."""
    search = finding.prior_search
    assert search is not None
    works = finding.prior_works
    if works:
        gate.reasons.append(
            _reason(
                "prior-art-nearest",
                works=[
                    {
                        "name": w.name,
                        "date": w.when.isoformat() if w.when else "",
                        "origin": w.origin,
                    }
                    for w in works
                ],
            )
        )
    if search.down:
        gate.reasons.append(_reason("prior-art-source-down", sources=search.down))
    if not search.searched:
        gate.reasons.append(_reason("prior-art-not-searched", sources=search.down))
        return Verdict.UNKNOWN
    diff = finding.difference
    if diff is not None and not diff.empty:
        added = [*diff.mechanisms, *diff.levels, *diff.workloads, *diff.hardware]
        added += [*diff.models, *diff.precisions, *diff.evidence]
        gate.reasons.append(
            _reason("differs-structurally", added=added, names=[w.name for w in diff.against])
        )
        return Verdict.PASS
    if diff is not None and not finding.differs:
        gate.reasons.append(_reason("nothing-new", names=[w.name for w in diff.against]))
        return Verdict.FAIL
    if finding.differs or named and not works:
        return Verdict.PASS
    if works or known:
        return Verdict.PARTIAL
    gate.reasons.append(
        _reason("prior-art-none-close", searched=[f"{k} {v}" for k, v in search.searched.items()])
    )
    return Verdict.PARTIAL if search.down else Verdict.PASS


def _value(finding: Finding, host_touch_points: bool | None) -> Gate:
    gate = Gate(name=GateName.VALUE)
    refs = [tp.ref for tp in finding.touch_points]
    if finding.relation == "not-recommended" or host_touch_points is False:
        gate.reasons.append(_reason("no-touch-point"))
        gate.verdict = Verdict.FAIL
    elif refs:
        gate.reasons.append(_reason("touches", refs=refs[:3]))
        gate.verdict = Verdict.PASS
    elif host_touch_points:
        gate.reasons.append(_reason("touch-point-unnamed"))
        gate.verdict = Verdict.PARTIAL
    else:
        gate.reasons.append(_reason("host-not-checked"))
    return gate


def _maturity(finding: Finding, claims: Sequence[Claim]) -> str:
    """idea < paper-reported < code-available < integrated < locally-validated.

    A merge makes a finding `integrated`; it is not performance acceptance.
    """
    if any(c.validated and c.reporter == "us" for c in claims):
        return "locally-validated"
    if any(c.kind is ClaimKind.STATUS and _MERGED.search(c.text) for c in claims):
        return "integrated"
    key = finding.project_key.lower()
    if github_repo(key) or "github.com" in finding.url:
        return "code-available"
    if key.startswith(("arxiv:", "doi:")) or any(c.metrics for c in claims):
        return "paper-reported"
    return "idea"


def _recommend(gates: list[Gate], flags: list[str], claims: Sequence[Claim]) -> Recommendation:
    verdict = {gate.name: gate.verdict for gate in gates}
    has_headline = bool(headline_claims(claims))
    if verdict[GateName.CORRECTNESS] is Verdict.FAIL:
        return Recommendation.COUNTEREXAMPLE
    if "counterexample" in flags and not has_headline:
        return Recommendation.COUNTEREXAMPLE
    if Verdict.FAIL in (verdict[GateName.TIMELINESS], verdict[GateName.VALUE]):
        return Recommendation.DEFER
    solid = verdict[GateName.SOLIDITY] in (Verdict.PASS, Verdict.PARTIAL)
    valuable = verdict[GateName.VALUE] in (Verdict.PASS, Verdict.PARTIAL)
    if solid and valuable and has_headline and verdict[GateName.PRIOR_ART] is not Verdict.FAIL:
        # the strongest level without local validation
        return Recommendation.VALIDATE
    return Recommendation.WATCH


def _priority(recommendation: Recommendation, gates: list[Gate]) -> tuple[str, str]:
    verdict = {gate.name: gate.verdict for gate in gates}
    if recommendation is Recommendation.VALIDATE:
        if verdict[GateName.VALUE] is Verdict.PASS and verdict[GateName.TIMELINESS] is Verdict.PASS:
            return "P0", "Now"
        return "P1", "Next"
    if recommendation is Recommendation.COUNTEREXAMPLE and verdict[GateName.VALUE] is Verdict.PASS:
        return "P1", "Watch"
    return "P2", "Watch"


def _proposal(claims: Sequence[Claim]) -> ValidationProposal | None:
    """A minimal proposal built from the best headline claim's own conditions."""
    headlines = headline_claims(claims)
    if not headlines:
        return None
    claim = max(headlines, key=lambda c: (bool(c.conditions.repeats), len(own_metrics(c))))
    c = claim.conditions
    mine = own_metrics(claim)
    return ValidationProposal(
        setup=Conditions(
            hardware=c.hardware,
            model=c.model,
            precision=c.precision,
            baseline=c.baseline,
            load=c.load,
        ),
        claimed=mine[:3],
        metrics=list(dict.fromkeys(m.name for m in mine)),
        guards=["task-quality", "latency-percentiles"],
        gpu_hours=PROPOSAL_GPU_HOURS,
        repeats=PROPOSAL_REPEATS,
        stop=StopCondition(
            halt_on=["correctness", "quality"],
            inconclusive_on=["within-noise", "no-quality-data", "budget-spent"],
        ),
    )
