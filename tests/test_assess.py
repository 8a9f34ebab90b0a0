"""Gates, maturity, flags, recommendation and proposal of a finding."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from research_radar import assess as assess_module
from research_radar.assess import assess, headline_claims
from research_radar.extract.claims import extract_claims
from research_radar.models import (
    Derivation,
    Finding,
    GateName,
    GateReason,
    Recommendation,
    Snapshot,
    TouchPoint,
    ValidationProposal,
    Verdict,
)

NOW = datetime(2026, 10, 30, 0, 30, tzinfo=UTC)
SHA = "5e8a4cca7d690ac60ca37eb09e7d0e010099ad6d"
COMPLETE = (
    "On an RTX 4090 24 GB with Qwen3-8B Q4_K_M at batch 1, 5 runs, decode 120 tok/s vs "
    "llama.cpp b8902 at 80 tok/s, p99 latency 9 ms."
)


def _snapshot(days_old: int, version: str = SHA, tag: str | None = "v0.2.7") -> Snapshot:
    return Snapshot(
        source_key="gh:o/r", version=version, version_date=NOW - timedelta(days=days_old), tag=tag
    )


def _finding(text: str, **fields: object) -> Finding:
    values: dict[str, object] = {
        "project_key": "gh:o/r",
        "name": "Strata",
        "date": date(2026, 10, 30),
        "url": "https://github.com/o/r",
        "snapshot": _snapshot(2),
        "claims": extract_claims(text, where=f"o/r@{SHA}:README.md"),
        "prior_art": "Cache-conditional experts",
        "touch_points": [TouchPoint(kind="path", ref="docs/harness-improvement.md")],
    }
    values.update(fields)
    return Finding.model_validate(values)


def test_exported_members() -> None:
    assert set(assess_module.__all__) == {"assess", "headline_claims"}


def test_complete_fresh_finding_is_worth_validating() -> None:
    finding = _finding(COMPLETE)
    result = assess(finding, snapshots=[_snapshot(2)], now=NOW)
    assert result is not finding and finding.gates == [] and finding.proposal is None
    assert [g.name for g in result.gates] == list(GateName)
    verdicts = {g.name: g.verdict for g in result.gates}
    assert verdicts[GateName.SOLIDITY] is Verdict.PARTIAL  # author numbers, not reproduced
    assert verdicts[GateName.TIMELINESS] is Verdict.PASS
    assert verdicts[GateName.VALUE] is Verdict.PASS
    assert result.recommendation is Recommendation.VALIDATE
    assert (result.priority, result.horizon) == ("P0", "Now")
    assert result.maturity == "code-available"
    assert "unverified" in result.flags
    proposal = result.proposal
    assert isinstance(proposal, ValidationProposal)
    setup = proposal.setup
    assert (setup.hardware, setup.model, setup.precision) == (
        ["RTX 4090 24 GB"],
        ["Qwen3-8B"],
        ["Q4_K_M"],
    )
    assert setup.baseline == ["llama.cpp b8902"] and setup.load["batch"] == "1"
    assert [(m.name, m.value) for m in proposal.claimed] == [("decode", 120), ("latency", 9)]
    assert proposal.metrics == ["decode", "latency"]
    assert proposal.guards == ["task-quality", "latency-percentiles"]
    assert (proposal.gpu_hours, proposal.repeats) == (2, 2)
    assert proposal.stop.halt_on == ["correctness", "quality"] and proposal.stop.tolerance == 0
    assert proposal.stop.inconclusive_on == ["within-noise", "no-quality-data", "budget-spent"]


def test_incomplete_claims_are_never_headlines() -> None:
    finding = _finding("Decode reaches 93 tok/s on an RTX 5070 12 GB.")
    assert headline_claims(finding.claims) == []
    result = assess(finding, snapshots=[_snapshot(2)], now=NOW)
    solidity = next(g for g in result.gates if g.name is GateName.SOLIDITY)
    assert solidity.verdict is Verdict.FAIL
    lacks = GateReason(
        id="claim-lacks", facts={"claim": 1, "missing": ["model", "precision", "baseline"]}
    )
    assert lacks in solidity.reasons
    assert result.recommendation is Recommendation.WATCH
    assert result.proposal is None


def test_withdrawn_result_is_a_counterexample() -> None:
    finding = _finding(COMPLETE + "\nThe earlier 93 tok/s number was withdrawn as incorrect.")
    result = assess(finding, snapshots=[_snapshot(2)], now=NOW)
    correctness = result.gates[0]
    assert correctness.verdict is Verdict.FAIL
    assert GateReason(id="claim-withdrawn", facts={"claim": 2}) in correctness.reasons
    assert result.recommendation is Recommendation.COUNTEREXAMPLE
    assert "counterexample" in result.flags and result.proposal is None


def test_stale_head_is_deferred_and_old_versions_not_inherited() -> None:
    text = "Old v0.1.26 run on RTX 5070 12 GB with Qwen3-8B Q2 vs llama.cpp: decode 93 tok/s."
    result = assess(_finding(text, snapshot=_snapshot(200)), snapshots=[_snapshot(200)], now=NOW)
    timeliness = result.gates[2]
    assert timeliness.verdict is Verdict.FAIL
    historical = GateReason(id="historical-claim", facts={"claim": 1, "version": "v0.1.26"})
    assert historical in timeliness.reasons
    assert result.recommendation is Recommendation.DEFER
    fresh = assess(_finding(text), snapshots=[_snapshot(3)], now=NOW)
    assert fresh.gates[2].verdict is Verdict.PARTIAL


def test_unknown_without_snapshots_or_host() -> None:
    finding = _finding(COMPLETE, snapshot=None, touch_points=[], prior_art="")
    result = assess(finding, snapshots=[], now=NOW.replace(tzinfo=None))
    verdicts = {g.name: g.verdict for g in result.gates}
    assert verdicts[GateName.TIMELINESS] is Verdict.UNKNOWN
    assert verdicts[GateName.VALUE] is Verdict.UNKNOWN
    assert verdicts[GateName.PRIOR_ART] is Verdict.UNKNOWN
    assert result.recommendation is Recommendation.WATCH
    no_host = assess(finding, snapshots=[_snapshot(1)], now=NOW, host_touch_points=False)
    assert no_host.recommendation is Recommendation.DEFER


def test_prior_findings_without_difference() -> None:
    earlier = _finding(COMPLETE, date=date(2026, 10, 28))
    result = assess(_finding(COMPLETE), snapshots=[_snapshot(1)], now=NOW, prior=[earlier])
    prior_gate = result.gates[3]
    assert prior_gate.verdict is Verdict.PARTIAL
    reported = GateReason(id="reported-before", facts={"date": "2026-10-28", "name": "Strata"})
    assert reported in prior_gate.reasons
    assert GateReason(id="no-difference") in prior_gate.reasons


def test_the_project_a_derivative_comes_from_is_its_prior_art() -> None:
    derived = Derivation(parent="gh:neroued/ninfer", evidence=["README says it is based on it"])
    finding = _finding(COMPLETE, prior_art="", derived_from=derived)
    prior_gate = assess(finding, snapshots=[_snapshot(1)], now=NOW).gates[3]
    assert prior_gate.verdict is Verdict.PASS
    named = GateReason(id="prior-art-named", facts={"derived_from": derived.model_dump()})
    assert prior_gate.reasons == [named]


def test_merge_is_integration_not_acceptance() -> None:
    result = assess(
        _finding(COMPLETE + "\nMerged into main as PR #35."), snapshots=[_snapshot(1)], now=NOW
    )
    assert result.maturity == "integrated"
    assert result.gates[1].verdict is Verdict.PARTIAL
    assert result.recommendation is Recommendation.VALIDATE


def test_local_validation_is_the_only_way_to_pass_solidity() -> None:
    claims = [
        c.model_copy(update={"reporter": "us", "validated": True}) for c in extract_claims(COMPLETE)
    ]
    result = assess(_finding(COMPLETE, claims=claims), snapshots=[_snapshot(1)], now=NOW)
    assert result.maturity == "locally-validated"
    assert result.gates[1].verdict is Verdict.PASS
    assert "unverified" not in result.flags


def test_flags_for_limits_and_failures() -> None:
    text = COMPLETE + "\nOnly the Q4_K_M path is tuned.\nLong-context test fails on ROCm."
    result = assess(_finding(text), snapshots=[_snapshot(1)], now=NOW)
    assert {"boundary", "failure", "unverified"} <= set(result.flags)
