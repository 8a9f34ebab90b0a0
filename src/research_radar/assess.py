"""Gates, maturity, flags, recommendation and a validation proposal for a finding.

Pure: everything comes in as arguments, `now` included. The rules follow DESIGN.md and
CONVENTIONS.md §5, §6 and §9: author numbers stay author numbers, a number without its
conditions is never a headline, a merge is not performance acceptance, historical
numbers are not inherited by the current head, and nothing is recommended more strongly
than 值得验证 without local validation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from research_radar.extract.claims import own_metrics
from research_radar.models import (
    Claim,
    ClaimKind,
    Finding,
    Gate,
    GateName,
    Novelty,
    Recommendation,
    Snapshot,
    ValidationProposal,
    Verdict,
)

__all__ = ["assess", "format_conditions", "headline_claims"]

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
_REPORTER = {"author": "作者报告", "community": "社区报告", "us": "本地验证"}


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


def format_conditions(claim: Claim) -> str:
    """`RTX 4090 24 GB · Qwen3-8B · Q4_K_M · batch 1 · vs llama.cpp · 作者报告`."""
    c = claim.conditions
    parts = [*c.hardware, *c.model, *c.precision]
    parts.extend(_format_load(c.load))
    parts.extend(c.software)
    if c.baseline:
        parts.append("vs " + " / ".join(c.baseline))
    missing = c.missing() if claim.kind is ClaimKind.PERFORMANCE else []
    if missing:
        parts.append("缺 " + "/".join(missing))
    label = _REPORTER.get(claim.reporter, claim.reporter)
    parts.append(f"{label}，已验证" if claim.validated else label)
    return " · ".join(parts)


def _format_load(load: dict[str, str]) -> list[str]:
    words = {
        "batch": "batch {}",
        "concurrency": "C={}",
        "context": "ctx {}",
        "prompt": "ISL {}",
        "output": "OSL {}",
        "gpus": "{} GPUs",
        "runs": "{} runs",
        "seed": "seed {}",
        "sampling": "{}",
        "percentiles": "{}",
    }
    return [words[key].format(load[key]) for key in words if key in load]


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
    proposal = _proposal(finding, claims) if recommendation is Recommendation.VALIDATE else None
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
        deep=True,
    )


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
        gate.reasons.append("no claims read from the source")
        return gate
    negatives = _numbered(claims, {ClaimKind.NEGATIVE})
    withdrawn = [i for i, c in negatives if _WITHDRAWN.search(c.text)]
    checks = _numbered(claims, {ClaimKind.CORRECTNESS})
    reasons = [f"claim {i} reports a withdrawn or incorrect result" for i in withdrawn]
    reasons += [
        f"claim {i} reports a failure or regression" for i, _ in negatives if i not in withdrawn
    ]
    reasons += [f"claim {i} states a correctness check (author)" for i, _ in checks]
    if finding.snapshot is None:
        reasons.append("no pinned version: cannot tie claims to code")
    gate.reasons.extend(reasons)
    if withdrawn:
        gate.verdict = Verdict.FAIL
    elif negatives or finding.snapshot is None:
        gate.verdict = Verdict.PARTIAL
    elif checks:
        gate.verdict = Verdict.PASS
    else:
        gate.reasons.append("no correctness or equivalence evidence stated")
        gate.verdict = Verdict.PARTIAL
    return gate


def _solidity(claims: Sequence[Claim]) -> Gate:
    gate = Gate(name=GateName.SOLIDITY)
    performance = _numbered(claims, {ClaimKind.PERFORMANCE})
    performance = [(i, c) for i, c in performance if c.metrics]
    if not performance:
        gate.reasons.append("no measured performance claim")
        return gate
    complete = [(i, c) for i, c in performance if c.complete]
    for i, claim in performance:
        missing = claim.conditions.missing()
        if missing:
            gate.reasons.append(f"claim {i} lacks {', '.join(missing)}")
    repeated = [i for i, c in complete if c.conditions.repeats]
    tail = [i for i, c in complete if _TAIL.search(" ".join(c.conditions.load.values()))]
    validated = [i for i, c in complete if c.validated and c.reporter == "us"]
    if complete and not repeated:
        gate.reasons.append("no repeats or spread reported (single run)")
    if complete and not tail:
        gate.reasons.append("no tail latency (p95/p99) reported")
    if complete and not validated:
        gate.reasons.append("author-reported only: not independently reproduced")
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
        gate.reasons.append("no pinned, dated version")
        return gate
    head = max(dated, key=lambda s: _aware(s.version_date or now))
    age = (_aware(now) - _aware(head.version_date or now)).days
    gate.reasons.append(f"head {head.version[:12]} dated {age} days before now")
    stale = _historical_claims(finding, head)
    gate.reasons.extend(
        f"claim {i} measured on {ver}, not the head: historical numbers are not inherited"
        for i, ver in stale
    )
    if finding.novelty in (Novelty.HISTORICAL, Novelty.BASELINE):
        gate.reasons.append(f"{finding.novelty.value}: not today's news")
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
        gate.reasons.append(f"reported before on {earlier.date.isoformat()} as {earlier.name}")
    for earlier in family:
        gate.reasons.append(f"same mechanism family as {earlier.name} ({earlier.date.isoformat()})")
    if finding.prior_art:
        gate.reasons.append(f"nearest prior work named: {finding.prior_art[:80]}")
    if (same or family) and not finding.differs:
        gate.reasons.append("no difference from earlier findings stated")
        gate.verdict = Verdict.PARTIAL if finding.prior_art else Verdict.FAIL
    elif finding.prior_art:
        gate.verdict = Verdict.PASS
    elif same or family:
        gate.verdict = Verdict.PARTIAL
    else:
        gate.reasons.append("nearest prior work not named")
    return gate


def _value(finding: Finding, host_touch_points: bool | None) -> Gate:
    gate = Gate(name=GateName.VALUE)
    refs = [tp.ref for tp in finding.touch_points]
    if finding.relation == "not-recommended" or host_touch_points is False:
        gate.reasons.append("no touch point in the host project")
        gate.verdict = Verdict.FAIL
    elif refs:
        gate.reasons.append("touches " + ", ".join(refs[:3]))
        gate.verdict = Verdict.PASS
    elif host_touch_points:
        gate.reasons.append("host map found a touch point (not named on the finding)")
        gate.verdict = Verdict.PARTIAL
    else:
        gate.reasons.append("host project not checked")
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
    if key.startswith("gh:") or "github.com" in finding.url:
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


def _proposal(finding: Finding, claims: Sequence[Claim]) -> ValidationProposal | None:
    """A minimal proposal built from the best headline claim's own conditions."""
    headlines = headline_claims(claims)
    if not headlines:
        return None
    claim = max(headlines, key=lambda c: (bool(c.conditions.repeats), len(own_metrics(c))))
    c = claim.conditions
    setup = " · ".join([*c.hardware, *c.model, *c.precision, *_format_load(c.load)])
    mine = own_metrics(claim)
    shown = ", ".join(f"{m.name} {m.value:g}{m.unit}" for m in mine[:3])
    metric_names = list(dict.fromkeys(m.name for m in mine))
    metrics = [*metric_names, "任务质量（quality，固定 held-out 集）", "p50/p95/p99 延迟"]
    hardware = c.hardware[0] if c.hardware else "同一硬件"
    baseline = " / ".join(c.baseline)
    return ValidationProposal(
        hypothesis=f"{finding.name} 在 {setup} 上，作者报告的 {shown} 相对 {baseline} 成立且质量不降",
        baseline=f"{baseline}，同一 {setup}、同输入、同 seed、同软件版本",
        metrics=metrics,
        budget=f"最多 2 GPU 小时（{hardware}），每个配置 2 次重复",
        stop_condition=(
            "出现正确性或质量回退即停；收益落在重复波动内、缺质量数据或预算用尽记为 "
            "INCONCLUSIVE（仅建议，未执行；执行另需授权）"
        ),
    )
